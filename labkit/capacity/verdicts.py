"""The rules that judge a ./lab capacity window from its record, without I/O: did it meet the goal,
does it count (enough young collections in it), is it measured again (the load tool or the host, not
the server, set its pace), is its server lost, and how many connections vegeta may open for it.

The window loop (windows.py) applies them; report/ cites their constants in what it writes.
"""
import math

from labkit.load.tools import MAX_CONNECTIONS_OPEN_MODEL

# vegeta's connections in a window: twice what the goal allows in flight at the rate (at least 64).
# A window that meets the goal never waits for one; an overloaded one queues in vegeta (inside the
# latency) instead of opening thousands of sockets. Each socket it closes stays in TIME_WAIT for 60 s
# on the client side, and with ~16,000 of them on loopback vegeta spent its core on connect() and sent
# almost nothing (measured: 151 of 61,875 requests at 4,125 req/s, vegeta at 100 % CPU).
# Never above the lab's open-model bound: at a 2 s sleep, 8,000 req/s would ask for 32,800, more
# than `ulimit -n` allows either process; the requests beyond it queue in vegeta, inside the latency.
CONNECTIONS_PER_GOAL = 2
MIN_CONNECTIONS = 64
# A window that missed the goal while the hypervisor gave more than this share of the server's CPUs
# to other guests measured the host, not the target: it is measured once more after HOST_REST_S.
# Steal shows only while the guest has work, so an idle probe cannot tell a quiet host; the window
# measured again carries its own steal share (and the host-steal flag when it was stolen from too).
STEAL_AGAIN_SHARE = 0.10
HOST_REST_S = 30
# What measure_again answers: why a window that missed is measured once more.
LOAD_TOOL = "load-tool"
HOST_STEAL = "host-steal"
# window_verdict: what a window's record says (capacity.verdict), and the flag some verdicts add.
RERUN_LONGER = "rerun-longer"
VERDICT_TEXT = {
    "met": "meets the goal",
    "missed": "misses the goal",
    RERUN_LONGER: "meets the goal with {young_gcs} young collection(s), {min_young_gcs} needed: does not count yet",
    "met-few-gcs": "meets the goal with {young_gcs} young collection(s) at the {window_s} s cap: counts (few-gcs)",
    "met-gcs-unknown": "meets the goal (young collections not counted: JFR unavailable; gcs-unknown)",
    "met-ramp": "meets the goal with {young_gcs} young collection(s): counts on the ramp only",
}
VERDICT_FLAGS = {"met-few-gcs": "few-gcs", "met-gcs-unknown": "gcs-unknown"}


def meets_goal(record, percentile, goal_ms):
    """The goal: a complete window, no failed request, and the window's percentile at most goal_ms."""
    load = record.get("load")
    if not load or load["errors"]["total"] or not load.get("latency_ms") or not load.get("complete", True):
        return False
    return load["latency_ms"][percentile] <= goal_ms


def young_gcs(jfr):
    """Young collections in the window from its JFR figures; None when not known (no JFR, runs made
    before the count, a single-generation collector)."""
    if not jfr or not jfr.get("available"):
        return None
    return jfr.get("young_gc_count")


def window_verdict(met_goal, young, min_young_gcs, window_s, max_window_s, ramp=False):
    """(counts as meeting the goal, verdict) of a window. A window that missed the goal missed it,
    whatever its collections (failing is conservative). One that met it counts only with at least
    min_young_gcs young collections in it; with fewer it is re-run longer (RERUN_LONGER) until
    window_s reaches max_window_s, where it counts, flagged few-gcs: a target that allocates so little
    that it collects less than that in the longest window has no steady-state pause the window misses.
    With the count unknown it counts on the goal alone, as before the rule (flagged gcs-unknown).
    On the search's doubling ramp (`ramp`) a window that met the goal with too few counts at once
    (met-ramp): it only sends the search to a higher rate, and the rate finally reported comes from
    the bisection and the confirmation rounds, which keep the rule. This spares the long windows the
    low rates need (at 250 req/s a Payara collected once in 120 s)."""
    if not met_goal:
        return False, "missed"
    if min_young_gcs <= 0 or (young is not None and young >= min_young_gcs):
        return True, "met"
    if young is None:
        return True, "met-gcs-unknown"
    if ramp:
        return True, "met-ramp"
    if window_s >= max_window_s:
        return True, "met-few-gcs"
    return False, RERUN_LONGER


def judge(record, window_s, min_young_gcs, max_window_s, ramp=False):
    """Writes into a window's record whether it counts as meeting the goal (capacity.verdict and
    .passed, from its capacity.met_goal and its JFR figures), and the flag its verdict adds."""
    capacity = record["capacity"]
    young = young_gcs(record.get("jfr"))
    counts, verdict = window_verdict(capacity["met_goal"], young, min_young_gcs, window_s, max_window_s, ramp)
    capacity.update({"young_gcs": young, "min_young_gcs": min_young_gcs, "window_s": window_s,
                     "verdict": verdict, "passed": counts})
    if verdict in VERDICT_FLAGS:
        record["flags"].append(VERDICT_FLAGS[verdict])


def longer_window(window_s, max_window_s):
    """The next window of a re-run for too few young collections: twice as long, at most the cap."""
    return min(2 * window_s, max_window_s)


def stolen_share(record):
    """The share of the server's CPUs' time the hypervisor gave other guests in the window, or None
    when it was not measured (sampler.summarize)."""
    return ((record.get("resources") or {}).get("machine") or {}).get("server_cpus_steal_share")


def load_tool_failed(record):
    """True when the load tool, not the server, set the window's pace: vegeta used its whole core and
    sent requests late (flags client-bound and driver-behind)."""
    return {"client-bound", "driver-behind"} <= set(record.get("flags", []))


def server_lost(record):
    """True when a window left no server to measure: it exited, stopped answering (check_server), or
    did not come back at rest after a collapse on a server already restarted once (recovery.py)."""
    return bool(record.get("server_exited") or record.get("server_unresponsive") or record.get("server_not_recovered"))


def measure_again(record):
    """Why a window is measured once more, or None: it missed the goal with its server still there
    while the load tool could not keep the rate (LOAD_TOOL), or while the hypervisor took more than
    STEAL_AGAIN_SHARE of the server's CPUs (HOST_STEAL). Either way the window says nothing about the
    server. The load tool is asked first: a window it failed is measured again whatever the steal."""
    if record["capacity"]["met_goal"] or server_lost(record):
        return None
    if load_tool_failed(record):
        return LOAD_TOOL
    if (stolen_share(record) or 0) > STEAL_AGAIN_SHARE:
        return HOST_STEAL
    return None


def connection_cap(rate, goal_ms):
    """vegeta's connection bound for a window at `rate` with a latency goal of `goal_ms`."""
    wanted = math.ceil(rate * goal_ms / 1000 * CONNECTIONS_PER_GOAL)
    return min(MAX_CONNECTIONS_OPEN_MODEL, max(MIN_CONNECTIONS, wanted))
