"""results.json, results.csv, charts and report.md of a capacity run, all from its point records
(write_all is also what ./lab report runs on a committed folder)."""
import json

from labkit.measure.env import payara_text, server_host_row, server_url_row
from labkit.ground.formatting import number, markdown_table
from labkit.measure.plan import format_duration
from labkit.measure.ownapp_report import own_app_section
from labkit.measure.reference import speed_lines
from labkit.measure.results import FLAG_MEANINGS, write_csv
from labkit.ground.machine import cpu_text, normalize_facts
from labkit.capacity.between import TIME_WAIT_LIMIT
from labkit.capacity.by_goal import by_goal, run_goals
from labkit.capacity.report.charts import write_charts
from labkit.capacity.report.goals_report import goal_section
from labkit.capacity.pairs import pair_lines
from labkit.capacity.report.sessions_report import sessions_table
from labkit.capacity.config import WARMUP_SLEEP_MAX_MS
from labkit.capacity.points import gc_pauses_text
from labkit.capacity.summary import CEILING_IN_REACH_SHARE, ratios, summarize
from labkit.capacity.verdicts import HOST_REST_S, STEAL_AGAIN_SHARE

CSV_COLUMNS = (
    ("index", ("index",)), ("id", ("id",)), ("phase", ("phase",)), ("mode", ("mode",)),
    ("sleep_min_ms", ("sleep_min_ms",)), ("sleep_max_ms", ("sleep_max_ms",)), ("repeat", ("repeat",)),
    ("step", ("step",)), ("rate", ("rate",)), ("goal_ms", ("capacity", "goal_ms")), ("passed", ("capacity", "passed")),
    ("met_goal", ("capacity", "met_goal")), ("window_s", ("capacity", "window_s")),
    ("young_gcs", ("capacity", "young_gcs")), ("verdict", ("capacity", "verdict")), ("extends", ("extends", "id")),
    ("responses", ("load", "responses")), ("ok", ("load", "ok")), ("ok_rps", ("load", "ok_rps")),
    ("err_total", ("load", "errors", "total")), ("err_timeout", ("load", "errors", "timeout")),
    ("err_connect", ("load", "errors", "connect")), ("err_reset", ("load", "errors", "reset")),
    ("err_non_2xx", ("load", "errors", "non_2xx")),
    ("lat_p50_ms", ("load", "latency_ms", "p50")), ("lat_p90_ms", ("load", "latency_ms", "p90")),
    ("lat_p99_ms", ("load", "latency_ms", "p99")), ("lat_p999_ms", ("load", "latency_ms", "p999")),
    ("lat_max_ms", ("load", "latency_ms", "max")), ("schedule_lag_max_ms", ("load", "schedule_lag_max_ms")),
    ("server_cpu_cores", ("resources", "server", "cpu_cores")), ("cpu_ms_per_request", ("derived", "cpu_ms_per_request")),
    ("server_rss_peak_mb", ("resources", "server", "rss_peak_mb")),
    ("server_threads_max", ("resources", "server", "threads_max")),
    ("driver_cpu_cores", ("resources", "driver", "cpu_cores")),
    ("machine_other_cores", ("resources", "machine", "other_cores")),
    ("machine_steal_cores", ("resources", "machine", "steal_cores")),
    ("server_cpus_steal_share", ("resources", "machine", "server_cpus_steal_share")),
    ("gc_count", ("jfr", "gc_count")), ("gc_pause_total_ms", ("jfr", "gc_pause_total_ms")),
    ("gc_pause_max_ms", ("jfr", "gc_pause_max_ms")), ("vm_operation_max_ms", ("jfr", "vm_operation_max_ms")),
    ("vm_operation_max", ("jfr", "vm_operation_max")),
    ("ceiling_rps", ("derived", "ceiling_rps")), ("flags", ("flags",)), ("hgrm", ("files", "hgrm")),
    ("failure", ("failure",)),
)


def write_all(run, out_dir, goals=None):
    """`goals` (./lab report --slo): the goals of the capacity-per-goal table, else the run's own."""
    run["summary"] = summarize(run)
    goals = run_goals(run, goals)
    if goals:
        run["by_goal"] = by_goal(run, goals)
    write_csv(out_dir / "results.csv", run["points"], CSV_COLUMNS)
    run["charts"] = write_charts(run, out_dir)
    (out_dir / "results.json").write_text(json.dumps(run, indent=2) + "\n")
    (out_dir / "report.md").write_text(report(run))
    from labkit.capacity.report.html_report import write_html  # it builds on this module's tables
    write_html(run, out_dir)
    return run


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


