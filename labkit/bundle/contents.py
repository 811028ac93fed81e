"""What a bundle holds of this clone: each file or folder a run reads, at the same path inside the bundle
as in the clone, so labkit finds them there as it does here (ROOT / ...) and nothing needs a second map."""
import shutil
from pathlib import Path

from labkit import ROOT
from labkit.ground.build import BENCHMARKS_JAR, PAYARA_MICRO_JARS, POOL_JARS, WAR
from labkit.load.drivers.base import TOOLS_BIN
from labkit.servers.baselines import BASELINE_ARTIFACTS

# The launcher and the Python side: labkit without its tests (a bundle runs the lab, it does not test
# it); pyproject.toml, from which the launcher installs the bundle's wheels, and its readme and licence.
SOURCES = ("lab", "pyproject.toml", "README.md", "LICENSE", "labkit")
# What the servers are started with: the modes' pre-boot files and JVM options, and the root pom,
# where every version the lab reports is kept once (ground/build.py: pom_property).
CONFIGS = ("domain-config", "pom.xml")
# A user reads these where the bundle runs.
DOCS = ("docs/commands", "docs/on-real-hosts.md")
# What the Maven build made: the WAR, each pool library, a Payara Micro jar per line, the baselines,
# and micro/'s jar (./lab memory's experiment, ./lab micro's benchmarks).
ARTIFACTS = (WAR, *POOL_JARS.values(), *PAYARA_MICRO_JARS.values(), *BASELINE_ARTIFACTS, BENCHMARKS_JAR)
# The load tools carried: static Go binaries, so they run on any x86-64 Linux. ab and wrk are
# the distribution's packages, linked against its libraries: a bundle leaves them to the machine.
TOOLS = ("vegeta", "bombardier")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "tests", "*.egg-info")


def copy_clone_files(stage, executables):
    """Copies the clone's files into `stage`, and each load tool in `executables` (name -> path) into
    .lab/tools/bin there, where the drivers look first. Returns the paths copied, relative."""
    copied = []
    for relative in (*SOURCES, *CONFIGS, *DOCS, *(Path(a).relative_to(ROOT) for a in ARTIFACTS)):
        source, target = ROOT / relative, stage / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=SKIPPED, symlinks=False)
        else:
            shutil.copy2(source, target)
        copied.append(str(relative))
    tools = stage / TOOLS_BIN.relative_to(ROOT)
    tools.mkdir(parents=True, exist_ok=True)
    for name, path in executables.items():
        shutil.copy2(path, tools / name)
        copied.append(str((tools / name).relative_to(stage)))
    return copied
