"""What ./lab capacity does between windows so that every one starts from the same state: a full GC,
rest until the server's CPU is quiet, the load tool's closed sockets drained below a bound; and after
a window with failed requests, whether its server is still there to measure.
"""
import time

from labkit.measure.session import feed_of, host_of, server_jdk
from labkit.hosts.jvm import jcmd
from labkit.measure.sampler import reading_of
from labkit.ground import proc

from labkit.measure.sampler import process_running, read_process
from labkit.measure.watchdog import probe_once, stall_after_s

# Before the next window the server should be idle again (an overloaded step leaves work behind).
QUIET_CORES = 0.15
QUIET_MAX_S = 30
# Before a window: wait (at most TIME_WAIT_MAX_WAIT_S) while more client sockets than this to the
# server's port are in TIME_WAIT (the warm-up's iterations and earlier windows leave them).
TIME_WAIT_LIMIT = 8000
TIME_WAIT_MAX_WAIT_S = 65
# Before measuring a window again because the load tool failed: wait until its sockets are this few.
TIME_WAIT_DRAINED = 1000


def full_gc(java_home, pid, log, host=None):
    """A full GC (jcmd GC.run) after the warm-up and after every window, so each window starts from
    the same heap. Without it the first young collection of the search copied everything the
    warm-up's thousand connections left alive (measured: a 1.3 s pause on one CPU in the first window,
    at 250 req/s), and a window that overloaded the server left its dead backlog to the next ones
    (young pauses of 540-865 ms at rates that had shown 50 ms before): costs of an earlier phase,
    not of the rate measured. None without a JDK, else whether it ran."""
    if not java_home:
        return None
    try:
        returncode, output = jcmd(host, java_home, pid, ["GC.run"], 120)
    except OSError as e:
        log(f"  full GC after the warm-up failed: {e}")
        return False
    if returncode != 0:
        log(f"  full GC after the warm-up failed: {output.strip().splitlines()[-1:] or returncode}")
        return False
    return True


def full_gc_of(server, context):
    """full_gc in the run's server, unless its owner refused it (--no-server-gc): then None, as
    without a JDK."""
    java_home = server_jdk(server, context.java_home)
    if not java_home or server.full_gc_refused:
        return None
    return full_gc(java_home, server.pid, context.log, host_of(server))


def cool_down(pid, cooldown_s, feed=None):
    """cooldown_s, then until the server's CPU is quiet (at most QUIET_MAX_S). `feed`: the server's
    /proc read on its own host."""
    def reading():
        return reading_of(feed.latest()) if feed is not None else read_process(pid)
    time.sleep(cooldown_s)
    deadline = time.monotonic() + QUIET_MAX_S
    before = reading()
    while before is not None and time.monotonic() < deadline:
        time.sleep(1.0)
        after = reading()
        if after is None or after.cpu_s - before.cpu_s < QUIET_CORES:
            return
        before = after


def wait_for_time_wait(port, limit=TIME_WAIT_LIMIT):
    """Waits while more client sockets to `port` than `limit` are in TIME_WAIT; returns what it saw."""
    began = time.monotonic()
    count = time_wait_sockets(port)
    while count is not None and count > limit and time.monotonic() - began < TIME_WAIT_MAX_WAIT_S:
        time.sleep(2)
        count = time_wait_sockets(port)
    return {"time_wait_at_start": count, "waited_s": round(time.monotonic() - began, 1)}


def time_wait_sockets(port, tables=proc.TCP_TABLES):
    """Sockets in TIME_WAIT whose remote end is `port` (the load tool's side of closed connections to
    the server), or None when /proc/net/tcp cannot be read."""
    return proc.sockets_to(port, proc.TIME_WAIT, tables)


def check_server(server, mode, sleep, record, connections, log):
    """After a window with failed requests: is the server still there? A server whose process
    exited, or whose process runs but answers no request, ends the session's search or round: every
    later window would only measure a closed port (Helidon 4.5.0 closed its listener on EMFILE and
    ran on; its round's later windows failed in under a millisecond each). The probe is the
    watchdog's, on a connection of its own, after the cool-down, with the watchdog's timeout for
    the window's connections: a pool that is still working off an overloaded window's backlog
    (its sleeping threads leave the CPU quiet) answers late, not never. What it finds goes into the
    window's record (server_exited, server_unresponsive and the unresponsive flag)."""
    if not process_running(server.pid, feed_of(server)):
        record["server_exited"] = True
        return
    if (record.get("load") or {}).get("errors", {}).get("total", 1) == 0:
        return
    timeout_s = stall_after_s(sleep.max_ms, connections=connections)
    outcome = probe_once(server.host, server.port, server.info_path, timeout_s)
    if outcome == "answered":
        return
    why = "refused or reset" if outcome == "failed" else f"no answer in {timeout_s:g} s"
    record["server_unresponsive"] = {"probe": f"GET {server.info_path}", "outcome": outcome,
                                     "timeout_s": timeout_s}
    record["flags"].append("unresponsive")
    ended = "search" if record["phase"] == "search" else "confirmation round"
    log(f"    the {mode} server (pid {server.pid}) runs but did not answer GET {server.info_path} after "
        f"this window ({why}): its {ended} ends here; see its log in servers/")
