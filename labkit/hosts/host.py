"""A host: where a server or a load tool runs. This machine (LocalHost, local.py), or another one reached
with OpenSSH (SshHost: `user@host[:port]` or a name from ~/.ssh/config, key-based, never a password).

Both take the same calls: run a short command, spawn a long one, copy files to and from it, read a
file such as /proc/PID/stat; and for a server process (servers/hosting.py) they decide what differs
between here and there — its run folder, its JDK, its address, its CPUs, its pid and its /proc — so
that no caller asks which one it has. The lab never installs an agent: a remote command is plain
`ssh HOST sh -c ...`.

A spawned remote command never outlives the lab. It runs under a leash (LEASH below): a small
shell wrapper that starts the command in a session of its own and waits for its standard input,
which is the SSH channel, to close. The channel closes when the local ssh client ends, and the
client ends with the lab, whatever ends the lab: ground.process spawns it with a parent-death
signal, so even a SIGKILL of the lab closes it. On end of input the wrapper sends SIGTERM to the
command's whole process group, and SIGKILL after a grace period. Stopping a remote command is the
same motion done on purpose: close its input and wait.
"""
import atexit
import hashlib
import shlex
import subprocess
from contextlib import nullcontext
from pathlib import Path

from labkit.ground.command import run_command
from labkit.ground.errors import LabError
from labkit.ground.process import die_with_parent, ensure_nothing_answers
from labkit.hosts.local import BOOT_ID
from labkit.hosts.ssh_master import SshMaster

SSH_OPTIONS = ("-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5",
               "-o", "ServerAliveCountMax=3")
LEASH_GRACE_S = 20  # how long a remote command has to stop after SIGTERM before SIGKILL
# $1: grace seconds; then the command. The command's output goes to the channel (the local log);
# the watcher's own streams go nowhere, so it never holds the channel open.
# A background list's input is /dev/null unless redirected, so the channel is kept on fd 3 for it.
LEASH = r"""
grace=$1; shift
exec 3<&0
setsid "$@" </dev/null 3<&- &
child=$!
( cat <&3 >/dev/null 2>&1
  kill -TERM -$child 2>/dev/null
  i=0; while kill -0 -$child 2>/dev/null && [ $i -lt $grace ]; do sleep 1; i=$((i+1)); done
  kill -KILL -$child 2>/dev/null ) >/dev/null 2>&1 &
wait $child
"""


