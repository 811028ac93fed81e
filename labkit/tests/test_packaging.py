"""labkit as a package (pyproject.toml) and the lab's versions: one place for the Python pins, the
same Selenium for Java and Python, `--version`, ./lab's Python check, and a wheel that holds
labkit's data files but not its tests and installs a `lab` that works outside a clone."""
import importlib.metadata
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from labkit import ROOT, __version__
from labkit.ground.build import pom_property

PYPROJECT = ROOT / "pyproject.toml"


def pyproject():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the lab itself needs 3.10
    return tomllib.loads(PYPROJECT.read_text())


def pins():
    """{name: version} of every Python dependency pyproject.toml names, the test extra included."""
    project = pyproject()["project"]
    requirements = project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]
    found = {}
    for requirement in requirements:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==([\w.]+)(;.*)?", requirement)
        assert match, f"{requirement!r} is not pinned to one release"
        found.setdefault(match[1].lower(), set()).add(match[2])
    return found


def run(command, **kwargs):
    return subprocess.run(command, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, **kwargs)


# ---- one place for versions --------------------------------------------------------------------

def test_python_pins_live_in_pyproject_only():
    assert pins(), "pyproject.toml pins nothing"
    tracked = run(["git", "ls-files"], cwd=ROOT).stdout.splitlines()
    if not tracked:
        pytest.skip("not a git clone")
    stray = [f for f in tracked if re.search(r"(^|/)(requirements[^/]*\.txt|setup\.py|setup\.cfg|Pipfile)$", f)]
    assert stray == [], "Python dependencies are pinned in pyproject.toml alone"
    lab = (ROOT / "lab").read_text()
    assert 'project="$root/pyproject.toml"' in lab and 'sha256sum "$project"' in lab, \
        "./lab refreshes .venv when pyproject.toml changes"
    assert 'extras="[test]"' in lab and '-e "$root$extras"' in lab, "./lab installs labkit editable, with the test extra"
    # An offline bundle (./lab bundle) installs the same pins, from its own wheels only.
    assert 'source_args=(--no-index --find-links "$wheels"); extras=""' in lab


def test_java_and_python_tests_use_one_selenium():
    assert pins()["selenium"] == {pom_property("selenium.version")}


def test_the_package_version_is_labkits_and_follows_the_maven_version():
    settings = pyproject()
    assert "version" in settings["project"]["dynamic"] and "version" not in settings["project"]
    assert settings["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "labkit.__version__"}
    # One lab, one version: 1.0.0-SNAPSHOT in Maven is 1.0.0.dev0 in Python.
    maven = ET.parse(ROOT / "pom.xml").getroot().findtext("{http://maven.apache.org/POM/4.0.0}version")
    assert __version__ == (maven.removesuffix("-SNAPSHOT") + ".dev0" if maven.endswith("-SNAPSHOT") else maven)


# ---- ./lab --version and ./lab's Python check ----------------------------------------------------

def test_version_names_the_release_and_the_commit():
    result = run([sys.executable, "-m", "labkit.cli", "--version"], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    commit = run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT).stdout.strip() if shutil.which("git") else ""
    expected = f"lab {__version__}" + (f" (commit {commit})" if commit and (ROOT / ".git").exists() else "")
    assert result.stdout == expected + "\n"


@pytest.mark.parametrize("python_version", ["3.8", None])  # an old python3, no python3 at all
def test_lab_stops_at_once_without_python_3_10(tmp_path, python_version):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "dirname", "readlink"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    if python_version:
        # Answers the version question with `python_version` and fails the 3.10 check, as that Python would.
        (bin_dir / "python3").write_text(f'#!/bin/sh\ncase "$2" in *print*) echo {python_version} ;; *) exit 1 ;; esac\n')
        (bin_dir / "python3").chmod(0o755)
    result = run([str(bin_dir / "bash"), str(ROOT / "lab"), "--help"], env={"PATH": str(bin_dir), "HOME": str(tmp_path)})
    assert result.returncode == 1
    found = f"found {python_version} ({bin_dir / 'python3'})" if python_version else "found no python3"
    assert result.stderr.startswith(f"lab: Python 3.10+ is required, {found}")
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""


# ---- the wheel -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """labkit's wheel, built offline from a copy of the sources (the clone gets no build/ folder)."""
    setuptools = importlib.metadata.version("setuptools") if _installed("setuptools") else "0"
    floor = re.search(r"setuptools>=(\d+)", " ".join(pyproject()["build-system"]["requires"]))[1]
    if int(setuptools.split(".")[0]) < int(floor):
        pytest.skip(f"setuptools {setuptools} here, pyproject.toml builds with {floor}+: run ./lab once to refresh .venv")
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source)
    shutil.copytree(ROOT / "labkit", source / "labkit", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path_factory.mktemp("wheel")
    result = run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                  "-w", str(out), str(source)])
    assert result.returncode == 0, result.stderr
    (path,) = out.glob("loomlab-*.whl")
    return path


