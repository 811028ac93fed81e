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
from labkit.ground.jdk import java_env
from labkit.ground.process import ensure_nothing_answers, ensure_port_free, spawn, stop
from labkit.hosts.host import LocalHost
from labkit.hosts.java import java_home_on
from labkit.hosts.procfeed import RemoteProcFeed
from labkit.servers.appserver.passwords import write_secret
from labkit.servers.interface import LabServer

RUNS = ROOT / ".lab" / "runs"
PID_FILE = "server.pid"


class HostedProcess:
    """One server process named `name` on `on` (this machine when None). `java_home` is the lab's
    JDK; on another host the server runs the JDK found there (or `remote_java`), pinned to `cpus`
    of that host (here the caller pins the lab's own process, so `cpus` is not used)."""

    def __init__(self, name, java_home, on=None, remote_java=None, cpus=None):
        self.on = on or LocalHost()
        self.remote = self.on.remote
        self.name = name
        self.run_dir = RUNS / name
        self.host_run_dir = f"{self.on.workdir}/runs/{name}" if self.remote else str(self.run_dir)
        self.java_home = java_home_on(self.on, remote_java) if self.remote else java_home
        self.cpus = cpus if self.remote else None
        self.process = None
        self.feed = None
        self._remote_pid = None

    def address(self, local_address):
        """Where the server listens: the host's address there, the given one here."""
        return self.on.address if self.remote else local_address

    def java(self):
        return f"{self.java_home}/bin/java"

    def pinned(self, command):
        """The command under taskset on another host's CPUs (--cpus server=...)."""
        if not self.cpus:
            return list(command)
        return ["taskset", "-c", ",".join(map(str, sorted(self.cpus))), *command]

    def files(self, wanted):
        """{key: path on the host that runs the server} for {key: local path}: as they are here,
        copied into the host's work folder there (a file already there is not sent again)."""
        return {key: str(self.on.put(path, "files")) for key, path in wanted.items()}

    def folder(self, paths, folder):
        """Paths there of local files copied together into files/`folder` (one check, one copy),
        e.g. a jar's libs/ that its manifest names relative to the jar."""
        return [str(path) for path in self.on.put_all(paths, f"files/{folder}")]

    def ensure_port(self, port, local_address):
        if self.remote:
            ensure_nothing_answers(port, self.on.address)
        else:
            ensure_port_free(port, local_address)

    def fresh_run_folder(self, files=None):
        """An empty run folder (no configuration leaks from an earlier run); `files` ({name: text})
        written into it, here and, on another host, there too; owner-only, as a file may hold a
        password (the copy keeps the mode)."""
        shutil.rmtree(self.run_dir, ignore_errors=True)
        self.run_dir.mkdir(parents=True)
        for name, text in (files or {}).items():
            write_secret(self.run_dir / name, text)
        if self.remote:
            self.on.run(["sh", "-c", 'rm -rf "$0" && mkdir -p "$0"', self.host_run_dir])
            if files:
                self.on.put_all([self.run_dir / name for name in files], f"runs/{self.name}")

    def spawn(self, command, log_path):
        """Starts the command in the run folder; its output goes to the local log."""
        self._remote_pid = None
        if self.remote:
            self.process = self.on.spawn(command, log_path, cwd=self.host_run_dir,
                                         env={"JAVA_HOME": str(self.java_home)},
                                         pid_file=f"{self.host_run_dir}/{PID_FILE}")
        else:
            self.process = spawn(command, log_path, cwd=self.run_dir, env=java_env(self.java_home))
        return self.process

    @property
    def pid(self):
        """The JVM's pid on the host that runs it (there: what the leash wrote before it exec'd)."""
        if not self.remote:
            return self.process.pid if self.process else None
        if self._remote_pid is None and self.process is not None:
            text = self.on.run(["cat", f"{self.host_run_dir}/{PID_FILE}"], check=False).stdout.strip()
            self._remote_pid = int(text) if text.isdigit() else None
        return self._remote_pid

    def watch(self, pid=None):
        """Once the server answers: its /proc read there, over one ssh connection for its whole
        life (None here: the sampler reads this machine's /proc itself). `pid`: the JVM that serves,
        when it is not the started process (a full server's launcher starts it)."""
        if self.remote:
            self.feed = RemoteProcFeed(self.on, pid or self.pid).start()
        return self.feed

    def stop(self):
        if self.feed is not None:
            self.feed.stop()
            self.feed = None
        if self.process is not None:
            if self.remote:
                self.on.stop(self.process)
            else:
                stop(self.process)


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
