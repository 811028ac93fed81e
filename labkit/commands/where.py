"""Where a run's servers and load are (./lab bench, capacity, soak): --server-host (start the servers
on another host), --load-hosts (vegeta on several hosts), --url (a server the lab did not start) with
--server-ssh/--server-pid; checked before anything starts, and recorded in env.json."""
import argparse
from dataclasses import replace

from labkit.ground.arguments import whole_number
from labkit.ground.errors import UsageError
from labkit.hosts.local import is_this_machine
from labkit.hosts.options import add_server_host_arguments, host_argument
from labkit.load.spread import LoadHosts, check_clocks
from labkit.measure.env import server_host_facts
from labkit.servers.external import TARGET_NAME, check_url, url_target
from labkit.servers.registry import register


def add_where_arguments(parser):
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
    parser.add_argument("--no-server-gc", dest="server_gc", action="store_false",
                        help="with --server-ssh: do not force a full GC (jcmd GC.run) in that JVM after the warm-up "
                             "and after each window (the lab does, so that each window starts from the same heap)")
    parser.add_argument("--no-server-jfr", dest="server_jfr", action="store_false",
                        help="with --server-ssh: do not record JFR in that JVM (the lab does, for GC pauses, "
                             "pinning and CPU profiles; each window's dump is written to ~/.loomlab/jfr there and removed "
                             "once copied)")


def host_list(text):
    """argparse type of --load-hosts: hosts as --server-host takes them, each once."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"--load-hosts takes HOST,HOST,... each once, was '{text}'")
    return tuple(host_argument(name) for name in names)


def with_setup(config, **changes):
    """`config` whose ServerSetup (measure/server_setup.py) has `changes`."""
    return replace(config, setup=replace(config.setup, **changes))


def with_load_hosts(config, args, drivers=("vegeta",)):
    """`config` with --load-hosts (their clocks read and checked now); a UsageError for a load tool
    other than vegeta or a host that is this machine."""
    hosts = args.load_hosts
    if not hosts:
        return config
    if any(is_this_machine(host) for host in hosts):
        raise UsageError("--load-hosts names other hosts (reached with ssh); leave it out to load from this machine")
    others = [d for d in drivers if d != "vegeta"]
    if others:
        raise UsageError(f"--load-hosts runs vegeta on each host; {', '.join(others)} cannot run there yet")
    return with_setup(config, load_hosts=LoadHosts(hosts, tuple(check_clocks(hosts))))


def record_where(env, config, args):
    """env.json says where the run's servers and load ran: the server's host (--server-host) or the
    server the lab did not start (--url), and the load hosts with their clocks (--load-hosts)."""
    return record_load_hosts(record_server_url(record_server_host(env, config), args), config)


def record_load_hosts(env, config):
    """env.json's "load_hosts": each host and its clock's offset from this machine's, read before the run."""
    if config.setup.load_hosts:
        env["load_hosts"] = config.setup.load_hosts.to_dict()
    return env


def use_url(args):
    """--url: registers the one target of a server the lab did not start and makes it the run's
    only target (a UsageError beside --modes or --server-host, or with half of --server-ssh/--server-pid)."""
    if not args.url:
        if args.server_ssh or args.server_pid:
            raise UsageError("--server-ssh and --server-pid name the JVM behind --url: give --url too")
        if not args.server_gc or not args.server_jfr:
            raise UsageError("--no-server-gc and --no-server-jfr spare a server the lab did not start: "
                             "give --url and --server-ssh too (the lab's own servers always get both)")
        return None
    url = check_url(args.url)
    if args.modes:
        raise UsageError("--url loads the one server at that URL: leave out --modes")
    if not is_this_machine(args.server_host):
        raise UsageError("--url loads a server that already runs; --server-host starts one: choose one")
    if (args.server_ssh is None) != (args.server_pid is None):
        raise UsageError("--server-ssh and --server-pid go together: the host the JVM runs on, and its pid there")
    if args.server_ssh is not None and is_this_machine(args.server_ssh):
        raise UsageError("--server-ssh names another host; for a server on this machine, --server-pid alone is "
                         "not supported yet: give --server-ssh localhost's ssh name")
    if args.server_ssh is None and (not args.server_gc or not args.server_jfr):
        raise UsageError("--no-server-gc and --no-server-jfr concern the JVM --server-ssh reaches; without it "
                         "the lab neither collects nor records there")
    java_home = None
    if args.server_ssh is not None:
        from labkit.hosts.java import java_home_on
        java_home = java_home_on(args.server_ssh, args.remote_java)
    register(url_target(url, on=args.server_ssh, pid=args.server_pid, java_home=java_home,
                        full_gc=args.server_gc, jfr=args.server_jfr))
    args.modes = (TARGET_NAME,)
    return url


def record_server_url(env, args):
    """env.json's "server_url": the server the lab did not start, and the figures it cannot take."""
    if not args.url:
        return env
    named = args.server_ssh is not None
    lacks = [] if named else [
        "server CPU, RSS and OS threads (/proc): give --server-ssh HOST --server-pid PID",
        "JFR (GC pauses, heap, pinning) and jcmd: give --server-ssh HOST --server-pid PID"]
    env["server_url"] = {"url": check_url(args.url), "restarted": False,
                         "ssh": str(args.server_ssh) if named else None, "pid": args.server_pid,
                         "lab_did": lab_did(args),
                         "lacks": lacks + ["the server's log and its start command: the server's own",
                                           "the JVM options and the mode: the server's own configuration"]}
    return env


def lab_did(args):
    """What the lab did to a server it did not start, beside sending requests, each with the option
    that turns it off: nothing without --server-ssh."""
    if args.server_ssh is None:
        return []
    did = [f"read /proc/{args.server_pid} on {args.server_ssh} over ssh"]
    if args.server_gc:
        did.append("forced a full GC (jcmd GC.run) after the warm-up and after every window (--no-server-gc: not)")
    if args.server_jfr:
        did.append("recorded JFR in the JVM, each window's dump written to ~/.loomlab/jfr there and removed once "
                   "copied (--no-server-jfr: not)")
    return did


def on_server_host(config, args, targets):
    """`config` with the host of --server-host (unchanged for this machine); a UsageError naming the
    targets that cannot start on another host."""
    host = args.server_host
    if is_this_machine(host):
        return config  # the setup's server_host stays None: ServerSetup.remote_host
    cannot = [target.name for target in targets.values() if not target.takes_host]
    if cannot:
        raise UsageError(f"--server-host: {', '.join(cannot)} cannot start on another host (Payara Micro's modes, "
                         f"Payara Server's and GlassFish's, CargoTracker and the JDK, Helidon and Vert.x baselines can)")
    return with_setup(config, server_host=host, remote_java=args.remote_java)


def record_server_host(env, config):
    """env.json names the server's host, with its facts, when the servers ran on another one."""
    host = config.setup.remote_host
    if host is not None:
        from labkit.hosts.java import java_home_on
        env["server_host"] = server_host_facts(host, java_home_on(host, config.setup.remote_java))
    return env


def check_port(config):
    """Nothing may answer on the server's port where the server will listen (with --url the lab starts
    no server: the one it loads may well listen on that port here)."""
    if TARGET_NAME in config.modes:
        return
    config.setup.host.check_port(config.setup.port, "127.0.0.1")