class SshHost:
    """A machine reached with OpenSSH. `target` is what ssh takes (user@host, a ~/.ssh/config name);
    `port` the SSH port; `ssh_config` an ssh_config file to use instead of ~/.ssh/config (the
    namespace cluster's); files the lab copies go to `workdir` there."""

    def __init__(self, target, port=None, ssh_config=None, address=None, workdir=None):
        self.target = target
        self.port = port
        self.ssh_config = Path(ssh_config) if ssh_config else None
        self._workdir = workdir
        self._home = None
        self._kernel = None
        self.name = target
        self._address = address
        # hosts/java.py's answers, --remote-java (or None) -> the JDK there: looked up once per run,
        # not at every server start.
        self.java_homes = {}
        # The lab's short commands share one connection (hosts/ssh_master.py), ended with the lab.
        self._master = SshMaster([*self._config_args(), *SSH_OPTIONS, target])
        atexit.register(self._master.close)

    @property
    def home(self):
        """The home folder there, absolute."""
        if self._home is None:
            home = self.run(["sh", "-c", 'printf %s "$HOME"']).stdout.strip()
            if not home.startswith("/"):
                raise LabError(f"{self.target}: its shell has no absolute $HOME (got '{home}')")
            self._home = home
        return self._home

    @property
    def workdir(self):
        """The lab's folder there, absolute (~/.loomlab unless given): commands that change
        directory still find what is in it."""
        if self._workdir is None:
            self._workdir = f"{self.home}/.loomlab"
        return self._workdir

    # -- a server process there (servers/hosting.py) ----------------------------------------------
    def server_java_home(self, lab_java_home, given=None):
        """The JDK 21+ a server runs on there: `given` (--remote-java) when it is one, else the one
        found there (looked up once per host: hosts/java.py)."""
        from labkit.hosts.java import java_home_on
        return java_home_on(self, given)

    def java_env(self, java_home):
        """The variables a server is spawned with there (spawn sets only these)."""
        return {"JAVA_HOME": str(java_home)}

    def listen_address(self, asked):
        """Where a server listens there: the host's address, as the load reaches it."""
        return self.address

    def pinned(self, cpus, command):
        """The command under taskset on `cpus` of this host (--cpus server=...), or as it is."""
        if not cpus:
            return list(command)
        return ["taskset", "-c", ",".join(map(str, sorted(cpus))), *command]

    def pinning(self, cpus):
        """The block that starts a server there: nothing to do here, as its command is pinned()."""
        return nullcontext()

    def check_port(self, port, address=None):
        """A LabError when something there already accepts on the port (a bind test can only be made
        on the host itself)."""
        ensure_nothing_answers(port, self.address)

    def fresh_run_folder(self, name, local_files=()):
        """An empty runs/`name` in the work folder there, holding copies of `local_files`."""
        self.run(["sh", "-c", 'rm -rf "$0" && mkdir -p "$0"', f"{self.workdir}/runs/{name}"])
        if local_files:
            self.put_all(local_files, f"runs/{name}")

    def pid_of(self, process, pid_file):
        """The pid of a server started there: what the leash wrote into `pid_file` before it exec'd."""
        if process is None:
            return None
        text = self.run(["cat", pid_file], check=False).stdout.strip()
        return int(text) if text.isdigit() else None

    def proc_feed(self, pid):
        """The process's /proc read there, over one ssh connection until stopped (hosts/procfeed.py)."""
        from labkit.hosts.procfeed import RemoteProcFeed
        return RemoteProcFeed(self, pid).start()

    def jcmd_java_home(self, server, lab_java_home):
        """The JDK whose jcmd reaches `server`'s JVM there: the one it runs on (the lab's is here)."""
        return server.server_java_home

    def kernel(self):
        """The boot id of the kernel there (read once): the same as another host's when both are
        network namespaces of one machine, as `./lab hosts up` makes them."""
        if self._kernel is None:
            # "" when it cannot be read: then it is no other host's.
            self._kernel = self.run(["cat", BOOT_ID], check=False).stdout.strip()
        return self._kernel or None

    def printable(self, command):
        """A command line to show and record: a word in the home folder there starts with ~, as a
        user would type it (a run's record names no user's home folder, and the line still runs)."""
        home = self.home + "/"
        # ~/ stays unquoted: the shell expands a tilde only before the first unquoted slash.
        return " ".join("~/" + shlex.quote(part[len(home):]) if part.startswith(home) else shlex.quote(part)
                        for part in command)

    @property
    def address(self):
        """The host's address as the other hosts reach it (the name ssh resolves, or as given)."""
        if self._address is None:
            self._address = self._resolved_hostname()
        return self._address

    def _resolved_hostname(self):
        # ssh -G prints the configuration it would use, hostname resolved through ~/.ssh/config.
        result = run_command(["ssh", *self._config_args(), "-G", self.target], timeout=10)
        for line in result.stdout.splitlines():
            key, _, value = line.partition(" ")
            if key == "hostname":
                return value.strip()
        raise LabError(f"ssh -G {self.target}: {result.stderr.strip() or 'no hostname'}")

    def _config_args(self):
        args = ["-F", str(self.ssh_config)] if self.ssh_config else []
        return args + (["-p", str(self.port)] if self.port else [])

    def ssh_command(self, remote_command, own_connection=False):
        """The local command line that runs `remote_command` (a list) there, through a shell: over the
        host's master connection, or, for a command that lasts, a connection of its own."""
        shared = [] if own_connection else self._master.options()
        return ["ssh", *self._config_args(), *SSH_OPTIONS, *shared, self.target, shlex.join(remote_command)]

    def run(self, command, timeout=60, check=True):
        result = run_command(self.ssh_command(command), timeout=timeout, what=f"{shlex.join(command)} on {self.target}")
        if result.returncode == 255:
            raise LabError(f"ssh {self.target}: {result.stderr.strip()[-500:] or 'connection failed'}")
        if check and result.returncode != 0:
            raise LabError(f"{shlex.join(command)} failed on {self.target}: {result.stderr.strip()[-500:]}")
        return result

    def spawn(self, command, log_path, cwd=None, env=None, pid_file=None):
        """Starts `command` there under the leash; its output goes to the local log_path. `env`
        holds only the variables to set there (not a whole environment); `pid_file`, a path there,
        receives the command's own pid (the command execs in place of the shell that writes it)."""
        inner = list(command)
        if pid_file:
            inner = ["sh", "-c", 'echo $$ >"$0" && exec "$@"', str(pid_file), *inner]
        if env:
            inner = ["env", *(f"{k}={v}" for k, v in env.items()), *inner]
        if cwd:
            inner = ["sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", str(cwd), *inner]
        remote = ["sh", "-c", LEASH, "leash", str(LEASH_GRACE_S), *inner]
        log = open(log_path, "wb")
        try:
            # stdin stays a pipe the lab holds: closing it (or the lab's death) is the leash's signal.
            return subprocess.Popen(self.ssh_command(remote, own_connection=True), stdin=subprocess.PIPE, stdout=log,
                                    stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
        finally:
            log.close()

    def stream(self, command):
        """Starts `command` there under the leash, its standard output a text pipe to read here
        (its errors go nowhere); stop() ends it."""
        remote = ["sh", "-c", LEASH, "leash", str(LEASH_GRACE_S), *command]
        return subprocess.Popen(self.ssh_command(remote, own_connection=True), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                preexec_fn=die_with_parent)

    def stop(self, process, grace_s=LEASH_GRACE_S):
        """Ends a command spawned here: the leash's input closes, the command gets SIGTERM (SIGKILL
        after the grace period), and ssh exits once it is gone. Returns its exit code."""
        if process.poll() is None and process.stdin and not process.stdin.closed:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass
        try:
            return process.wait(timeout=grace_s + 15)
        except subprocess.TimeoutExpired:
            process.kill()  # the connection is gone; the leash on the other side still ends it
            return process.wait()

    def put(self, path, folder=None):
        """Copies a local file into the work folder there (or `folder` inside it), unless a file of
        the same content is already there; returns its remote path."""
        path = Path(path)
        remote_dir = f"{self.workdir}/{folder}" if folder else self.workdir
        remote = f"{remote_dir}/{path.name}"
        there = self.run(["sh", "-c", 'mkdir -p "$1" && sha256sum "$2" 2>/dev/null || true', "sh", remote_dir, remote])
        if there.stdout.split()[:1] != [sha256(path)]:
            self._scp(str(path), f"{self._scp_target()}:{remote}")
        return remote

    def put_all(self, paths, folder):
        """Copies local files into `folder` of the work folder there, with one check and one copy
        for all of them (a jar's libs/), skipping those already there; returns their remote paths."""
        paths = [Path(path) for path in paths]
        remote_dir = f"{self.workdir}/{folder}"
        remote = [f"{remote_dir}/{path.name}" for path in paths]
        there = self.run(["sh", "-c", 'd=$1; shift; mkdir -p "$d" && sha256sum "$@" 2>/dev/null || true', "sh",
                          remote_dir, *remote]).stdout
        present = {name: digest for digest, _, name in (line.partition("  ") for line in there.splitlines())}
        missing = [path for path, name in zip(paths, remote) if present.get(name) != sha256(path)]
        if missing:
            self._scp(*map(str, missing), f"{self._scp_target()}:{remote_dir}/")
        return remote

    def get(self, path, local):
        self._scp(f"{self._scp_target()}:{path}", str(local))
        return Path(local)

    def read(self, path):
        return self.run(["cat", str(path)]).stdout

    def path_for(self, local_path, folder):
        """Where a process there writes the file the lab keeps at `local_path`: in `folder` of the work folder."""
        return f"{self.workdir}/{folder}/{Path(local_path).name}"

    def take(self, path, local):
        """The file at `path` there, copied to `local` and removed there."""
        self.get(path, local)
        self.run(["rm", "-f", str(path)], check=False)
        return local

    def _scp_target(self):
        return self.target

    def _scp(self, *sources_and_destination):
        config = ["-F", str(self.ssh_config)] if self.ssh_config else []
        port = ["-P", str(self.port)] if self.port else []
        result = run_command(["scp", "-q", *config, *port, *SSH_OPTIONS, *self._master.options(),
                              *sources_and_destination], timeout=600)
        if result.returncode != 0:
            shown = " ".join(sources_and_destination) if len(sources_and_destination) <= 3 else \
                f"{sources_and_destination[0]} and {len(sources_and_destination) - 2} more files to {sources_and_destination[-1]}"
            raise LabError(f"scp {shown}: {result.stderr.strip()[-500:]}")

    def __str__(self):
        return self.target


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
