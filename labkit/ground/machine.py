"""The machine a measurement ran on, read in one place.

Three kinds of results record it, each under the field names its reports (and the results
committed under docs/results/) read: env.json of bench, capacity and soak (bench/env.py), the
micro-benchmarks' reports (micro/common.py) and thread-memory.json (memory.py). Each of them is a
view of facts() and jdk_release(). The /proc files behind the facts are read by labkit/ground/proc.py.
"""
import os
import platform
import resource
from pathlib import Path

from labkit.ground.proc import read_cpuinfo, read_meminfo

def facts():
    """CPU model and count, memory, OS, kernel, open-files limit, load average and Python, now.
    A fact that cannot be read is None (the CPU model and the OS fall back to what `platform` says)."""
    memory_kib = _memory_kib()
    return {
        "cpu_model": (read_cpuinfo() or {}).get("model name") or platform.processor() or "unknown",
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
    first_cpu = read_cpuinfo(path) or {}
    identity = {name: first_cpu[key] for key, name in CPU_ID_FIELDS.items() if first_cpu.get(key)}
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


def _memory_kib():
    return (read_meminfo() or {}).get("MemTotal")


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


def process_cpus(pid):
    """The CPU numbers a process may run on, or None when it is gone or cannot be asked."""
    try:
        return frozenset(os.sched_getaffinity(pid))
    except OSError:
        return None
