"""env.json: the machine, JDK, Payara and tools a run used, so its numbers can be compared."""
import json
import shlex
import zipfile
from datetime import datetime, timezone

from labkit import BUNDLE_MANIFEST, ROOT, is_bundle
from labkit.ground.build import PAYARA_MICRO_JARS
from labkit.ground.command import run_command
from labkit.ground.errors import LabError
from labkit.ground.jdk import feature_version
from labkit.ground.machine import (
    TEXT_MARK,
    cpu_text,
    fact_script,
    facts,
    facts_from,
    jdk_release,
    normalize_facts,
    parse_release,
    texts_from_script,
)
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
        "git": git_state(),
        "tools": {name: {"path": path, "version": tool_version(name, path)} for name, path in executables.items()},
        # --cpus: which CPUs the server and the load tool were pinned to (null: not pinned).
        "cpus": cpus.to_dict() if cpus else None,
    }
    if any(str(mode).startswith(PAYARA7_PREFIX) for mode in modes):
        env["payara_micro_7"] = _payara_version(7)
    return env


def where_rows(env, ulimit=False, jdk_home=False):
    """The setup rows every run's report opens with, written here once: the machine (with its open-files
    limit when `ulimit`), the server's own host or URL when it was not this machine, the load average
    at the start, the JDK (with its folder when `jdk_home`) and Payara Micro's versions."""
    host, jdk = normalize_facts(env["host"]), env["jdk"]
    machine = (f"{cpu_text(host['cpu_model'], host.get('cpu_id'))}, {host['cpus']} CPUs, {host['memory_gib']} GB, "
               f"{host['os']}, kernel {host['kernel']}" + (f", ulimit -n {host['ulimit_nofile'][0]}" if ulimit else ""))
    return [("Machine", machine),
            *[row for row in (server_host_row(env), server_url_row(env)) if row],
            ("Load average at start", ", ".join(f"{v:.2f}" for v in host["loadavg"])),
            ("JDK", f"{jdk['vendor']} {jdk['runtime_version'] or jdk['version']}" + (f" ({jdk['home']})" if jdk_home else "")),
            ("Payara Micro", payara_text(env))]


def git_row(env):
    """The setup row of the lab's commit, and whether it had uncommitted changes."""
    git = env["git"]
    return "Git", (f"{git.get('commit') or '?'}{' (uncommitted changes)' if git.get('dirty') else ''}"
                   f"{' (run from an offline bundle made there)' if git.get('bundle') else ''}")


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


def git_state():
    """The lab's commit and whether it had uncommitted changes (env.json and a bundle's manifest)."""
    if is_bundle(ROOT):
        # An offline bundle has no .git: the commit it was made from, as its manifest recorded it.
        return {**json.loads((ROOT / BUNDLE_MANIFEST).read_text())["git"], "bundle": True}

    def git(*arguments):
        try:
            result = run_command(["git", *arguments], cwd=ROOT, timeout=20)
        except LabError:
            return None
        return result.stdout.strip() if result.returncode == 0 else None
    status = git("status", "--porcelain")
    return {"commit": git("rev-parse", "HEAD"), "dirty": bool(status) if status is not None else None}


def server_host_facts(host, java_home):
    """env.json's "server_host" for servers started on another host (--server-host): which host and
    its address, its facts under FACTS' keys (CPU model and identity, CPUs, memory, OS, kernel, load
    average: the texts fetched in one ssh command, parsed as this machine's are) and the JDK the servers
    ran on there. None for this machine (`host` None: ServerSetup.remote_host)."""
    if host is None:
        return None
    script = fact_script() + f"; echo '{TEXT_MARK}release'; cat {shlex.quote(str(java_home))}/release 2>/dev/null"
    texts = texts_from_script(host.run(["sh", "-c", script], check=False).stdout)
    release = parse_release(texts.get("release") or "")
    return {"host": str(host), "address": host.address, **facts_from(texts),
            "java_home": str(java_home), "java_version": release.get("JAVA_VERSION")}


def server_host_row(env):
    """The report's setup row for a server on another host, or None when the servers ran here."""
    where = env.get("server_host")
    if not where:
        return None
    memory = f", {where['memory_kib'] / 1024 / 1024:.1f} GB" if where.get("memory_kib") else ""
    # Hosts of one model name can differ by a third in speed: the CPU's identity, when recorded.
    cpu = f"{cpu_text(where['cpu_model'], where.get('cpu_id'))}, " if where.get("cpu_model") else ""
    return ("Server host", f"{where['host']} ({where['address']}): {cpu}{where.get('cpus') or '?'} CPUs{memory}, kernel "
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
