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

from labkit.ground.proc import parse_cpuinfo, parse_meminfo, read_cpuinfo

# The texts a machine's facts are parsed from, by name, and the shell command that prints each on
# any Linux host: here they are read directly (local_texts), on another host fetched in one ssh
# command (fact_script, texts_from_script), and the same parsers turn both into FACTS.
FACT_TEXTS = {
    "cpuinfo": "cat /proc/cpuinfo",
    "meminfo": "cat /proc/meminfo",
    "os_release": "cat /etc/os-release",
    "kernel": "uname -r",
    "cpus": "getconf _NPROCESSORS_CONF",
    "loadavg": "cat /proc/loadavg",
}
TEXT_MARK = "@@loomlab-fact "


@dataclass(frozen=True)
class Fact:
    """One fact about a machine: the key every record holds it under, its unit, how it is parsed from
    the machine's texts (FACT_TEXTS; None for a fact of the lab's own process, read here only), and the
    keys older results recorded it under."""
    key: str
    unit: str
    meaning: str
    parse: Callable[[dict], object] | None
    formerly: tuple = ()
    of_this_process: Callable[[], object] | None = None


def facts():
    """Every fact of FACTS about this machine, read now: {key: value}. A fact that cannot be read is
    None (the CPU model and the OS fall back to what `platform` says)."""
    found = facts_from(local_texts(), process=True)
    found["cpu_model"] = found["cpu_model"] or platform.processor() or "unknown"
    found["os"] = found["os"] or platform.system()
    return found


def facts_from(texts, process=False):
    """The facts of FACTS parsed from a machine's texts ({name of FACT_TEXTS: text or None}), in FACTS'
    order; those of the lab's own process (its open-files limit, its Python) only with `process`."""
    found = {}
    for fact in FACTS:
        if fact.parse is not None:
            found[fact.key] = fact.parse(texts)
        elif process:
            found[fact.key] = fact.of_this_process()
    return found


def local_texts():
    """This machine's FACT_TEXTS, read without a shell (None for one that cannot be read)."""
    def read(path):
        try:
            return Path(path).read_text(errors="replace")
        except OSError:
            return None
    return {"cpuinfo": read("/proc/cpuinfo"), "meminfo": read("/proc/meminfo"), "os_release": read("/etc/os-release"),
            "kernel": platform.release(), "cpus": str(os.cpu_count() or ""), "loadavg": read("/proc/loadavg")}


def fact_script():
    """One shell script printing every FACT_TEXTS text of the host it runs on, each after its mark."""
    return "; ".join(f"echo '{TEXT_MARK}{name}'; {command} 2>/dev/null" for name, command in FACT_TEXTS.items())


def texts_from_script(output):
    """{name: text} from the output of fact_script (and of any text printed after a TEXT_MARK line of
    its own name); None for a text of FACT_TEXTS it did not print."""
    texts, name, lines = dict.fromkeys(FACT_TEXTS), None, []
    for line in output.splitlines(keepends=True) + [TEXT_MARK + "\n"]:
        if line.startswith(TEXT_MARK):
            if name:
                texts[name] = "".join(lines) or None
            name, lines = line[len(TEXT_MARK):].strip(), []
        else:
            lines.append(line)
    return texts


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


def _first_cpu(texts):
    return parse_cpuinfo(texts["cpuinfo"]) if texts.get("cpuinfo") else {}


def _cpu_model(texts):
    return _first_cpu(texts).get("model name")


# A hypervisor may show one model name for several CPU generations ("AMD EPYC"): these fields tell
# them apart. Two capacity runs on hosts of the same name differed by 30 % in CPU per request.
CPU_ID_FIELDS = {"vendor_id": "vendor", "cpu family": "family", "model": "model", "stepping": "stepping",
                 "microcode": "microcode", "cpu MHz": "mhz", "cache size": "cache"}


def cpu_identity(path="/proc/cpuinfo"):
    """The first CPU's vendor, family, model number, stepping, microcode, MHz and cache size from
    /proc/cpuinfo (those it lists), or None when it cannot be read."""
    return _identity(read_cpuinfo(path) or {})


def _identity(first_cpu):
    identity = {name: first_cpu[key] for key, name in CPU_ID_FIELDS.items() if first_cpu.get(key)}
    return identity or None


def _memory_kib(texts):
    return parse_meminfo(texts["meminfo"]).get("MemTotal") if texts.get("meminfo") else None


def _memory_gib(texts):
    kib = _memory_kib(texts)
    return round(kib / 1024 / 1024, 1) if kib else None


def _cpus(texts):
    text = (texts.get("cpus") or "").strip()
    return int(text) if text.isdigit() else None


def _kernel(texts):
    return (texts.get("kernel") or "").strip() or None


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
    try:
        return parse_release((Path(java_home) / "release").read_text(errors="replace"))
    except OSError:
        return {}


def parse_release(text):
    """A JDK's `release` file's text as a dict (its values unquoted)."""
    release = {}
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if value:
            release[key.strip()] = value.strip().strip('"')
    return release


def _os_name(texts):
    for line in (texts.get("os_release") or "").splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.split("=", 1)[1].strip().strip('"')
    return None


def _load_average(texts):
    fields = (texts.get("loadavg") or "").split()[:3]
    try:
        return [float(field) for field in fields] if len(fields) == 3 else None
    except ValueError:
        return None


# The vocabulary, in the order records list it.
FACTS = (
    Fact("cpu_model", "", "the CPU's model name", _cpu_model, formerly=("cpu",)),
    Fact("cpu_id", "", "the first CPU's vendor, family, model, stepping, microcode, MHz, cache (CPU_ID_FIELDS)",
         lambda texts: _identity(_first_cpu(texts))),
    Fact("cpus", "CPUs", "logical CPUs of the machine", _cpus, formerly=("cores",)),
    Fact("memory_kib", "KiB", "total memory (MemTotal)", _memory_kib, formerly=("memTotalKib",)),
    Fact("memory_gib", "GiB, to 0.1", "total memory, to read", _memory_gib, formerly=("memory_gb",)),
    Fact("os", "", "the distribution's name", _os_name),
    Fact("kernel", "", "the kernel's release", _kernel),
    Fact("ulimit_nofile", "open files, [soft, hard]", "this process's limit of open files", None,
         of_this_process=_open_files_limit),
    Fact("loadavg", "runnable tasks, [1, 5, 15 min]", "the load average", _load_average,
         formerly=("loadavg_at_start", "loadavg_start", "loadAverage")),
    Fact("python", "", "the Python running the lab", None, of_this_process=platform.python_version),
)
FORMER_KEYS = {former: fact.key for fact in FACTS for former in fact.formerly}


def process_cpus(pid):
    """The CPU numbers a process may run on, or None when it is gone or cannot be asked."""
    try:
        return frozenset(os.sched_getaffinity(pid))
    except OSError:
        return None
