"""Capacity as a function of the latency goal, from a run's point records: per target, sleep and goal,
the capacity the confirmation rounds held for that goal, or, for a goal the run did not search (./lab
report DIR --slo ...), the bracket its windows give; and, per pair of targets, whether the rounds show
their order turning or holding as the goal loosens. Computed from results.json's points only, so ./lab
report rebuilds it exactly.

Why a bracket is bounded by a looser goal's rounds: a tighter goal's capacity is never above a looser
one's, but a bracket comes from single search windows, and one window that happened to meet 110 ms at a
rate the rounds did not hold at 150 ms would otherwise read as a capacity above the confirmed one.
Why orders come from the rounds alone: a median's side of another says nothing when a round puts each
ahead, and a bracket has no rounds; a turn or a hold is claimed only where every round says it.
"""
from labkit.load.levels import SleepSpec
from labkit.capacity.goals import LatencyGoal, bracket, settled
from labkit.capacity.pairs import choice, walked_pairs
from labkit.capacity.summary import capacity_spread, round_capacities, rounds, rounds_at_max_rate, sleep_key

# How a goal's capacity was found: confirmation rounds measured for it, or only the windows the run
# measured for other goals (its search's bracket).
CONFIRMED = "confirmed"
FROM_WINDOWS = "windows"


def run_goals(run, goals=None):
    """The goals to tabulate: `goals` (./lab report --slo), else those an earlier rebuild tabulated,
    else the run's own when it had several; None for a run with one goal and none asked."""
    if goals:
        return list(goals)
    stored = (run.get("by_goal") or {}).get("goals") or run["config"].get("goals")
    return [LatencyGoal.from_dict(goal) for goal in stored] if stored else None


def by_goal(run, goals):
    """{"goals": [...], "rows": [{mode, sleep_min_ms, sleep_max_ms, goal, goal_ms, how, capacity_rps,
    found_rps, missed_rps, settled, rounds_at_max_rate, bound}]} for `goals` (LatencyGoal, one
    percentile); bound: {goal, goal_ms, rps, below} when a looser goal's rounds cap a bracket."""
    config = run["config"]
    percentile = goals[0].percentile
    rows = []
    for sleep in config["sleeps"]:
        spec = SleepSpec(sleep["sleep_min_ms"], sleep["sleep_max_ms"])
        for mode in config["modes"]:
            points = [p for p in run["points"] if p["mode"] == mode and sleep_key(p) == (spec.min_ms, spec.max_ms)]
            if not points:
                continue
            for goal in goals:
                rows.append(_row(mode, spec, goal, percentile, points, config))
    for row in rows:
        row["bound"] = _looser_bound(row, rows)
    return {"goals": [goal.to_dict() for goal in goals], "goal_texts": [goal.limit_text for goal in goals],
            "percentile": percentile, "rows": rows}


def _row(mode, sleep, goal, percentile, points, config):
    limit = goal.limit_ms(sleep)
    search = [p for p in points if p["phase"] == "search"]
    found, missed = bracket(search, percentile, limit, config.get("min_young_gcs"), config.get("max_window_s"))
    confirm = [p for p in points if p["phase"] == "confirm" and p["capacity"].get("goal_ms") == limit
               and p["capacity"].get("percentile") == percentile]
    row = {"mode": mode, "sleep_min_ms": sleep.min_ms, "sleep_max_ms": sleep.max_ms, "goal": goal.limit_text,
           "goal_ms": limit, "found_rps": found, "missed_rps": missed,
           "settled": settled(found, missed, config["resolution"]), "how": CONFIRMED if confirm else FROM_WINDOWS,
           "capacity_rps": None, "rounds_at_max_rate": 0}
    if confirm:
        rates, _, none_held_below = round_capacities(rounds(confirm))
        row["capacity_rps"] = capacity_spread(rates, none_held_below)
        row["rounds_at_max_rate"] = rounds_at_max_rate(rates, config)
    return row


def _looser_bound(row, rows):
    """For a bracket (no rounds for its goal): the lowest median the rounds of a looser goal held, same
    target and sleep, when it lies below the bracket's rate that met the goal (or, without one, below
    the rate that missed); else None."""
    if row["how"] == CONFIRMED:
        return None
    looser = [r for r in rows if r["how"] == CONFIRMED and r["capacity_rps"] and r["goal_ms"] > row["goal_ms"]
              and (r["mode"], r["sleep_min_ms"], r["sleep_max_ms"]) == (row["mode"], row["sleep_min_ms"], row["sleep_max_ms"])]
    if not looser:
        return None
    lowest = min(looser, key=lambda r: r["capacity_rps"]["median"])
    rps = lowest["capacity_rps"]["median"]
    above = row["found_rps"] if row["found_rps"] is not None else row["missed_rps"]
    if above is not None and rps >= above:
        return None
    return {"goal": lowest["goal"], "goal_ms": lowest["goal_ms"], "rps": rps,
            "below": bool(lowest["capacity_rps"].get("median_below"))}


def value(row):
    """The figure a chart places: the rounds' median, a looser goal's bound on a bracket, or the
    bracket's rate that met the goal."""
    if row["capacity_rps"]:
        return row["capacity_rps"]["median"]
    if row.get("bound"):
        return row["bound"]["rps"]
    return row["found_rps"]


def goal_orders(run):
    """Per sleep and pair of targets with rounds walked at two goals or more: [{sleep_min_ms, sleep_max_ms,
    a, b, leaders: [(goal_ms, leader)], open: [goal_ms], kind}] — leaders at the goals where every round
    puts the same target ahead (pairs.choice), open where the rounds do not; kind "turns" when two goals'
    leaders differ, "holds" when one target leads at every goal, else "open"."""
    by_pair = {}
    for pair in walked_pairs(run):
        key = (pair["sleep_min_ms"], pair["sleep_max_ms"], pair["a"], pair["b"])
        by_pair.setdefault(key, []).append(pair)
    orders = []
    for (low, high, a, b), pairs in by_pair.items():
        if len(pairs) < 2:
            continue
        leaders, still_open = [], []
        for pair in sorted(pairs, key=lambda p: p["goal_ms"]):
            leader, _ = choice(pair)
            if leader:
                leaders.append((pair["goal_ms"], leader))
            else:
                still_open.append(pair["goal_ms"])
        named = {leader for _, leader in leaders}
        kind = "turns" if len(named) > 1 else "holds" if named and not still_open else "open"
        orders.append({"sleep_min_ms": low, "sleep_max_ms": high, "a": a, "b": b, "leaders": leaders,
                       "open": still_open, "kind": kind})
    return orders
