"""Per target and sleep, the capacity from the point records: what the search found, what the
confirmation windows held, and the figures at that rate (merged histograms, spreads with n).

Everything here is computed from results.json's points, so ./lab report rebuilds it exactly.
"""
from labkit.capacity.limits import round_limits
from labkit.measure.histograms import latency_ms, median_spread, merged, spectrum_ms


def sleep_key(record):
    return record["sleep_min_ms"], record["sleep_max_ms"]


def superseded(point):
    """A window that met the goal with too few young collections and was measured again, longer: the
    longer window is the step's result, this one only its history."""
    return (point.get("capacity") or {}).get("verdict") == "rerun-longer"


def summarize(run):
    """[{mode, sleep_min_ms, sleep_max_ms, ...}] in the run's order of sleeps and modes."""
    config = run["config"]
    rows = []
    for sleep in config["sleeps"]:
        key = (sleep["sleep_min_ms"], sleep["sleep_max_ms"])
        for mode in config["modes"]:
            # With several goals (by_goal.py), the windows of the main goal's search and rounds.
            points = [p for p in run["points"] if p["mode"] == mode and sleep_key(p) == key
                      and measured_for(p, sleep["goal_ms"])]
            if points:
                rows.append(_row(mode, sleep, points, run))
    return rows


def _row(mode, sleep, points, run):
    config = run["config"]
    search = [p for p in points if p["phase"] == "search" and not superseded(p)]
    confirm = [p for p in points if p["phase"] == "confirm"]
    passed_rates = [p["rate"] for p in search if p["capacity"]["passed"]]
    found = max(passed_rates) if passed_rates else None
    missed = [p["rate"] for p in search if not p["capacity"]["passed"] and (found is None or p["rate"] > found)]
    per_repeat = rounds(confirm)
    confirmed_rates, held, none_held_below = round_capacities(per_repeat)
    histogram = merged(p["load"]["latency_hdr"] for p in held if p.get("load"))
    first = points[0]
    row = {
        "mode": mode, "sleep_min_ms": sleep["sleep_min_ms"], "sleep_max_ms": sleep["sleep_max_ms"],
        "goal_ms": sleep["goal_ms"], "percentile": first["capacity"]["percentile"],
        "ceiling_rps": (first.get("derived") or {}).get("ceiling_rps") if first.get("derived") else None,
        "max_concurrent": first.get("max_concurrent"),
        "search": {"steps": [{"rate": p["rate"], "passed": p["capacity"]["passed"],
                              "value_ms": _value(p), "errors": _errors(p),
                              "window_s": p["capacity"].get("window_s"),
                              "young_gcs": p["capacity"].get("young_gcs")} for p in search],
                   "found_rps": found, "missed_rps": min(missed) if missed else None},
        "confirm": {"planned": config["repeats"], "repeats_run": len(per_repeat),
                    "held_at_found": sum(1 for r in per_repeat.values()
                                         if any(p["capacity"]["passed"] and p["rate"] == found for p in r)),
                    "rates": confirmed_rates, "none_held_below": none_held_below,
                    "at_max_rate": rounds_at_max_rate(confirmed_rates, config)},
        "capacity_rps": capacity_spread(confirmed_rates, none_held_below),
        "at_capacity": {
            "latency_ms": latency_ms(histogram),
            "latency_how": f"merged histogram of the {len(held)} confirmation window(s) that met the goal",
            "goal_value_per_window_ms": median_spread([_value(p) for p in held]),
            "cpu_ms_per_request": median_spread([(p.get("derived") or {}).get("cpu_ms_per_request") for p in held]),
            "server_cpu_cores": median_spread([_server(p, "cpu_cores") for p in held]),
            "rss_peak_mb": median_spread([_server(p, "rss_peak_mb") for p in held]),
            "threads_max": median_spread([_server(p, "threads_max") for p in held]),
            "gc_pause_max_ms": median_spread([(p.get("jfr") or {}).get("gc_pause_max_ms") for p in held
                                              if (p.get("jfr") or {}).get("available")]),
            "driver_cpu_cores": median_spread([((p.get("resources") or {}).get("driver") or {}).get("cpu_cores")
                                               for p in held]),
        },
        "spectrum_ms": spectrum_ms(histogram) if histogram is not None and histogram.get_total_count() else None,
        "flags": {},
        # Steps whose first window met the goal with too few young collections: measured again longer.
        "rerun_longer": sum(1 for p in points if superseded(p)),
        # What stopped each round above its capacity (capacity/limits.py).
        "limit": round_limits(run, per_repeat),
    }
    for p in confirm:
        for flag in p.get("flags", []):
            row["flags"][flag] = row["flags"].get(flag, 0) + 1
    return row


