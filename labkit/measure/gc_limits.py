"""The GC checks of a window's limit (limits.py): pauses, old and young apart, and ZGC's allocation
stalls, each against the goal's slack (goal − service time); and, below every line, the time a
concurrent collector's cycles ran. Pure, like limits.py.

Pauses: the time the pauses longer than the slack kept requests past the goal, as a share of the
window, against the percentile's share of requests (1 % for p99). A pause of P ms delays past the
goal the requests due in its first P − slack ms; the backlog it leaves then drains only at the CPU
the load leaves idle, so the late time lasts (P − slack) ÷ (1 − the server's busy share) in all
(queueing: the drain takes P × busy ÷ (1 − busy)). The same pause costs more on a busier server;
when the CPU is past its own line and the pauses cross only by that slow drain, the CPU is named
first and the pauses after it. Against the committed windows (11 capacity runs, 505 windows with
their pauses and CPU listed), at half the percentile's share (GC_SHARE_OF_TAIL, 0.5 % for p99) this
names GC in 109 of 228 windows that missed and in 19 of 277 that met; the pauses' bare share of the
window named it in 82 and 30 (at 1 %: 45 and 0, against 35 and 4).

Allocation stalls (ZGC): its pauses stay under a millisecond, but a thread that allocates faster
than the concurrent collector frees memory waits (jdk.ZAllocationStall) inside its request; stalls
longer than the slack, for more than half the percentile's share of the window's requests (0.5 %
for p99), put the percentile at the service time plus a stall.

Concurrent cycles (ZGC): no pause and no stall, yet its cycle's threads share the server's CPUs
with the requests while it runs. How long the cycles ran is evidence beside the CPU's, with no line
of its own: on one CPU a cycle of seconds and a stretch of full CPU can be the same time.
"""

# GC pauses longer than the slack keeping requests past the goal for this share of the percentile's
# tail (p99: 1 % of requests) of the window name GC (see above).
GC_SHARE_OF_TAIL = 0.5
# A server at its full CPU drains a pause's backlog only as the load ebbs: its late time is counted
# as if 5 % were idle (twenty times the excess), not without end.
BUSY_DRAIN_FLOOR = 0.05
YOUNG_MARKERS = ("New", "Young", "Minor", "young")
# A collection ran concurrently when its cycle lasted this much longer than its longest pause (G1's
# young collections are all pause; ZGC's cycles are all but a millisecond concurrent).
CONCURRENT_BEYOND_PAUSE_MS = 10.0


def tail_share(percentile):
    """The share of requests above a percentile: p99 → 0.01, p999 → 0.001, p50 → 0.5."""
    digits = percentile.lstrip("p")
    return 1 - float(f"{digits[:2]}.{digits[2:]}" if len(digits) > 2 else digits) / 100


def is_young(collector):
    return any(marker in collector for marker in YOUNG_MARKERS)


def gc_checks(record, goal_ms, service_ms, percentile, window_s, busy):
    """{"gc-old": check, "gc-young": check}: each from the window's list of pauses; `busy` the server's
    busy share of its CPUs (None when not recorded: the backlog then counts as draining at once)."""
    jfr = record.get("jfr") or {}
    if not jfr.get("available") or goal_ms is None or service_ms is None or not window_s:
        return {"gc-old": None, "gc-young": None}
    pauses = jfr.get("gc_pauses")
    if pauses is None:
        return {"gc-old": None, "gc-young": None} if jfr.get("gc_count") else {
            "gc-old": gc_kind([], "old", goal_ms, service_ms, percentile, window_s, busy),
            "gc-young": gc_kind([], "young", goal_ms, service_ms, percentile, window_s, busy)}
    young = [pause for _, pause, name in pauses if is_young(name)]
    old = [pause for _, pause, name in pauses if not is_young(name)]
    return {"gc-old": gc_kind(old, "old", goal_ms, service_ms, percentile, window_s, busy,
                              concurrent_cycles(jfr, young=False)),
            "gc-young": gc_kind(young, "young", goal_ms, service_ms, percentile, window_s, busy,
                                concurrent_cycles(jfr, young=True))}


def concurrent_cycles(jfr, young):
    """{cycles, seconds, longest: [start, end] s into the window} of one generation's collections that
    ran concurrently in the window (their cycle well beyond their pause), or None: none did, or the
    record has no cycles (made before the lab recorded them)."""
    pauses = {(at, name): pause for at, pause, name in jfr.get("gc_pauses") or ()}
    concurrent = [(at, ms) for at, ms, name in jfr.get("gc_cycles") or ()
                  if is_young(name) == young and ms - pauses.get((at, name), 0.0) >= CONCURRENT_BEYOND_PAUSE_MS]
    if not concurrent:
        return None
    at, ms = max(concurrent, key=lambda cycle: cycle[1])
    return {"cycles": len(concurrent), "seconds": round(sum(ms for _, ms in concurrent) / 1000, 2),
            "longest": [at, round(at + ms / 1000, 2)]}