def _sleep_text(row):
    low, high = row["sleep_min_ms"], row["sleep_max_ms"]
    return f"{low} ms" if low == high else f"{low}-{high} ms"


def setup_rows(run):
    """The setup table's rows: (what, how), as report.md and report.html show them."""
    env, config = run["env"], run["config"]
    host, jdk = normalize_facts(env["host"]), env["jdk"]
    tools = ", ".join(t["version"] for t in env["tools"].values())
    cpus = config.get("cpus")
    pinning = (f"server on CPU {cpus['server']}, load tool on CPU {cpus['driver']} (--cpus; each process's "
               f"allowed CPUs are in the sessions table)" if cpus else "not pinned: server and load tool share every CPU")
    rows = [
        ("Machine", f"{cpu_text(host['cpu_model'], host.get('cpu_id'))}, {host['cpus']} CPUs, {host['memory_gib']} GB, {host['os']}, kernel {host['kernel']}"),
        ("Load average at start", ", ".join(f"{v:.2f}" for v in host["loadavg"])),
        ("JDK", f"{jdk['vendor']} {jdk['runtime_version'] or jdk['version']}"),
        ("Payara Micro", payara_text(env)),
        ("Load tool", f"vegeta ({tools}): open model, requests due at a fixed rate, latency from each request's "
                      f"intended start"),
        ("CPUs", pinning),
        ("Git", f"{env['git'].get('commit') or '?'}{' (uncommitted changes)' if env['git'].get('dirty') else ''}"),
        ("Goal", f"{config['goal_text']}, and no failed request"),
        ("Sleeps", ", ".join(f"{s['sleep_min_ms']} ms (goal {s['goal_ms']:g} ms, timeout {s['timeout_s']:g} s, "
                             f"pre-roll {s.get('preroll_s', config.get('preroll_s'))} s)" for s in config["sleeps"])),
        ("Windows", f"{config['duration_s']} s measured after the sleep's pre-roll at the same rate, "
                    f"in one vegeta run with at most twice the connections the goal allows in flight (a request waiting "
                    f"for one waits inside its latency); requests due in the window count; before it, a wait while "
                    f"more than {TIME_WAIT_LIMIT:,} client sockets to the server are in TIME_WAIT; a window the load tool could not drive "
                    f"(flags client-bound and driver-behind) is measured once more (`-again`) after they drain, and one that "
                    f"missed the goal while the hypervisor took more than {STEAL_AGAIN_SHARE:.0%} of the server's CPUs "
                    f"(steal) once more after {HOST_REST_S} s; after each window a full GC (`jcmd GC.run`), "
                    f"so every window starts from the same heap, not from the garbage of the warm-up or of an "
                    f"overloaded window before it, then {config['cooldown_s']} s or more of rest (until the "
                    f"server's CPU is quiet)"),
        ("Young collections", _gc_rule_text(config)),
        ("Warm-up", f"before any window on a fresh server: closed-model iterations of {config['warmup_iteration_s']} s "
                    f"at {config['warmup_concurrency']} connections until the last 3 agree within ±5 %"
                    + (f" and {_jit_iterations_text(config)} compiled at most {config['warmup_jit_rate']:g} methods per second "
                       f"(`sun.ci.totalCompiles`, jcmd; without a count the throughput alone decides)"
                       if config.get("warmup_jit_rate") is not None else "")
                    + f", at least {config.get('warmup_min_s', 0)} s, at most {config['warmup_max_s']} s; then a full "
                      f"GC and the same rest as between windows"
                    + (f"; a longer sleep warms up on the same endpoint at {WARMUP_SLEEP_MAX_MS} ms, so the warm-up "
                       f"reaches the rates the windows offer"
                       if any(s["sleep_max_ms"] > WARMUP_SLEEP_MAX_MS for s in config["sleeps"]) else "")),
        ("Search", f"from {number(config['start_rate'])} req/s doubling until a window misses the goal, then "
                   f"bisection to {config['resolution'] * 100:g} % (at most {number(config['max_rate'])} req/s)"),
        ("Confirmation", f"{config['repeats']} rounds; in each every target on a fresh server, warmed up, "
                         + _walk_text(config) + "; target order rotated per round: " + "; ".join(
                             f"{o['sleep_max_ms']} ms r{o['repeat']}: {', '.join(o['modes'])}" for o in run["orders"])),
    ]
    rows[1:1] = [row for row in (server_host_row(env), server_url_row(env)) if row]
    return rows


