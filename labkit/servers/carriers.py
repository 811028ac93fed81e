"""--carriers N: how many carrier threads run the server's virtual threads.

The JDK's virtual-thread scheduler is a ForkJoinPool with one carrier per CPU by default
(`jdk.virtualThreadScheduler.parallelism`); its maxPoolSize defaults to max(parallelism, 256), so
raising the parallelism needs nothing else. Carriers beyond the CPUs are a mitigation against
carrier starvation (docs/bring-your-own-app.md): a virtual thread that spins keeps its carrier,
and with a spare carrier the thread it waits for can still run, time-sliced by the OS.
Platform-thread modes run no virtual threads, so the option changes nothing for them.
"""
import argparse
import re
from dataclasses import replace

from labkit.ground.arguments import whole_number
from labkit.ground.errors import UsageError

PARALLELISM = "-Djdk.virtualThreadScheduler.parallelism"
MAX_CARRIERS = 10_000

carrier_count = whole_number(1, MAX_CARRIERS, "--carriers")


def carrier_options(carriers):
    """The server JVM options for --carriers N (none without it)."""
    return [] if carriers is None else [f"{PARALLELISM}={carriers}"]


def check_carrier_options(carriers, jvm_options):
    """A message when --carriers and a --jvm-opt set the scheduler's parallelism both, else None."""
    if carriers is not None and any(option.startswith(PARALLELISM + "=") for option in jvm_options):
        return f"--carriers {carriers} and --jvm-opt={PARALLELISM}=... both set the carriers: give one"
    return None


def add_carriers_argument(parser):
    parser.add_argument("--carriers", type=carrier_count, metavar="N",
                        help=f"carrier threads of the server's virtual threads ({PARALLELISM}=N; default one per "
                             "CPU); recorded with the run")


# A target with its own carrier count, named <target>+<N>carriers (virtual+2carriers): one run can
# measure it beside the target with the default count, rounds interleaved, so their ratio comes from
# windows minutes apart instead of two runs an hour apart on a host whose speed drifts.
CARRIER_VARIANT = re.compile(r"(.+)\+(\d+)carriers")


def carrier_variant(name, base):
    """The Target `name` (<base>+<N>carriers): `base` (a Target) started with N carriers. A target
    that runs no virtual threads has no carriers to set: a UsageError says so."""
    try:
        count = carrier_count(CARRIER_VARIANT.fullmatch(name).group(2))
    except argparse.ArgumentTypeError as e:
        raise UsageError(f"{name}: {e}") from None
    if base.virtual is False:
        raise UsageError(f"{name}: {base.name} runs its requests on platform threads; it has no carriers to set")

    def start(port, jvm_options=(), *args, **kwargs):
        options = list(jvm_options)
        clash = check_carrier_options(count, options)
        if clash:
            raise UsageError(f"{name}: {clash}")
        return base.start(port, options + carrier_options(count), *args, **kwargs)
    return replace(base, name=name, description=f"{base.description}, {count} carrier thread(s)", start=start)