def _installed(distribution):
    try:
        importlib.metadata.version(distribution)
        return True
    except importlib.metadata.PackageNotFoundError:
        return False


def test_the_wheel_holds_labkits_data_files_and_not_its_tests(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    data_files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "labkit").rglob("*")
                  if p.is_file() and p.suffix not in (".py", ".pyc") and "tests" not in p.relative_to(ROOT).parts}
    assert {"labkit/load/drivers/bombardier-record.tmpl", "labkit/load/drivers/wrk-record.lua", "labkit/measure/loomlab.jfc",
            "labkit/load/fanout-body.json", "labkit/bench/RESULTS-SCHEMA.md"} <= data_files
    assert data_files <= names, f"missing from the wheel: {sorted(data_files - names)}"
    assert "labkit/cli.py" in names and "labkit/ground/build.py" in names
    assert not [n for n in names if n.startswith("labkit/tests")]
    dist_info = f"loomlab-{__version__}.dist-info"
    assert "lab = labkit.cli:entry" in zipfile.ZipFile(wheel).read(f"{dist_info}/entry_points.txt").decode()
    assert f"{dist_info}/licenses/LICENSE" in names


def test_the_installed_wheel_gives_a_lab_that_works_outside_a_clone(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # labkit's own dependencies come from this environment; labkit itself only from the wheel.
    site_packages = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    here = {run([sys.executable, "-c", f"import sysconfig; print(sysconfig.get_paths()[{k!r}])"]).stdout.strip()
            for k in ("purelib", "platlib")}
    (Path(site_packages) / "dependencies.pth").write_text("\n".join(sorted(here)) + "\n")
    installed = run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
                     str(wheel)])
    assert installed.returncode == 0, installed.stderr
    lab = str(venv / "bin" / "lab")
    outside = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    help_text = run([lab, "--help"], cwd=tmp_path, env=outside)
    assert help_text.returncode == 0, help_text.stderr
    for command in ("run", "test", "bench", "capacity", "report", "compare", "soak", "memory", "micro"):
        assert re.search(rf"^    {command} ", help_text.stdout, re.MULTILINE), command
    assert run([lab, "--version"], cwd=tmp_path, env=outside).stdout == f"lab {__version__}\n"

    refused = run([lab, "run", "virtual"], cwd=tmp_path, env=outside)
    assert refused.returncode == 2 and refused.stdout == ""
    [line] = refused.stderr.splitlines()
    assert line.startswith("lab run: needs a LoomLab clone") and "LOOMLAB_HOME" in line

    where = run([str(python), "-c", "import labkit, labkit.measure.jfr as j; print(labkit.__file__, j.SETTINGS.is_file())"],
                cwd=tmp_path, env=outside).stdout.split()
    assert where[0].startswith(str(venv)) and where[1] == "True"
    if (ROOT / ".git").exists() and shutil.which("git"):
        pointed = run([lab, "--version"], cwd=tmp_path, env={**outside, "LOOMLAB_HOME": str(ROOT)})
        assert pointed.stdout.startswith(f"lab {__version__} (commit "), "LOOMLAB_HOME names the clone"
