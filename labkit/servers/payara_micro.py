"""Payara Micro in one thread mode, started as a user would start it."""
import urllib.request

from labkit import ROOT
from labkit.ground.build import PAYARA_MICRO_JARS, WAR, pool_jar
from labkit.ground.errors import LabError
from labkit.ground.jdk import find_java_home
from labkit.ground.process import tail, wait_until
from labkit.servers.hosting import HostedProcess, HostedServer
from labkit.servers.interface import Foreground
from labkit.servers.userapp import PROBE_ROOT, deployment_failure, info_path, micro_failure_message, ready_urls

# JVM options every Payara Micro of the lab starts with, whatever its mode (why each: in the file).
JVM_DEFAULTS_FILE = ROOT / "domain-config" / "jvm.options"
# Lab-wide lines added after the mode's own pre-boot file.
BIND_LOOPBACK = "set configs.config.server-config.network-config.network-listeners.network-listener.http-listener.address={host}\n"


# Options that size the heap or its young generation. One that sizes the heap replaces all of the
# defaults' (a -Xmx1g after the defaults' -Xms4g would stop the JVM from starting, and their 2 GB young
# generation would not fit); one that sizes only the young generation replaces the defaults' young
# generation and keeps their heap (a target on a smaller young generation, servers/collectors.py).
HEAP_TOTAL = ("-Xms", "-Xmx", "-XX:InitialHeapSize=", "-XX:MaxHeapSize=")
HEAP_YOUNG = ("-Xmn", "-XX:NewSize=", "-XX:MaxNewSize=")
HEAP_SIZING = HEAP_TOTAL + HEAP_YOUNG


