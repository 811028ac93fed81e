"""Payara Micro in one thread mode, started as a user would start it."""
import shlex
import shutil
import urllib.request

from labkit import ROOT
from labkit.ground.build import PAYARA_MICRO_JAR, VIRTUAL_POOL_JAR, WAR
from labkit.ground.errors import LabError
from labkit.ground.jdk import find_java_home, java_env
from labkit.ground.process import ensure_nothing_answers, ensure_port_free, spawn, stop, tail, wait_until
from labkit.hosts.host import LocalHost
from labkit.hosts.java import java_home_on
from labkit.hosts.procfeed import RemoteProcFeed
from labkit.servers.interface import Foreground, LabServer
from labkit.servers.userapp import PROBE_ROOT, deployment_failure, info_path, micro_failure_message, ready_urls

RUNS = ROOT / ".lab" / "runs"
# JVM options every Payara Micro of the lab starts with, whatever its mode (why each: in the file).
JVM_DEFAULTS_FILE = ROOT / "domain-config" / "jvm.options"
# Lab-wide lines added after the mode's own pre-boot file.
BIND_LOOPBACK = "set configs.config.server-config.network-config.network-listeners.network-listener.http-listener.address={host}\n"


# Options that size the heap or its young generation: one given by the caller replaces all of the
# defaults' (a -Xmx1g after the defaults' -Xms4g would stop the JVM from starting).
HEAP_SIZING = ("-Xms", "-Xmx", "-Xmn", "-XX:InitialHeapSize=", "-XX:MaxHeapSize=", "-XX:NewSize=", "-XX:MaxNewSize=")


