"""The one install recipe (ab-scripts/install-tools.sh), run where it may not install: not as root
and with no load tool or Go on PATH. It must name the exact command and stop ./lab test before
any build. (As root it installs; .ci/run runs that path on every CI machine.)"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from labkit import ROOT

NOBODY = 65534


@pytest.fixture
def bare_path():
    """A PATH holding only what the recipe itself uses: no ab, wrk or Go. World-readable, because
    the recipe runs as nobody when the tests run as root."""
    folder = Path(tempfile.mkdtemp(prefix="loomlab-bare-path-"))
    try:
        folder.chmod(0o755)
        bin_dir = folder / "bin"
        bin_dir.mkdir(mode=0o755)
        for tool in ("bash", "dirname", "readlink", "id"):
            (bin_dir / tool).symlink_to(shutil.which(tool))
        (bin_dir / "python3").symlink_to(sys.executable)
        yield str(bin_dir)
    finally:
        shutil.rmtree(folder)


def run_without_root(command, path):
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("needs setpriv (util-linux) to run the recipe without root")
        command = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]
    env = {"PATH": path, "HOME": "/tmp", "LANG": "C.UTF-8"}
    return subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120)


def test_without_root_the_recipe_names_the_exact_command_and_installs_nothing(bare_path):
    result = run_without_root(["bash", "ab-scripts/install-tools.sh"], bare_path)
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    missing, command = line.split(": run as root: ")
    assert {"apache2-utils", "wrk", "golang-go"} <= set(missing.removeprefix("missing ").split())
    packages = command.removeprefix("apt-get update && apt-get install -y ").split()
    assert packages == missing.removeprefix("missing ").split()
    assert "building" not in result.stdout, "nothing is built before the packages are there"


def test_lab_test_stops_on_that_line_before_any_build(bare_path):
    result = run_without_root([sys.executable, "-m", "labkit.cli", "test"], bare_path)
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("lab test: missing ") and "apt-get install -y" in line and "wrk" in line
    assert "mvn" not in result.stdout and "JDK:" not in result.stdout