def _jit_iterations_text(config):
    """Which warm-up iterations had to be JIT-quiet: the settled ones, or in runs before that rule the last."""
    return f"each of the last {config['warmup_jit_iterations']}" if config.get("warmup_jit_iterations") else "the last"


def _walk_text(config):
    step, walk = f"{config['resolution'] * 100:g} %", config.get("confirm_walk_steps")
    if walk is None:  # runs made before the walk: a round only went down
        return f"one window at its found rate (a miss is retried {step} lower, twice at most)"
    limit = (f"up until a window misses (at most {number(config['max_rate'])} req/s), down {walk} steps at most"
             if config.get("confirm_walk_up") else f"{walk} steps at most")
    return (f"a walk from its found rate: {step} higher after a window that met the goal, {step} lower after one "
            f"that missed, until the verdict turns, {limit} (the round's capacity: the highest rate "
            f"it held)" + (", once per goal" if config.get("goals") else ""))


def _gc_rule_text(config):
    needed = config.get("min_young_gcs")
    if needed is None:
        return "no rule (a run made before it): a window counted on its goal alone, whatever its collections"
    if needed == 0:
        return "no rule (--min-young-gcs 0): a window counts on its goal alone"
    return (f"a window counts as meeting the goal only with at least {needed} young collections in it (JFR), so its "
            f"percentile holds the pauses of the steady state (after the full GC a window starts with an empty young "
            f"generation); one that met the goal with fewer is measured again at the same rate for twice as long "
            f"(window id `-wNNs`), up to {config['max_window_s']} s, where it counts, flagged `few-gcs`; on the "
            f"search's doubling ramp (before its first miss) a window that met the goal counts whatever its collections: "
            f"it only sends the search higher, and the bisection and confirmation keep the rule; a window "
            f"that missed the goal missed it whatever its collections; without a count (no JFR) a window counts on "
            f"its goal alone, flagged `gcs-unknown`")


CAPACITY_HEADERS = ["target", "sleep", "ceiling req/s", "capacity req/s", "search found (missed at)",
                    "held at found rate", "p50 / p99 / p99.9 / max ms at capacity (merged)", "CPU ms per request",
                    "server cores", "peak RSS MB", "OS threads", "longest GC pause ms", "flags"]


def capacity_cells(rows):
    """The capacity table's cells, one row per target and sleep (headers: CAPACITY_HEADERS)."""
    return [[r["mode"], _sleep_text(r), ceiling_text(r), capacity_text(r),
             f"{number(r['search']['found_rps'])} ({number(r['search']['missed_rps'])})",
             f"{r['confirm']['held_at_found']}/{r['confirm']['repeats_run']}",
             _latency(r["at_capacity"]["latency_ms"]), spread(r["at_capacity"]["cpu_ms_per_request"], 3),
             spread(r["at_capacity"]["server_cpu_cores"], 2), spread(r["at_capacity"]["rss_peak_mb"]),
             spread(r["at_capacity"]["threads_max"]), spread(r["at_capacity"].get("gc_pause_max_ms"), 1),
             ", ".join(f"{f} {n}" for f, n in sorted(r["flags"].items()))] for r in rows]


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
    text = ("<" if m["median_below"] else "") + number(m["median"])
    if m["n"] > 1:
        text += f" [{'<' if m['min_below'] else ''}{number(m['min'])}–{number(m['max'])}]"
    return (text + f" n={m['n']} ({m['censored']} of {confirm['repeats_run']} rounds held no rate: each counts as "
            f"below the lowest rate it tried)" + at_max)


def summary_line(row):
    """One target's result for the console; '–' for what a target that held no rate lacks."""
    latency = row["at_capacity"]["latency_ms"] or {}
    return (f"{row['mode']:<16} sleep {row['sleep_max_ms']:>5} ms  capacity {capacity_text(row)} req/s  "
            f"p99 {number(latency.get('p99'), 1)} ms  CPU/req {spread(row['at_capacity']['cpu_ms_per_request'], 3)} ms")


def _latency(latency):
    if not latency:
        return "–"
    return " / ".join(number(latency[k], 1) for k in ("p50", "p99", "p999", "max"))


def _ceiling_shapes(pair):
    return not pair["same_ceiling"] and pair["ceiling_in_reach"]


RATIO_BOUND_MARKS = {None: "", "at most": "≤", "at least": "≥", "unknown": "?"}


