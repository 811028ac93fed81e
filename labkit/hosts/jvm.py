"""A JDK tool run against a JVM where that JVM runs: `jcmd PID ...` here, or over ssh on the server's
host with the JDK found there. The measurement layer asks for PerfCounters, JFR recordings and
thread dumps through here, so they work the same for a server on another host."""
from labkit.ground.errors import LabError
from labkit.hosts.local import LocalHost

LOCAL = LocalHost()


def jcmd(host, java_home, pid, arguments, timeout_s):
    """(exit code, stdout and stderr together) of `jcmd PID ARGUMENTS` on `host` (this machine when
    None). Raises OSError when jcmd could not run there or did not finish in `timeout_s`."""
    command = [f"{java_home}/bin/jcmd", str(pid), *arguments]
    try:
        done = (host or LOCAL).run(command, timeout=timeout_s, check=False)
    except LabError as e:  # no jcmd, ssh failed, or timed out: the callers report it as jcmd's failure
        raise OSError(str(e)) from None
    return done.returncode, done.stdout + done.stderr


def fetch(host, remote_path, local_path):
    """A file the JVM wrote on its host, moved here (where it already is, for a JVM here)."""
    return (host or LOCAL).take(remote_path, local_path)


def remote_path(host, local_path, folder):
    """Where a JVM on `host` should write the file the lab keeps at `local_path`."""
    return (host or LOCAL).path_for(local_path, folder)
