"""What the commands that put a server under load share (./lab bench, capacity, soak): the options
they all take, where a run writes its results, how the run's end is recorded, its command line,
and the open-files limit its connections need."""
import resource
import shlex
import sys
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from labkit import ROOT
from labkit.ground.arguments import run_name, single_line, whole_number
from labkit.ground.errors import LabError, UsageError
from labkit.commands.where import add_where_arguments
from labkit.measure.cpus import cpu_pinning

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
