"""The machine a measurement ran on, read in one place.

Three kinds of results record it, each under the field names its reports (and the results
committed under docs/results/) read: env.json of bench, capacity and soak (bench/env.py), the
micro-benchmarks' reports (micro/common.py) and thread-memory.json (memory.py). Each of them is a
view of facts() and jdk_release().
"""
import os
import platform
import resource
from pathlib import Path


def facts():
    """CPU model and count, memory, OS, kernel, open-files limit, load average and Python, now.
    A fact that cannot be read is None (the CPU model and the OS fall back to what `platform` says)."""
    memory_kib = _memory_kib()
    return {
        "cpu_model": _proc_value("/proc/cpuinfo", "model name") or platform.processor() or "unknown",
        "cpus": os.cpu_count(),
        "memory_kib": memory_kib,
        "memory_gib": round(memory_kib / 1024 / 1024, 1) if memory_kib else None,
        "os": _os_name(),
        "kernel": platform.release(),
        "ulimit_nofile": list(resource.getrlimit(resource.RLIMIT_NOFILE)),  # [soft, hard]
        "loadavg": _load_average(),  # 1, 5 and 15 min
        "python": platform.python_version(),
    }


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