def lab_jvm_options(path=JVM_DEFAULTS_FILE):
    """The options of domain-config/jvm.options: one a line, `#` starts a comment line."""
    lines = (line.strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def with_lab_defaults(jvm_options, defaults):
    """The defaults, then the caller's options; the defaults' heap sizing is left out when the
    caller sizes the heap, their young generation's when the caller sizes only that."""
    if any(option.startswith(HEAP_TOTAL) for option in jvm_options):
        replaced = HEAP_SIZING
    elif any(option.startswith(HEAP_YOUNG) for option in jvm_options):
        replaced = HEAP_YOUNG
    else:
        replaced = ()
    kept = [option for option in defaults if not (replaced and option.startswith(replaced))]
    return kept + list(jvm_options)


class PayaraMicro(HostedServer):
    """One Payara Micro process serving the lab WAR in `mode` on host:port; `line` is the Payara
    release line (6 or 7: ground/build.py's jar of each); `on` is the host that runs it (labkit.hosts:
    this machine, or one reached with SSH, where it listens on that host's address and runs the JDK
    found there or `remote_java`: servers/hosting.py)."""

    def __init__(self, mode, port=8080, host="127.0.0.1", war=WAR, jvm_options=(), java_home=None,
                 startup_timeout=180, jvm_defaults=True, apps=(), on=None, remote_java=None, cpus=None, line=6,
                 run_files=None):
        self.mode = mode
        # {name: text} written into the run folder beside the pre-boot file (owner-only, here and there).
        self.run_files = dict(run_files or {})
        self.line = line
        self.jar = PAYARA_MICRO_JARS[line]
        # Your own WARs (userapp.UserWar): deployed first, then `war` as the probe at userapp.PROBE_ROOT.
        self.apps = tuple(apps)
        self.info_path = info_path(self.apps)
        self.port = port
        self.war = war
        self.jvm_options = with_lab_defaults(jvm_options, lab_jvm_options() if jvm_defaults else [])
        self.java_home = java_home or find_java_home()
        run_name = f"{mode.name}-{port}" if line == 6 else f"payara{line}-{mode.name}-{port}"
        self.hosted = HostedProcess(run_name, self.java_home, on, remote_java, cpus)
        self.on = self.hosted.on
        self.host = self.hosted.address(host)
        self._server_java_home = self.hosted.java_home
        self.startup_timeout = startup_timeout
        self.run_dir = self.hosted.run_dir
        self.log_path = self.run_dir / "server.log"
        self._staged = None

    @property
    def product(self):
        return "Payara Micro" if self.line == 6 else f"Payara Micro {self.line}"

    def _files(self):
        """The paths the command names, on the host that runs it."""
        if self._staged is None:
            wanted = {"jar": self.jar, "war": self.war, **{f"app{i}": app.path for i, app in enumerate(self.apps)}}
            library = pool_jar(self.mode)
            if library:
                wanted["pool"] = library
            self._staged = self.hosted.files(wanted)
        return self._staged

    def command(self):
        """The exact command line, with paths a user can copy (on the host that runs it)."""
        files = self._files()
        run_dir = self.hosted.host_run_dir
        command = [self.hosted.java(), *self.jvm_options, "-jar", files["jar"]]
        if "pool" in files:
            command += ["--addlibs", files["pool"]]
        command += ["--prebootcommandfile", f"{run_dir}/pre-boot-commands.asadmin",
                    "--rootdir", f"{run_dir}/runtime",
                    "--port", str(self.port), "--nocluster", "--disablephonehome",
                    *self._deploy_arguments(files)]
        return self.hosted.pinned(command)

    def _deploy_arguments(self, files):
        if not self.apps:
            return ["--deploy", files["war"]]
        # Micro deploys in this order before it serves: the probe last, so its answer means every WAR
        # was deployed (or failed).
        deploys = [f"{files[f'app{i}']}:{app.context_root}" for i, app in enumerate(self.apps)] + [f"{files['war']}:{PROBE_ROOT}"]
        return [arg for deploy in deploys for arg in ("--deploy", deploy)]

    def start(self):
        self.hosted.ensure_port(self.port, self.host)
        # A fresh runtime folder each time; the mode's complete pre-boot file (labkit/servers/modes.py),
        # then the lab's own line.
        self.hosted.fresh_run_folder({**self.run_files,
                                      "pre-boot-commands.asadmin": self.mode.preboot
                                      + "\n# Added by ./lab: listen on this address only.\n"
                                      + BIND_LOOPBACK.format(host=self.host)})
        self.hosted.spawn(self.command(), self.log_path)
        try:
            ready = wait_until(self.is_ready, self.startup_timeout, self.process)
        except BaseException:
            self.stop()  # Ctrl-C while booting: stop the JVM gracefully, not only by its death signal
            raise
        if self.apps:
            self._check_deployments()
        if not ready:
            exited = self.process.poll() is not None
            self.stop()
            why = "exited" if exited else f"was not ready within {self.startup_timeout} s"
            raise LabError(f"{self.product} ({self.mode.name}) {why}; last lines of {self.log_path}:\n{tail(self.log_path)}")
        self.hosted.watch()
        return self

    def _check_deployments(self):
        """Your WARs on Payara Micro: a deployment that failed stops the server with what it needs."""
        try:
            failure = deployment_failure(self.log_path.read_text(errors="replace"))
        except OSError:
            failure = None
        if failure:
            self.stop()
            raise LabError(micro_failure_message(failure, self.apps, self.log_path))

    def is_ready(self):
        try:
            with urllib.request.urlopen(self.base_url + self.info_path, timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    def stop(self):
        self.hosted.stop()


def foreground(args, mode, port):
    """`./lab run MODE`: Payara Micro with the lab's WAR (and your WARs, --war) on args.host:port, or
    on the server host's address (--server-host)."""
    on = args.server_host
    on.check_port(port, args.host)  # before a build: a busy port fails fast
    server = PayaraMicro(mode, port=port, host=args.host, jvm_options=args.jvm_opt, jvm_defaults=args.jvm_defaults,
                         apps=args.wars, on=on, remote_java=args.remote_java, line=int(args.payara))
    return Foreground(server, server.product,
                      before=lambda: [f"mode {mode.name} on {server.product}: {mode.description}",
                              f"command: {server.printable_command()}",
                              f"log: {server.log_path}"],
                      urls=lambda started: ready_urls(started.base_url, args.wars))

