"""report.md's section on capacity as a function of the goal (by_goal.py): a table per sleep, target ×
goal, the goals between which two targets swap places, said plainly, and the capacities that are only
floors because their rounds held --max-rate."""
from labkit.ground.formatting import markdown_table, number
from labkit.capacity.by_goal import CONFIRMED, ranking_turns, value
from labkit.capacity.goals import percentile_name
from labkit.capacity.pairs import unordered


def goal_cell(row):
    """A goal table's cell: the rounds' capacity, or the bracket the windows give."""
    capacity = row["capacity_rps"]
    if row["how"] == CONFIRMED and capacity:
        text = ("<" if capacity.get("median_below") else "") + number(capacity["median"])
        if capacity["n"] > 1:
            text += f" [{'<' if capacity.get('min_below') else ''}{number(capacity['min'])}–{number(capacity['max'])}]"
        return text + f" n={capacity['n']}"
    found, missed = row["found_rps"], row["missed_rps"]
    if found is None and missed is None:
        return "–"
    if found is None:
        return f"< {number(missed)} (windows)"
    if missed is None:
        return f"≥ {number(found)} (windows)"
    return f"{number(found)}–{number(missed)} (windows{'' if row['settled'] else ', not settled'})"


def _sleep_text(low, high):
    return f"{low} ms" if low == high else f"{low}-{high} ms"


def goal_section(run):
    """The section's lines; [] when the run has no goal table."""
    table = run.get("by_goal")
    if not table or not table["rows"]:
        return []
    rows = table["rows"]
    parts = ["## Capacity per goal", "",
             f"The capacity (req/s) at each {percentile_name(table['percentile'])} goal. With rounds: "
             f"median [min–max] n of the confirmation rounds walked for that goal. `(windows)`: a goal no round "
             f"was measured for: the highest rate whose window met it and the lowest above that missed it, from "
             f"the windows measured for the other goals (each judged by the same rules: no failed request, enough "
             f"young collections); `not settled`: the two are further apart than the search's resolution.", ""]
    by_sleep = {}
    for row in rows:
        by_sleep.setdefault((row["sleep_min_ms"], row["sleep_max_ms"]), []).append(row)
    turns = ranking_turns(rows)
    for (low, high), members in by_sleep.items():
        goals = list(dict.fromkeys((r["goal"], r["goal_ms"]) for r in members))
        cells = {(r["mode"], r["goal"]): goal_cell(r) for r in members}
        modes = list(dict.fromkeys(r["mode"] for r in members))
        header = ["target"] + [f"{text} ({limit:g} ms)" for text, limit in goals]
        table_text = markdown_table(header, [[mode] + [cells.get((mode, text), "–") for text, _ in goals]
                                             for mode in modes])
        parts += [f"### Sleep {_sleep_text(low, high)}", "", table_text, ""]
        here = [t for t in turns if (t["sleep_min_ms"], t["sleep_max_ms"]) == (low, high)]
        if here:
            parts += [f"- **The ranking turns**: {t['leader']} served more at {t['from_goal']} "
                      f"({t['from_goal_ms']:g} ms), {t['overtaken_by']} at {t['to_goal']} "
                      f"({t['to_goal_ms']:g} ms)." for t in here]
        else:
            parts.append(f"- **The ranking holds** at every goal here: {' > '.join(_order(members))} "
                         f"(medians, or the bracket's rate that met the goal).")
        # A goal tabulated here is named as in the table; one the rounds walked but ./lab report --slo
        # left out of it, by its limit.
        texts = {r["goal_ms"]: f"{r['goal']} ({r['goal_ms']:g} ms)" for r in members}
        parts += [f"- **By rounds, no order** between {p['a']} and {p['b']} at "
                  f"{texts.get(p['goal_ms']) or format(p['goal_ms'], 'g') + ' ms'}: one round put each ahead "
                  f"(ratios above)."
                  for p in unordered(run) if (p["sleep_min_ms"], p["sleep_max_ms"]) == (low, high)]
        parts += [f"- **At the run's --max-rate**: {r['mode']} held {number(run['config']['max_rate'])} req/s "
                  f"at {r['goal']} ({r['goal_ms']:g} ms) in {r['rounds_at_max_rate']} of {r['capacity_rps']['n']} "
                  f"rounds, and no round went higher: its capacity there is at least that, and each ratio "
                  f"with it there is a bound." for r in members if r.get("rounds_at_max_rate")]
        parts.append("")
    return parts


def _order(members):
    """The targets by their figure at the loosest goal, highest first."""
    loosest = max(r["goal_ms"] for r in members)
    ranked = sorted((r for r in members if r["goal_ms"] == loosest and value(r) is not None),
                    key=value, reverse=True)
    return [r["mode"] for r in ranked]
