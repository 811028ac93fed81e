"""LoomLab's orchestration (the `./lab` command): find a JDK, build, start servers in a thread mode,
load them, measure and report.

labkit reads top-down in layers; each room imports only from its own modules and from rooms of a
lower layer (LAYERS below; labkit/tests/test_import_graph.py enforces it):

- cli.py        ./lab's entry point: the subcommands, one clear line per error, exit codes
- commands/     one module per subcommand (run, test, bench, capacity, report + compare, soak, memory,
                micro): its options, and what it calls below
- runs          bench/ (targets x load levels x drivers), capacity/ (the highest rate within a latency
                goal), soak/ (overload, then idle), memory/ (what a parked thread costs), micro/ (JMH,
                ring and echo benchmarks below the app server), bundle/ (the lab as one file for a
                machine that cannot download)
- measure/      one measured server session: start a target, probe it, drive a load tool
                (session.py), sample /proc (sampler.py), watchdog and thread dumps, JFR, HotSpot
                counters, histograms, results files (results.py), env.json, --cpus, plan and progress,
                and ./lab run's foreground loop
- catalog.py    every target and scenario by name: loads each server kind and application once
- apps/         applications beyond the lab's WAR: CargoTracker, its targets and bench scenarios
- servers/      every kind the lab starts, behind one interface (interface.py: ServerHandle):
                Payara Micro (payara_micro.py), Payara Server and GlassFish (appserver/), the JDK,
                Helidon and Vert.x baselines, your own WARs (userapp.py); where a server process
                runs, here or on another host (hosting.py); the thread modes of domain-config/
                (modes.py), --carriers, --heap, and the target registry (registry.py)
  load/         the load tools' drivers (drivers/: command line in, one record out), finding or
                building the tools (tools.py), scenarios, load levels and your request mixes
- hosts/        where a server or a load tool runs: this machine (local.py) or another over OpenSSH (host.py),
                and the namespace cluster of ./lab hosts (cluster.py)
- ground/       processes that never outlive the lab (process.py), short commands run to their end
                (command.py), /proc (proc.py), the machine's facts (machine.py), the JDK (jdk.py),
                Maven builds (build.py), argument types, number formatting and errors the user can
                fix (errors.py)

labkit/tests/ holds the lab's tests; those marked `server` start a JVM (./lab test --quick skips them).
"""
import os
from pathlib import Path

# The lab's version, one place: pyproject.toml reads it (dynamic version), `./lab --version` prints it.
__version__ = "1.0.0.dev0"


def is_clone(path):
    """Whether `path` holds a LoomLab clone: the commands that build or start servers need one."""
    return (path / "pom.xml").is_file() and (path / "domain-config").is_dir()


# The file at the root of an offline bundle (./lab bundle): what it carries, for whom, from which commit.
BUNDLE_MANIFEST = "BUNDLE.json"


def is_bundle(path):
    """Whether `path` is an unpacked offline bundle: a clone's run files, built, with its own JDK."""
    return (path / BUNDLE_MANIFEST).is_file()


def _find_root():
    """The clone labkit works in: the one it sits in (./lab installs it editable, so it does there),
    else the one LOOMLAB_HOME names, for a labkit installed elsewhere (`pip install .`)."""
    beside = Path(__file__).resolve().parent.parent
    configured = os.environ.get("LOOMLAB_HOME")
    return Path(configured).resolve() if configured and not is_clone(beside) else beside


ROOT = _find_root()

# The rooms of each layer, top first: a room imports its own modules and the rooms of lower layers.
LAYERS = (
    ("cli",),
    ("commands",),
    ("bench", "capacity", "soak", "memory", "micro", "bundle"),
    ("measure",),
    ("catalog",),
    ("apps",),
    ("servers", "load"),
    ("hosts",),
    ("ground",),
)
