"""Ratios between targets from rounds measured minutes apart, so the host's drift cannot move them much.

In each confirmation round every target runs on a fresh server, one after another, the order rotated
from round to round; so round r of two targets was measured minutes apart, while their searches (and
the medians over all rounds) may lie an hour apart on a host whose speed drifts. The ratio of each
round's pair, and the median and spread of those ratios, compare the targets at one host speed.
A run with several goals walked rounds for each, so each goal gets its own pairs; where one round puts
one target ahead and another round the other, the rounds do not order the two at that goal, whatever
the medians say. Computed from results.json's points, so ./lab report rebuilds it exactly. choice()
says which target a pair's rounds choose, by one rule shared by report.md's answer and ./lab verdict.
"""
import statistics

from labkit.capacity.goals import percentile_name
from labkit.capacity.summary import measured_for, sleep_key


# What a round's capacity is (_round_capacity): the rate itself, an upper bound (the round held no
# rate: its capacity lies below the lowest it tried) or a floor (no window above the rate it held
# missed: its walk stopped at --max-rate, or at the two steps up of runs made before the walk went on).
BELOW, FLOOR = "below", "floor"


def _round_capacity(windows):
    """(capacity, None | BELOW | FLOOR, when its window started) of one round: the highest rate it
    held, or, when it held none, the lowest rate it tried."""
    held = [p for p in windows if p["capacity"]["passed"]]
    chosen = max(held, key=lambda p: p["rate"]) if held else min(windows, key=lambda p: p["rate"])
    started = ((chosen.get("window") or {}).get("epoch_s") or [None])[0]
    if not held:
        return chosen["rate"], BELOW, started
    missed_above = any(p["rate"] > chosen["rate"] and p.get("load") and p["capacity"].get("verdict") != "rerun-longer"
                       for p in windows)
    return chosen["rate"], None if missed_above else FLOOR, started


def paired_ratios(run):
    """[{sleep_min_ms, sleep_max_ms, goal_ms, a, b, per_round: [{repeat, ratio, bound, kinds}], median, min,
    max, n, apart_min}] for each goal the rounds were walked for (the main goal first) and each pair of
    targets (a before b in --modes) with rounds in common; bound: what the ratio is when a round's capacity
    is an upper bound or a floor (ratio_bound); kinds: what each of the two capacities was (None, BELOW,
    FLOOR); apart_min: the most minutes between a pair's two windows."""
    config = run["config"]
    pairs = []
    for sleep in config["sleeps"]:
        key = (sleep["sleep_min_ms"], sleep["sleep_max_ms"])
        for goal_ms in sleep.get("goals_ms") or [sleep["goal_ms"]]:
            by_mode = {}
            for mode in config["modes"]:
                windows = [p for p in run["points"] if p["mode"] == mode and sleep_key(p) == key
                           and p["phase"] == "confirm" and measured_for(p, goal_ms)]
                per_round = {}
                for p in windows:
                    per_round.setdefault(p["repeat"], []).append(p)
                by_mode[mode] = {repeat: _round_capacity(ws) for repeat, ws in per_round.items()}
            modes = [m for m in config["modes"] if by_mode[m]]
            for i, a in enumerate(modes):
                for b in modes[i + 1:]:
                    common = sorted(by_mode[a].keys() & by_mode[b].keys())
                    if common:
                        pairs.append(_pair(key, goal_ms, a, b,
                                           [(r, by_mode[a][r], by_mode[b][r]) for r in common]))
    return pairs


def rounds_disagree(pair):
    """Whether one round puts a ahead and another b: a ratio above 1 that is not an upper bound against a
    ratio below 1 that is not a lower bound (a bound on the wrong side says nothing)."""
    a_ahead = any(r["ratio"] > 1 and r["bound"] in (None, "at least") for r in pair["per_round"])
    b_ahead = any(r["ratio"] < 1 and r["bound"] in (None, "at most") for r in pair["per_round"])
    return a_ahead and b_ahead


def ratio_bound(kind_a, kind_b):
    """What a ratio a ÷ b is when a's and b's capacities are bounds (_round_capacity's kinds): "at
    most" when a can only be lower or b only higher, "at least" the other way, "unknown" both ways."""
    at_most = kind_a == BELOW or kind_b == FLOOR
    at_least = kind_a == FLOOR or kind_b == BELOW
    return "unknown" if at_most and at_least else "at most" if at_most else "at least" if at_least else None


def _pair(key, goal_ms, a, b, rounds):
    per_round, apart = [], []
    for repeat, (rate_a, kind_a, at_a), (rate_b, kind_b, at_b) in rounds:
        per_round.append({"repeat": repeat, "ratio": rate_a / rate_b, "bound": ratio_bound(kind_a, kind_b),
                          "kinds": (kind_a, kind_b)})
        if at_a is not None and at_b is not None:
            apart.append(abs(at_a - at_b) / 60)
    values = [r["ratio"] for r in per_round]
    return {"sleep_min_ms": key[0], "sleep_max_ms": key[1], "goal_ms": goal_ms, "a": a, "b": b,
            "per_round": per_round, "median": statistics.median(values), "min": min(values), "max": max(values),
            "n": len(values), "apart_min": round(max(apart), 1) if apart else None}


BOUND_MARKS = {None: "", "at most": "≤", "at least": "≥", "unknown": "?"}


def walked_pairs(run):
    """The run's paired ratios; [] for runs made before the rounds walked both ways (their reports stay
    as they were)."""
    return [] if run["config"].get("confirm_walk_steps") is None else paired_ratios(run)


