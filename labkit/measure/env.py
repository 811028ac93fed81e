"""env.json: the machine, JDK, Payara and tools a run used, so its numbers can be compared."""
import subprocess
import zipfile
from datetime import datetime, timezone

from labkit import ROOT
from labkit.ground.build import PAYARA_MICRO_JARS
from labkit.ground.jdk import feature_version
from labkit.ground.machine import facts, jdk_release
from labkit.load.tools import tool_version
from labkit.servers.registry import PAYARA7_PREFIX


def collect(java_home, executables, command_line, cpus=None, modes=()):
    """The run's environment; `modes` its targets: Payara Micro 7's version is added when one of
    them runs on it (payara7-<mode>)."""
    env = {
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
    if any(str(mode).startswith(PAYARA7_PREFIX) for mode in modes):
        env["payara_micro_7"] = _payara_version(7)
    return env


def payara_text(env):
    """The reports' "Payara Micro" row: the version of each line the run used."""
    text = env.get("payara_micro") or "–"
    if env.get("payara_micro_7"):
        text += f"; {env['payara_micro_7']} for the {PAYARA7_PREFIX}* targets"
    return text


def _jdk(java_home):
    release = jdk_release(java_home)
    return {"home": str(java_home), "feature": feature_version(java_home), "version": release.get("JAVA_VERSION"),
            "vendor": release.get("IMPLEMENTOR"), "runtime_version": release.get("JAVA_RUNTIME_VERSION")}


def _payara_version(line=6):
    """From the jar itself, not from the pom: the jar is what ran."""
    try:
        with zipfile.ZipFile(PAYARA_MICRO_JARS[line]) as jar:
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


def server_host_facts(host, java_home):
    """env.json's "server_host" for servers started on another host (--server-host): which host, its
    address, CPUs, memory, kernel and the JDK the servers ran on there. None for this machine."""
    if host is None or not host.remote:
        return None
    script = ('nproc; uname -r; sed -n "s/^MemTotal: *\\([0-9]*\\).*/\\1/p" /proc/meminfo; '
              'sed -n "s/^JAVA_VERSION=\\"\\(.*\\)\\"/\\1/p" "$0/release"')
    lines = host.run(["sh", "-c", script, str(java_home)], check=False).stdout.splitlines() + ["", "", "", ""]
    return {"host": str(host), "address": host.address, "cpus": int(lines[0]) if lines[0].isdigit() else None,
            "kernel": lines[1] or None, "memory_kib": int(lines[2]) if lines[2].isdigit() else None,
            "java_home": str(java_home), "java_version": lines[3] or None}


def server_host_row(env):
    """The report's setup row for a server on another host, or None when the servers ran here."""
    where = env.get("server_host")
    if not where:
        return None
    memory = f", {where['memory_kib'] / 1024 / 1024:.1f} GB" if where.get("memory_kib") else ""
    return ("Server host", f"{where['host']} ({where['address']}): {where.get('cpus') or '?'} CPUs{memory}, kernel "
                           f"{where.get('kernel') or '?'}, Java {where.get('java_version') or '?'} ({where['java_home']}); "
                           f"its /proc, JFR and jcmd figures are read there, over ssh; the Machine row is the load tool's")


def server_url_row(env):
    """The report's setup row for a server the lab did not start (--url), naming what it lacks."""
    where = env.get("server_url")
    if not where:
        return None
    measured = (f"/proc and jcmd over ssh on {where['ssh']} (pid {where['pid']}), and its /metrics" if where.get("ssh")
                else "its /metrics only (threads, heap, garbage collections), when it serves them")
    did = where.get("lab_did")
    return ("Server", f"{where['url']}, not started by the lab: never restarted between repeats or rounds; measured "
                      f"from {measured}. Not measured: " + "; ".join(where["lacks"])
            + (". Beside the requests, the lab " + "; ".join(did) if did else ""))
