"""The machine a measurement ran on: the one vocabulary of its facts, and how each is read.

Every kind of result records the machine: env.json of bench, capacity and soak (measure/env.py), the
micro-benchmarks' run.json and reports (micro/common.py) and thread-memory.json (memory/runner.py).
Each records facts(), under the keys of FACTS, so one name means one thing with one unit everywhere.
Results written before the vocabulary was one used other keys (memory_gb, loadavg_at_start,
loadavg_start, memTotalKib, loadAverage, cores, cpu): whoever loads a recorded machine description
reads it through normalize_facts, which names its facts as FACTS does. The /proc files behind the
facts are read by labkit/ground/proc.py.
"""
import os
import platform
import resource
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from labkit.ground.proc import read_cpuinfo, read_meminfo


@dataclass(frozen=True)
class Fact:
    """One fact about the machine: the key every record holds it under, its unit, how it is read now,
    and the keys older results recorded it under."""
    key: str
    unit: str
    meaning: str
    read: Callable[[], object]
    formerly: tuple = ()


def facts():
    """Every fact of FACTS, read now: {key: value}. A fact that cannot be read is None (the CPU model
    and the OS fall back to what `platform` says)."""
    return {fact.key: fact.read() for fact in FACTS}


def normalize_facts(recorded):
    """A recorded machine description under today's keys, whichever results wrote it: a former key
    becomes today's (today's key wins when a record holds both), and micro's old lone soft limit of open
    files becomes [soft, None]. Keys that are no machine fact (micro's "jdk") pass as they are. Returns a
    new dict: the record stays as it was, so a folder rebuilt from it writes its files back unchanged."""
    normalized = {FORMER_KEYS[key]: value for key, value in recorded.items() if key in FORMER_KEYS}
    normalized.update((key, value) for key, value in recorded.items() if key not in FORMER_KEYS)
    if isinstance(normalized.get("ulimit_nofile"), int):
        normalized["ulimit_nofile"] = [normalized["ulimit_nofile"], None]
    return normalized


def _cpu_model():
    return (read_cpuinfo() or {}).get("model name") or platform.processor() or "unknown"


# A hypervisor may show one model name for several CPU generations ("AMD EPYC"): these fields tell
# them apart. Two capacity runs on hosts of the same name differed by 30 % in CPU per request.
CPU_ID_FIELDS = {"vendor_id": "vendor", "cpu family": "family", "model": "model", "stepping": "stepping",
                 "microcode": "microcode", "cpu MHz": "mhz", "cache size": "cache"}


def cpu_identity(path="/proc/cpuinfo"):
    """The first CPU's vendor, family, model number, stepping, microcode, MHz and cache size from
    /proc/cpuinfo (those it lists), or None when it cannot be read."""
    first_cpu = read_cpuinfo(path) or {}
    identity = {name: first_cpu[key] for key, name in CPU_ID_FIELDS.items() if first_cpu.get(key)}
    return identity or None


def _memory_kib():
    return (read_meminfo() or {}).get("MemTotal")


def _memory_gib():
    kib = _memory_kib()
    return round(kib / 1024 / 1024, 1) if kib else None


def _open_files_limit():
    return list(resource.getrlimit(resource.RLIMIT_NOFILE))


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


# The vocabulary, in the order records list it.
FACTS = (
    Fact("cpu_model", "", "the CPU's model name", _cpu_model, formerly=("cpu",)),
    Fact("cpu_id", "", "the first CPU's vendor, family, model, stepping, microcode, MHz, cache (CPU_ID_FIELDS)",
         cpu_identity),
    Fact("cpus", "CPUs", "logical CPUs of the machine", os.cpu_count, formerly=("cores",)),
    Fact("memory_kib", "KiB", "total memory (MemTotal)", _memory_kib, formerly=("memTotalKib",)),
    Fact("memory_gib", "GiB, to 0.1", "total memory, to read", _memory_gib, formerly=("memory_gb",)),
    Fact("os", "", "the distribution's name", _os_name),
    Fact("kernel", "", "the kernel's release", platform.release),
    Fact("ulimit_nofile", "open files, [soft, hard]", "this process's limit of open files", _open_files_limit),
    Fact("loadavg", "runnable tasks, [1, 5, 15 min]", "the load average", _load_average,
         formerly=("loadavg_at_start", "loadavg_start", "loadAverage")),
    Fact("python", "", "the Python running the lab", platform.python_version),
)
FORMER_KEYS = {former: fact.key for fact in FACTS for former in fact.formerly}


def process_cpus(pid):
    """The CPU numbers a process may run on, or None when it is gone or cannot be asked."""
    try:
        return frozenset(os.sched_getaffinity(pid))
    except OSError:
        return None
