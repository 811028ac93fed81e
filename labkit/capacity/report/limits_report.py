"""report.md's answer to "why this capacity": per target, sleep and goal, what stopped each round's walk
just above the rate it held (capacity/limits.py), with the figures that show it; and the cell the
capacity table and the every-window table give it."""
from labkit.capacity.limits import AT_MAX_RATE, NO_MISS_ABOVE, counts_text, point_limits
from labkit.ground.formatting import number
from labkit.measure.gc_limits import GC_SHARE_OF_TAIL, PART_OF_TAIL
from labkit.measure.limits import CPU_BUSY_SHARE

HOW_LIMITS_ARE_NAMED = (
    "Each check holds a window's figures against a line (labkit/measure/limits.py): the **load tool** (short "
    "of CPU or sending late), a bounded **pool** at its Little's-law ceiling, **sockets** (connections refused "
    "or reset), **GC** old and young apart (pauses longer than the goal's slack, the goal minus the service "
    "time, whose excess over it, stretched by the drain of their backlog at the CPU the load leaves idle, "
    "kept past the goal the requests arriving in it and those due to be answered in it: at least "
    f"{GC_SHARE_OF_TAIL:g} × the percentile's share of the window, 1 % for p99, or {PART_OF_TAIL:g} × it "
    "in a window that, without those requests, would have held its goal), ZGC's "
    "**allocation stalls** (threads waiting for memory, longer than the slack, for half the percentile's share "
    "of the window's requests; recorded since 2026-11-29), **CPU** "
    f"(the server's busy cores, steal included, at {CPU_BUSY_SHARE:.0%} or more of those it may use), "
    "**pinning** of virtual threads, **locks** (with JFR's lock events) and the **JIT** (a warm-up that ended "
    "unsettled). The first crossed, in that order, is the limit; the others crossed are named after it. "
    "\"none found\" means no check crossed its line; a check whose figures the window does not hold is "
    "\"not recorded\". Only a CPU limit carries to a server with more cores.")


def capacity_limit_cell(row):
    """The capacity table's cell: each limit with the number of rounds it stopped."""
    limit = row.get("limit")
    if not limit or not limit["rounds"]:
        return "–"
    return counts_text(limit["counts"], len(limit["rounds"]))


def window_limit_cell(run, point):
    """The every-window table's cell: the limits a missed window crossed, '' for one that met."""
    limits = point_limits(run, point)
    if limits is None:
        return ""
    return ", ".join([limits["limit"], *limits["also"]])


def limits_section(run):
    """## What limited each capacity: one bullet per target and sleep, a line per round."""
    rows = [row for row in run["summary"] if row.get("limit") and row["limit"]["rounds"]]
    if not rows:
        return []
    lines = ["## What limited each capacity", "", HOW_LIMITS_ARE_NAMED, ""]
    for row in rows:
        limit = row["limit"]
        lines.append(f"- `{row['mode']}` at {row['sleep_max_ms']} ms, {row['percentile']} ≤ {number(row['goal_ms'])} ms: "
                     f"{counts_text(limit['counts'], len(limit['rounds']))}")
        for entry in limit["rounds"]:
            lines.append("  - " + _round_text(entry))
    return lines + [""]


def _round_text(entry):
    held = f"held {number(entry['held_rps'])}" if entry["held_rps"] is not None else "held no rate"
    if entry["limit"] == AT_MAX_RATE:
        return f"round {entry['round']}: {held}, --max-rate: the walk stops there, nothing limited the server"
    if entry["limit"] == NO_MISS_ABOVE:
        return f"round {entry['round']}: {held}; its walk ended before a window above it missed"
    return f"round {entry['round']}: {held}, missed {number(entry['missed_rps'])} (window {entry['point']}): {entry['words']}"

