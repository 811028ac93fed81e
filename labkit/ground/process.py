"""Child processes that never outlive the lab: own process group, killed with their parent, and
held on a leash that ends the whole group when the lab is gone, however it died.

Why both: the parent-death signal reaches only the child the lab started. A full server's launcher
(`asadmin start-domain --verbose`) dies with the lab, but the domain JVM it started is its child, not
the lab's, and lived on (with a 4 GB heap, 51 minutes in one case). The leash is the local twin of
the remote one (labkit/hosts/host.py): a small shell, in a session of its own, that reads a pipe only
the lab writes to. The kernel closes that pipe when the lab exits for any reason, SIGKILL included;
on end of input the shell sends SIGTERM to the child's whole process group, and SIGKILL after a grace
period. A stop on purpose closes the pipe too, once the group is gone, and the shell finds nothing.
"""
import ctypes
import os
import signal
import socket
import subprocess
import time

from labkit.ground import proc
from labkit.ground.errors import LabError

_PR_SET_PDEATHSIG = 1


def die_with_parent():
    # Linux: the kernel sends SIGKILL to the child if the lab itself dies, even by SIGKILL.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass
    os.setpgrp()


# How long a group has to stop after the leash's SIGTERM before SIGKILL: a server's own shutdown.
LEASH_GRACE_S = 20
# $1: the process group; $2: grace seconds. Reads its input (the lab's pipe) to the end, then ends the
# group if anything of it is left.
LEASH = r"""
group=$1; grace=$2
cat >/dev/null 2>&1
kill -0 -$group 2>/dev/null || exit 0
kill -TERM -$group 2>/dev/null
i=0; while kill -0 -$group 2>/dev/null && [ $i -lt $grace ]; do sleep 1; i=$((i+1)); done
kill -KILL -$group 2>/dev/null
exit 0
"""


def spawn(command, log_path, cwd=None, env=None):
    """Starts command in its own process group, output to log_path, on the leash (above): nothing of
    its group outlives the lab. stop() ends both."""
    log = open(log_path, "wb")
    try:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)
    except FileNotFoundError as e:
        raise LabError(f"cannot start {command[0]}: {e.strerror}") from None
    finally:
        log.close()
    process.leash = leash(process.pid)
    return process


def leash(group, grace_seconds=LEASH_GRACE_S):
    """The shell that ends process group `group` once the lab is gone (or release() is called). In a
    session of its own, so a signal to the lab's group or terminal does not end it before its work."""
    return subprocess.Popen(["sh", "-c", LEASH, "leash", str(group), str(grace_seconds)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def release(process):
    """Closes a spawned process's leash: its group gets SIGTERM if anything of it still runs (nothing
    does after stop()), and the leash's shell exits. Every spawned process is stopped or released once
    done with, so a long run does not gather a leash per load-tool run."""
    watcher = getattr(process, "leash", None)
    if watcher is None:
        return
    try:
        watcher.stdin.close()
    except (BrokenPipeError, OSError):
        pass
    try:
        watcher.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass  # something of the group still runs: the leash ends it, on its own time
    process.leash = None


def stop(process, grace_seconds=20):
    """SIGTERM to the whole group, SIGKILL to what is left of it after the grace period, then the
    leash released. Returns once the group is gone (a launcher exits on SIGTERM before the server JVM
    it started has shut down), with the started process's exit code."""
    try:
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                return process.wait()
        deadline = time.monotonic() + grace_seconds
        try:
            process.wait(timeout=grace_seconds)
        except subprocess.TimeoutExpired:
            pass
        wait_until(lambda: not group_alive(process.pid), max(deadline - time.monotonic(), 0), interval=0.1)
        if group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        return process.wait()
    finally:
        release(process)


def group_alive(group):
    """Whether a process of process group `group` still runs (zombies do not count)."""
    return bool(proc.group_members(group))


def ensure_port_free(port, host="127.0.0.1"):
    """Raises a LabError naming the port when something already listens there."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        if probe.connect_ex((host, port)) == 0:
            raise LabError(f"port {port} is in use on {host}: stop what runs there or pick another with --port")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # As the server will: connections of a previous run in TIME_WAIT must not count as "in use".
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as e:
            raise LabError(f"port {port} on {host} cannot be bound ({e.strerror}): pick another with --port") from None


def ensure_nothing_answers(port, host):
    """For a server on another host: a LabError when something there already accepts on the port
    (a bind test can only be made on the host itself)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(2)
        if probe.connect_ex((host, port)) == 0:
            raise LabError(f"port {port} is in use on {host}: stop what runs there or pick another with --port")


def tail(path, lines=40):
    try:
        with open(path, "rb") as f:
            return "\n".join(f.read().decode(errors="replace").splitlines()[-lines:])
    except FileNotFoundError:
        return "(no log written)"


def wait_until(predicate, timeout, process=None, interval=0.25):
    """Polls predicate until true; False on timeout or when process exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        if process is not None and process.poll() is not None:
            return False
        time.sleep(interval)
    return False


def terminate(pid, grace_seconds=30):
    """SIGTERM to a process that is not our child (a full server's JVM, started by its launcher),
    SIGKILL after the grace period; returns once the process is gone and its sockets are closed."""
    for sig, wait in ((signal.SIGTERM, grace_seconds), (signal.SIGKILL, 10)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        if wait_until(lambda: gone(pid), wait):
            return


def gone(pid):
    """True once every thread of pid has exited: no /proc entry, or a zombie waiting to be reaped.
    A JVM's main thread can be a zombie while its other threads still exit and hold its sockets."""
    stat = proc.read_stat(pid)
    if stat is None:
        return True
    if not stat.exited:
        return False
    return (proc.task_count(pid) or 0) <= 1


def interrupt_on_signals():
    """Ctrl-C and SIGTERM (CI, a timeout) both end the lab through KeyboardInterrupt, so every
    `finally` stops what it started. SIGINT is set explicitly because a shell starts background
    jobs with it ignored."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _raise_interrupt)


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt
