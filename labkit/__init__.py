"""LoomLab's orchestration (the `./lab` command): find a JDK, build, start servers in a thread mode,
load them, measure and report.

Where a reader starts: cli.py (the subcommands), then the one a question is about. The map:

Commands (each registers its options and a run(args)):
- commands/run.py       ./lab run MODE: one server in the foreground (foreground.py serves it until Ctrl-C)
- bench/                ./lab bench: targets x load levels x drivers, sampled and reported (bench/__init__.py)
- capacity/             ./lab capacity: the highest arrival rate within a latency goal, on the bench's machinery
- soak.py               ./lab soak (commands/soak.py): overload, then idle; did the server survive?
- commands/report.py    ./lab report and ./lab compare, from a results folder's results.json
- memory.py             ./lab memory (commands/memory.py): what a parked thread costs
- micro/                ./lab micro (commands/micro.py): JMH, ring and echo benchmarks below the app server
- commands/test.py      ./lab test: Maven's tests, then labkit/tests

Servers, all behind one interface, server.py's ServerHandle (start, base_url, pid, log_path,
info(), printable_command(), stop(), a context manager):
- modes.py              the thread modes, read from domain-config/ (virtual or not, the bound)
- targets.py            every name --modes accepts, and the start function of each
- payara.py             Payara Micro in a mode
- appserver/            Payara Server and GlassFish: one lifecycle through asadmin (appserver/__init__.py);
                        payara_server.py and glassfish.py say what differs per product
- baselines.py          the plain-JDK, Helidon and Vert.x servers of baselines*/
- cargotracker.py       the CargoTracker WAR on Payara Micro: its targets and bench scenarios

Shared below them, one place each:
- process.py            child processes: spawn, stop, terminate, port checks, Ctrl-C and SIGTERM
- arguments.py          argparse types: one check and one message per kind of value
- machine.py            the machine's facts, recorded by bench, micro and memory
- jdk.py, build.py      finding a JDK 21+; building what is missing with Maven
- carriers.py           --carriers: the virtual-thread scheduler's parallelism
- drivers/              the load tools (bombardier, ab, wrk, vegeta): command line in, one record out
- errors.py             errors the user can fix: one line, never a traceback

labkit/tests/ holds the lab's tests; those marked `server` start a JVM (./lab test --quick skips them).
"""
import os
from pathlib import Path

# The lab's version, one place: pyproject.toml reads it (dynamic version), `./lab --version` prints it.
__version__ = "1.0.0.dev0"


def is_clone(path):
    """Whether `path` holds a LoomLab clone: the commands that build or start servers need one."""
    return (path / "pom.xml").is_file() and (path / "domain-config").is_dir()


def _find_root():
    """The clone labkit works in: the one it sits in (./lab installs it editable, so it does there),
    else the one LOOMLAB_HOME names, for a labkit installed elsewhere (`pip install .`)."""
    beside = Path(__file__).resolve().parent.parent
    configured = os.environ.get("LOOMLAB_HOME")
    return Path(configured).resolve() if configured and not is_clone(beside) else beside


ROOT = _find_root()
