"""./lab bundle for real: the .tar.gz it writes is unpacked into a fresh folder and its ./lab runs a
capacity search — host-speed reference included — inside a network namespace that has nothing but
loopback, with a PATH that holds no java, jcmd, mvn or go and no JAVA_HOME: its .venv comes from the
bundle's wheels, its servers run on the bundle's JDK, and no process of it outlives the run.

Why: the lab's first run needs Maven, the registries and a JDK; the 16-core machine the limits were to be
measured on had none of them (issue 58)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from labkit import BUNDLE_MANIFEST, ROOT
from labkit.bundle.wheels import local_python

# What a machine without a JDK, Maven or Go lacks: any command that resolves into one of these.
ABSENT = ("/usr/lib/jvm/", "/usr/share/maven", "/usr/local/go/", "/opt/java", "/opt/jdk")
ABSENT_NAMES = ("java", "javac", "jcmd", "jfr", "jlink", "mvn", "mvnw", "go")
NETNS = f"loomlab-offline-{os.getpid()}"


def shadow_path(folder):
    """A PATH of one folder linking every command of the machine's PATH folders but the JDK's, Maven's
    and Go's, and python3 as the interpreter running this test."""
    folder.mkdir()
    for directory in ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"):
        for entry in sorted(Path(directory).glob("*")) if Path(directory).is_dir() else ():
            real = os.path.realpath(entry)
            if entry.name in ABSENT_NAMES or any(real.startswith(a) for a in ABSENT) or (folder / entry.name).exists():
                continue
            if os.access(real, os.X_OK) and Path(real).is_file():
                (folder / entry.name).symlink_to(real)
    python = folder / "python3"
    python.unlink(missing_ok=True)
    python.symlink_to(os.path.realpath(sys.executable))
    return str(folder)


@pytest.fixture
def loopback_only():
    subprocess.run(["ip", "netns", "add", NETNS], check=True)
    try:
        subprocess.run(["ip", "-n", NETNS, "link", "set", "lo", "up"], check=True)
        yield NETNS
    finally:
        leftovers = subprocess.run(["ip", "netns", "pids", NETNS], stdout=subprocess.PIPE, text=True).stdout.split()
        for pid in leftovers:
            subprocess.run(["kill", "-9", pid])
        subprocess.run(["ip", "netns", "delete", NETNS])
        assert leftovers == [], "processes of the bundle's run outlived it in its namespace"


@pytest.mark.server
def test_a_bundle_runs_a_capacity_search_offline_on_its_own_jdk(tmp_path, loopback_only):
    made = subprocess.run([sys.executable, "-m", "labkit.cli", "bundle", "--python", local_python(),
                           "--out", str(tmp_path / "out")], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=1500)
    assert made.returncode == 0, made.stdout[-3000:]
    [archive] = (tmp_path / "out").glob("loomlab-*-linux-x86_64.tar.gz")
    assert [p.name for p in (tmp_path / "out").iterdir()] == [archive.name], "the staging folder is left behind"
    assert f"wheels for Python {local_python()}" in made.stdout

    machine = tmp_path / "offline machine"  # a space in the path, as a user's folder may have
    machine.mkdir()
    subprocess.run(["tar", "-xzf", str(archive), "-C", str(machine)], check=True)
    [bundle] = machine.iterdir()
    manifest = json.loads((bundle / BUNDLE_MANIFEST).read_text())
    assert manifest["python"]["carried"] == [local_python()]
    assert not (bundle / ".git").exists() and not (bundle / "mvnw").exists() and not (bundle / "labkit" / "tests").exists()

    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": shadow_path(tmp_path / "bin"), "HOME": str(home), "LANG": "C.UTF-8"}
    inside = ["ip", "netns", "exec", loopback_only, "env", "-i", *(f"{k}={v}" for k, v in env.items())]
    links = subprocess.run([*inside, "ip", "-o", "link"], stdout=subprocess.PIPE, text=True, check=True).stdout
    assert [line.split(":")[1].strip() for line in links.splitlines()] == ["lo"]
    assert subprocess.run([*inside, "sh", "-c", "command -v java || command -v mvn || command -v jcmd"]).returncode != 0

    out = tmp_path / "capacity"
    run = subprocess.run([*inside, "./lab", "capacity", "--modes", "virtual", "--sleep", "100", "--duration", "3",
                          "--preroll", "1", "--repeats", "1", "--warmup-min", "0", "--warmup-max", "4",
                          "--warmup-iteration", "2", "--start-rate", "40", "--max-rate", "40", "--max-window", "3",
                          "--cooldown", "0", "--port", "19160", "--out", str(out)],
                         cwd=bundle, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:]
    assert "preparing Python environment" in run.stdout and "building" not in run.stdout

    results = json.loads((out / "results.json").read_text())
    assert results["state"] == "complete"
    jdk = results["env"]["jdk"]
    # env.json names folders inside the lab relative to it: "jdk" is the bundle's own.
    assert jdk["home"] == "jdk" and jdk["version"] == manifest["jdk"]["version"], jdk
    assert jdk["vendor"] and jdk["runtime_version"] == manifest["jdk"]["runtime_version"], jdk
    assert results["env"]["git"] == {**manifest["git"], "bundle": True}
    references = results["env"]["host_speed"]  # on the JDK baseline: the bundle's baselines jar ran
    assert references and all(r["mode"] == "jdk-virtual" and r["errors"] == 0 for r in references), references
    assert all(p["load"]["errors"]["total"] == 0 and p["load"]["ok"] > 0 for p in results["points"])
    assert results["env"]["tools"]["vegeta"]["path"] == ".lab/tools/bin/vegeta"  # the bundle's, found first
    assert "(run from an offline bundle made there)" in (out / "report.md").read_text()
    shutil.rmtree(bundle)
