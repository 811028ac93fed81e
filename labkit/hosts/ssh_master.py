"""One OpenSSH connection per host for the lab's short commands (ControlMaster), held as the lab's child.

Why: every ssh call negotiates a connection of its own: 0.6 s between two namespaces of this machine,
more across a network, and a capacity window makes dozens of them (jcmd for JFR and the JIT's
counters, pid files, copies). A master connection, started at the first command and ended with the
lab, carries them as sessions of about 0.2 s.

Why not ssh's ControlPersist: a master that outlives the lab is a process left behind. This one is
spawned under the lab's leash (ground/process.py) and ends with it, however the lab ends. Commands
that last (a server, a /proc feed, a load tool) keep connections of their own: a master carries at
most sshd's MaxSessions (10 by default) at once, and each of them needs its own end of input as its
leash. When the master cannot start, or has gone, ssh connects as it did before.
"""
import shutil
import tempfile
import time
from pathlib import Path

from labkit.ground.command import run_command
from labkit.ground.errors import LabError
from labkit.ground.process import spawn, stop

# How long the master has to connect before the lab goes on without it.
READY_WITHIN_S = 10


class SshMaster:
    """The master connection of one host, given the ssh arguments that reach it (options, target)."""

    def __init__(self, ssh_arguments):
        self.ssh_arguments = list(ssh_arguments)
        self.process = None
        self.folder = None
        self.failed = False

    def options(self):
        """ssh options that send a command through the master: started at the first call; none when
        it could not start (the command then connects by itself)."""
        if self.process is None and not self.failed:
            self._start()
        return [] if self.failed else ["-o", f"ControlPath={self.socket}", "-o", "ControlMaster=no"]

    @property
    def socket(self):
        return self.folder / "master"

    def _start(self):
        # A short path of its own: a Unix socket's path holds at most 107 bytes.
        self.folder = Path(tempfile.mkdtemp(prefix="loomlab-ssh-"))
        self.process = spawn(["ssh", "-M", "-N", "-o", f"ControlPath={self.socket}", "-o", "ControlPersist=no",
                              *self.ssh_arguments], self.folder / "master.log")
        deadline = time.monotonic() + READY_WITHIN_S
        while time.monotonic() < deadline and self.process.poll() is None:
            if self.socket.exists() and self._answers():
                return
            time.sleep(0.1)
        self.failed = True
        self.close()

    def _answers(self):
        try:
            return run_command(["ssh", "-O", "check", "-o", f"ControlPath={self.socket}", *self.ssh_arguments],
                               timeout=READY_WITHIN_S).returncode == 0
        except LabError:
            return False

    def close(self):
        """Ends the master (its sessions end with it) and removes its folder."""
        if self.process is not None:
            stop(self.process, grace_seconds=5)
            self.process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
