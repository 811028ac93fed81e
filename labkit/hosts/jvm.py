"""A JDK tool run against a JVM where that JVM runs: `jcmd PID ...` here, or over ssh on the server's
host with the JDK found there. The measurement layer asks for PerfCounters, JFR recordings and
thread dumps through here, so they work the same for a server on another host."""
import subprocess

from labkit.hosts.host import LocalHost

LOCAL = LocalHost()


def jcmd(host, java_home, pid, arguments, timeout_s):
    """(exit code, stdout and stderr together) of `jcmd PID ARGUMENTS` on `host` (this machine when
    None). Raises OSError or subprocess.TimeoutExpired as subprocess.run does."""
    command = [f"{java_home}/bin/jcmd", str(pid), *arguments]
    if host is None or not host.remote:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout_s)
        return done.returncode, done.stdout
    try:
        done = host.run(command, timeout=timeout_s, check=False)
    except Exception as e:  # LabError: ssh failed or timed out; the callers report it as jcmd's failure
        raise OSError(str(e)) from None
    return done.returncode, done.stdout + done.stderr


def fetch(host, remote_path, local_path):
    """A file the JVM wrote on its host, copied here (nothing to do for a local JVM)."""
    if host is None or not host.remote:
        return local_path
    host.get(remote_path, local_path)
    host.run(["rm", "-f", str(remote_path)], check=False)
    return local_path


def remote_path(host, local_path, folder):
    """Where a JVM on `host` should write the file the lab keeps at `local_path`."""
    if host is None or not host.remote:
        return local_path
    return f"{host.workdir}/{folder}/{local_path.name}"
