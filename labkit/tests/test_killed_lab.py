"""A lab killed with SIGKILL (an OOM killer, a CI timeout, `kill -9`) leaves no process of its run on
this machine, for every server kind it starts: Payara Micro, Payara Server's and GlassFish's domain
JVM (started by asadmin, so not the lab's own child), a JDK baseline and CargoTracker; killed once the
server is ready and, separately, in the middle of a bench window, when the load tool runs too.

"No process of its run" is every process below the lab at the moment it is killed (the server, the
launcher and its domain JVM, the load tool, the leashes): each must be gone within 30 s. A zombie
counts as gone: it holds no memory, no socket and no CPU, only a pid its new parent (this sandbox's
init does not reap) has not collected.

Why SIGKILL and not Ctrl-C: SIGINT and SIGTERM reach the lab's `finally` blocks, which stop what they
started (tested elsewhere); SIGKILL reaches nothing of the lab's, only the kernel's parent-death signal
and the leash (labkit/ground/process.py).
"""
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from labkit import ROOT
from labkit.ground import proc
from labkit.ground.build import ensure_built

pytestmark = pytest.mark.server

LOAD_TOOLS = ("vegeta", "bombardier", "wrk", "ab")
GONE_WITHIN_S = 30


def descendants(root_pid):
    """{pid: command line} of every live process below root_pid now: its children and theirs, and
    every process in one of their process groups. The group matters for asadmin: once a domain is
    up, `asadmin start-domain` exits and its domain JVM is reparented to init, out of the lab's
    tree, but it stays in the group the lab's leash watches (labkit/ground/process.py)."""
    children, groups = {}, {}
    for pid in proc.pids():
        stat = proc.read_stat(pid)
        if stat is not None and not stat.exited:
            children.setdefault(stat.ppid, []).append(pid)
            groups.setdefault(stat.pgrp, []).append(pid)
    found, todo = {}, list(children.get(root_pid, ()))
    while todo:
        pid = todo.pop()
        found[pid] = " ".join(proc.command_line(pid)).strip()
        todo.extend(children.get(pid, ()))
    root = proc.read_stat(root_pid)
    shared = {root.pgrp} if root is not None else set()   # the lab's own group is its caller's: not below it
    for pid in list(found):
        stat = proc.read_stat(pid)
        for member in groups.get(stat.pgrp, ()) if stat is not None and stat.pgrp not in shared else ():
            if member not in found and member != root_pid:
                found[member] = " ".join(proc.command_line(member)).strip()
    return found


def alive(pids):
    """The pids of `pids` still running (a zombie has exited)."""
    return [pid for pid in pids if (stat := proc.read_stat(pid)) is not None and not stat.exited]


def answers(url):
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


class Lab:
    """./lab started as a user would, its output kept (and shown when a test fails)."""

    def __init__(self, arguments):
        self.process = subprocess.Popen([sys.executable, "-m", "labkit.cli", *arguments], cwd=ROOT,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def output(self):
        return "".join(self.lines)[-4000:]

    def wait_for(self, condition, seconds, what):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"./lab exited with {self.process.returncode} before {what}:\n{self.output()}")
            if condition():
                return
            time.sleep(0.25)
        pytest.fail(f"no {what} within {seconds} s:\n{self.output()}")

    def kill_and_check_nothing_is_left(self, expect):
        """SIGKILLs the lab; asserts that what ran below it held each of `expect` (words of command
        lines: the server's java, the load tool) and that all of it is gone within 30 s."""
        left_behind = descendants(self.process.pid)
        for word in expect:
            assert any(word in command for command in left_behind.values()), (word, left_behind)
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        deadline = time.monotonic() + GONE_WITHIN_S
        while alive(left_behind) and time.monotonic() < deadline:
            time.sleep(0.5)
        still = {pid: left_behind[pid][:160] for pid in alive(left_behind)}
        assert not still, f"outlived the SIGKILLed lab by {GONE_WITHIN_S} s: {still}"

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


