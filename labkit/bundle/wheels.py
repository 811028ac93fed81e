"""The bundle's Python packages: the pins of pyproject.toml, as wheels for x86-64 Linux, downloaded for
each Python line the bundle offers, so `./lab` can make its .venv there with `pip --no-index`.

The pins are read from labkit's installed metadata (what ./lab installed from pyproject.toml), never
written a second time; the test extra stays out, but its setuptools comes along: pip builds labkit's
editable install with it (pyproject.toml's build-system) and has no index to fetch it from."""
import re
import sys
from importlib import metadata

from packaging.requirements import Requirement

from labkit.ground.command import last_lines, run_command
from labkit.ground.errors import LabError

DISTRIBUTION = "loomlab"
# pyproject.toml says Python 3.10+; these are the lines wheels are looked for. A line without a wheel
# for every pin is left out of the bundle and said so.
PYTHONS = ("3.10", "3.11", "3.12", "3.13", "3.14")
# manylinux tags up to glibc 2.28 (numpy's and Pillow's current wheels need 2.28): a bundle runs on
# Debian 10+, Ubuntu 20.04+, RHEL 8+.
PLATFORMS = ("manylinux2014_x86_64", *(f"manylinux_2_{minor}_x86_64" for minor in range(17, 29)))
BUILD_TOOL = "setuptools"


def local_python():
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def pins(python, requires=None):
    """The pinned requirements labkit runs with on `python` ("3.12"), markers decided for it, plus the
    pinned setuptools; each as `name==version`."""
    requires = metadata.requires(DISTRIBUTION) if requires is None else requires
    if not requires:
        raise LabError(f"labkit's metadata lists no dependencies: is {DISTRIBUTION} installed (./lab does it)?")
    wanted = []
    for text in requires:
        requirement = Requirement(text)
        environment = {"python_version": python, "python_full_version": f"{python}.0", "extra": ""}
        runtime = requirement.marker is None or requirement.marker.evaluate(environment)
        if runtime or requirement.name == BUILD_TOOL:
            wanted.append(f"{requirement.name}{requirement.specifier}")
    return wanted


def download(python, folder, log=print):
    """Downloads every pin's wheel, and its dependencies', for `python` into `folder`. Returns None,
    or why that Python line cannot be carried (pip's last line)."""
    abi = "cp" + python.replace(".", "")
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
               "--only-binary=:all:", "--implementation", "cp", "--python-version", python,
               "--abi", abi, "--abi", "abi3", "--abi", "none",
               *(option for platform in PLATFORMS for option in ("--platform", platform)),
               "--dest", str(folder), *pins(python)]
    log(f"  wheels for Python {python}")
    result = run_command(command, timeout=None, merged=True)
    if result.returncode != 0:
        return last_lines(result.stdout) if result.stdout.strip() else f"pip exited {result.returncode}"
    return None


def download_all(folder, pythons=PYTHONS, log=print):
    """Wheels for each Python line of `pythons` into `folder`; returns (carried, {line: why not}).
    The line the lab runs on here must be carried: the bundle is tested with it."""
    folder.mkdir(parents=True, exist_ok=True)
    carried, refused = [], {}
    for python in pythons:
        why = download(python, folder, log)
        if why:
            refused[python] = why
        else:
            carried.append(python)
    if local_python() in refused:
        raise LabError(f"no wheels for this machine's Python {local_python()}: {refused[local_python()]}")
    if not carried:
        raise LabError("no Python line has a wheel for every pin: " +
                       "; ".join(f"{p}: {why}" for p, why in refused.items()))
    return carried, refused


def glibc_needed(folder):
    """The newest glibc a downloaded wheel's manylinux tag asks for, as "2.28" (None: all pure Python)."""
    # A wheel tagged for several glibc versions installs on the oldest it names.
    oldest_per_wheel = []
    for wheel in folder.glob("*.whl"):
        tags = [(int(a), int(b)) for a, b in re.findall(r"manylinux_(\d+)_(\d+)_x86_64", wheel.name)]
        tags += [(2, 17)] if "manylinux2014_x86_64" in wheel.name else []
        if tags:
            oldest_per_wheel.append(min(tags))
    return "%d.%d" % max(oldest_per_wheel) if oldest_per_wheel else None
