"""The lab's entry points for full servers: `./lab run MODE --server KIND`, bench targets, and
`python3 -m labkit.<kind> prepare` (a stopped domain for an Arquillian profile)."""
import argparse
import sys
from functools import singledispatch
from pathlib import Path

from labkit.ground.arguments import whole_number
from labkit.ground.errors import LabError, UsageError
from labkit.ground.process import interrupt_on_signals
from labkit.hosts.local import LocalHost
from labkit.servers.interface import Foreground
from labkit.servers.userapp import ready_urls
from labkit.servers.appserver.asadmin import ADMIN_USER
from labkit.servers.appserver.on_host import DomainOnHost
from labkit.servers.appserver.passwords import generate_password, write_secret

CONSOLE_PATH = "Configurations → server-config → Thread Pools → http-thread-pool"


def foreground(cls, args, mode, port):
    """`./lab run MODE --server KIND`: the domain of server class `cls` in MODE on args.host:port."""
    if not _is_loopback(args.console_host):
        # The servers refuse remote administration unless secure admin (TLS) is on, and the lab
        # leaves it off: the console would listen on that address but refuse every login.
        raise UsageError(f"--console-host {args.console_host}: the lab runs the admin console without secure "
                         f"admin, which {cls.PRODUCT} allows from loopback only; use 127.0.0.1 (e.g. with ssh -L)")
    server = cls(mode, port=port, host=args.host, jvm_options=args.jvm_opt,
                 admin_password_file=args.admin_password_file, console_host=args.console_host,
                 apps=args.wars)
    server._check_ports()  # before a build or a download, so a busy port fails fast
    return _foreground_on(args.server_host, cls, server, args, mode)


# Where a domain configured here is served is the host's kind's to say (singledispatch on it): this
# machine serves it in place, any other host a copy (on_host.py). A new host kind that is not this
# machine needs nothing here.
@singledispatch
def _served_on(on, server, remote_java=None, cpus=None):
    return DomainOnHost(server, on, remote_java=remote_java, cpus=cpus)


@_served_on.register
def _served_here(on: LocalHost, server, remote_java=None, cpus=None):
    return server  # the lab pinned itself while starting it (LocalHost.pinning)


@singledispatch
def _foreground_on(on, cls, server, args, mode):
    """`./lab run MODE --server KIND --server-host HOST`: the domain configured here, served there."""
    there = _served_on(on, server, remote_java=args.remote_java)
    return Foreground(there, cls.PRODUCT,
                      before=lambda: [f"mode {mode.name} on {cls.PRODUCT} {server.distribution.version} on {on}: "
                                      f"{mode.description}",
                                      f"domain: {server.domain.dir} (configured here, copied to {on})"],
                      urls=lambda started: ready_urls(started.base_url, started.apps),
                      after=lambda started, info: [f"log: {started.log_path}",
                                                   f"command there: {started.printable_command()}"])


@_foreground_on.register
def _foreground_here(on: LocalHost, cls, server, args, mode):
    """`./lab run MODE --server KIND`: the domain served where it was configured, its console here."""
    def after(started, info):
        # The launcher outlives restarts from the console; it exits when the server stops for good.
        return [f"log: {started.log_path}",
                f"admin console: {started.console_url}  (user {ADMIN_USER}, password: "
                f"{args.admin_password_file or started.domain.password_file})",
                f"  thread pool: {CONSOLE_PATH}; Save, then server (Admin Server) → Restart"]
    return Foreground(server, cls.PRODUCT,
                      before=lambda: [f"mode {mode.name} on {cls.PRODUCT} {server.distribution.version}: {mode.description}",
                              f"domain: {server.domain.dir}"],
                      urls=lambda started: ready_urls(started.base_url, started.apps),
                      after=after)


def _is_loopback(host):
    return host in ("localhost", "::1") or host.startswith("127.")


def register_targets(cls, prefix):
    """One bench target per mode, `<prefix><mode>`, beside the Payara Micro modes."""
    from labkit.servers.registry import Target, register_mode_targets

    def starter(mode):
        # The domain keeps its own JVM options (jvm_defaults). On another host (on=): configured
        # here, booted there (on_host.py).
        def start(port, jvm_options=(), jvm_defaults=True, apps=(), on=None, remote_java=None, cpus=None):
            server = cls(mode, port=port, jvm_options=jvm_options, apps=apps)
            return _served_on(on or LocalHost(), server, remote_java=remote_java, cpus=cpus).start()
        return start

    register_mode_targets(prefix, lambda mode: Target(prefix + mode.name, f"{cls.PRODUCT}: " + mode.description,
                                                      mode.max_concurrent, starter(mode), virtual=mode.virtual,
                                                      takes_wars=True, takes_host=True))


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