def pair_lines(run):
    """report.md's section of paired ratios; [] without a pair (or for a run made before the walk)."""
    pairs = walked_pairs(run)
    if not pairs:
        return []
    several_goals = len({pair["goal_ms"] for pair in pairs}) > 1
    goal_column = ("goal | ", "---|") if several_goals else ("", "")
    percentile = percentile_name(run["config"]["goal"]["percentile"])
    lines = ["## Ratios from rounds minutes apart", "",
             "Each confirmation round measured every target on a fresh server, one after another (order rotated "
             "per round), so each round's pair was measured minutes apart"
             + (f" (a round whose two host-speed references differ by more than {REFERENCES_APART * 100:.0f} % "
                "is named under the table: its pair was not measured at one host speed)" if _references(run) else "")
             + ". Per pair: each "
             "round's capacity ratio (row target ÷ column target), their median [min–max], and the most minutes "
             "between a pair's windows. ≤ / ≥: a round's capacity is an upper bound (it held no rate) or a floor "
             "(no window above the rate it held missed), so its ratio is a bound too; ? where it is bounded both "
             "ways.", "",
             f"| sleep | {goal_column[0]}ratio | per round | median [min–max] | rounds apart, minutes |",
             f"|---|{goal_column[1]}---|---|---|---:|"]
    for pair in pairs:
        low, high = pair["sleep_min_ms"], pair["sleep_max_ms"]
        goal = f"{percentile} ≤ {pair['goal_ms']:g} ms | " if several_goals else ""
        sleep = f"{low} ms" if low == high else f"{low}-{high} ms"
        apart = "–" if pair["apart_min"] is None else f"{pair['apart_min']:g}"
        lines.append(f"| {sleep} | {goal}{pair['a']} ÷ {pair['b']} | {round_texts(pair)} | "
                     f"{pair['median']:.2f}× [{pair['min']:.2f}–{pair['max']:.2f}] n={pair['n']} | {apart} |")
    disagree = [pair for pair in pairs if rounds_disagree(pair)]
    if disagree:
        lines.append("")
        lines += [f"- **The rounds do not order** {pair['a']} and {pair['b']} at {percentile} ≤ {pair['goal_ms']:g} "
                  f"ms: one round puts each ahead ({round_texts(pair)}), so the median's side of 1 is not a ranking."
                  for pair in disagree]
    apart = [(pair, gap) for pair in pairs for gap in reference_gaps(run, pair)]
    if apart:
        lines.append("")
        lines += [f"- **Not at one host speed:** round {gap['repeat']} of {pair['a']} ÷ {pair['b']}"
                  + (f" at {percentile} ≤ {pair['goal_ms']:g} ms" if several_goals else "")
                  + f": its references cost {gap['a']:.4f} and {gap['b']:.4f} ms per request "
                  f"({gap['apart'] * 100:.0f} % apart), so that round's ratio holds the host's drift as well as "
                  "the targets'."
                  for pair, gap in apart]
    return lines + [""]


# Two sessions whose host-speed references differ by more than this were not measured at one host
# speed (the references of one quiet host agreed within 3 %; capacity.md, run 2 repeat).
REFERENCES_APART = 0.20


def _references(run):
    """{session label ("virtual confirm 2"): the reference's CPU ms per request} of the run."""
    return {r["before"]: r["cpu_ms_per_request"] for r in (run.get("env") or {}).get("host_speed") or ()
            if r.get("cpu_ms_per_request")}


def reference_gaps(run, pair):
    """[{repeat, a, b, apart}] for the rounds of `pair` whose two sessions' references differ by more
    than REFERENCES_APART ((slower - faster) ÷ faster)."""
    costs = _references(run)
    gaps = []
    for r in pair["per_round"]:
        a, b = costs.get(f"{pair['a']} confirm {r['repeat']}"), costs.get(f"{pair['b']} confirm {r['repeat']}")
        if a and b and (max(a, b) - min(a, b)) / min(a, b) > REFERENCES_APART:
            gaps.append({"repeat": r["repeat"], "a": a, "b": b, "apart": (max(a, b) - min(a, b)) / min(a, b)})
    return gaps


def round_texts(pair):
    """'r1 0.99×, r2 ≥1.04×, r3 0.85×'."""
    return ", ".join(f"r{r['repeat']} {BOUND_MARKS[r['bound']]}{r['ratio']:.2f}×" for r in pair["per_round"])


def choice(pair):
    """(the target every round puts ahead, or None; the words that say so or why not)."""
    rounds = pair["per_round"]
    if all(r["ratio"] > 1 and r["bound"] in (None, "at least") for r in rounds):
        return pair["a"], f"`{pair['a']}`: ahead in every round"
    if all(r["ratio"] < 1 and r["bound"] in (None, "at most") for r in rounds):
        return pair["b"], f"`{pair['b']}`: ahead in every round"
    a_ahead = [r for r in rounds if r["ratio"] > 1 and r["bound"] in (None, "at least")]
    b_ahead = [r for r in rounds if r["ratio"] < 1 and r["bound"] in (None, "at most")]
    if a_ahead and b_ahead:
        return None, "not resolved: the rounds disagree"
    same = [r for r in rounds if r["ratio"] == 1]
    if same:
        return None, f"not resolved: {named_rounds(same)} measured both the same"
    open_rounds = [r for r in rounds if r not in a_ahead and r not in b_ahead]
    bounds = "the bound of {} allows" if len(open_rounds) == 1 else "the bounds of {} allow"
    return None, "not resolved: " + bounds.format(named_rounds(open_rounds)) + " either order"


def named_rounds(rounds):
    """'r2', 'r2 and r3', 'r1, r2 and r3'."""
    names = [f"r{r['repeat']}" for r in rounds]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
