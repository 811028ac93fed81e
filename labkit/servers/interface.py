"""The one interface of a server the lab starts, whatever its kind.

Every kind implements ServerHandle: Payara Micro (payara_micro.py; CargoTracker is Payara Micro with its
own WAR, cargotracker.py), Payara Server and GlassFish (appserver/server.py), and the plain-JDK,
Helidon and Vert.x baselines (baselines.py). `./lab run` (foreground.py), `./lab bench`
(measure/session.py), `./lab capacity` and `./lab soak` use a server through this interface only;
labkit/tests/test_server_interface.py checks that every kind has all of it.

LabServer is what the kinds do alike: the base URL, the pid of the started process, /api/info and
the context manager.
"""
import json
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol, runtime_checkable

from labkit.hosts.local import LocalHost


@runtime_checkable
class ServerHandle(Protocol):
    """A server of the lab: built with its settings, started with start() (or `with server:`)."""
    host: str
    port: int
    info_path: str     # where the lab's /api/info answers on this server (info(), the watchdog's probe)
    log_path: Path     # the server's console log: bench and capacity keep a copy of it
    java_home: Path    # the JDK it runs on, whose jcmd takes the thread dump of a stalled server
    process: object    # the subprocess.Popen the lab started (None before start); ./lab run waits on it

    @property
    def base_url(self) -> str: ...  # http://host:port

    @property
    def pid(self) -> int | None: ...  # the JVM that serves (sampled by the bench); None before start

    def start(self) -> "ServerHandle": ...  # returns itself once /api/info answers

    def info(self) -> dict: ...  # the JSON of GET info_path

    def printable_command(self) -> str: ...  # how the server is started, to copy

    def stop(self) -> None: ...  # returns once the server and its ports are gone

    def __enter__(self) -> "ServerHandle": ...  # start()

    def __exit__(self, *exc) -> None: ...  # stop()


class LabServer:
    """The part of ServerHandle every kind shares. A subclass sets host, port, log_path, java_home
    and process, and defines start(), stop() and printable_command(); pid is the started process's
    unless the subclass knows better (a full server's JVM is its launcher's child)."""

    info_path = "/api/info"
    # Where the server runs (labkit.hosts): this machine unless a kind can start elsewhere; then
    # `proc_feed` reads its /proc there, and `server_java_home` is the JDK there (jcmd's).
    on = LocalHost()
    proc_feed = None
    # True for a server the lab did not start (--url): the runs read its /metrics around each window.
    external = False
    # Why the lab must not force a full GC (jcmd GC.run) or record JFR in this JVM; None: it may.
    full_gc_refused = None
    jfr_refused = None

    @property
    def server_java_home(self):
        return getattr(self, "_server_java_home", None) or self.java_home

    @property
    def base_url(self):
        return f"http://{self.host}:{self.port}"

    @property
    def pid(self):
        return self.process.pid if self.process else None

    def info(self):
        with urllib.request.urlopen(self.base_url + self.info_path, timeout=10) as response:
            return json.load(response)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


@dataclass
class Foreground:
    """What `./lab run` needs of a server kind to serve in the foreground: the server (not yet
    started), the product's name, the artifacts to build first (None: the lab's WAR and pool jar),
    what to print before the start (`before()`, called once they are built), and what to print once
    the server answers: `urls(server)` the addresses the common ready line names, `after(server,
    info)` the lines after it."""
    server: ServerHandle
    product: str
    before: Callable = list
    urls: Callable = None
    after: Callable = None
    artifacts: tuple | None = None


def ready_line(urls, info):
    """The line `./lab run` prints once any server answers /api/info: where to go, and which thread
    served the probe (its pid, Java version, thread name and whether it was virtual)."""
    request = info["request"]
    return (f"ready: {urls}  (pid {info['pid']}, Java {info['java']['version']}, request thread: {request['thread']}, "
            f"virtual={request['virtual']})")
