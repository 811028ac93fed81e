"""The registry of targets: what a target is, and the catalogue a name is looked up in. The Payara
Micro modes register here; every other kind registers from its own module, and labkit/catalog.py
loads them all (so a lookup goes through labkit.catalog, which sees every kind).

A target is started with start(port) and returns a running labkit.servers.interface.ServerHandle. The bench
harness treats every target alike; max_concurrent feeds the Little's-law ceiling (None = unbounded).
"""
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Target:
    name: str
    description: str
    max_concurrent: int | None
    # start(port, jvm_options, jvm_defaults=True) -> a started ServerHandle; jvm_defaults=False leaves
    # out domain-config/jvm.options (only Payara Micro targets start with it)
    start: Callable = field(repr=False, compare=False)
    virtual: bool | None = None
    # True when start() also takes apps=(userapp.UserWar, ...): your own WARs beside the lab's probe.
    takes_wars: bool = False
    # True when start() also takes on=HOST (labkit.hosts), remote_java= and cpus=: the target can
    # start on another host (--server-host).
    takes_host: bool = False


# The four thread modes the lab compares; other targets (more Payara modes, plain-JDK servers,
# Helidon) run when named in --modes.
DEFAULT_MODES = ("platform-4000", "platform-10000", "virtual", "virtual-4000")

TARGETS: dict[str, Target] = {}
# A target per Payara mode, named <prefix><mode>: prefix -> build(mode) -> Target. The standard modes'
# targets are registered at once; another mode's (platform-8, server-virtual-200) when first named.
MODE_TARGETS: dict[str, Callable] = {}


def register(target):
    TARGETS[target.name] = target
    return target


def register_mode_targets(prefix, build):
    """Targets <prefix><mode> for every Payara mode (labkit/servers/modes.py), built by build(mode)."""
    from labkit.servers.modes import PAYARA_MODES
    MODE_TARGETS[prefix] = build
    for mode in PAYARA_MODES.values():
        register(build(mode))


class TargetCatalog(Mapping):
    """Every target by name. Iterating gives the registered ones; looking a name up also finds the
    target of any mode a template gives (platform-8, glassfish-platform-200), any target with its own
    carrier count (virtual+2carriers, servers/carriers.py) or collector (virtual@zgc,
    servers/collectors.py), and a template size out of range is a UsageError that says the range."""

    def __getitem__(self, name):
        if name in TARGETS:
            return TARGETS[name]
        from labkit.servers.collectors import GC_VARIANT, collector_variant
        variant = GC_VARIANT.fullmatch(name)
        if variant:
            return register(collector_variant(name, self[variant.group(1)]))
        from labkit.servers.carriers import CARRIER_VARIANT, carrier_variant
        variant = CARRIER_VARIANT.fullmatch(name)
        if variant:
            return register(carrier_variant(name, self[variant.group(1)]))
        from labkit.servers.modes import find_mode
        # The longest prefix first: "server-platform-8" is Payara Server's, not a Micro mode's.
        for prefix in sorted(MODE_TARGETS, key=len, reverse=True):
            if name.startswith(prefix):
                mode = find_mode(name[len(prefix):])
                if mode is not None:
                    return register(MODE_TARGETS[prefix](mode))
        raise KeyError(name)

    def __iter__(self):
        return iter(list(TARGETS))  # a copy: a lookup may register a target

    def __len__(self):
        return len(TARGETS)


def choices(known):
    """What to offer after an unknown target name: the registered ones, and the mode templates."""
    from labkit.servers.modes import templates
    text = ", ".join(known)
    if isinstance(known, TargetCatalog):
        forms = ", ".join(template.describe() for template in templates().values())
        prefixes = ", ".join(prefix for prefix in MODE_TARGETS if prefix)
        from labkit.servers.collectors import NAMED
        text += (f"; or any {forms}, also after {prefixes}; any virtual-thread target+Ncarriers; and any "
                 f"target on another collector: {NAMED}")
    return text


# Payara Micro 7's targets: payara7-<mode> (the same mode on the newer line, in the same run as 6's).
PAYARA7_PREFIX = "payara7-"


def _start_payara(mode, line):
    def start(port, jvm_options=(), jvm_defaults=True, apps=(), on=None, remote_java=None, cpus=None):
        from labkit.servers.payara_micro import PayaraMicro
        return PayaraMicro(mode, port=port, jvm_options=jvm_options, jvm_defaults=jvm_defaults, apps=apps, on=on,
                           remote_java=remote_java, cpus=cpus, line=line).start()
    return start


def _payara_micro_target(mode, line=6):
    name, product = (mode.name, "Payara Micro") if line == 6 else (PAYARA7_PREFIX + mode.name, "Payara Micro 7")
    return Target(name, f"{product}: " + mode.description, mode.max_concurrent, _start_payara(mode, line),
                  virtual=mode.virtual, takes_wars=True, takes_host=True)


register_mode_targets("", _payara_micro_target)
register_mode_targets(PAYARA7_PREFIX, lambda mode: _payara_micro_target(mode, line=7))