def _ratio_text(pair):
    return f"{RATIO_BOUND_MARKS[pair.get('bound')]}{pair['ratio']:.2f}×"


def _ratio_cell(pair):
    return (f"{_ratio_text(pair)} [{'<' if pair.get('low_below') else ''}"
            f"{pair['low']:.2f}–{'>' if pair.get('high_above') else ''}{pair['high']:.2f}]"
            + (" †" if _ceiling_shapes(pair) else ""))


def _ratio_sections(rows):
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
        parts += [f"### Sleep {_sleep_text(members[0])}: capacity ratios (row ÷ column)", "",
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


STEPS_HEADERS = ["#", "target", "sleep", "phase", "step", "offered req/s", "window s", "2xx req/s", "p50 ms",
                 "p99 ms", "max ms", "errors", "server cores", "CPU ms/req", "RSS MB",
                 "GC pauses; longest VM operation", "counts as met", "flags", "histogram"]


def steps_cells(run):
    """Every window's row (headers: STEPS_HEADERS)."""
    rows = []
    for p in run["points"]:
        load = p.get("load") or {}
        latency = load.get("latency_ms") or {}
        server = (p.get("resources") or {}).get("server") or {}
        window_s = p["capacity"].get("window_s") or (p.get("window") or {}).get("wall_s")
        rows.append([p["index"], p["mode"], f"{p['sleep_max_ms']} ms", p["phase"] + (f" r{p['repeat']}" if p["repeat"] else ""),
                     p["step"], number(p["rate"]), number(window_s), number(load.get("ok_rps")),
                     number(latency.get("p50"), 1), number(latency.get("p99"), 1), number(latency.get("max"), 1),
                     number((load.get("errors") or {}).get("total")), number(server.get("cpu_cores"), 2),
                     number((p.get("derived") or {}).get("cpu_ms_per_request"), 3), number(server.get("rss_peak_mb")),
                     gc_pauses_text(p.get("jfr")), counted_text(p["capacity"]), ", ".join(p.get("flags", [])),
                     f"[hgrm]({p['files']['hgrm']})" if p.get("files", {}).get("hgrm") else p.get("failure") or ""])
    return rows


# A window's capacity.verdict (verdicts.window_verdict) as the report says it; runs made before the
# young-collection rule have none, only `passed`.
VERDICT_CELLS = {"met": "yes", "missed": "no", "rerun-longer": "not yet: too few young GCs, re-run longer",
                 "met-few-gcs": "yes, few-gcs at the cap", "met-gcs-unknown": "yes (young GCs not counted)",
                 "met-ramp": "yes, on the ramp (few young GCs)"}


def counted_text(capacity):
    verdict = capacity.get("verdict")
    if verdict is None:
        return "yes" if capacity["passed"] else "no"
    return VERDICT_CELLS.get(verdict, verdict)


def _rerun_section(run):
    """Which rates were measured again longer for too few young collections and what came of it, and
    the windows without a count; [] when neither happened (or the run predates the rule)."""
    points = run["points"]
    lines = []
    for p in points:
        extends = p.get("extends")
        if not extends:
            continue
        capacity = p["capacity"]
        round_text = f" r{p['repeat']}" if p.get("repeat") else ""
        lines.append(f"- {p['mode']}, sleep {p['sleep_max_ms']} ms, {p['phase']}{round_text} step {p['step']}, "
                     f"{number(p['rate'])} req/s: the {extends['window_s']} s window met the goal with "
                     f"{extends['young_gcs']} young collection(s) ({capacity['min_young_gcs']} needed); "
                     f"{capacity['window_s']} s: {number(capacity.get('young_gcs'))}, counts as met: "
                     f"{counted_text(capacity)}")
    unknown = [p for p in points if (p.get("capacity") or {}).get("verdict") == "met-gcs-unknown"]
    if unknown:
        lines.append(f"- {len(unknown)} window(s) met the goal with their young collections not counted (no JFR "
                     f"figures): they count on the goal alone, as before the rule (`gcs-unknown`): "
                     + ", ".join(p["id"] for p in unknown))
    if not lines:
        return []
    return ["## Windows measured again for too few young collections", "",
            f"A window that met the goal with fewer than {run['config'].get('min_young_gcs')} young collections is "
            f"measured again at the same rate for twice as long, up to {run['config'].get('max_window_s')} s "
            f"(the earlier window then counts for nothing).", ""] + lines + [""]


HOW_TO_READ = """\
- **capacity**: the highest arrival rate (requests due per second, open model) at which the
  target answered every request of a window with the goal's percentile at or below the goal. The
  search finds it on one server; each confirmation round measures it again on a fresh server
  (rounds in a rotated target order). Shown: median [min–max] over the confirmation rounds, n, and
  with n >= 3 the 95 % confidence interval of the mean (Student's t).
- **latency** runs from each request's *intended* start (vegeta's schedule), so a stall of the server
  or of the load tool counts in full (no coordinated omission). At capacity the percentiles come from
  the confirmation windows' histograms merged, never from averaged percentiles; max is the true max.
- **ceiling**: Little's law for a pool of N threads: at most N requests in service, each one sleep
  long, so at most N ÷ sleep req/s. Unbounded targets have none. A ratio between targets with
  different ceilings is marked † when the lower ceiling is within reach (a capacity at least half of
  it); the list under each ratio table compares targets of equal ceiling.
- **CPU ms per request**: the server's CPU time (user+sys, /proc) in the window ÷ its 2xx answers in
  the same window (cores ÷ req/s). **peak RSS**: the highest resident memory sampled in the window.
- **GC pauses**: from a JFR recording in the server (the bench's settings: GC, heap and pinning events
  only), the collections that began in the window and their longest pause; a pause delays every
  request due during it, so one long pause can decide a window's p99. The longest **VM operation** of
  10 ms or more (threads stopped at a safepoint: a GC pause, a deoptimisation...) is named beside it.
- **young collections**: a window counts as meeting the goal only with enough young collections in it
  (`--min-young-gcs`, JFR): each window starts after a full GC with an empty young generation, so a
  short one at a moderate rate may hold none and leave the pauses of the steady state out of its
  percentile. One that met the goal with too few is measured again twice as long (the steps table
  shows both; only the longer counts), up to `--max-window`, where it counts flagged `few-gcs`. On the
  search's doubling ramp (before its first miss) a pass counts at once (`on the ramp`): it only leads
  to a higher rate; the bisection and the confirmation rounds keep the rule.
- **warm-up ended**: `steady, JIT quiet` (the last 3 iterations within ±5 % and the last one compiled at
  most `--warmup-jit-rate` methods per second), `steady (no JIT count)` (jcmd could not read
  `sun.ci.totalCompiles`: the throughput alone decided) or `cap` (`--warmup-max` came first).
- **not-steady**: the window's per-second 2xx throughput varied or trended by more than 15 %.
- Files: `results.json` (schema `loomlab.capacity/1`, labkit/bench/RESULTS-SCHEMA.md), `results.csv`
  (one row per window), `histograms/<window>.hgrm.gz` (HdrHistogram percentile distribution, ms),
  `env.json`, `servers/` (logs). `./lab report DIR` rebuilds this report from results.json.
"""


def report(run):
    rows = run["summary"]
    state = run["state"]
    status = {"complete": "Complete.", "interrupted": "**Interrupted** (Ctrl-C): the report covers the windows measured.",
              "failed": f"**Stopped by an error**: {run.get('error')}"}.get(state, state)
    wall = run.get("wall_s")
    parts = [f"# LoomLab capacity: {run['config']['name']}", "", status, "",
             f"Command: `{run['env']['command']}`  ",
             f"Started {run['started']}, finished {run.get('finished', '?')}"
             + (f" ({format_duration(wall)})." if wall else "."), "",
             "## Setup", "", markdown_table(["", ""], setup_rows(run)), "",
             "## Capacity at the latency goal", "",
             markdown_table(CAPACITY_HEADERS, capacity_cells(rows)) if rows else "No window was measured.", "",
             "## Ratios between targets", "", _ratio_sections(rows), ""]
    parts += own_app_section(run) + pair_lines(run) + goal_section(run) + speed_lines(run["env"])
    if run.get("charts"):
        parts += ["## Charts", ""] + [f"![{name}]({path})" for name, path in run["charts"].items()] + [""]
    used = sorted({f for p in run["points"] for f in p.get("flags", [])})
    if used:
        parts += ["## Flags", ""] + [f"- `{f}`: {FLAG_MEANINGS.get(f, f)}" for f in used] + [""]
    parts += _rerun_section(run)
    parts += ["## Servers", "", sessions_table(run), "", "## Every window", "", markdown_table(STEPS_HEADERS, steps_cells(run)), "",
              "## How to read this report", "", HOW_TO_READ]
    return "\n".join(parts)