def lab_jvm_options(path=JVM_DEFAULTS_FILE):
    """The options of domain-config/jvm.options: one a line, `#` starts a comment line."""
    lines = (line.strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def with_lab_defaults(jvm_options, defaults):
    """The defaults, then the caller's options; the defaults' heap sizing is left out when the
    caller sizes the heap."""
    sizes_heap = any(option.startswith(HEAP_SIZING) for option in jvm_options)
    kept = [option for option in defaults if not (sizes_heap and option.startswith(HEAP_SIZING))]
    return kept + list(jvm_options)


class PayaraMicro(LabServer):
    """One Payara Micro process serving the lab WAR in `mode` on host:port; `on` is the host that
    runs it (labkit.hosts: this machine, or one reached with SSH, where it listens on that host's
    address and runs the JDK found there or `remote_java`)."""

    def __init__(self, mode, port=8080, host="127.0.0.1", war=WAR, jvm_options=(), java_home=None,
                 startup_timeout=180, jvm_defaults=True, apps=(), on=None, remote_java=None, cpus=None):
        self.mode = mode
        # Your own WARs (userapp.UserWar): deployed first, then `war` as the probe at userapp.PROBE_ROOT.
        self.apps = tuple(apps)
        self.info_path = info_path(self.apps)
        self.port = port
        self.on = on or LocalHost()
        self.host = self.on.address if self.on.remote else host
        self.war = war
        self.jvm_options = with_lab_defaults(jvm_options, lab_jvm_options() if jvm_defaults else [])
        self.java_home = java_home or find_java_home()
        # The JDK that runs the server: this one, or the one found on the server's host.
        self._server_java_home = java_home_on(self.on, remote_java) if self.on.remote else self.java_home
        # On another host, the CPUs the server is pinned to there (--cpus server=...): under taskset.
        self.cpus = cpus if self.on.remote else None
        self.startup_timeout = startup_timeout
        self.run_dir = RUNS / f"{mode.name}-{port}"
        self.log_path = self.run_dir / "server.log"
        # Where the server's files are on its host: the same folder here, the work folder there.
        self.host_run_dir = f"{self.on.workdir}/runs/{mode.name}-{port}" if self.on.remote else str(self.run_dir)
        self.process = None
        self._staged = None
        self._remote_pid = None

    def _files(self):
        """The paths the command names, on the host that runs it: the lab's files as they are here,
        or copied into the host's work folder (once: a file already there is not sent again)."""
        if self._staged is None:
            wanted = {"jar": PAYARA_MICRO_JAR, "war": self.war, **{f"app{i}": app.path for i, app in enumerate(self.apps)}}
            if self.mode.needs_virtual_pool:
                wanted["pool"] = VIRTUAL_POOL_JAR
            self._staged = {key: str(self.on.put(path, "files")) for key, path in wanted.items()}
        return self._staged

    def command(self):
        """The exact command line, with paths a user can copy (on the host that runs it)."""
        files = self._files()
        pinning = ["taskset", "-c", ",".join(map(str, sorted(self.cpus)))] if self.cpus else []
        command = [*pinning, f"{self.server_java_home}/bin/java", *self.jvm_options, "-jar", files["jar"]]
        if self.mode.needs_virtual_pool:
            command += ["--addlibs", files["pool"]]
        command += ["--prebootcommandfile", f"{self.host_run_dir}/pre-boot-commands.asadmin",
                    "--rootdir", f"{self.host_run_dir}/runtime",
                    "--port", str(self.port), "--nocluster", "--disablephonehome",
                    *self._deploy_arguments(files)]
        return command

    def _deploy_arguments(self, files):
        if not self.apps:
            return ["--deploy", files["war"]]
        # Micro deploys in this order before it serves: the probe last, so its answer means every WAR
        # was deployed (or failed).
        deploys = [f"{files[f'app{i}']}:{app.context_root}" for i, app in enumerate(self.apps)] + [f"{files['war']}:{PROBE_ROOT}"]
        return [arg for deploy in deploys for arg in ("--deploy", deploy)]

    @property
    def pid(self):
        """The JVM's pid on the host that runs it."""
        if not self.on.remote:
            return self.process.pid if self.process else None
        if self._remote_pid is None and self.process is not None:
            text = self.on.run(["cat", f"{self.host_run_dir}/server.pid"], check=False).stdout.strip()
            self._remote_pid = int(text) if text.isdigit() else None
        return self._remote_pid

    def printable_command(self):
        return " ".join(shlex.quote(part) for part in self.command())

    def _prepare(self):
        # A fresh runtime folder each time: no configuration leaks from an earlier run.
        shutil.rmtree(self.run_dir, ignore_errors=True)
        self.run_dir.mkdir(parents=True)
        # The mode's complete pre-boot file (labkit/servers/modes.py), then the lab's own line.
        (self.run_dir / "pre-boot-commands.asadmin").write_text(
            self.mode.preboot + "\n# Added by ./lab: listen on this address only.\n" + BIND_LOOPBACK.format(host=self.host))
        if self.on.remote:
            self.on.run(["sh", "-c", 'rm -rf "$0" && mkdir -p "$0"', self.host_run_dir])
            self.on.put(self.run_dir / "pre-boot-commands.asadmin", f"runs/{self.mode.name}-{self.port}")

    def start(self):
        if self.on.remote:
            ensure_nothing_answers(self.port, self.host)
        else:
            ensure_port_free(self.port, self.host)
        self._prepare()
        if self.on.remote:
            self._remote_pid = None
            self.process = self.on.spawn(self.command(), self.log_path, cwd=self.host_run_dir,
                                         env={"JAVA_HOME": self.server_java_home},
                                         pid_file=f"{self.host_run_dir}/server.pid")
        else:
            self.process = spawn(self.command(), self.log_path, cwd=self.run_dir, env=java_env(self.java_home))
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
            raise LabError(f"Payara Micro ({self.mode.name}) {why}; last lines of {self.log_path}:\n{tail(self.log_path)}")
        if self.on.remote:
            # Its /proc is read there, over one ssh connection for the server's whole life.
            self.proc_feed = RemoteProcFeed(self.on, self.pid).start()
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
        if self.proc_feed is not None:
            self.proc_feed.stop()
            self.proc_feed = None
        if self.process is not None:
            if self.on.remote:
                self.on.stop(self.process)
            else:
                stop(self.process)


def foreground(args, mode, port):
    """`./lab run MODE`: Payara Micro with the lab's WAR (and your WARs, --war) on args.host:port, or
    on the server host's address (--server-host)."""
    on = getattr(args, "server_host", None)
    if on is None or not on.remote:
        ensure_port_free(port, args.host)
    server = PayaraMicro(mode, port=port, host=args.host, jvm_options=args.jvm_opt, jvm_defaults=args.jvm_defaults,
                         apps=args.wars, on=on, remote_java=getattr(args, "remote_java", None))
    return Foreground(server, "Payara Micro",
                      before=lambda: [f"mode {mode.name}: {mode.description}", f"command: {server.printable_command()}",
                              f"log: {server.log_path}"],
                      urls=lambda started: ready_urls(started.base_url, args.wars))

