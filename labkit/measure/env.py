"""env.json: the machine, JDK, Payara and tools a run used, so its numbers can be compared."""
import subprocess
import zipfile
from datetime import datetime, timezone

from labkit import ROOT
from labkit.ground.build import PAYARA_MICRO_JAR
from labkit.ground.jdk import feature_version
from labkit.ground.machine import facts, jdk_release
from labkit.load.tools import tool_version


def collect(java_home, executables, command_line, cpus=None):
    return {
        "collected": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": command_line,
        # The machine under the one vocabulary of labkit/ground/machine.py (FACTS).
        "host": facts(),
        "jdk": _jdk(java_home),
        "payara_micro": _payara_version(),
        "git": _git(),
        "tools": {name: {"path": path, "version": tool_version(name, path)} for name, path in executables.items()},
        # --cpus: which CPUs the server and the load tool were pinned to (null: not pinned).
        "cpus": cpus.to_dict() if cpus else None,
    }


def _jdk(java_home):
    release = jdk_release(java_home)
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
