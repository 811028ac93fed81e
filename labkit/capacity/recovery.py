"""After a window that collapsed, the next window measures a server that is back at rest, or a fresh one.

A window collapsed when requests failed or its percentile reached COLLAPSE_GOAL_TIMES x the goal. An
overloaded server can stay broken after its window: on 8 cores, one window at 32,000 req/s left a
ZGC Payara whose every lower window of the same search failed too (68-87 % of requests answered,
issue 55), so the search measured the wreck, not the rates it asked for. After a collapse (and the
usual cool-down) the lab therefore asks the server what it asked at rest after the warm-up:
IDLE_PROBES sequential requests, each on a connection of its own, until their median is back within
the idle latency's margin (recovered_within), for at most RECOVERY_MAX_S. A server that comes back
is measured on. One that does not is stopped and a fresh one started and warmed up in its place
(MAX_RESTARTS per search or round); one that still does not come back ends its search or round,
flagged not-recovered: no rate is judged on a server that has not recovered.
"""
import statistics
import time
from urllib.parse import urlsplit

from labkit.measure.watchdog import timed_probe

COLLAPSE_GOAL_TIMES = 3
IDLE_PROBES = 3
# Back at rest: the probes' median at most the idle median plus the larger of these two.
RECOVERED_MARGIN_MS = 5.0
RECOVERED_MARGIN_SHARE = 0.25
RECOVERY_MAX_S = 60
RECOVERY_INTERVAL_S = 2.0
MAX_RESTARTS = 1


def collapsed(record, percentile, goal_ms):
    """Whether a window collapsed: failed requests, or its percentile at COLLAPSE_GOAL_TIMES x the goal."""
    load = record.get("load") or {}
    if (load.get("errors") or {}).get("total"):
        return True
    latency = (load.get("latency_ms") or {}).get(percentile)
    return latency is not None and latency >= COLLAPSE_GOAL_TIMES * goal_ms


def recovered_within(idle_ms):
    """The highest median of the probes that counts as back at rest."""
    return idle_ms + max(RECOVERED_MARGIN_MS, RECOVERED_MARGIN_SHARE * idle_ms)


def probe_path(session, scenario):
    """What the probes ask: the windows' own request when it is the lab's GET endpoint (its idle
    latency is the sleep), else the server's info path (your requests may change data or need a body)."""
    if scenario.requests is None:
        parts = urlsplit(session.url)
        return parts.path + (f"?{parts.query}" if parts.query else "")
    return session.server.info_path


def probe_median(server, path, timeout_s):
    """(median ms of IDLE_PROBES sequential probes, each probe's ms or outcome); median None when one
    was not answered."""
    seen = []
    for _ in range(IDLE_PROBES):
        outcome, ms = timed_probe(server.host, server.port, path, timeout_s)
        seen.append(round(ms, 1) if ms is not None else outcome)
    answered = [value for value in seen if not isinstance(value, str)]
    return (round(statistics.median(answered), 1) if len(answered) == len(seen) else None), seen


def idle_latency(server, path, timeout_s):
    """The server's answer time at rest, after its warm-up: {"path", "probes_ms", "ms"}, where "ms" is
    the fastest probe's. Why the fastest: the first probe can queue behind what the
    warm-up left (a pool of 8 after a thousand connections works for seconds with its CPU quiet); the
    queue is first in, first out, so the probes after it meet a server at rest."""
    _, seen = probe_median(server, path, timeout_s)
    answered = [value for value in seen if not isinstance(value, str)]
    return {"path": path, "probes_ms": seen, "ms": min(answered) if answered else None}


def await_recovery(server, idle, timeout_s, sleep=time.sleep, clock=time.monotonic):
    """Probes until the median is within recovered_within(idle median) or RECOVERY_MAX_S have passed.
    Returns the record's `recovery` (without its outcome): the idle latency, the last median, the
    bound, the seconds waited, whether it recovered."""
    began = clock()
    bound = recovered_within(idle["ms"])
    while True:
        median, seen = probe_median(server, idle["path"], timeout_s)
        recovered = median is not None and median <= bound
        waited = clock() - began
        if recovered or waited >= RECOVERY_MAX_S:
            return {"idle_ms": idle["ms"], "within_ms": round(bound, 1), "probes_ms": seen,
                    "median_ms": median, "waited_s": round(waited, 1), "recovered": recovered}
        sleep(RECOVERY_INTERVAL_S)