def late_ms(pause_ms, slack_ms, busy):
    """How long a pause keeps requests past the goal: its part beyond the slack, stretched by the drain
    of its backlog at the CPU the load leaves idle (1 − busy, at least BUSY_DRAIN_FLOOR)."""
    idle = max(1.0 - (busy or 0.0), BUSY_DRAIN_FLOOR)
    return max(0.0, pause_ms - slack_ms) / idle


def gc_kind(pauses, kind, goal_ms, service_ms, percentile, window_s, busy, concurrent=None):
    slack = goal_ms - service_ms
    longer = [pause for pause in pauses if pause > slack]
    late = sum(late_ms(pause, slack, busy) for pause in longer)
    share = late / (window_s * 1000)
    excess_share = sum(pause - slack for pause in longer) / (window_s * 1000)
    threshold = GC_SHARE_OF_TAIL * tail_share(percentile)
    crossed = slack > 0 and bool(longer) and share >= threshold
    evidence = {"pauses": len(pauses), "longest_ms": round(max(pauses), 1) if pauses else None,
                "total_ms": round(sum(pauses), 1), "slack_ms": round(slack, 1), "longer_than_slack": len(longer),
                "busy_share": None if busy is None else round(busy, 3), "late_ms": round(late, 1),
                "share_of_window": round(share, 5), "threshold_share": threshold,
                "by_backlog": crossed and excess_share < threshold,
                **({"concurrent": concurrent} if concurrent else {})}
    if not pauses:
        words = f"no {kind} collection"
    else:
        words = (f"{len(pauses)} {kind} pause{'s' if len(pauses) != 1 else ''}, the longest {max(pauses):,.1f} ms "
                 f"against {slack:,.0f} ms of slack; {len(longer)} longer than it")
        if longer:
            drain = f" with their backlog draining while the server was {busy:.2f} busy," if busy is not None else ""
            words += f";{drain} they kept requests past the goal about {late:,.0f} ms"
        words += f", {share * 100:.2f} % of the window (the line: {threshold * 100:.2f} %)"
        if crossed:
            words += f": they put {percentile} at the service time plus a pause and its backlog"
    if concurrent:
        words += (f"; {concurrent['cycles']} cycle{'s' if concurrent['cycles'] != 1 else ''} ran concurrently "
                  f"for {concurrent['seconds']:.1f} s, sharing the server's CPUs with the requests")
    return {"crossed": crossed, "evidence": evidence, "words": words}


def stall_check(record, goal_ms, service_ms, percentile):
    """ZGC's allocation stalls against the slack, counted in requests (each stall delays one); None for
    a record made before the lab recorded them."""
    stalls = (record.get("jfr") or {}).get("allocation_stalls")
    requests = (record.get("load") or {}).get("responses")
    if stalls is None or goal_ms is None or service_ms is None or not requests:
        return None
    slack = goal_ms - service_ms
    longer = [stall for stall in stalls["longest_ms"] if stall > slack]
    share = len(longer) / requests
    threshold = GC_SHARE_OF_TAIL * tail_share(percentile)
    crossed = slack > 0 and share >= threshold
    evidence = {"stalls": stalls["count"], "total_ms": stalls["total_ms"],
                "longest_ms": stalls["longest_ms"][0] if stalls["longest_ms"] else None, "slack_ms": round(slack, 1),
                "longer_than_slack": len(longer), "requests": requests, "share_of_requests": round(share, 5),
                "threshold_share": threshold}
    if not stalls["count"]:
        return {"crossed": False, "evidence": evidence, "words": "no allocation stall"}
    words = (f"{stalls['count']:,} allocation stall{'s' if stalls['count'] != 1 else ''} (threads waiting for "
             f"memory the concurrent collector had not freed yet), the longest {stalls['longest_ms'][0]:,.1f} ms "
             f"against {slack:,.0f} ms of slack; {len(longer):,} longer than it, {share * 100:.2f} % of the "
             f"window's {requests:,} requests (the line: {threshold * 100:.2f} %)")
    if crossed:
        words += f": they put {percentile} at the service time plus a stall"
    return {"crossed": crossed, "evidence": evidence, "words": words}
