"""Short commands the lab runs to their end and then reads (git, ip, ssh, scp, tar, jfr print, asadmin,
a tool's --version): one way to run them, so that each has a timeout and says in one line why it
could not run.

run_command returns the finished process (its exit code is the caller's to judge, unless `check`)
and raises a LabError when the program is missing, cannot start or outlives its timeout (then
subprocess kills it: no command outlives its call). A caller that records a fact when it can (git's
commit, a tool's version) catches the LabError and goes on without it.

Not for a process that lasts (a server, a load tool, a /proc feed: ground/process.spawn and a host's
spawn or stream) or one the lab talks to while it runs (load/spread.py's clock exchange).
"""
import shlex
import subprocess

from labkit.ground.errors import LabError

TAIL_LINES = 10


def run_command(command, timeout=60, cwd=None, env=None, merged=False, check=False, what=None,
                stdin=subprocess.DEVNULL):
    """Runs `command` (a list) to its end with its output read as text: stdout and stderr apart, or
    together in stdout when `merged`. `what` names it in errors (default: the command line);
    `timeout` None waits for as long as it takes (a build, a download). With `check`, an exit code
    other than 0 is a LabError holding the last lines of what it wrote."""
    command = [str(part) for part in command]
    what = what or shlex.join(command)
    try:
        result = subprocess.run(command, cwd=cwd, env=env, stdin=stdin, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT if merged else subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise LabError(f"{what} did not finish within {timeout} s") from None
    except OSError as e:
        raise LabError(f"cannot run {command[0]}: {e.strerror or e}") from None
    if check and result.returncode != 0:
        said = (result.stderr or "").strip() or result.stdout
        raise LabError(f"{what} failed (exit {result.returncode}): {last_lines(said, TAIL_LINES)}")
    return result


def last_lines(text, count=1):
    """The last `count` non-blank lines of what a command wrote, to quote in an error ("(no output)"
    when it wrote nothing)."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return "\n".join(lines[-count:]) if lines else "(no output)"
