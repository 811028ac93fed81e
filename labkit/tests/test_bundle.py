"""./lab bundle's parts that decide what a bundle carries and how the lab behaves inside one, without
making one (test_bundle_e2e.py makes one and runs it offline): the pins per Python line, the glibc the
wheels ask for, --python, the JDK a bundle prefers, and the build that refuses to run in a bundle."""
import os
import re
from importlib import metadata
from pathlib import Path

import pytest

from labkit import BUNDLE_MANIFEST, ROOT
from labkit.bundle import contents, wheels
from labkit.commands.bundle import python_lines
from labkit.ground import build
from labkit.ground.errors import LabError, UsageError
from labkit.ground.jdk import find_java_home

REQUIRES = [
    'matplotlib==3.11.2; python_version >= "3.11"',
    'matplotlib==3.10.9; python_version < "3.11"',
    "hdrhistogram==0.10.3",
    'pytest==8.3.3; extra == "test"',
    'setuptools==84.2.1; extra == "test"',
]


def test_pins_decide_each_python_lines_markers_and_bring_the_build_tool_not_the_test_extra():
    assert wheels.pins("3.10", REQUIRES) == ["matplotlib==3.10.9", "hdrhistogram==0.10.3", "setuptools==84.2.1"]
    assert wheels.pins("3.12", REQUIRES) == ["matplotlib==3.11.2", "hdrhistogram==0.10.3", "setuptools==84.2.1"]


def test_pins_are_pyprojects_own_dependencies():
    text = (ROOT / "pyproject.toml").read_text()
    block = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M).group(1)
    declared = {re.match(r'\s*"([A-Za-z0-9_.-]+)', line).group(1).lower()
                for line in block.splitlines() if line.strip().startswith('"')}
    carried = {pin.split("==")[0].lower() for pin in wheels.pins(wheels.local_python())}
    assert carried == declared | {"setuptools"}
    assert all("==" in pin for pin in wheels.pins("3.10")), "a bundle carries pinned versions only"
    assert metadata.requires(wheels.DISTRIBUTION)


def test_the_glibc_a_bundle_needs_is_the_newest_oldest_tag_of_its_wheels(tmp_path):
    for name in ("numpy-2.4.6-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl",
                 "hdrhistogram-0.10.3-cp311-cp311-manylinux_2_5_x86_64.manylinux1_x86_64.manylinux_2_17_x86_64"
                 ".manylinux2014_x86_64.whl",
                 "plotly-7.1.0-py3-none-any.whl"):
        (tmp_path / name).touch()
    assert wheels.glibc_needed(tmp_path) == "2.27"
    for wheel in tmp_path.glob("*manylinux*"):
        wheel.unlink()
    assert wheels.glibc_needed(tmp_path) is None


def test_python_lines_are_3_10_or_later_and_named_once():
    assert python_lines("3.12, 3.10,3.12") == ("3.12", "3.10")
    for bad in ("3.9", "2.7", "3", "3.x", ",", "python3.12"):
        with pytest.raises(UsageError, match="--python"):
            python_lines(bad)


def jdk(folder, feature):
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / "java").touch()
    (folder / "release").write_text(f'JAVA_VERSION="{feature}.0.1"\n')
    return folder


def test_a_bundles_jdk_comes_after_java_home_and_before_the_machines(tmp_path):
    bundled, installed, configured = jdk(tmp_path / "jdk", 25), jdk(tmp_path / "jvm" / "x", 26), jdk(tmp_path / "c", 21)
    globs = (str(tmp_path / "jvm" / "*"),)
    assert find_java_home({"JAVA_HOME": str(configured)}, globs, bundled) == configured
    assert find_java_home({}, globs, bundled) == bundled
    assert find_java_home({"JAVA_HOME": str(jdk(tmp_path / "old", 17))}, globs, bundled) == bundled
    assert find_java_home({}, globs, tmp_path / "no bundle") == installed


def test_nothing_builds_in_a_bundle_and_the_error_says_why(tmp_path, monkeypatch):
    (tmp_path / BUNDLE_MANIFEST).write_text("{}")
    monkeypatch.setattr(build, "ROOT", tmp_path)
    with pytest.raises(LabError, match=f"offline bundle .*{BUNDLE_MANIFEST}.*builds nothing"):
        build.mvn(["package"])


def test_what_a_bundle_copies_exists_in_the_clone():
    for relative in (*contents.SOURCES, *contents.CONFIGS, *contents.DOCS):
        assert (ROOT / relative).exists(), relative
    assert all(Path(a).is_relative_to(ROOT) for a in contents.ARTIFACTS)
    assert os.access(ROOT / "lab", os.X_OK)
