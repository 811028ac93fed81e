"""./lab run MODE: one server in a thread mode, in the foreground until Ctrl-C — Payara Micro, or a
full server (--server payara-server|glassfish), with the lab's WAR, your WARs (--war) or
CargoTracker (--app cargotracker). Every kind goes the same way: the kind describes its server
(labkit.servers.interface.Foreground), then this module builds what is missing, prints what the
kind says, starts it, prints the ready line and serves it (labkit.measure.foreground)."""
from labkit.apps import cargotracker
from labkit.ground.arguments import port_number, single_line
from labkit.ground.build import ensure_built
from labkit.ground.errors import UsageError
from labkit.hosts.local import is_this_machine
from labkit.hosts.options import add_server_host_arguments
from labkit.measure.foreground import serve
from labkit.servers import payara_micro
from labkit.servers.appserver import cli as appserver
from labkit.servers.appserver.kinds import KINDS
from labkit.servers.carriers import add_carriers_argument, carrier_options, check_carrier_options
from labkit.servers.interface import ready_line
from labkit.servers.modes import choices, payara_mode
from labkit.servers.userapp import add_war_argument, check_wars

SERVERS = ("payara-micro", *KINDS)


def register(subparsers):
    p = subparsers.add_parser("run", help="start Payara Micro (or Payara Server, GlassFish) with the lab app in one thread mode",
                              description="Start Payara Micro (--server: Payara Server or GlassFish) in MODE and keep it running until Ctrl-C.")
    p.add_argument("mode", metavar="MODE", help="one of: " + choices() + " (domain-config/)")
    p.add_argument("--port", default="8080", help="HTTP port (default 8080)")
    p.add_argument("--host", default="127.0.0.1", type=single_line, help="address to listen on (default 127.0.0.1, loopback only)")
    p.add_argument("--jvm-opt", action="append", default=[], metavar="OPT", type=single_line,
                   help="extra JVM option, repeatable (e.g. --jvm-opt=-Xmx2g)")
    p.add_argument("--no-jvm-defaults", dest="jvm_defaults", action="store_false",
                   help="leave out domain-config/jvm.options (heap, young generation, Grizzly read buffer)")
    p.add_argument("--rebuild", action="store_true", help="rebuild the WAR and pool jar first")
    p.add_argument("--app", choices=("loomlab", "cargotracker"), default="loomlab",
                   help="the WAR to serve: loomlab (sleep/work API, default) or cargotracker (the Faces shipping app)")
    add_war_argument(p)
    add_carriers_argument(p)
    p.add_argument("--server", choices=SERVERS, default="payara-micro",
                   help="payara-micro (default), payara-server or glassfish (full servers with an admin console)")
    p.add_argument("--payara", choices=("6", "7"), default="6",
                   help="Payara Micro's release line: 6 (Jakarta EE 10, default) or 7 (Jakarta EE 11); "
                        "bench and capacity name 7's targets payara7-MODE")
    p.add_argument("--admin-password-file", metavar="FILE",
                   help="payara-server, glassfish: the admin password (first line, or AS_ADMIN_PASSWORD=...); "
                        "default: generated once per domain and saved in the domain's loomlab/ folder")
    p.add_argument("--console-host", default="127.0.0.1", type=single_line,
                   help="payara-server, glassfish: address of the admin console (default 127.0.0.1, loopback only)")
    add_server_host_arguments(p)
    p.set_defaults(run=run)


def foreground(args, mode, port):
    """The kind's description of the server to run: the app first (CargoTracker runs on two kinds),
    then the server kind."""
    if args.app == "cargotracker":
        return cargotracker.foreground(args, mode, port)
    if args.server == "payara-micro":
        return payara_micro.foreground(args, mode, port)
    return appserver.foreground(KINDS[args.server], args, mode, port)


def run(args):
    if not is_this_machine(args.server_host) and args.app != "loomlab":
        raise UsageError("./lab run --server-host serves the lab's WAR (and your WARs) for now; leave out --app "
                         "(bench, capacity and soak start CargoTracker there: cargotracker-MODE)")
    if args.payara != "6" and args.server != "payara-micro":
        raise UsageError(f"--payara {args.payara} is Payara Micro's line: Payara Server 7 is not on Maven Central; "
                         f"leave out --server or --payara")
    conflict = check_carrier_options(args.carriers, args.jvm_opt)
    if conflict:
        raise UsageError(conflict)
    # Every server kind takes its JVM options from here.
    args.jvm_opt = list(args.jvm_opt) + carrier_options(args.carriers)
    args.wars = check_wars(args.wars)
    if args.wars and args.app != "loomlab":
        raise UsageError("--war serves your WAR beside the lab's probe; leave out --app")
    port = port_number(args.port)
    mode = payara_mode(args.mode)
    plan = foreground(args, mode, port)
    if plan.artifacts is None:
        ensure_built(rebuild=args.rebuild)
    else:
        ensure_built(plan.artifacts, rebuild=args.rebuild)
    for line in plan.before():
        print(line, flush=True)
    with plan.server as server:
        info = server.info()
        print(ready_line(plan.urls(server), info))
        for line in plan.after(server, info) if plan.after else ():
            print(line)
        return serve(server, plan.product)
