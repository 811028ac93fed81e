"""What the commands that put a server under load share (./lab bench, capacity, soak): the options
they all take, where a run writes its results, how the run's end is recorded, its command line,
and the open-files limit its connections need."""
import argparse
import resource
import shlex
import sys
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from labkit import ROOT
from labkit.ground.arguments import run_name, single_line, whole_number
from labkit.ground.errors import LabError, UsageError
from labkit.ground.process import ensure_nothing_answers, ensure_port_free
from labkit.hosts.options import add_server_host_arguments, host_argument
from labkit.load.spread import LoadHosts, check_clocks
from labkit.servers.external import TARGET_NAME, check_url, url_target
from labkit.servers.registry import register
from labkit.measure.cpus import cpu_pinning
from labkit.measure.env import server_host_facts

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
                        help="server port on 127.0.0.1 (default 8080)")
    parser.add_argument("--jvm-opt", action="append", metavar="OPT", type=single_line,
                        help="extra server JVM option, repeatable (--jvm-opt=-Xmx2g)")
    parser.add_argument("--no-jvm-defaults", dest="jvm_defaults", action="store_false", default=None,
                        help="start Payara Micro without domain-config/jvm.options")
    parser.add_argument("--name", type=run_name, help=f"results folder suffix (default {default_name})")
    parser.add_argument("--out", metavar="DIR", help="write the results here instead of results/<timestamp>-<name>/")
    add_server_host_arguments(parser)
    parser.add_argument("--load-hosts", type=host_list, metavar="HOST,HOST,...",
                        help="run the load tool (vegeta) on these hosts, reached with ssh, the rate or the "
                             "connections split evenly, all starting at one instant (their clocks are checked "
                             "first); their results are merged (default: this machine)")
    parser.add_argument("--url", metavar="URL",
                        help="load a server the lab did not start (a staging Payara): http://HOST[:PORT][/PREFIX]; "
                             "nothing is started or restarted, its figures come from its /metrics and, with "
                             "--server-ssh and --server-pid, from its /proc and jcmd")
    parser.add_argument("--server-ssh", type=host_argument, metavar="HOST",
                        help="with --url: the host the server runs on, reached with ssh, to read its /proc and run jcmd")
    parser.add_argument("--server-pid", type=whole_number(1, 2**22, "--server-pid"), metavar="PID",
                        help="with --url and --server-ssh: the server JVM's pid on that host")


def host_list(text):
    """argparse type of --load-hosts: hosts as --server-host takes them, each once."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"--load-hosts takes HOST,HOST,... each once, was '{text}'")
    return tuple(host_argument(name) for name in names)


def with_load_hosts(config, args, drivers=("vegeta",)):
    """`config` with --load-hosts (their clocks read and checked now); a UsageError for a load tool
    other than vegeta or a host that is this machine."""
    hosts = getattr(args, "load_hosts", None)
    if not hosts:
        return config
    if any(not host.remote for host in hosts):
        raise UsageError("--load-hosts names other hosts (reached with ssh); leave it out to load from this machine")
    others = [d for d in drivers if d != "vegeta"]
    if others:
        raise UsageError(f"--load-hosts runs vegeta on each host; {', '.join(others)} cannot run there yet")
    return replace(config, load_hosts=LoadHosts(hosts, tuple(check_clocks(hosts))))


def record_where(env, config, args):
    """env.json says where the run's servers and load ran: the server's host (--server-host) or the
    server the lab did not start (--url), and the load hosts with their clocks (--load-hosts)."""
    return record_load_hosts(record_server_url(record_server_host(env, config), args), config)


def record_load_hosts(env, config):
    """env.json's "load_hosts": each host and its clock's offset from this machine's, read before the run."""
    if getattr(config, "load_hosts", None):
        env["load_hosts"] = config.load_hosts.to_dict()
    return env


def use_url(args):
    """--url: registers the one target of a server the lab did not start and makes it the run's
    only target (a UsageError beside --modes or --server-host, or with half of --server-ssh/--server-pid)."""
    if not getattr(args, "url", None):
        if getattr(args, "server_ssh", None) or getattr(args, "server_pid", None):
            raise UsageError("--server-ssh and --server-pid name the JVM behind --url: give --url too")
        return None
    url = check_url(args.url)
    if getattr(args, "modes", None):
        raise UsageError("--url loads the one server at that URL: leave out --modes")
    if getattr(args, "server_host", None) is not None and args.server_host.remote:
        raise UsageError("--url loads a server that already runs; --server-host starts one: choose one")
    if (args.server_ssh is None) != (args.server_pid is None):
        raise UsageError("--server-ssh and --server-pid go together: the host the JVM runs on, and its pid there")
    if args.server_ssh is not None and not args.server_ssh.remote:
        raise UsageError("--server-ssh names another host; for a server on this machine, --server-pid alone is "
                         "not supported yet: give --server-ssh localhost's ssh name")
    java_home = None
    if args.server_ssh is not None:
        from labkit.hosts.java import java_home_on
        java_home = java_home_on(args.server_ssh, getattr(args, "remote_java", None))
    register(url_target(url, on=args.server_ssh, pid=args.server_pid, java_home=java_home))
    args.modes = (TARGET_NAME,)
    return url


def record_server_url(env, args):
    """env.json's "server_url": the server the lab did not start, and the figures it cannot take."""
    if not getattr(args, "url", None):
        return env
    named = args.server_ssh is not None
    lacks = [] if named else [
        "server CPU, RSS and OS threads (/proc): give --server-ssh HOST --server-pid PID",
        "JFR (GC pauses, heap, pinning) and jcmd: give --server-ssh HOST --server-pid PID"]
    env["server_url"] = {"url": check_url(args.url), "restarted": False,
                         "ssh": str(args.server_ssh) if named else None, "pid": args.server_pid,
                         "lacks": lacks + ["the server's log and its start command: the server's own",
                                           "the JVM options and the mode: the server's own configuration"]}
    return env


def on_server_host(config, args, targets):
    """`config` with the host of --server-host (unchanged for this machine); a UsageError naming the
    targets that cannot start on another host."""
    host = getattr(args, "server_host", None)
    if host is None or not host.remote:
        return config
    cannot = [target.name for target in targets.values() if not target.takes_host]
    if cannot:
        raise UsageError(f"--server-host starts Payara Micro targets only for now; {', '.join(cannot)} cannot start "
                         f"on another host")
    return replace(config, server_host=host, remote_java=args.remote_java)


def record_server_host(env, config):
    """env.json names the server's host, with its facts, when the servers ran on another one."""
    host = getattr(config, "server_host", None)
    if host is not None and host.remote:
        from labkit.hosts.java import java_home_on
        env["server_host"] = server_host_facts(host, java_home_on(host, config.remote_java))
    return env


def check_port(config):
    """Nothing may answer on the server's port where the server will listen."""
    host = getattr(config, "server_host", None)
    if host is not None and host.remote:
        ensure_nothing_answers(config.port, host.address)
    else:
        ensure_port_free(config.port)


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
