"""report.md of a capacity run: its sections in their order, each from the module that writes it,
and how to read them."""
from labkit.ground.formatting import markdown_table
from labkit.measure.ownapp_report import own_app_section
from labkit.measure.plan import format_duration
from labkit.measure.reference import speed_lines
from labkit.measure.results import FLAG_MEANINGS
from labkit.capacity.pairs import pair_lines
from labkit.capacity.report.answer_report import answer_section
from labkit.capacity.report.capacity_report import CAPACITY_HEADERS, capacity_cells
from labkit.capacity.report.goals_report import goal_section
from labkit.capacity.report.limits_report import limits_section
from labkit.capacity.report.ratios_report import ratio_sections
from labkit.capacity.report.sessions_report import sessions_table
from labkit.capacity.report.setup_report import setup_rows
from labkit.capacity.report.windows_report import STEPS_HEADERS, collapse_section, rerun_section, steps_cells

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
             *answer_section(run),
             "## Setup", "", markdown_table(["", ""], setup_rows(run)), "",
             "## Capacity at the latency goal", "",
             markdown_table(CAPACITY_HEADERS, capacity_cells(rows)) if rows else "No window was measured.", "",
             *limits_section(run),
             "## Ratios between targets", "", ratio_sections(rows), ""]
    parts += own_app_section(run) + pair_lines(run) + goal_section(run) + speed_lines(run["env"])
    if run.get("charts"):
        parts += ["## Charts", ""] + [f"![{name}]({path})" for name, path in run["charts"].items()] + [""]
    used = sorted({f for p in run["points"] for f in p.get("flags", [])})
    if used:
        parts += ["## Flags", ""] + [f"- `{f}`: {FLAG_MEANINGS.get(f, f)}" for f in used] + [""]
    parts += rerun_section(run)
    parts += collapse_section(run)
    parts += ["## Servers", "", sessions_table(run), "", "## Every window", "", markdown_table(STEPS_HEADERS, steps_cells(run)), "",
              "## How to read this report", "", HOW_TO_READ]
    return "\n".join(parts)
