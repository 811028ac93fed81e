"""The plain-JDK servers, Helidon and Vert.x as bench targets, started beside the Payara modes.

Each serves the WAR's /api/sleep and /api/info contract (baselines/, baselines-helidon/,
baselines-vertx/; Vert.x also /api/fanout), so the bench treats them like any Payara mode: a
target's start(port, jvm_options) returns a started BaselineServer, a labkit.servers.interface.ServerHandle.
"""
from dataclasses import dataclass
from pathlib import Path

from labkit import ROOT
from labkit.ground.build import mvn
from labkit.ground.errors import LabError
from labkit.ground.jdk import find_java_home
from labkit.ground.process import tail, wait_until
from labkit.servers.hosting import HostedProcess, HostedServer
from labkit.servers.registry import Target, register

BASELINES_JAR = ROOT / "baselines" / "target" / "baselines.jar"
# Each jar names its libraries (lab-api; Helidon's, Vert.x's) in its manifest, in libs/ beside it.
BASELINES_LIBS = ROOT / "baselines" / "target" / "libs"
HELIDON_JAR = ROOT / "baselines-helidon" / "target" / "baselines-helidon.jar"
HELIDON_LIBS = ROOT / "baselines-helidon" / "target" / "libs"
VERTX_JAR = ROOT / "baselines-vertx" / "target" / "baselines-vertx.jar"
VERTX_LIBS = ROOT / "baselines-vertx" / "target" / "libs"
# What the baseline build makes: each jar and the libs/ folder its manifest names.
BASELINE_ARTIFACTS = (BASELINES_JAR, BASELINES_LIBS, HELIDON_JAR, HELIDON_LIBS, VERTX_JAR, VERTX_LIBS)


@dataclass(frozen=True)
class Baseline:
    name: str
    description: str
    jar: Path
    # The server argument of baselines.jar (None: the jar's own main, as for Helidon).
    server: str | None
    # -Dthreads: pool size or concurrency limit; None when unbounded.
    threads: int | None
    virtual: bool


BASELINES = {
    b.name: b
    for b in (
        Baseline("jdk-thread-per-request", "JDK HttpServer: a new platform thread per request, unbounded",
                 BASELINES_JAR, "thread-per-request", None, False),
        Baseline("jdk-executor-10000", "JDK HttpServer: a fixed pool of 10000 platform threads",
                 BASELINES_JAR, "executor", 10000, False),
        Baseline("jdk-virtual", "JDK HttpServer: a new virtual thread per request, unbounded",
                 BASELINES_JAR, "virtual", None, True),
        Baseline("jdk-virtual-10000", "JDK HttpServer: a new virtual thread per request, at most 10000 at once",
                 BASELINES_JAR, "virtual-bounded", 10000, True),
        Baseline("helidon", "Helidon SE 4 WebServer: a virtual thread per connection, unbounded",
                 HELIDON_JAR, None, None, True),
        Baseline("vertx-virtual", "Vert.x 5: virtual-thread verticles, each blocking call on a virtual thread of its own",
                 VERTX_JAR, "virtual", None, True),
        # virtual=False: the request runs on an event-loop (platform) thread, but no pool bounds it.
        Baseline("vertx-eventloop", "Vert.x 5: event-loop verticles, timers instead of blocking (the reactive baseline)",
                 VERTX_JAR, "eventloop", None, False),
    )
}


def ensure_baselines_built(rebuild=False, log=print):
    """Builds the baseline modules (tests skipped) when a jar is missing or a rebuild is asked for."""
    missing = [p for p in BASELINE_ARTIFACTS if not p.exists()]
    if missing or rebuild:
        why = "rebuild requested" if rebuild else "missing " + ", ".join(str(m.relative_to(ROOT)) for m in missing)
        log(f"building ({why}): ./mvnw -pl baselines,baselines-helidon,baselines-vertx -am package -DskipTests")
        mvn(["-pl", "baselines,baselines-helidon,baselines-vertx", "-am", "package", "-DskipTests"])
    still_missing = [p for p in (BASELINES_JAR, HELIDON_JAR, VERTX_JAR) if not p.exists()]
    if still_missing:
        raise LabError("the build did not produce " + ", ".join(str(m) for m in still_missing))


class BaselineServer(HostedServer):
    """One baseline server process on host:port, started as a user would with java -jar: here, or on
    the host `on` (--server-host), with its jar and libs/ copied there (servers/hosting.py)."""

    def __init__(self, baseline, port, host="127.0.0.1", jvm_options=(), java_home=None, startup_timeout=60,
                 on=None, remote_java=None, cpus=None):
        self.baseline = baseline
        self.port = port
        self.jvm_options = list(jvm_options)
        self.java_home = java_home or find_java_home()
        self.hosted = HostedProcess(f"{baseline.name}-{port}", self.java_home, on, remote_java, cpus)
        self.on = self.hosted.on
        self.host = self.hosted.address(host)
        self._server_java_home = self.hosted.java_home
        self.startup_timeout = startup_timeout
        self.run_dir = self.hosted.run_dir
        self.log_path = self.run_dir / "server.log"
        self._jar = None

    def _jar_path(self):
        """The jar as the command names it: here where the build left it; there in a folder of its
        own with its libs/ beside it, as its manifest's Class-Path names them."""
        if self._jar is None:
            jar = self.baseline.jar
            # Here a file stays where it is (LocalHost.put_all): the build's jar with its libs/ beside it.
            self.hosted.folder(sorted((jar.parent / "libs").glob("*.jar")), f"{jar.stem}/libs")
            self._jar = self.hosted.folder([jar], jar.stem)[0]
        return self._jar

    def command(self):
        command = [self.hosted.java(), *self.jvm_options, f"-Dhost={self.host}", f"-Dport={self.port}"]
        if self.baseline.threads is not None:
            command.append(f"-Dthreads={self.baseline.threads}")
        command += ["-jar", self._jar_path()]
        if self.baseline.server:
            command.append(self.baseline.server)
        return self.hosted.pinned(command)

    def start(self):
        self.hosted.ensure_port(self.port, self.host)
        ensure_baselines_built()
        self.hosted.fresh_run_folder()
        self.hosted.spawn(self.command(), self.log_path)
        try:
            ready = wait_until(self.is_ready, self.startup_timeout, self.process)
        except BaseException:
            self.stop()  # Ctrl-C while starting: stop the JVM now, not only when the lab exits
            raise
        if not ready:
            exited = self.process.poll() is not None
            self.stop()
            why = "exited" if exited else f"was not ready within {self.startup_timeout} s"
            raise LabError(f"{self.baseline.name} {why}; last lines of {self.log_path}:\n{tail(self.log_path)}")
        self.hosted.watch()
        return self

    def is_ready(self):
        # Ours, not whatever else might answer on the port: /api/info names the server.
        try:
            return self.info().get("server", {}).get("name") == self.baseline.name
        except (OSError, ValueError):
            return False

    def stop(self):
        self.hosted.stop()


def _starter(baseline):
    # The Payara JVM defaults do not apply here; on= (another host) as for Payara Micro.
    def start(port, jvm_options=(), jvm_defaults=True, on=None, remote_java=None, cpus=None):
        return BaselineServer(baseline, port=port, jvm_options=jvm_options, on=on, remote_java=remote_java,
                              cpus=cpus).start()
    return start


for _baseline in BASELINES.values():
    register(Target(_baseline.name, _baseline.description, _baseline.threads, _starter(_baseline),
                    virtual=_baseline.virtual, takes_host=True))
