"""What every micro experiment shares: result folders, the machine description (the jar: ground/build.py)."""
import os
import time
from pathlib import Path

from labkit import ROOT
from labkit.ground.machine import facts, jdk_release
from labkit.ground.proc import read_cpu_times

RESULTS_ROOT = ROOT / "results"
# Ports reserved for the micro-benchmarks: 18300-18309 JMH stub servers (chosen by the benchmark),
# 18320-18339 the echo sweep, 18340-18399 tests.
ECHO_PORT = 18320
# Other processes' CPU use (in cores) above which a report says the machine was shared.
OTHER_WORK_CORES = 0.25


def new_run_dir(kind, out=None):
    """results/<timestamp>-micro-<kind>/ (or the folder given with --out), created."""
    path = Path(out) if out else RESULTS_ROOT / f"{time.strftime('%Y%m%d-%H%M%S')}-micro-{kind}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def describe_machine(java_home):
    """The facts a reader needs to judge the numbers: the machine (labkit/ground/machine.py's FACTS,
    how busy it was included) and the JDK's runtime version under "jdk"."""
    return {**facts(), "jdk": jdk_release(java_home).get("JAVA_RUNTIME_VERSION") or str(java_home)}


class CpuMeter:
    """How busy the machine was while a run went on, and how much of that was the run itself.

    Machine-wide busy time comes from /proc/stat; the lab's own share is its CPU time plus that of
    every child it has waited for (RUSAGE_CHILDREN covers JMH's forks and the echo JVMs too). The
    rest was other people's work on the same machine.
    """

    def __init__(self):
        self.wall = time.monotonic()
        self.busy = _machine_busy_seconds()
        self.own = _own_cpu_seconds()

    def read(self):
        wall = time.monotonic() - self.wall
        busy = _machine_busy_seconds() - self.busy
        own = _own_cpu_seconds() - self.own
        if wall <= 0:
            return None
        return {"wall_s": round(wall, 1), "busy_cores": round(busy / wall, 2), "own_cores": round(own / wall, 2),
                "other_cores": round(max(0.0, busy - own) / wall, 2)}


def machine_lines(machine, cpu=None):
    """The machine (describe_machine, or a recorded one read through normalize_facts) as Markdown bullet
    lines, with a warning when other work shared the CPUs."""
    lines = [
        f"- CPU: {machine['cpu_model']}, {machine['cpus']} cores; memory {machine['memory_gib']} GiB",
        f"- OS: {machine['os']}, kernel {machine['kernel']}; JDK {machine['jdk']}; ulimit -n {machine['ulimit_nofile'][0]}",
        "- load average (1/5/15 min) before the run: " + " / ".join(f"{v:.2f}" for v in machine["loadavg"]),
    ]
    if cpu:
        lines.append(f"- CPU use during the run ({cpu['wall_s']:g} s): {cpu['busy_cores']:.2f} of {machine['cpus']} cores "
                     f"busy on average; this run's processes {cpu['own_cores']:.2f}, other processes {cpu['other_cores']:.2f}")
        if cpu["other_cores"] > OTHER_WORK_CORES:
            lines.append(f"- **The machine was shared**: other processes (builds, tests, load tests) used "
                         f"{cpu['other_cores']:.2f} cores on average while this ran; read absolute numbers with care.")
    return lines


def _machine_busy_seconds():
    """Non-idle CPU seconds of all cores since boot; idle, iowait and steal (the hypervisor's) are not
    work done here. 0 when /proc/stat cannot be read."""
    try:
        return read_cpu_times()["cpu"].busy_s
    except (OSError, ValueError, KeyError):
        return 0.0


def _own_cpu_seconds():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
