"""report.md's ratios between targets: per sleep a matrix of capacity medians (row ÷ column), marked
where the Little's-law ceilings differ within reach, and per target its same-ceiling comparisons."""
from labkit.ground.formatting import markdown_table
from labkit.capacity.pairs import BOUND_MARKS
from labkit.capacity.summary import CEILING_IN_REACH_SHARE, ratios
from labkit.capacity.report.capacity_report import ceiling_text, sleep_text


def _ceiling_shapes(pair):
    return not pair["same_ceiling"] and pair["ceiling_in_reach"]


def _ratio_text(pair):
    return f"{BOUND_MARKS[pair.get('bound')]}{pair['ratio']:.2f}×"


def _ratio_cell(pair):
    return (f"{_ratio_text(pair)} [{'<' if pair.get('low_below') else ''}"
            f"{pair['low']:.2f}–{'>' if pair.get('high_above') else ''}{pair['high']:.2f}]"
            + (" †" if _ceiling_shapes(pair) else ""))


def ratio_sections(rows):
    """Per sleep: a ratio matrix (row ÷ column, capacity medians, [pessimistic–optimistic]) with †
    where the two ceilings differ and one is within reach, and per target its ceiling and
    same-ceiling comparisons."""
    parts = []
    table = ratios(rows)
    by_sleep = {}
    for row in rows:
        by_sleep.setdefault((row["sleep_min_ms"], row["sleep_max_ms"]), []).append(row)
    for key, members in by_sleep.items():
        pairs = table.get(key, {})
        names = [r["mode"] for r in members]
        matrix = []
        for a in names:
            cells = [a]
            for b in names:
                pair = pairs.get((a, b))
                cells.append("–" if a == b or not pair else _ratio_cell(pair))
            matrix.append(cells)
        parts += [f"### Sleep {sleep_text(members[0])}: capacity ratios (row ÷ column)", "",
                  markdown_table(["÷"] + names, matrix), "",
                  "† the two targets have different Little's-law ceilings (pool size ÷ sleep) and the lower one is "
                  f"within reach (a capacity at least {CEILING_IN_REACH_SHARE * 100:g} % of it): part of such a ratio may be "
                  "the ceiling, not the cost of the threads. Different ceilings beyond that are not marked: most "
                  "threads of such a pool were idle."
                  + (" < / >, ≤ / ≥: a capacity in the ratio is an upper bound (a confirmation round held no rate), "
                     "so the ratio, or the end of its range, is a bound too; ? where both medians are."
                     if any(p.get("bound") or p.get("low_below") or p.get("high_above") for p in pairs.values()) else "")
                  + " Like for like:", ""]
        for row in members:
            peers = [r for r in members if r is not row and r["ceiling_rps"] == row["ceiling_rps"]]
            compared = ", ".join(f"÷ {p['mode']} = {_ratio_text(pairs[(row['mode'], p['mode'])])}"
                                 for p in peers if (row["mode"], p["mode"]) in pairs)
            parts.append(f"- {row['mode']}: ceiling {ceiling_text(row)}; same ceiling: "
                         + (f"{', '.join(p['mode'] for p in peers)} ({compared})" if peers else "no other target"))
        parts.append("")
    return "\n".join(parts)
