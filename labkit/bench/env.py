"""env.json: the machine, JDK, Payara and tools a run used, so its numbers can be compared."""
import os
import platform
import resource
import subprocess
import sys
import zipfile
from datetime import datetime, timezone

from .. import ROOT
from ..build import PAYARA_MICRO_JAR
from ..jdk import feature_version
from .drivers import tool_version


def collect(java_home, executables, command_line, cpus=None):
    return {
        "collected": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": command_line,
        "host": {
            "cpu_model": _cpu_model(),
            "cpus": os.cpu_count(),
            "memory_gb": _memory_gb(),
            "kernel": platform.release(),
            "os": _os_name(),
            "ulimit_nofile": list(resource.getrlimit(resource.RLIMIT_NOFILE)),
            "loadavg_at_start": list(os.getloadavg()),
        },
        "jdk": _jdk(java_home),
        "payara_micro": _payara_version(),
        "git": _git(),
        "tools": {name: {"path": path, "version": tool_version(name, path)} for name, path in executables.items()},
        "python": sys.version.split()[0],
        # --cpus: which CPUs the server and the load tool were pinned to (null: not pinned).
        "cpus": cpus.to_dict() if cpus else None,
    }


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def _os_name():
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.system()


def _jdk(java_home):
    release = {}
    try:
        for line in (java_home / "release").read_text().splitlines():
            key, _, value = line.partition("=")
            release[key] = value.strip('"')
    except OSError:
        pass
    return {"home": str(java_home), "feature": feature_version(java_home), "version": release.get("JAVA_VERSION"),
            "vendor": release.get("IMPLEMENTOR"), "runtime_version": release.get("JAVA_RUNTIME_VERSION")}


def _payara_version():
    """From the jar itself, not from the pom: the jar is what ran."""
    try:
        with zipfile.ZipFile(PAYARA_MICRO_JAR) as jar:
            text = jar.read("META-INF/maven/fish.payara.server.internal.extras/payara-micro-boot/pom.properties").decode()
        return next(l.split("=", 1)[1] for l in text.splitlines() if l.startswith("version="))
    except (OSError, KeyError, StopIteration, zipfile.BadZipFile):
        return None


def _git():
    def git(*arguments):
        try:
            result = subprocess.run(["git", *arguments], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return result.stdout.strip() if result.returncode == 0 else None
    status = git("status", "--porcelain")
    return {"commit": git("rev-parse", "HEAD"), "dirty": bool(status) if status is not None else None}
