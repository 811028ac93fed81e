"""The one install recipe (ab-scripts/install-tools.sh) where it may not install: a user who is not
root, on a PATH without ab, wrk or Go. It must name the exact command, install and build nothing,
and stop ./lab test before any build. (As root it installs; .ci/run takes that path on every CI
machine.)"""
import shutil
import subprocess
import sys

import pytest

from labkit import ROOT


@pytest.fixture
def non_root_bare_path(tmp_path):
    """A PATH with only what the recipe itself runs, where `id -u` answers 1000: the recipe's view
    of a user who is not root. No apt-get either, so nothing could be installed by mistake."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "dirname", "readlink"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    (bin_dir / "python3").symlink_to(sys.executable)
    (bin_dir / "id").write_text('#!/bin/sh\n[ "$1" = "-u" ] && echo 1000\n')
    (bin_dir / "id").chmod(0o755)
    return str(bin_dir)


def run(command, path):
    return subprocess.run(command, cwd=ROOT, env={"PATH": path, "HOME": "/tmp", "LANG": "C.UTF-8"},
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)


def test_without_root_the_recipe_names_the_exact_command_and_installs_nothing(non_root_bare_path):
    result = run(["bash", "ab-scripts/install-tools.sh"], non_root_bare_path)
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    missing, command = line.split(": run as root: ")
    packages = missing.removeprefix("missing ").split()
    assert {"apache2-utils", "wrk", "golang-go"} <= set(packages)
    assert command == "apt-get update && apt-get install -y " + " ".join(packages)
    assert result.stdout == "", "nothing is installed or built before the packages are there"


def test_lab_test_stops_on_that_line_before_any_build(non_root_bare_path):
    result = run([sys.executable, "-m", "labkit.cli", "test"], non_root_bare_path)
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("lab test: missing ") and "apt-get install -y" in line and "wrk" in line
    assert "mvn" not in result.stdout and "JDK:" not in result.stdout


def test_go_tool_recipe_refuses_a_tool_it_has_no_entry_for(non_root_bare_path):
    result = run(["bash", "ab-scripts/install-go-tool.sh", "jmeter"], non_root_bare_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "usage: install-go-tool.sh bombardier|vegeta [--force]"
    assert result.stdout == ""
