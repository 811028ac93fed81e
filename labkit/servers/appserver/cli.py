"""The lab's entry points for full servers: `./lab run MODE --server KIND`, bench targets, and
`python3 -m labkit.<kind> prepare` (a stopped domain for an Arquillian profile)."""
import argparse
import importlib
import sys
from pathlib import Path

from labkit.ground.arguments import single_line, whole_number
from labkit.ground.errors import LabError, UsageError
from labkit.ground.process import interrupt_on_signals
from labkit.servers.userapp import ready_urls
from labkit.servers.appserver.asadmin import ADMIN_USER
from labkit.servers.appserver.passwords import generate_password, write_secret

# --server values of the full servers, and the module whose SERVER is that kind's AppServer class.
SERVER_MODULES = {"payara-server": "labkit.servers.appserver.payara_server", "glassfish": "labkit.servers.appserver.glassfish"}
CONSOLE_PATH = "Configurations → server-config → Thread Pools → http-thread-pool"


def server_class(kind):
    return importlib.import_module(SERVER_MODULES[kind]).SERVER


def add_run_arguments(parser):
    """The options `./lab run` has for the full servers (its other options apply to every server)."""
    parser.add_argument("--server", choices=("payara-micro", *SERVER_MODULES), default="payara-micro",
                        help="payara-micro (default), payara-server or glassfish (full servers with an admin console)")
    parser.add_argument("--admin-password-file", metavar="FILE",
                        help="payara-server, glassfish: the admin password (first line, or AS_ADMIN_PASSWORD=...); "
                             "default: generated once per domain and saved in the domain's loomlab/ folder")
    parser.add_argument("--console-host", default="127.0.0.1", type=single_line,
                        help="payara-server, glassfish: address of the admin console (default 127.0.0.1, loopback only)")


def run(args, port):
    """`./lab run MODE --server KIND`: the domain in MODE, in the foreground until Ctrl-C."""
    from labkit.ground.build import ensure_built
    from labkit.measure.foreground import serve
    from labkit.servers.modes import payara_mode

    cls = server_class(args.server)
    mode = payara_mode(args.mode)
    if not _is_loopback(args.console_host):
        # The servers refuse remote administration unless secure admin (TLS) is on, and the lab
        # leaves it off: the console would listen on that address but refuse every login.
        raise UsageError(f"--console-host {args.console_host}: the lab runs the admin console without secure "
                         f"admin, which {cls.PRODUCT} allows from loopback only; use 127.0.0.1 (e.g. with ssh -L)")
    server = cls(mode, port=port, host=args.host, jvm_options=args.jvm_opt,
                 admin_password_file=args.admin_password_file, console_host=args.console_host,
                 apps=getattr(args, "wars", ()))
    server._check_ports()  # before a build or a download, so a busy port fails fast
    ensure_built(rebuild=args.rebuild)
    print(f"mode {mode.name} on {cls.PRODUCT} {server.distribution.version}: {mode.description}")
    print(f"domain: {server.domain.dir}", flush=True)
    with server:
        info = server.info()
        print(f"log: {server.log_path}")
        print(f"ready: {ready_urls(server.base_url, server.apps)}  (pid {info['pid']}, Java {info['java']['version']}, "
              f"request thread: {info['request']['thread']}, virtual={info['request']['virtual']})")
        print(f"admin console: {server.console_url}  (user {ADMIN_USER}, password: "
              f"{args.admin_password_file or server.domain.password_file})")
        print(f"  thread pool: {CONSOLE_PATH}; Save, then server (Admin Server) → Restart")
        # The launcher outlives restarts from the console; it exits when the server stops for good.
        return serve(server, cls.PRODUCT)


def _is_loopback(host):
    return host in ("localhost", "::1") or host.startswith("127.")


def register_targets(cls, prefix):
    """One bench target per mode, `<prefix><mode>`, beside the Payara Micro modes."""
    from labkit.servers.registry import Target, register_mode_targets

    def starter(mode):
        def start(port, jvm_options=(), jvm_defaults=True, apps=()):  # the domain keeps its own JVM options
            return cls(mode, port=port, jvm_options=jvm_options, apps=apps).start()
        return start

    register_mode_targets(prefix, lambda mode: Target(prefix + mode.name, f"{cls.PRODUCT}: " + mode.description,
                                                      mode.max_concurrent, starter(mode), virtual=mode.virtual,
                                                      takes_wars=True))


# ---- python3 -m labkit.<kind> prepare -------------------------------------------------------------

def _properties_escape(value):
    escaped = value.replace("\\", "\\\\")
    for char in ":=#! ":
        escaped = escaped.replace(char, "\\" + char)
    return escaped.encode("ascii", "backslashreplace").decode().replace("\\x", "\\u00")


def prepare_main(cls, prog, argv=None):
    """Prepares a stopped domain in a mode for an Arquillian profile of app/pom.xml, where the
    managed container starts it, deploys the test WAR and stops it again."""
    from labkit.servers.modes import payara_mode

    parser = argparse.ArgumentParser(prog=f"python3 -m {prog}")
    commands = parser.add_subparsers(dest="command", required=True)
    prepare = commands.add_parser("prepare", help="create or update a domain in MODE, and leave it stopped")
    prepare.add_argument("--mode", required=True)
    prepare.add_argument("--port", type=whole_number(1, 65535, "--port"), required=True, help="HTTP port (the console is port - 32)")
    prepare.add_argument("--domain", required=True, help=f"domain name (in {cls.DISTRIBUTION.DEFAULT_HOME.name}/)")
    prepare.add_argument("--admin-password-file", required=True,
                         help="the admin password; written with a generated one when the file does not exist")
    prepare.add_argument("--properties", help="also write the server home, admin port and password there, "
                                              "as Java properties for Failsafe's systemPropertiesFile")
    args = parser.parse_args(argv)
    interrupt_on_signals()
    name = cls.DISTRIBUTION.DEFAULT_HOME.name

    def log(message):
        print(f"{name}: {message}", flush=True)
    try:
        mode = payara_mode(args.mode)
        password_file = Path(args.admin_password_file)
        if not password_file.exists():
            write_secret(password_file, generate_password() + "\n")
        server = cls(mode, port=args.port, domain_name=args.domain,
                     admin_password_file=password_file, deploy=False, log=log)
        server.prepare()
        log(f"domain {server.domain.name} holds {args.mode}; console port {server.ports.admin}")
        if args.properties:
            # The ports too: GlassFish's managed container writes its own into domain.xml at each start
            # (8080 and 8181 unless told).
            properties = {"loomlab.server.home": str(server.distribution.root),
                          "loomlab.server.adminPort": str(server.ports.admin),
                          "loomlab.server.httpPort": str(server.ports.http),
                          "loomlab.server.httpsPort": str(server.ports.https),
                          "loomlab.server.adminPassword": server.admin_password}
            write_secret(args.properties, "".join(f"{k}={_properties_escape(v)}\n" for k, v in properties.items()))
    except LabError as e:
        print(f"{name}: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print(f"{name}: interrupted, stopped.", file=sys.stderr)
        return 130
    return 0

