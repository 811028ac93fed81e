"""--cpus server=1,driver=0: the server and the load tool on different cores.

The server is started pinned by its host (labkit/hosts: here from a thread whose affinity is the
server's CPUs, there under taskset), so the JVM has them from its first instruction (and sizes its GC
and compiler threads for them, as a container would; on a single CPU the lab keeps G1 as the
collector, see server_jvm_options); the load tool runs under `taskset -c`, which shows in its
recorded command.
Each process's allowed CPUs are read back from /proc and recorded.
"""
import argparse
import os
import re
from dataclasses import dataclass

from labkit.ground import proc
from labkit.servers.collectors import check_one_collector

ROLES = ("server", "driver")


@dataclass(frozen=True)
class CpuPinning:
    server: tuple | None = None
    driver: tuple | None = None

    def to_dict(self):
        return {"server": _text(self.server), "driver": _text(self.driver)}

    def __str__(self):
        return ", ".join(f"{role} on CPU {_text(getattr(self, role))}" for role in ROLES if getattr(self, role))

    def driver_prefix(self):
        return ["taskset", "-c", _text(self.driver)] if self.driver else []


# A JVM that sees a single CPU is not a "server-class machine" to HotSpot's ergonomics and picks the
# Serial collector; on this machine's two CPUs it picks G1. Pinning is there to keep the load tool off
# the server's core, not to change its collector, so a server pinned to one CPU keeps G1 unless the
# user chose a collector.
SINGLE_CPU_GC = "-XX:+UseG1GC"
GC_CHOICE = re.compile(r"^-XX:\+Use\w+GC$")


def server_jvm_options(jvm_options, pinning, modes=()):
    """The user's JVM options, plus G1 when the server is pinned to one CPU and no collector was chosen
    (a target's @collector suffix replaces that default: servers/collectors.py). A --jvm-opt that
    chooses a collector beside a target that names one is a UsageError."""
    check_one_collector(modes, jvm_options)
    options = tuple(jvm_options or ())
    if pinning and pinning.server and len(pinning.server) < 2 and not any(GC_CHOICE.match(o) for o in options):
        return options + (SINGLE_CPU_GC,)
    return options


def cpu_pinning(text, cpu_count=None):
    """argparse type: 'server=1,driver=0'; a value is a CPU, a range (2-3) or CPUs joined by '+'."""
    cpu_count = cpu_count or os.cpu_count() or 1
    chosen = {}
    for item in text.split(","):
        role, _, value = item.strip().partition("=")
        if role not in ROLES or not value:
            raise argparse.ArgumentTypeError(f"--cpus takes server=CPUS,driver=CPUS (e.g. server=1,driver=0), was '{text}'")
        if role in chosen:
            raise argparse.ArgumentTypeError(f"--cpus names {role} twice")
        chosen[role] = _cpus(value, cpu_count)
    if len(chosen) == 2 and set(chosen["server"]) & set(chosen["driver"]):
        raise argparse.ArgumentTypeError(f"--cpus: server and driver share CPU(s) "
                                         f"{_text(sorted(set(chosen['server']) & set(chosen['driver'])))}")
    return CpuPinning(**chosen)


def _cpus(value, cpu_count):
    cpus = set()
    for part in value.split("+"):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise argparse.ArgumentTypeError(f"--cpus: '{value}' is not a CPU list (e.g. 1, 2-3 or 0+2)")
        first, last = int(low), int(high or low)
        if first > last or last >= cpu_count:
            raise argparse.ArgumentTypeError(f"--cpus: '{value}' is outside this machine's CPUs 0-{cpu_count - 1}")
        cpus.update(range(first, last + 1))
    return tuple(sorted(cpus))


def _text(cpus):
    return ",".join(str(c) for c in cpus) if cpus else None


def allowed_cpus(pid):
    """The process's Cpus_allowed_list from /proc, or None when it is gone."""
    status = proc.read_status(pid)
    return status.fields.get("Cpus_allowed_list") if status else None
