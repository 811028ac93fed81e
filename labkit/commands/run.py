"""./lab run MODE: one server (Payara Micro, or a full server with --server) in a thread mode, in
the foreground until Ctrl-C."""
from labkit.apps import cargotracker
from labkit.ground.arguments import port_number, single_line
from labkit.servers.appserver import cli as appserver_cli
from labkit.ground.build import ensure_built
from labkit.servers.carriers import add_carriers_argument, carrier_options, check_carrier_options
from labkit.ground.errors import UsageError
from labkit.measure.foreground import serve
from labkit.servers.modes import choices, payara_mode
from labkit.servers.payara_micro import PayaraMicro
from labkit.ground.process import ensure_port_free
from labkit.servers.userapp import add_war_argument, check_wars, ready_urls


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
    appserver_cli.add_run_arguments(p)  # --server payara-server|glassfish and their options
    p.set_defaults(run=run)


def run(args):
    conflict = check_carrier_options(args.carriers, args.jvm_opt)
    if conflict:
        raise UsageError(conflict)
    # Every server kind takes its JVM options from here.
    args.jvm_opt = list(args.jvm_opt) + carrier_options(args.carriers)
    args.wars = check_wars(args.wars)
    if args.wars and args.app != "loomlab":
        raise UsageError("--war serves your WAR beside the lab's probe; leave out --app")
    if args.app == "cargotracker":
        return cargotracker.run(args)
    port = port_number(args.port)
    if args.server != "payara-micro":
        return appserver_cli.run(args, port)
    mode = payara_mode(args.mode)
    ensure_port_free(port, args.host)
    ensure_built(rebuild=args.rebuild)
    server = PayaraMicro(mode, port=port, host=args.host, jvm_options=args.jvm_opt, jvm_defaults=args.jvm_defaults,
                         apps=args.wars)
    print(f"mode {mode.name}: {mode.description}")
    print("command:", server.printable_command(), flush=True)
    print(f"log: {server.log_path}", flush=True)
    with server:
        info = server.info()
        print(f"ready: {ready_urls(server.base_url, args.wars)}  (pid {info['pid']}, Java {info['java']['version']}, "
              f"request thread: {info['request']['thread']}, virtual={info['request']['virtual']})")
        return serve(server, "Payara Micro")
