"""Capacity as a function of the latency goal, from a run's point records: per target, sleep and goal,
the capacity the confirmation rounds held for that goal, or, for a goal the run did not search (./lab
report DIR --slo ...), the bracket its windows give; and the goals between which two targets swap
places. Computed from results.json's points only, so ./lab report rebuilds it exactly.
"""
from labkit.load.levels import SleepSpec
from labkit.capacity.goals import LatencyGoal, bracket, settled
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
    found_rps, missed_rps, settled, rounds_at_max_rate}]} for `goals` (LatencyGoal, one percentile)."""
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


def value(row):
    """The figure a ranking compares: the rounds' median, or the bracket's rate that met the goal."""
    if row["capacity_rps"]:
        return row["capacity_rps"]["median"]
    return row["found_rps"]


def ranking_turns(rows):
    """Per sleep, where two targets swap places as the goal loosens: [{sleep_min_ms, sleep_max_ms,
    leader, overtaken_by, from_goal, to_goal, ...}]: `leader` served more at from_goal, `overtaken_by`
    at to_goal, the next goal (by limit) at which both have a figure that differs. Ties turn nothing."""
    turns = []
    by_sleep = {}
    for row in rows:
        by_sleep.setdefault((row["sleep_min_ms"], row["sleep_max_ms"]), []).append(row)
    for (low, high), members in by_sleep.items():
        modes = list(dict.fromkeys(r["mode"] for r in members))
        limits = sorted({r["goal_ms"] for r in members})
        figure = {(r["mode"], r["goal_ms"]): value(r) for r in members}
        text = {r["goal_ms"]: r["goal"] for r in members}
        for i, a in enumerate(modes):
            for b in modes[i + 1:]:
                previous = None
                for limit in limits:
                    va, vb = figure.get((a, limit)), figure.get((b, limit))
                    if va is None or vb is None or va == vb:
                        continue
                    leader = a if va > vb else b
                    if previous and previous[0] != leader:
                        turns.append({"sleep_min_ms": low, "sleep_max_ms": high, "leader": previous[0],
                                      "overtaken_by": leader, "from_goal": text[previous[1]], "from_goal_ms": previous[1],
                                      "to_goal": text[limit], "to_goal_ms": limit})
                    previous = (leader, limit)
    return turns
