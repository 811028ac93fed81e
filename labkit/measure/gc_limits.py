"""The GC checks of a window's limit (limits.py): pauses, old and young apart, and ZGC's allocation
stalls, each against the goal's slack (goal − service time); and, below every line, the time a
concurrent collector's cycles ran. Pure, like limits.py.

Pauses: a stop-the-world pause of P ms keeps two sets of requests past the goal. Those arriving in
its first P − slack ms wait to be read; those whose answer fell due in them (begun before the pause,
so at most a service time's worth) wait to be written. The backlog both leave then drains only at
the CPU the load leaves idle, so each set's late time lasts (P − slack) ÷ (1 − the server's busy
share) (queueing: the drain takes P × busy ÷ (1 − busy)). The same pause costs more on a busier
server; when the CPU is past its own line and the pauses cross only by that slow drain, the CPU is
named first and the pauses after it.

The pauses are the limit when the requests they kept past the goal are the percentile's share of
the window (1 % for p99): alone, they put the percentile at the service time plus a pause. They are
also the limit of a window that missed when they kept at least half that share and the window,
without those requests, would have held the goal (its share of requests past the goal, read from
its histogram, less theirs): a pause on top of a tail already near the goal. Drawn against the
committed windows (15 capacity runs, 744 windows with their pauses, CPU and histograms, 343 of them
missed): the pauses alone name GC in 129 windows that missed and 22 that met (counting the arrivals
only, at half the line, named the same), the part that made a miss in 39 more that missed, among
them all five of `virtual`'s misses at p99 ≤ 110 ms under G1. Where the server was under 0.70 busy
(262 windows with a pause past the slack), the two sets together are a median 0.80 of the share the
histogram holds past the goal, the arrivals alone 0.40: the rest is the window's own tail.

Allocation stalls (ZGC): its pauses stay under a millisecond, but a thread that allocates faster
than the concurrent collector frees memory waits (jdk.ZAllocationStall) inside its request; stalls
longer than the slack, for more than half the percentile's share of the window's requests (0.5 %
for p99), put the percentile at the service time plus a stall.

Concurrent cycles (ZGC): no pause and no stall, yet its cycle's threads share the server's CPUs
with the requests while it runs. How long the cycles ran is evidence beside the CPU's, with no line
of its own: on one CPU a cycle of seconds and a stretch of full CPU can be the same time.
"""
from dataclasses import dataclass

# Pauses that kept at least this share of the percentile's tail (p99: 1 % of requests) past the goal
# put the percentile there alone; with at least PART_OF_TAIL of it they made a miss the window's own
# tail brought near (see above).
GC_SHARE_OF_TAIL = 1.0
PART_OF_TAIL = 0.5
# Each stall delays one request: stalls past the slack for half the percentile's share of the
# window's requests put the percentile at the service time plus a stall.
STALL_SHARE_OF_TAIL = 0.5
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


def gc_checks(record, goal_ms, service_ms, percentile, window_s, busy, past_goal_share=None):
    """{"gc-old": check, "gc-young": check}: each from the window's list of pauses; `busy` the server's
    busy share of its CPUs (None when not recorded: the backlog then counts as draining at once);
    `past_goal_share` the share of the window's requests slower than the goal (None: not known)."""
    jfr = record.get("jfr") or {}
    if not jfr.get("available") or goal_ms is None or service_ms is None or not window_s:
        return {"gc-old": None, "gc-young": None}
    window = Window(goal_ms, service_ms, percentile, window_s, busy, past_goal_share)
    pauses = jfr.get("gc_pauses")
    if pauses is None:
        return {"gc-old": None, "gc-young": None} if jfr.get("gc_count") else {
            "gc-old": gc_kind([], "old", window), "gc-young": gc_kind([], "young", window)}
    young = [pause for _, pause, name in pauses if is_young(name)]
    old = [pause for _, pause, name in pauses if not is_young(name)]
    return {"gc-old": gc_kind(old, "old", window, concurrent_cycles(jfr, young=False)),
            "gc-young": gc_kind(young, "young", window, concurrent_cycles(jfr, young=True))}


