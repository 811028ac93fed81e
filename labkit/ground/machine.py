"""The machine a measurement ran on, read in one place.

Three kinds of results record it, each under the field names its reports (and the results
committed under docs/results/) read: env.json of bench, capacity and soak (bench/env.py), the
micro-benchmarks' reports (micro/common.py) and thread-memory.json (memory.py). Each of them is a
view of facts() and jdk_release(). How busy its CPUs were, and how much of them the hypervisor took
(steal), is read from /proc/stat here too (read_cpu_times), by the bench sampler and by micro.
"""
import os
import platform
import resource
from dataclasses import dataclass
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def facts():
    """CPU model and count, memory, OS, kernel, open-files limit, load average and Python, now.
    A fact that cannot be read is None (the CPU model and the OS fall back to what `platform` says)."""
    memory_kib = _memory_kib()
    return {
        "cpu_model": _proc_value("/proc/cpuinfo", "model name") or platform.processor() or "unknown",
        "cpu_id": cpu_identity(),
        "cpus": os.cpu_count(),
        "memory_kib": memory_kib,
        "memory_gib": round(memory_kib / 1024 / 1024, 1) if memory_kib else None,
        "os": _os_name(),
        "kernel": platform.release(),
        "ulimit_nofile": list(resource.getrlimit(resource.RLIMIT_NOFILE)),  # [soft, hard]
        "loadavg": _load_average(),  # 1, 5 and 15 min
        "python": platform.python_version(),
    }


# A hypervisor may show one model name for several CPU generations ("AMD EPYC"): these fields tell
# them apart. Two capacity runs on hosts of the same name differed by 30 % in CPU per request.
CPU_ID_FIELDS = {"vendor_id": "vendor", "cpu family": "family", "model": "model", "stepping": "stepping",
                 "microcode": "microcode", "cpu MHz": "mhz", "cache size": "cache"}


def cpu_identity(path="/proc/cpuinfo"):
    """The first CPU's vendor, family, model number, stepping, microcode, MHz and cache size from
    /proc/cpuinfo (those it lists), or None when it cannot be read."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    identity = {}
    for line in text.split("\n\n", 1)[0].splitlines():
        key, _, value = line.partition(":")
        name = CPU_ID_FIELDS.get(key.strip())
        if name and value.strip():
            identity[name] = value.strip()
    return identity or None


def cpu_text(cpu_model, identity):
    """'AMD EPYC (AuthenticAMD family 26 model 2 stepping 1, 2,596 MHz)', or the model name alone."""
    if not identity:
        return cpu_model
    parts = [identity.get("vendor", "")] + [f"{name} {identity[name]}" for name in ("family", "model", "stepping")
                                            if name in identity]
    text = " ".join(part for part in parts if part)
    try:
        text += f", {float(identity['mhz']):,.0f} MHz" if "mhz" in identity else ""
    except ValueError:
        pass
    return f"{cpu_model} ({text})" if text else cpu_model


def jdk_release(java_home):
    """The JDK's `release` file (JAVA_VERSION, JAVA_RUNTIME_VERSION, IMPLEMENTOR, ...) as a dict;
    empty when there is none."""
    release = {}
    try:
        text = (Path(java_home) / "release").read_text(errors="replace")
    except OSError:
        return release
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if value:
            release[key.strip()] = value.strip().strip('"')
    return release


def tcp_counter(name, path="/proc/net/netstat"):
    """A kernel TCP counter since boot (e.g. ListenOverflows: connections dropped because a listen
    queue was full), or None when the file does not have it. Pairs of lines: names, then values."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError:
        return None
    for names, values in zip(lines[::2], lines[1::2]):
        if names.startswith("TcpExt:") and values.startswith("TcpExt:"):
            table = dict(zip(names.split()[1:], values.split()[1:]))
            return int(table[name]) if name in table else None
    return None


def _proc_value(path, key):
    """The value of the first `key: value` line of a /proc file, or None."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _memory_kib():
    total = _proc_value("/proc/meminfo", "MemTotal:")
    try:
        return int(total.split()[0]) if total else None
    except (ValueError, IndexError):
        return None


def _os_name():
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.system()


def _load_average():
    try:
        return list(os.getloadavg())
    except OSError:
        return None


@dataclass(frozen=True)
class CpuTimes:
    """CPU seconds since boot of one CPU or of several together, from /proc/stat. `steal` is time the
    hypervisor ran something else while this guest had work for the CPU: neither idle nor ours."""
    busy_s: float
    steal_s: float
    total_s: float

    def __add__(self, other):
        return CpuTimes(self.busy_s + other.busy_s, self.steal_s + other.steal_s, self.total_s + other.total_s)


def parse_cpu_times(text):
    """{"cpu": all CPUs, "cpu0": ..., ...} from the text of /proc/stat. Fields: user nice system idle
    iowait irq softirq steal (guest time is already inside user and nice); iowait counts as idle."""
    table = {}
    for line in text.splitlines():
        name, *fields = line.split()
        if not name.startswith("cpu"):
            continue
        values = [int(v) for v in fields[:8]] + [0] * (8 - len(fields[:8]))
        user, nice, system, _idle, _iowait, irq, softirq, steal = values
        table[name] = CpuTimes(busy_s=(user + nice + system + irq + softirq) / CLOCK_TICKS,
                               steal_s=steal / CLOCK_TICKS, total_s=sum(values) / CLOCK_TICKS)
    return table


def read_cpu_times(path="/proc/stat"):
    """parse_cpu_times of the machine now."""
    with open(path) as f:
        return parse_cpu_times(f.read())


def cpus_times(table, cpus):
    """The CpuTimes of the listed CPU numbers together (all CPUs when `cpus` is None), or None when
    one of them is not in the table."""
    if cpus is None:
        return table.get("cpu")
    parts = [table.get(f"cpu{n}") for n in sorted(cpus)]
    if not parts or None in parts:
        return None
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def process_cpus(pid):
    """The CPU numbers a process may run on, or None when it is gone or cannot be asked."""
    try:
        return frozenset(os.sched_getaffinity(pid))
    except OSError:
        return None
