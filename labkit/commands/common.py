"""What the commands that put a server under load share (./lab bench, capacity, soak): the options
they all take, what each does before it measures (prepare_run), where a run writes its results, how
the run's end is recorded, its command line, and the open-files limit its connections need."""
import resource
import shlex
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from labkit import ROOT
from labkit.catalog import all_targets
from labkit.ground.arguments import run_name, single_line, whole_number
from labkit.ground.build import ensure_built
from labkit.ground.errors import LabError, UsageError
from labkit.ground.jdk import find_java_home
from labkit.commands.where import (
    add_where_arguments,
    check_port,
    on_server_host,
    record_where,
    use_url,
    with_load_hosts,
)
from labkit.load.tools import MAX_CONNECTIONS_OPEN_MODEL, ensure_tools
from labkit.measure.cpus import cpu_pinning
from labkit.measure.env import collect

RESULTS = ROOT / "results"
# File descriptors besides the connections: JVM jars, logs, epoll, the tool's own.
SPARE_FILES = 1024


def add_run_options(parser, default_name):
    """The options every server-under-load command takes alike (./lab bench, ./lab capacity): where
    server and load tool run, how the server starts, and where the results go."""
    parser.add_argument("--cpus", type=cpu_pinning, metavar="server=CPUS,driver=CPUS",
                        help="pin the server and the load tool to different CPUs (e.g. server=1,driver=0); "
                             "recorded in env.json and the report; a server on one CPU keeps the G1 collector "
                             "(-XX:+UseG1GC added unless --jvm-opt picks one)")
    parser.add_argument("--port", type=whole_number(1, 65535, "--port"), metavar="PORT",
                        help="server port (default 8080), on 127.0.0.1 or on --server-host's address")
    parser.add_argument("--jvm-opt", action="append", metavar="OPT", type=single_line,
                        help="extra server JVM option, repeatable (--jvm-opt=-Xmx2g)")
    parser.add_argument("--no-jvm-defaults", dest="jvm_defaults", action="store_false", default=None,
                        help="start Payara Micro without domain-config/jvm.options")
    parser.add_argument("--name", type=run_name, help=f"results folder suffix (default {default_name})")
    parser.add_argument("--out", metavar="DIR", help="write the results here instead of results/<timestamp>-<name>/")
    add_where_arguments(parser)


def add_jfr_locks_argument(parser):
    """--jfr-locks, alike in ./lab bench and ./lab capacity (whose windows' limits read the locks)."""
    parser.add_argument("--jfr-locks", action="store_true",
                        help="also record contended monitor enters and thread parks of 10 ms or more (JFR, with "
                             "stacks): their count, blocked time, top classes and sites per window, and the "
                             "locks check of each window's limit")


@dataclass(frozen=True)
class PreparedRun:
    """A run command's checked config and what it measures with: its targets by name, the load tools'
    executables by name, the JDK, the results folder (made) and env.json's facts."""
    config: object
    targets: dict
    executables: dict
    java_home: object
    out_dir: Path
    env: dict


def prepare_run(command, args, build, usage_error, drivers=("vegeta",), connections=None):
    """What every run command does before it measures, in one order, so that none drifts: --url's
    target, the config (`build(args)`, which holds a measure.server_setup.ServerSetup), the results folder's
    name, the targets, --server-host and --load-hosts with their checks (a UsageError from any of these
    goes to `usage_error`: the usage line and exit 2), then the port, the load tools (`drivers(config)`
    when callable), the JDK, the build, the open-files limit for `connections(config)` (default: the
    open model's bound), the folder made and env.json's facts."""
    try:
        use_url(args)
        config = build(args)
        out_dir = results_folder(config.out_dir, config.name)
        targets = {name: all_targets()[name] for name in config.modes}
        tools = tuple(drivers(config) if callable(drivers) else drivers)
        config = with_load_hosts(on_server_host(config, args, targets), args, tools)
    except UsageError as e:
        usage_error(str(e))
    check_port(config)
    executables = ensure_tools(tools)
    java_home = find_java_home()
    ensure_built()
    raise_open_files_limit(connections(config) if connections else MAX_CONNECTIONS_OPEN_MODEL)
    out_dir.mkdir(parents=True, exist_ok=True)
    env = record_where(collect(java_home, executables, lab_command_line(command), config.setup.cpus, config.modes),
                       config, args)
    return PreparedRun(config, targets, executables, java_home, out_dir, env)


class RunEnd:
    """How a run ended, for its record: complete, failed (with the first line of the error) or interrupted."""
    state = "complete"
    error = None


@contextmanager
def recording_end(finish):
    """Runs the block and then, whatever happened, finish(state, error); Ctrl-C and a LabError
    still propagate (the exit code stays theirs), after the record says how the run ended."""
    end = RunEnd()
    try:
        yield end
    except KeyboardInterrupt:
        end.state = "interrupted"
        raise
    except LabError as e:
        end.state, end.error = "failed", str(e).splitlines()[0]
        raise
    finally:
        finish(end.state, end.error)


def results_folder(out, name):
    """Where a run writes: --out when it is a new or empty folder (a UsageError otherwise, so no
    earlier results are mixed in), else results/<timestamp>-<name>/."""
    if out is not None:
        out_dir = Path(out).resolve()
        if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
            raise UsageError(f"--out {out} exists and is not an empty folder")
        return out_dir
    return RESULTS / f"{datetime.now():%Y%m%d-%H%M%S}-{name}"


def lab_command_line(command):
    """The ./lab command line of this run, for env.json and the report."""
    return "./lab " + shlex.join(sys.argv[1:]) if sys.argv[1:] else f"./lab {command}"


def raise_open_files_limit(concurrency):
    """Server and load tool each hold one socket per connection: lift the soft limit to the hard
    one (children inherit it) and say so when even that is too low."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = concurrency + SPARE_FILES
    if soft < needed:
        new_soft = hard if hard == resource.RLIM_INFINITY else max(soft, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new_soft, hard))
        soft = new_soft
    if soft != resource.RLIM_INFINITY and soft < needed:
        raise LabError(f"{concurrency} connections need about {needed} open files, but ulimit -n is {soft} "
                       f"(hard limit {hard}): raise it (e.g. ulimit -n {needed}) or lower --concurrency")
