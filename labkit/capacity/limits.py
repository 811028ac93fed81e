"""What limited each window and each capacity of a ./lab capacity run: labkit/measure/limits.py's
rules, given what the run knew of the window (its goal, the service time, the CPUs its server could
use, whether its warm-up settled). Pure: from the run's records, for a run as it goes and for a
committed one (`./lab report` computes it in memory; the record on disk is not rewritten).

A capacity's limit is what stopped each round's walk: the window that missed just above the rate the
round held. Its rounds may name different limits; each is counted.
"""
from collections import Counter

from labkit.measure.histograms import decode, share_above
from labkit.measure.limits import NONE_FOUND, count_cpus, limit_words, window_limits

# A round that held the run's --max-rate was not stopped by the server; one whose walk ended before a
# window above the rate it held missed (runs before the walk, or its step limit) has no miss to read.
AT_MAX_RATE = "at --max-rate"
NO_MISS_ABOVE = "no miss measured above it"


def service_ms(run, point):
    """The time a request needs at no load: the sleep for the lab's endpoint; for your own requests
    their p50 in the target's lowest-rate window that met its goal (their own service time)."""
    if run["config"].get("scenario") != "requests":
        return (point.get("service_time_s") or 0) * 1000
    quiet = [p for p in run["points"] if p["mode"] == point["mode"] and p.get("load")
             and (p.get("capacity") or {}).get("met_goal") and (p["load"].get("latency_ms") or {}).get("p50")]
    if not quiet:
        return None
    return min(quiet, key=lambda p: p["rate"])["load"]["latency_ms"]["p50"]


def point_limits(run, point, session=None):
    """The limit verdict of one window (measure.limits.window_limits), None for a window that met its
    goal, is to be measured again, or was not run. `session`: its server session's record, while the
    run still holds it (it joins the run's sessions when the server stops)."""
    capacity = point.get("capacity") or {}
    if capacity.get("passed") or capacity.get("verdict") == "rerun-longer" or not point.get("load"):
        return None
    session = session or _session(run, point)
    return window_limits(point, goal_ms=capacity.get("goal_ms"), percentile=capacity.get("percentile") or "p99",
                         service_ms=service_ms(run, point), server_cpus=count_cpus((session or {}).get("cpus_allowed")),
                         warm=_warm(run, point, session), past_goal_share=past_goal_share(point))


def past_goal_share(point):
    """The share of the window's requests slower than its goal, from its histogram; None without one."""
    encoded = (point.get("load") or {}).get("latency_hdr")
    goal = (point.get("capacity") or {}).get("goal_ms")
    if not encoded or goal is None:
        return None
    return share_above(decode(encoded), goal)


def _warm(run, point, session):
    """Whether the server was warm for this window, where the run can tell: for the session's first
    window, whether its warm-up settled (throughput steady and the JIT quiet) before its cap. Later
    windows ran after more minutes of load than the warm-up could give; the run does not count their
    compilations, so for them it is not recorded (None)."""
    warmup = (session or {}).get("warmup") or {}
    if "settled" not in warmup:
        return None
    first = min((p["index"] for p in run["points"] if p.get("session") == point.get("session")), default=point["index"])
    return warmup["settled"] if point["index"] <= first else None


def _session(run, point):
    for session in run.get("sessions") or ():
        if session.get("index") == point.get("session"):
            return session
    return None


def round_limits(run, per_repeat):
    """{rounds: [{round, held_rps, missed_rps, limit, also, point, words}], counts: {limit: rounds}} of
    one capacity, from its confirmation rounds ({repeat: windows}, summary.rounds): per round, the
    window that missed just above the rate the round held (AT_MAX_RATE when it held --max-rate, where
    the walk stops; NO_MISS_ABOVE when its walk ended before a miss)."""
    found = []
    for number, points in sorted(per_repeat.items()):
        held = max((p["rate"] for p in points if (p.get("capacity") or {}).get("passed")), default=None)
        # Windows measured again (longer, or after the load tool drained) are history: the last one counts.
        above = [p for p in points if not (p.get("capacity") or {}).get("passed") and p.get("load")
                 and (p.get("capacity") or {}).get("verdict") != "rerun-longer"
                 and (held is None or p["rate"] > held)]
        entry = {"round": number, "held_rps": held, "missed_rps": None, "limit": NO_MISS_ABOVE, "also": [],
                 "point": None, "words": None}
        if not above:
            if held is not None and held >= (run["config"].get("max_rate") or float("inf")):
                entry["limit"] = AT_MAX_RATE
            found.append(entry)
            continue
        miss = min(above, key=lambda p: (p["rate"], -p["index"]))
        limits = point_limits(run, miss) or {"limit": NONE_FOUND, "also": [], "checks": {}, "not_recorded": []}
        entry.update(missed_rps=miss["rate"], limit=limits["limit"], also=limits["also"], point=miss["id"],
                     words=limit_words(limits))
        found.append(entry)
    return {"rounds": found, "counts": dict(Counter(r["limit"] for r in found))}


def counts_text(counts, rounds):
    """'cpu (3 of 3 rounds)', 'gc-young (2 of 3 rounds), none found (1 of 3 rounds)'."""
    return ", ".join(f"{name} ({n} of {rounds} round{'s' if rounds != 1 else ''})"
                     for name, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])))
