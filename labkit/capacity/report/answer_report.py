"""report.md's first section: the answer, before the setup (issue 56). Per sleep, each target's
capacity at the main goal with the limit that stopped its rounds; per pair measured in the same
rounds and per goal, the ratios round by round and which target they choose, by pairs.choice, the
rule ./lab verdict applies to every committed run."""
from labkit.capacity.goals import percentile_name
from labkit.capacity.limits import counts_text
from labkit.capacity.pairs import choice, round_texts, walked_pairs
from labkit.capacity.report.capacity_report import marked_range, sleep_text
from labkit.ground.formatting import number


def _capacity(row):
    """'1,375 [1,300–1,400] n=3'; '<' marks a median or minimum below the lowest rate a round tried,
    and 'a floor' rounds that held --max-rate."""
    m, confirm = row["capacity_rps"], row["confirm"]
    if not m:
        return "no capacity"
    text = marked_range(m) + f" req/s, n={m['n']}"
    if confirm.get("at_max_rate"):
        text += f", {confirm['at_max_rate']} round(s) at --max-rate (a floor)"
    return text


def _limit(row):
    limit = row.get("limit")
    return f"; limit: {counts_text(limit['counts'], len(limit['rounds']))}" if limit and limit["rounds"] else ""


def answer_section(run):
    """'## Answer' and its lines; [] before any capacity was found."""
    rows = run["summary"]
    if not rows:
        return []
    percentile = percentile_name(run["config"]["goal"]["percentile"])
    lines = ["## Answer", ""]
    for sleep in dict.fromkeys(sleep_text(row) for row in rows):
        at_sleep = [row for row in rows if sleep_text(row) == sleep]
        goal = at_sleep[0].get("goal_ms")
        lines.append(f"- **{sleep} sleep, {percentile} ≤ {number(goal)} ms:** " if goal is not None
                     else f"- **{sleep} sleep:** ")
        lines[-1] += "; ".join(f"`{row['mode']}` {_capacity(row)}{_limit(row)}" for row in at_sleep) + "."
    pairs = walked_pairs(run)
    for pair in pairs:
        _, words = choice(pair)
        lines.append(f"- `{pair['a']}` ÷ `{pair['b']}` at {percentile} ≤ {pair['goal_ms']:g} ms "
                     f"({sleep_text(pair)} sleep): {round_texts(pair)}, median {pair['median']:.2f}×: {words}.")
    if not pairs and len({row["mode"] for row in rows}) > 1:
        lines.append("- Ratios: in the tables below; this run was made before the confirmation rounds walked "
                     "both ways, so no target is chosen here (and ./lab verdict leaves it out).")
    return lines + [""]