def measured_for(point, goal_ms):
    """Whether a window was measured for the goal `goal_ms` (every window of a run with one goal)."""
    return (point.get("capacity") or {}).get("goal_ms", goal_ms) == goal_ms


def rounds(confirm_points):
    """{repeat: [its windows]} of confirmation windows."""
    per_repeat = {}
    for p in confirm_points:
        per_repeat.setdefault(p["repeat"], []).append(p)
    return per_repeat


def round_capacities(per_repeat):
    """(each round's capacity: the highest rate it held, the windows that held them, and for each round
    that held none the lowest rate it tried), rounds in order."""
    confirmed_rates, held, none_held_below = [], [], []
    for repeat in sorted(per_repeat):
        ok = [p for p in per_repeat[repeat] if p["capacity"]["passed"]]
        if ok:
            best = max(ok, key=lambda p: p["rate"])
            confirmed_rates.append(best["rate"])
            held.append(best)
        else:
            none_held_below.append(min(p["rate"] for p in per_repeat[repeat]))
    return confirmed_rates, held, none_held_below


def rounds_at_max_rate(held_rates, config):
    """How many rounds held --max-rate: the walk stops there, so each such capacity is a floor."""
    return sum(rate >= config["max_rate"] for rate in held_rates)


def capacity_spread(held_rates, none_held_below):
    """median_spread of the rounds' capacities, where a round that held no rate counts as what it is:
    a capacity below the lowest rate it tried (a censored value). Leaving it out would raise the median
    and narrow the spread. It sorts below every held rate from that bound up; a median or minimum that
    falls on it is an upper bound (median_below, min_below), and no CI is given."""
    result = median_spread(list(held_rates) + list(none_held_below))
    if result is None or not none_held_below:
        return result
    ordered = sorted([(rate, False) for rate in held_rates] + [(bound, True) for bound in none_held_below],
                     key=lambda value: (value[0], not value[1]))
    n = len(ordered)
    result.update(censored=len(none_held_below), min_below=ordered[0][1],
                  median_below=any(below for _, below in ordered[(n - 1) // 2:n // 2 + 1]), ci95=None)
    return result


def _value(point):
    latency = (point.get("load") or {}).get("latency_ms") or {}
    return latency.get(point["capacity"]["percentile"])


def _errors(point):
    return ((point.get("load") or {}).get("errors") or {}).get("total")


def _server(point, name):
    return ((point.get("resources") or {}).get("server") or {}).get(name)


# A pool's ceiling (threads ÷ sleep) shapes a ratio only when a capacity comes near it: below half
# of it most threads are idle however the requests arrive.
CEILING_IN_REACH_SHARE = 0.5


def ceiling_in_reach(a, b):
    """Whether the lower Little's-law ceiling of rows a and b is within reach of their capacities."""
    ceilings = [c for c in (a["ceiling_rps"], b["ceiling_rps"]) if c]
    highest = max(a["capacity_rps"]["max"], b["capacity_rps"]["max"])
    return bool(ceilings) and highest >= CEILING_IN_REACH_SHARE * min(ceilings)


def ratios(rows):
    """Per sleep: {(a, b): {ratio, low, high, bound, same_ceiling, ceiling_in_reach}} of capacity
    medians (low/high: the most pessimistic and optimistic ratio of the ranges). bound is "at most" or
    "at least" when a median that is an upper bound (capacity_spread) makes the ratio one, "unknown"
    when both medians are. low_below / high_above: a minimum that is such a bound makes the low ratio
    lower still, or the high one higher."""
    by_sleep = {}
    for row in rows:
        by_sleep.setdefault((row["sleep_min_ms"], row["sleep_max_ms"]), []).append(row)
    result = {}
    for key, members in by_sleep.items():
        table = {}
        for a in members:
            for b in members:
                ca, cb = a["capacity_rps"], b["capacity_rps"]
                if a is b or not ca or not cb or not cb["median"] or not cb["min"]:
                    continue
                table[(a["mode"], b["mode"])] = {
                    "ratio": ca["median"] / cb["median"], "low": ca["min"] / cb["max"], "high": ca["max"] / cb["min"],
                    "bound": _ratio_bound(ca.get("median_below"), cb.get("median_below")),
                    "low_below": bool(ca.get("min_below")), "high_above": bool(cb.get("min_below")),
                    "same_ceiling": a["ceiling_rps"] == b["ceiling_rps"],
                    "ceiling_in_reach": ceiling_in_reach(a, b)}
        result[key] = table
    return result


def _ratio_bound(numerator_below, denominator_below):
    if numerator_below and denominator_below:
        return "unknown"
    return "at most" if numerator_below else "at least" if denominator_below else None
