"""This machine as a host (host.py says what a host is): a server process here runs in the lab's own
folder on the lab's JDK, pinned by the lab's own affinity, its /proc read by the sampler directly;
files are where they are. Its calls are SshHost's, so no caller asks which one it has."""
import os
import shlex
import shutil
from contextlib import contextmanager
from pathlib import Path

from labkit import ROOT
from labkit.ground import process
from labkit.ground.command import run_command
from labkit.ground.errors import LabError
from labkit.ground.jdk import java_env
from labkit.ground.process import LEASH_GRACE_S, ensure_port_free

BOOT_ID = "/proc/sys/kernel/random/boot_id"


class LocalHost:
    """This machine."""
    name = "local"
    # The lab's own folder here: servers run in runs/NAME inside it, as they do in ~/.loomlab on another host.
    workdir = str(ROOT / ".lab")

    def __init__(self, address="127.0.0.1"):
        self.address = address

    # -- a server process here (servers/hosting.py) ------------------------------------------------
    def server_java_home(self, lab_java_home, given=None):
        """The JDK a server runs on here: the lab's own."""
        return lab_java_home

    def java_env(self, java_home):
        """The environment a server is spawned with here: the lab's, with that JDK first."""
        return java_env(java_home)

    def listen_address(self, asked):
        """Where a server listens here: the address asked for (loopback unless told)."""
        return asked

    def pinned(self, cpus, command):
        """Here the command inherits the CPUs the lab pinned itself to while starting it (pinning)."""
        return list(command)

    @contextmanager
    def pinning(self, cpus):
        """Within the block, processes started from this thread run on `cpus` (--cpus server=...): the
        server JVM inherits them from its first instruction, and sizes its GC and compiler threads
        for them as it would in a container. Nothing changes when `cpus` is empty."""
        if not cpus:
            yield
            return
        before = os.sched_getaffinity(0)
        os.sched_setaffinity(0, set(cpus))
        try:
            yield
        finally:
            os.sched_setaffinity(0, before)

    def check_port(self, port, address):
        """A LabError when something listens on the port here already."""
        ensure_port_free(port, address)

    def fresh_run_folder(self, name, local_files=()):
        """The run folder here is the local one the caller just made afresh."""

    def pid_of(self, process, pid_file):
        """The pid of a server started here: its process's own."""
        return process.pid if process else None

    def proc_feed(self, pid):
        """None: the sampler reads this machine's /proc itself."""
        return None

    def jcmd_java_home(self, server, lab_java_home):
        """The JDK whose jcmd reaches a JVM here: the lab's own."""
        return lab_java_home

    def run(self, command, timeout=60, check=True):
        result = run_command(command, timeout=timeout)
        if check and result.returncode != 0:
            raise LabError(f"{shlex.join(command)} failed on this machine: {result.stderr.strip()[-500:]}")
        return result

    def spawn(self, command, log_path, cwd=None, env=None, pid_file=None):
        return process.spawn(list(command), log_path, cwd=cwd, env=env)

    def stop(self, started, grace_s=LEASH_GRACE_S):
        return process.stop(started, grace_s)

    def printable(self, command):
        return shlex.join(command)

    def kernel(self):
        """This kernel's boot id: two hosts with the same one are one machine (network namespaces)."""
        try:
            return Path(BOOT_ID).read_text().strip() or None
        except OSError:
            return None

    def put(self, path, folder=None):
        """A local file is where it is."""
        return Path(path)

    def put_all(self, paths, folder=None):
        return [Path(path) for path in paths]

    def get(self, path, local):
        if Path(path) != Path(local):
            shutil.copyfile(path, local)
        return Path(local)

    def read(self, path):
        return Path(path).read_text()

    def path_for(self, local_path, folder):
        """Where a process here writes the file the lab keeps at `local_path`: there."""
        return local_path

    def take(self, path, local):
        """The file at `path`, at `local` (moved when they differ)."""
        if Path(path) != Path(local):
            shutil.move(str(path), str(local))
        return local

    def __str__(self):
        return "this machine"


def is_this_machine(host):
    """Whether `host` is this machine, as a user named it (--server-host local, or no option): for the
    checks of what the user asked; what a server does differs by host through the host's own calls."""
    return isinstance(host, LocalHost)
