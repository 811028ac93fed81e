"""How the lab runs processes: a short command to its end (ground/command.py), a server pinned by its
host (LocalHost.pinning here, taskset there), and the few places allowed to start a process at all.

Why: 32 direct subprocess calls in 20 modules each had their own timeout (or none), their own error
line and their own way of quoting a tool's output; now one function says why a command could not
run, and the rest are processes that last (on a leash) or that the lab talks to while they run."""
import ast
import os
import time
from pathlib import Path

import pytest

from labkit import ROOT
from labkit.ground.command import last_lines, run_command
from labkit.ground.errors import LabError
from labkit.hosts.host import SshHost
from labkit.hosts.local import LocalHost, is_this_machine
from labkit.hosts.options import parse_host

# Where the lab may still call subprocess itself, and why.
STARTS_PROCESSES = {
    "labkit/ground/command.py": "short commands, run to their end",
    "labkit/ground/process.py": "a process that lasts, on the local leash",
    "labkit/hosts/host.py": "a process that lasts on another host, on the remote leash (spawn, stream)",
    "labkit/hosts/java.py": "tar piped into ssh: a JDK copied to another host in one stream",
    "labkit/load/spread.py": "the clock exchange: lines written to ssh and read back while it runs",
    "labkit/commands/test.py": "./lab test's steps, printing to the terminal as they run",
}


def test_a_missing_program_is_one_line_saying_so():
    with pytest.raises(LabError, match=r"^cannot run no-such-program-of-loomlab: No such file or directory$"):
        run_command(["no-such-program-of-loomlab", "--version"])


def test_a_command_past_its_timeout_is_named_and_does_not_outlive_the_call(tmp_path):
    pid_file = tmp_path / "pid"
    started = time.monotonic()
    with pytest.raises(LabError, match=r"^the sleeper did not finish within 0\.5 s$"):
        run_command(["sh", "-c", f'echo $$ >"{pid_file}" && exec sleep 30'], timeout=0.5, what="the sleeper")
    assert time.monotonic() - started < 10
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_check_quotes_the_last_ten_lines_of_what_failed():
    script = 'for i in $(seq 1 15); do echo "line $i" >&2; echo; done; exit 3'
    with pytest.raises(LabError) as raised:
        run_command(["sh", "-c", script], check=True, what="the script")
    assert str(raised.value) == "the script failed (exit 3): " + "\n".join(f"line {i}" for i in range(6, 16))
    with pytest.raises(LabError, match=r"^sh -c 'exit 2' failed \(exit 2\): \(no output\)$"):
        run_command(["sh", "-c", "exit 2"], check=True)


def test_without_check_the_exit_code_and_the_output_are_the_callers():
    result = run_command(["sh", "-c", "echo out; echo err >&2; exit 4"])
    assert (result.returncode, result.stdout, result.stderr) == (4, "out\n", "err\n")
    assert run_command(["sh", "-c", "echo out; echo err >&2"], merged=True).stdout == "out\nerr\n"
    # Paths are words of the command too; input is closed, so a command that reads it ends.
    assert run_command(["cat", Path("/dev/null")]).stdout == ""
    assert run_command(["cat"], timeout=5).returncode == 0


def test_last_lines_skips_blank_lines_and_says_when_nothing_was_written():
    assert last_lines("a\n\n  b  \n\n") == "b"
    assert last_lines("a\nb\n\nc\n", 2) == "b\nc"
    assert last_lines("") == last_lines(None) == last_lines(" \n") == "(no output)"


def test_a_server_started_here_inherits_the_cpus_its_host_pinned_the_lab_to():
    before = os.sched_getaffinity(0)
    last = max(before)
    with LocalHost().pinning((last,)):
        inside = run_command(["sh", "-c", "grep Cpus_allowed_list /proc/self/status"]).stdout
    assert inside.split()[-1] == str(last)
    assert os.sched_getaffinity(0) == before  # the lab itself is back on all its CPUs
    with LocalHost().pinning(None):
        assert os.sched_getaffinity(0) == before
    assert LocalHost().pinned((last,), ["java", "-jar", "x.jar"]) == ["java", "-jar", "x.jar"]


def test_a_server_on_another_host_is_pinned_by_its_command_and_the_lab_stays_as_it_is():
    host = SshHost("bench@perf-7", address="198.18.0.2")
    before = os.sched_getaffinity(0)
    with host.pinning((1,)):
        assert os.sched_getaffinity(0) == before
    assert host.pinned((3, 1), ["java"]) == ["taskset", "-c", "1,3", "java"]
    assert host.pinned(None, ["java"]) == ["java"]


def test_this_machine_is_what_the_user_named_local():
    for name in ("local", "localhost", "127.0.0.1"):
        assert is_this_machine(parse_host(name))
    assert not is_this_machine(parse_host("bench@perf-7:2222"))


def test_processes_are_started_only_where_they_are_kept_on_a_leash_or_read_while_they_run():
    calls = {}
    for path in sorted((ROOT / "labkit").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("labkit/tests/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "subprocess"
                    and node.func.attr in ("run", "Popen", "call", "check_call", "check_output")):
                calls.setdefault(relative, []).append(node.lineno)
    assert set(calls) <= set(STARTS_PROCESSES), {path: lines for path, lines in calls.items()
                                                 if path not in STARTS_PROCESSES}
    assert set(calls) == set(STARTS_PROCESSES), "a module in the list no longer starts a process: take it out"
