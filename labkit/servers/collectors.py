"""A target on a garbage collector of its own: <target>@<collector>[-young<SIZE>], e.g. virtual@zgc,
platform-4000@g1, virtual@g1-young512m. GC is a dimension of a run like the thread mode: one run
measures virtual@g1 beside virtual@zgc, rounds interleaved and paired like any two targets, so their
ratio comes from windows minutes apart. A target without a suffix keeps its meaning (the JVM's
default, G1, and the lab's defaults: a 4 GB heap, a 2 GB young generation on Payara).

Why: young-collection pauses, not the thread mode, set several of the lab's capacities (the limit
verdict, labkit/measure/limits.py, names them); whether a collector with shorter pauses lifts a
capacity, and for which mode, is a question for a measurement, not for a setting chosen once.
"""
import re
from dataclasses import replace

from labkit.ground.errors import UsageError

# The collectors a suffix names, and the option that selects each. ZGC is generational on the JDKs
# the lab runs (21 with -XX:+ZGenerational, the default from 23; the lab's JDK is 25).
COLLECTORS = {"g1": "-XX:+UseG1GC", "zgc": "-XX:+UseZGC", "parallel": "-XX:+UseParallelGC",
              "serial": "-XX:+UseSerialGC"}
SELECTORS = tuple(sorted(set(COLLECTORS.values()) | {"-XX:+UseShenandoahGC", "-XX:+UseEpsilonGC"}))
GC_VARIANT = re.compile(r"(.+)@(" + "|".join(COLLECTORS) + r")(?:-young(\d+[mg]))?")
NAMED = "@" + ", @".join(COLLECTORS) + ", each with -young<SIZE> (e.g. @g1-young512m)"


def collector_options(collector, young=None):
    """The JVM options of a suffix: the collector's selector, and -Xmn when a young size is given."""
    return [COLLECTORS[collector]] + ([f"-Xmn{young}"] if young else [])


def describe(collector, young=None):
    return f"{collector.upper() if collector == 'zgc' else collector.capitalize()} collector" + (
        f", young generation {young}" if young else "")


def collector_variant(name, base):
    """The Target `name` (<base>@<collector>[-young<SIZE>]): `base` (a Target) started with the
    collector's options after its own. A collector the run's options select is dropped: by the time
    a server starts it can only be the lab's default for a server on one CPU (measure/cpus.py), as
    a --jvm-opt that picks one beside a suffix is refused when the run is configured
    (check_one_collector)."""
    match = GC_VARIANT.fullmatch(name)
    collector, young = match.group(2), match.group(3)
    if collector == "zgc" and young:
        raise UsageError(f"{name}: ZGC sizes its young generation itself; -young<SIZE> is for g1, parallel, serial")
    added = collector_options(collector, young)

    def start(port, jvm_options=(), *args, **kwargs):
        options = [option for option in jvm_options if not option.startswith(SELECTORS)]
        return base.start(port, options + added, *args, **kwargs)
    return replace(base, name=name, description=f"{base.description}, {describe(collector, young)}", start=start)


def check_one_collector(names, jvm_options):
    """UsageError when a --jvm-opt selects a collector and a target's suffix does too: which one the
    user meant cannot be told, and the run would measure something else than its names say."""
    chosen = [option for option in jvm_options or () if option.startswith(SELECTORS)]
    suffixed = [name for name in names if GC_VARIANT.fullmatch(name)]
    if chosen and suffixed:
        raise UsageError(f"{suffixed[0]}: --jvm-opt={chosen[0]} chooses a collector too; the target's suffix "
                         f"({suffixed[0][suffixed[0].rindex('@'):]}) does: give one")
