"""report.md's section on capacity as a function of the goal (by_goal.py): a table per sleep, target ×
goal, whether each pair's order turns or holds as the goal loosens (only where every round says so),
and the capacities that are only floors because their rounds held --max-rate."""
from labkit.ground.formatting import markdown_table, number
from labkit.capacity.by_goal import CONFIRMED, goal_orders
from labkit.capacity.goals import percentile_name
from labkit.capacity.pairs import walked_pairs


def goal_cell(row):
    """A goal table's cell: the rounds' capacity, or the bracket the windows give."""
    capacity = row["capacity_rps"]
    if row["how"] == CONFIRMED and capacity:
        text = ("<" if capacity.get("median_below") else "") + number(capacity["median"])
        if capacity["n"] > 1:
            text += f" [{'<' if capacity.get('min_below') else ''}{number(capacity['min'])}–{number(capacity['max'])}]"
        return text + f" n={capacity['n']}"
    found, missed = row["found_rps"], row["missed_rps"]
    bound = row.get("bound")
    if bound:
        capped = f"{'< ' if bound['below'] else '≤ '}{number(bound['rps'])} (the rounds at {bound['goal']}"
        return capped + (f"; a window met it at {number(found)})" if found is not None else ")")
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
             f"young collections); `not settled`: the two are further apart than the search's resolution; `≤ N "
             f"(the rounds at G)`: no more than a looser goal's rounds held, whatever a single window met. "
             f"Orders across goals are the rounds' alone: a pair leads at a goal when every round there puts it "
             f"ahead, and a bracket orders nothing.", ""]
    by_sleep = {}
    for row in rows:
        by_sleep.setdefault((row["sleep_min_ms"], row["sleep_max_ms"]), []).append(row)
    orders = goal_orders(run)
    walked = bool(walked_pairs(run))
    for (low, high), members in by_sleep.items():
        goals = list(dict.fromkeys((r["goal"], r["goal_ms"]) for r in members))
        cells = {(r["mode"], r["goal"]): goal_cell(r) for r in members}
        modes = list(dict.fromkeys(r["mode"] for r in members))
        header = ["target"] + [f"{text} ({limit:g} ms)" for text, limit in goals]
        table_text = markdown_table(header, [[mode] + [cells.get((mode, text), "–") for text, _ in goals]
                                             for mode in modes])
        parts += [f"### Sleep {_sleep_text(low, high)}", "", table_text, ""]
        # A goal tabulated here is named as in the table; one the rounds walked but ./lab report --slo
        # left out of it, by its limit.
        texts = {r["goal_ms"]: f"{r['goal']} ({r['goal_ms']:g} ms)" for r in members}
        parts += [order_line(o, texts) for o in orders if (o["sleep_min_ms"], o["sleep_max_ms"]) == (low, high)]
        if not walked and len(modes) > 1:
            parts.append("- **No order across goals** is drawn: this run's rounds were not walked in pairs "
                         "(a run made before the walk).")
        parts += [f"- **At the run's --max-rate**: {r['mode']} held {number(run['config']['max_rate'])} req/s "
                  f"at {r['goal']} ({r['goal_ms']:g} ms) in {r['rounds_at_max_rate']} of {r['capacity_rps']['n']} "
                  f"rounds, and no round went higher: its capacity there is at least that, and each ratio "
                  f"with it there is a bound." for r in members if r.get("rounds_at_max_rate")]
        parts.append("")
    return parts


def order_line(order, texts):
    """One pair's line: its order turns, holds, or is not resolved at some goal, named by goal."""
    def goal(ms):
        return texts.get(ms) or f"{ms:g} ms"
    a, b = order["a"], order["b"]
    led = [f"{leader} ahead in every round at {goal(ms)}" for ms, leader in order["leaders"]]
    still_open = f"not resolved at {', '.join(goal(ms) for ms in order['open'])}" if order["open"] else ""
    if order["kind"] == "turns":
        return f"- **The ranking turns** between {a} and {b}: " + "; ".join(led + ([still_open] if still_open else [])) + "."
    if order["kind"] == "holds":
        return f"- **The ranking holds** between {a} and {b}: {order['leaders'][0][1]} ahead in every round at every goal here."
    return (f"- **The rounds do not say** whether the order of {a} and {b} turns with the goal: "
            + "; ".join(led + [still_open]) + " (ratios above).")
