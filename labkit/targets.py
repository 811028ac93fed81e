"""Everything ./lab can start and load: the Payara modes, and other servers registered beside them.

A target is started with start(port) and returns a running ServerHandle. The bench harness
treats every target alike; max_concurrent feeds the Little's-law ceiling (None = unbounded).
"""
from dataclasses import dataclass, field
from typing import Callable, Protocol

from .errors import UsageError


class ServerHandle(Protocol):
    """A started server, whatever it is (PayaraMicro, AppServer for Payara Server and GlassFish,
    BaselineServer): the one interface `./lab run` and `./lab bench` use."""
    base_url: str
    log_path: object  # the server's log file

    @property
    def pid(self) -> int | None: ...  # the JVM that serves (sampled by the bench)

    def info(self) -> dict: ...  # the JSON of /api/info or an equivalent dict

    def printable_command(self) -> str: ...  # how the server was started, to copy

    def stop(self) -> None: ...  # returns once the server and its ports are gone

    def __enter__(self): ...

    def __exit__(self, *exc): ...


@dataclass(frozen=True)
class Target:
    name: str
    description: str
    max_concurrent: int | None
    # start(port, jvm_options, jvm_defaults=True) -> a started ServerHandle; jvm_defaults=False leaves
    # out domain-config/jvm.options (only Payara Micro targets start with it)
    start: Callable = field(repr=False, compare=False)
    virtual: bool | None = None


TARGETS: dict[str, Target] = {}


def register(target):
    TARGETS[target.name] = target
    return target


def target(name):
    _load_all()
    try:
        return TARGETS[name]
    except KeyError:
        raise UsageError(f"unknown target '{name}'; choose from: {', '.join(TARGETS)}") from None


def all_targets():
    _load_all()
    return dict(TARGETS)


def _start_payara(mode):
    def start(port, jvm_options=(), jvm_defaults=True):
        from .payara import PayaraMicro
        return PayaraMicro(mode, port=port, jvm_options=jvm_options, jvm_defaults=jvm_defaults).start()
    return start


# Modules that register more targets when imported (e.g. the plain-JDK baselines).
EXTRA_TARGET_MODULES = ("labkit.baselines", "labkit.payara_server", "labkit.glassfish", "labkit.cargotracker")


def _load_all():
    import importlib
    for module in EXTRA_TARGET_MODULES:
        importlib.import_module(module)


def _register_payara_modes():
    from .modes import PAYARA_MODES
    for mode in PAYARA_MODES.values():
        register(Target(mode.name, "Payara Micro: " + mode.description, mode.max_concurrent,
                        _start_payara(mode), virtual=mode.virtual))


_register_payara_modes()
