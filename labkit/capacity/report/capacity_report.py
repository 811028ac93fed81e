"""report.md's capacity table, one row per target and sleep (spreads over the confirmation rounds,
the Little's-law ceiling, the figures at capacity), the texts other sections share (spread, ceiling,
sleep), and the same result as one console line per target (summary_line)."""
from labkit.capacity.report.limits_report import capacity_limit_cell
from labkit.ground.formatting import number


def spread(m, digits=0, unit=""):
    """'median [min–max] n=N' (with the 95 % CI of the mean when n >= 3); '–' when missing."""
    if not m:
        return "–"
    text = f"{number(m['median'], digits)}{unit}"
    if m["n"] > 1:
        text += f" [{number(m['min'], digits)}–{number(m['max'], digits)}]"
    text += f" n={m['n']}"
    if m.get("ci95"):
        text += f", CI95 {number(m['ci95'][0], digits)}–{number(m['ci95'][1], digits)}"
    return text


def ceiling_text(row):
    if row["ceiling_rps"] is None:
        return "none (unbounded)"
    return f"{number(row['ceiling_rps'])} ({number(row['max_concurrent'])} ÷ {row['sleep_max_ms'] / 1000:g} s)"


def sleep_text(row):
    low, high = row["sleep_min_ms"], row["sleep_max_ms"]
    return f"{low} ms" if low == high else f"{low}-{high} ms"


CAPACITY_HEADERS = ["target", "sleep", "ceiling req/s", "capacity req/s", "search found (missed at)",
                    "held at found rate", "p50 / p99 / p99.9 / max ms at capacity (merged)", "CPU ms per request",
                    "server cores", "peak RSS MB", "OS threads", "longest GC pause ms", "flags",
                    "limit (rounds it stopped)"]


def capacity_cells(rows):
    """The capacity table's cells, one row per target and sleep (headers: CAPACITY_HEADERS)."""
    return [[r["mode"], sleep_text(r), ceiling_text(r), capacity_text(r),
             f"{number(r['search']['found_rps'])} ({number(r['search']['missed_rps'])})",
             f"{r['confirm']['held_at_found']}/{r['confirm']['repeats_run']}",
             _latency(r["at_capacity"]["latency_ms"]), spread(r["at_capacity"]["cpu_ms_per_request"], 3),
             spread(r["at_capacity"]["server_cpu_cores"], 2), spread(r["at_capacity"]["rss_peak_mb"]),
             spread(r["at_capacity"]["threads_max"]), spread(r["at_capacity"].get("gc_pause_max_ms"), 1),
             ", ".join(f"{f} {n}" for f, n in sorted(r["flags"].items())), capacity_limit_cell(r)] for r in rows]


def capacity_text(row):
    """The capacity's spread; a round that held no rate counts as below the lowest rate it tried, and a
    median or minimum that is such an upper bound is written "<"; rounds that held --max-rate are named."""
    m, confirm = row["capacity_rps"], row["confirm"]
    if not m:
        return "–"
    at_max = (f" ({confirm['at_max_rate']} of {confirm['repeats_run']} rounds held --max-rate, where the walk "
              f"stops: a floor)" if confirm.get("at_max_rate") else "")
    if not m.get("censored"):
        return spread(m) + at_max
    return (marked_range(m) + f" n={m['n']} ({m['censored']} of {confirm['repeats_run']} rounds held no rate: each counts as "
            f"below the lowest rate it tried)" + at_max)


def marked_range(m):
    """'1,375 [1,300–1,400]' of a capacity spread, '<' before a median or minimum that is an upper bound
    (a round that held no rate)."""
    below = m.get("censored")
    text = ("<" if below and m["median_below"] else "") + number(m["median"])
    if m["n"] > 1:
        text += f" [{'<' if below and m['min_below'] else ''}{number(m['min'])}–{number(m['max'])}]"
    return text


def summary_line(row):
    """One target's result for the console; '–' for what a target that held no rate lacks."""
    latency = row["at_capacity"]["latency_ms"] or {}
    return (f"{row['mode']:<16} sleep {row['sleep_max_ms']:>5} ms  capacity {capacity_text(row)} req/s  "
            f"p99 {number(latency.get('p99'), 1)} ms  CPU/req {spread(row['at_capacity']['cpu_ms_per_request'], 3)} ms")


def _latency(latency):
    if not latency:
        return "–"
    return " / ".join(number(latency[k], 1) for k in ("p50", "p99", "p999", "max"))