# kind: (./lab run's arguments or None, bench --modes, the path that answers once it is ready, the
# word in the server's command line). The GlassFish case keeps the domain of its port and mode between
# the two tests, so the second boots it once. It stands for Payara Server too: both are domains that
# `asadmin start-domain` starts and servers/appserver/ stops by one code path (the domain JVM
# reparented to init, ended through its process group), and Payara Server's domain boots in twice
# the time (100 s of the suite for the same path).
KINDS = {
    "payara-micro": (["run", "virtual"], "virtual", "/api/info", "payara-micro.jar"),
    "glassfish": (["run", "virtual", "--server", "glassfish"], "glassfish-virtual", "/api/info",
                  "com.sun.aas.instanceRoot"),
    "baseline": (None, "jdk-virtual", "/api/info", "java"),
    "cargotracker": (["run", "virtual", "--app", "cargotracker"], "cargotracker-virtual", "/api/info", "cargotracker.war"),
}
PORTS = {kind: 19400 + 10 * i for i, kind in enumerate(KINDS)}


@pytest.fixture(scope="module", autouse=True)
def built():
    ensure_built(log=lambda message: None)


def _bench_arguments(kind, port):
    modes = KINDS[kind][1]
    scenario = ["--scenario", "cargotracker-track"] if kind == "cargotracker" else []
    # One long window, so the kill lands inside it; no reference (a jdk-virtual before the target).
    return ["bench", "--modes", modes, *scenario, "--concurrency", "4", "--duration", "120", "--warmup", "1",
            "--repeats", "1", "--port", str(port), "--out", f"{ROOT}/.lab/test-killed-{kind}"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_lab_killed_once_its_server_is_ready_leaves_nothing_running(kind):
    run, _, ready_path, server_word = KINDS[kind]
    port = PORTS[kind]
    arguments = [*run, "--port", str(port)] if run else _bench_arguments(kind, port)
    lab = Lab(arguments)
    try:
        lab.wait_for(lambda: answers(f"http://127.0.0.1:{port}{ready_path}"), 420, "the server answering")
        lab.kill_and_check_nothing_is_left([server_word])
    finally:
        lab.stop()
        shutil.rmtree(ROOT / ".lab" / f"test-killed-{kind}", ignore_errors=True)


@pytest.mark.parametrize("kind", KINDS)
def test_a_lab_killed_in_the_middle_of_a_bench_window_leaves_nothing_running(kind):
    _, _, _, server_word = KINDS[kind]
    lab = Lab(_bench_arguments(kind, PORTS[kind]))  # the same domain as the test above: it boots once

    def load_tool_runs():
        # A process that is exiting has no command line left: "".split() is [].
        return any((command.split() or [""])[0].rsplit("/", 1)[-1] in LOAD_TOOLS or "/bin/vegeta" in command
                   for command in descendants(lab.process.pid).values())
    try:
        lab.wait_for(load_tool_runs, 420, "a load tool running")
        time.sleep(3)  # well inside the window
        lab.kill_and_check_nothing_is_left([server_word, "bombardier"])
    finally:
        lab.stop()
        shutil.rmtree(ROOT / ".lab" / f"test-killed-{kind}", ignore_errors=True)


def test_the_leash_ends_a_group_whose_leader_left_a_child_behind(tmp_path):
    """The case the parent-death signal misses, on its own (no server): the lab's child starts a
    grandchild and the lab is SIGKILLed; the child dies of its parent-death signal, the grandchild
    (as a domain JVM under asadmin) only of the leash."""
    script = ("import sys, time\n"
              "from labkit.ground.process import spawn\n"
              f"spawn(['sh', '-c', 'sleep 300 & wait'], {str(tmp_path / 'log')!r})\n"
              "print('started', flush=True)\n"
              "time.sleep(300)\n")
    lab = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert lab.stdout.readline().strip() == "started"
        deadline = time.monotonic() + 10
        while not any("sleep 300" == c for c in descendants(lab.pid).values()) and time.monotonic() < deadline:
            time.sleep(0.1)
        below = descendants(lab.pid)
        grandchild = [pid for pid, command in below.items() if command == "sleep 300"]
        assert grandchild, below
        lab.send_signal(signal.SIGKILL)
        lab.wait()
        deadline = time.monotonic() + 10
        while alive(below) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert alive(below) == [], {pid: below[pid] for pid in alive(below)}
    finally:
        if lab.poll() is None:
            lab.kill()
