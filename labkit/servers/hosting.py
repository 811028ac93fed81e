"""Where a server process runs, for every kind the lab can start on another host (--server-host):
its run folder, the files its command names, its JDK, its CPUs, its pid, its /proc and its stop.

On this machine a server is a child of the lab in .lab/runs/NAME. On a host reached with SSH
(labkit.hosts) the same command runs there under the leash, in the host's work folder
(~/.loomlab/runs/NAME), its files copied there once (by checksum), pinned with taskset to the
host's CPUs of --cpus server=..., its /proc read there for the server's whole life. Payara Micro,
the baselines and a full server's domain on another host (appserver/on_host.py) start through
HostedProcess, so the way to another host is written once.
"""
import shutil

from labkit import ROOT
from labkit.hosts.local import LocalHost
from labkit.servers.appserver.passwords import write_secret
from labkit.servers.interface import LabServer

RUNS = ROOT / ".lab" / "runs"
PID_FILE = "server.pid"


class HostedProcess:
    """One server process named `name` on `on` (this machine when None). `java_home` is the lab's
    JDK; on another host the server runs the JDK found there (or `remote_java`), pinned to `cpus`
    of that host (here the caller pins the lab's own process). What differs between here and there
    the host decides (labkit/hosts/host.py, local.py): this class never asks which one it has."""

    def __init__(self, name, java_home, on=None, remote_java=None, cpus=None):
        self.on = on or LocalHost()
        self.name = name
        self.run_dir = RUNS / name
        self.host_run_dir = f"{self.on.workdir}/runs/{name}"
        self.java_home = self.on.server_java_home(java_home, remote_java)
        self.cpus = cpus
        self.process = None
        self.feed = None
        self._pid = None

    def address(self, local_address):
        """Where the server listens: the host's address there, the given one here."""
        return self.on.listen_address(local_address)

    def java(self):
        return f"{self.java_home}/bin/java"

    def pinned(self, command):
        """The command under taskset on another host's CPUs (--cpus server=...)."""
        return self.on.pinned(self.cpus, command)

    def files(self, wanted):
        """{key: path on the host that runs the server} for {key: local path}: as they are here,
        copied into the host's work folder there (a file already there is not sent again)."""
        return {key: str(self.on.put(path, "files")) for key, path in wanted.items()}

    def folder(self, paths, folder):
        """Paths there of local files copied together into files/`folder` (one check, one copy),
        e.g. a jar's libs/ that its manifest names relative to the jar."""
        return [str(path) for path in self.on.put_all(paths, f"files/{folder}")]

    def ensure_port(self, port, local_address):
        self.on.check_port(port, local_address)

    def fresh_run_folder(self, files=None):
        """An empty run folder (no configuration leaks from an earlier run); `files` ({name: text})
        written into it, here and, on another host, there too; owner-only, as a file may hold a
        password (the copy keeps the mode)."""
        shutil.rmtree(self.run_dir, ignore_errors=True)
        self.run_dir.mkdir(parents=True)
        for name, text in (files or {}).items():
            write_secret(self.run_dir / name, text)
        self.on.fresh_run_folder(self.name, [self.run_dir / name for name in files or {}])

    def spawn(self, command, log_path):
        """Starts the command in the run folder; its output goes to the local log."""
        self._pid = None
        self.process = self.on.spawn(command, log_path, cwd=self.host_run_dir, env=self.on.java_env(self.java_home),
                                     pid_file=f"{self.host_run_dir}/{PID_FILE}")
        return self.process

    @property
    def pid(self):
        """The JVM's pid on the host that runs it (there: what the leash wrote before it exec'd)."""
        if self._pid is None:
            self._pid = self.on.pid_of(self.process, f"{self.host_run_dir}/{PID_FILE}")
        return self._pid

    def watch(self, pid=None):
        """Once the server answers: its /proc read there, over one ssh connection for its whole
        life (None here: the sampler reads this machine's /proc itself). `pid`: the JVM that serves,
        when it is not the started process (a full server's launcher starts it)."""
        self.feed = self.on.proc_feed(pid or self.pid)
        return self.feed

    def stop(self):
        if self.feed is not None:
            self.feed.stop()
            self.feed = None
        if self.process is not None:
            self.on.stop(self.process)


class HostedServer(LabServer):
    """A server kind that starts through a HostedProcess (`self.hosted`): its process, pid and /proc
    feed are the hosted process's, here or on another host."""
    hosted: HostedProcess

    @property
    def process(self):
        return self.hosted.process

    @property
    def proc_feed(self):
        return self.hosted.feed

    @property
    def pid(self):
        """The JVM's pid on the host that runs it."""
        return self.hosted.pid

    def printable_command(self):
        return self.on.printable(self.command())
