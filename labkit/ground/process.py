"""Child processes that never outlive the lab: own process group, killed with their parent."""
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


def spawn(command, log_path, cwd=None, env=None):
    """Starts command in its own process group, output to log_path."""
    log = open(log_path, "wb")
    try:
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)
    except FileNotFoundError as e:
        raise LabError(f"cannot start {command[0]}: {e.strerror}") from None
    finally:
        log.close()


def stop(process, grace_seconds=20):
    """SIGTERM to the whole group, SIGKILL after the grace period. Returns the exit code."""
    if process.poll() is not None:
        return process.returncode
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return process.wait()
    try:
        return process.wait(timeout=grace_seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        return process.wait()


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