@dataclass(frozen=True)
class Window:
    """What a GC check knows of its window besides the pauses."""
    goal_ms: float
    service_ms: float
    percentile: str
    seconds: float
    busy: float = None
    past_goal_share: float = None

    @property
    def slack_ms(self):
        return self.goal_ms - self.service_ms


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


def late_ms(pause_ms, slack_ms, service_ms, busy):
    """How long (in arrival time) a pause keeps requests past the goal: its part beyond the slack, once
    for the requests arriving then and once for those whose answer fell due then (at most a service
    time's worth began before the pause), each stretched by the drain of its backlog at the CPU the
    load leaves idle (1 − busy, at least BUSY_DRAIN_FLOOR)."""
    beyond = max(0.0, pause_ms - slack_ms)
    return (beyond + min(beyond, service_ms)) / max(1.0 - (busy or 0.0), BUSY_DRAIN_FLOOR)


def crosses(share, window):
    """Whether pauses that kept `share` of the window's requests past the goal limited it: alone (the
    percentile's share), or as the part that made its miss (see the module's note)."""
    tail = tail_share(window.percentile)
    past = window.past_goal_share
    return share >= GC_SHARE_OF_TAIL * tail or (
        past is not None and past > tail and share >= PART_OF_TAIL * tail and past - share <= tail)


def gc_kind(pauses, kind, window, concurrent=None):
    slack = window.slack_ms
    longer = [pause for pause in pauses if pause > slack]
    late = sum(late_ms(pause, slack, window.service_ms, window.busy) for pause in longer)
    share = late / (window.seconds * 1000)
    # The same pauses with a backlog that drains at once: what they did beyond a busy CPU's slow drain.
    excess_share = sum(late_ms(pause, slack, window.service_ms, 0.0) for pause in longer) / (window.seconds * 1000)
    tail = tail_share(window.percentile)
    threshold = GC_SHARE_OF_TAIL * tail
    crossed = slack > 0 and bool(longer) and crosses(share, window)
    alone = crossed and share >= threshold
    past = window.past_goal_share
    busy = window.busy
    evidence = {"pauses": len(pauses), "longest_ms": round(max(pauses), 1) if pauses else None,
                "total_ms": round(sum(pauses), 1), "slack_ms": round(slack, 1), "longer_than_slack": len(longer),
                "busy_share": None if busy is None else round(busy, 3), "late_ms": round(late, 1),
                "share_of_window": round(share, 5), "threshold_share": threshold,
                "past_goal_share": None if past is None else round(past, 5),
                "made_the_miss": crossed and not alone,
                "by_backlog": crossed and not crosses(excess_share, window),
                **({"concurrent": concurrent} if concurrent else {})}
    if not pauses:
        words = f"no {kind} collection"
    else:
        words = (f"{len(pauses)} {kind} pause{'s' if len(pauses) != 1 else ''}, the longest {max(pauses):,.1f} ms "
                 f"against {slack:,.0f} ms of slack; {len(longer)} longer than it")
        if longer:
            drain = f" with their backlog draining while the server was {busy:.2f} busy," if busy is not None else ""
            words += (f";{drain} they kept past the goal the requests arriving, or due to be answered, in about "
                      f"{late:,.0f} ms")
        words += f", {share * 100:.2f} % of the window (the line: {threshold * 100:.2f} %)"
        if alone:
            words += f": they put {window.percentile} at the service time plus a pause and its backlog"
        elif crossed:
            words += (f"; the window had {past * 100:.2f} % of its requests past the goal, about "
                      f"{max(0.0, past - share) * 100:.2f} % without them, within the {tail * 100:g} % "
                      f"{window.percentile} allows: they made the miss on a tail already near the goal")
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
    threshold = STALL_SHARE_OF_TAIL * tail_share(percentile)
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
