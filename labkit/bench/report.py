"""report.md: setup, summary over repeats, resources, charts, flags, every point, how to read."""
from labkit.measure.env import git_row, where_rows
from labkit.bench.locks_report import locks_section
from labkit.measure.ownapp_report import own_app_section
from labkit.servers.userapp import PROBE_ROOT
from labkit.bench.charts import CHARTS
from labkit.ground.formatting import number, markdown_table
from labkit.measure.row_text import flags_text, metric, sleep_text
from labkit.servers.heaps import HOLDS_SHARE, heap_mb, smallest_holding_heaps
from labkit.measure.plan import format_duration
from labkit.measure.report_files import links_that_resolve
from labkit.measure.results import FLAG_MEANINGS
from labkit.measure.threaddump import summary_lines
from labkit.measure.watchdog import DEFAULT_STALL_AFTER_S, PROBE_INTERVAL_S, PROBE_PATH, STALL_SLEEPS


def _status(run):
    state = run["state"]
    done = len(run["points"])
    if state == "complete":
        return f"Complete: {done} of {run['planned_points']} points measured."
    if state == "interrupted":
        return f"**Interrupted** (Ctrl-C) after {done} of {run['planned_points']} points; the report covers those."
    return f"**Stopped by an error** after {done} of {run['planned_points']} points: {run.get('error')}"


def _setup(run):
    env, config = run["env"], run["config"]
    tools = ", ".join(f"{t['version']}" for t in env["tools"].values())
    levels = ", ".join(f"c={l['concurrency']} @ {l['sleep_min_ms'] if l['sleep_min_ms'] == l['sleep_max_ms'] else str(l['sleep_min_ms']) + '-' + str(l['sleep_max_ms'])} ms (timeout {l['timeout_s']:g} s)"
                       for l in config["levels"])
    if config.get("requests"):
        # Your requests: the sleep means nothing to them (it only sets the default timeouts).
        levels = ", ".join(f"c={l['concurrency']} (timeout {l['timeout_s']:g} s)" for l in config["levels"])
    restart = ("every repeat starts each server afresh; modes interleaved, their order rotated by one per repeat"
               if config["restart"] == "repeat"
               else "one fresh server per mode; repeats measured back to back after one warm-up per level")
    rows = [
        *where_rows(env, ulimit=True, jdk_home=True),
        ("Load tools", tools),
        git_row(env),
        ("Scenario", f"{config['scenario']}: depth {config['depth']}"),
        ("Levels", levels),
        ("Windows", _windows(config, restart)),
        ("Rate", _rate_text(config)),
        ("CPUs", (f"server on CPU {config['cpus']['server']}, load tool on CPU {config['cpus']['driver']} (--cpus)"
                  if config.get("cpus") else "not pinned: server and load tool share every CPU")),
        ("Modes", ", ".join(config["modes"])),
        ("Carriers", (f"{config['carriers']} (--carriers: -Djdk.virtualThreadScheduler.parallelism={config['carriers']})"
                      if config.get("carriers") else "the JVM's default: one per CPU")),
        ("Watchdog", f"GET {PROBE_ROOT + PROBE_PATH if config.get('wars') else PROBE_PATH} every {PROBE_INTERVAL_S:g} s on a connection of its own during every run of the "
                     f"load tool; no answer within "
                     + (f"{config['stall_after_s']:g} s" if config.get("stall_after_s")
                        else f"{DEFAULT_STALL_AFTER_S:g} s (or {STALL_SLEEPS} x the sleep, when longer)")
                     + " marks the point stalled"),
    ]
    return markdown_table(["", ""], rows)


def _rate_text(config):
    if not config["rate"]:
        return "closed model (no --rate): latencies of the requests that were sent (coordinated omission)"
    if config["drivers"] == ["vegeta"]:
        return f"{config['rate']} req/s, open model (vegeta): latency from each request's intended start"
    return (f"{config['rate']} req/s; vegeta: open model; bombardier: a rate limit over --concurrency connections "
            f"(closed model, latency from the actual send)")


def _windows(config, restart):
    repeats = f"{config['repeats']} repeat(s): {restart}"
    if config.get("steady"):
        return (f"steady: warm-up {config['warmup_s']} s, measured {config['duration_s']} s and a drain of one request "
                f"timeout, all inside one continuous run of the load tool, so its connection ramp stays outside the "
                f"window; only requests that started in the window count (ab's per-request start times), error "
                f"counts cover the whole run; {repeats}")
    if config.get("warmup_until_steady"):
        return (f"warm-up runs of {config['warmup_s']} s repeated until the last three agree within ±5 % "
                f"(at most {config['warmup_cap_s']} s; each point's time and per-run req/s are in results.json), "
                f"measured {config['duration_s']} s, {repeats}")
    return f"warm-up {config['warmup_s']} s (not measured), measured {config['duration_s']} s, {repeats}"


def _servers(run):
    """Each server start, and the exact command of each mode's first start."""
    sessions = run.get("sessions") or []
    if not sessions:
        return "No server was started."
    table = markdown_table(["#", "mode", "repeat", "ready in s", "pid", "request on a virtual thread", "JFR", "log"],
                   [[s["index"], s["mode"], s["repeat"] or "all", s.get("start_s", "–"), s["pid"],
                     s.get("request_virtual", "–"), "yes" if not s.get("jfr_error") else f"no: {s['jfr_error']}",
                     f"[log]({s['log']})" if s.get("log") else "–"] for s in sessions])
    commands, seen = [], set()
    for s in sessions:
        if s.get("command") and s["mode"] not in seen:
            seen.add(s["mode"])
            commands += [f"`{s['mode']}`:", "", "```", s["command"], "```", ""]
    return table + ("\n\nServer command lines:\n\n" + "\n".join(commands) if commands else "")


def _summary_tables(run, several_drivers):
    rows = run["summary"]
    lead = lambda r: [r["mode"]] + ([r["driver"]] if several_drivers else []) + [r["concurrency"], sleep_text(r)]
    head = ["mode"] + (["driver"] if several_drivers else []) + ["c", "sleep ms"]
    throughput = markdown_table(head + ["req/s", "ceiling", "efficiency", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms",
                                "errors", "repeats", "flags"],
                        [lead(r) + [metric(r, "ok_rps"), number(r["ceiling_rps"]), metric(r, "efficiency", 2),
                                    metric(r, "latency_p50_ms", 1), metric(r, "latency_p90_ms", 1, spread=False),
                                    metric(r, "latency_p99_ms", 1), metric(r, "latency_p999_ms", 1),
                                    metric(r, "latency_max_ms", 1, spread=False), _errors(r),
                                    f"{r['measured']}/{r['repeats']}", flags_text(r)] for r in rows])
    resources = markdown_table(head + ["server CPU cores", "req per CPU-s", "RSS avg MB", "RSS peak MB", "VmHWM MB",
                               "req/s per GB RSS", "OS threads max", "GC pause total ms", "heap used max MB",
                               "pinned events", "driver CPU cores", "other CPU cores", "stolen CPU cores"],
                       [lead(r) + [metric(r, "server_cpu_cores", 2), metric(r, "requests_per_cpu_s"),
                                   metric(r, "rss_avg_mb", spread=False), metric(r, "rss_peak_mb"),
                                   metric(r, "vm_hwm_mb", spread=False), metric(r, "rps_per_gb_rss"),
                                   metric(r, "threads_max"), metric(r, "gc_pause_total_ms", 1),
                                   metric(r, "heap_used_max_mb", spread=False), metric(r, "pinned_events", spread=False),
                                   metric(r, "driver_cpu_cores", 2), metric(r, "other_cpu_cores", 2, spread=False),
                                   metric(r, "steal_cpu_cores", 2, spread=False)]
                        for r in rows])
    return throughput, resources


def _errors(row):
    """Failed requests summed over the repeats (a median would hide one bad repeat)."""
    return number(row["errors_total"]) if row["measured"] else "–"


def _observations(run, several_drivers):
    """Plain facts from the summary: who led each level and by how much, and which points the
    load tool or the machine may have limited."""
    lines = []
    levels = {}
    for row in run["summary"]:
        if "ok_rps" in row["metrics"]:
            levels.setdefault((row["driver"], row["concurrency"], row["sleep_min_ms"], row["sleep_max_ms"]), []).append(row)
    for (driver, concurrency, low, high), rows in levels.items():
        ranked = sorted(rows, key=lambda r: r["metrics"]["ok_rps"]["median"], reverse=True)
        best = ranked[0]
        where = f"c={concurrency} @ {sleep_text(best)} ms" + (f" ({driver})" if several_drivers else "")
        text = f"- {where}: **{best['mode']}** led with {number(best['metrics']['ok_rps']['median'])} req/s"
        if best["metrics"].get("efficiency"):
            text += f" ({number(best['metrics']['efficiency']['median'] * 100)} % of its ceiling)"
        if len(ranked) > 1:
            second = ranked[1]
            gap = best["metrics"]["ok_rps"]["median"] / second["metrics"]["ok_rps"]["median"] - 1 \
                if second["metrics"]["ok_rps"]["median"] else None
            text += f", {number(gap * 100, 1) if gap is not None else '–'} % ahead of {second['mode']}"
            overlap = best["metrics"]["ok_rps"]["min"] <= second["metrics"]["ok_rps"]["max"]
            if overlap and best["metrics"]["ok_rps"]["n"] > 1:
                text += " (their min–max ranges overlap: not a clear lead)"
            text += _ceiling_note(best, second, ranked)
        lines.append(text + ".")
        ceilings = {}
        for row in rows:
            ceilings.setdefault(row["ceiling_rps"], []).append(row["mode"])
        if len(ceilings) > 1:
            lines.append("  Ceilings differ at this level: " + "; ".join(
                f"{', '.join(modes)} {number(ceiling)} req/s" for ceiling, modes in ceilings.items())
                + ". A ratio across different ceilings is partly the ceilings' ratio: compare like for like.")
    for flag in ("client-bound", "cpu-saturated", "other-load", "host-steal", "errors"):
        hit = [f"{r['mode']} c={r['concurrency']}" for r in run["summary"] if r["flags"].get(flag)]
        if hit:
            lines.append(f"- `{flag}` at: {', '.join(hit)}: {FLAG_MEANINGS[flag]}.")
    return "\n".join(lines) if lines else "- No point was measured."


def _ceiling_note(best, second, rows):
    """When the two lead targets have different Little's-law ceilings, say so, and give the lead's
    ratio against a target with its own ceiling (like for like)."""
    if best["ceiling_rps"] == second["ceiling_rps"]:
        return ""
    note = (f"; their ceilings differ ({number(best['ceiling_rps'])} vs {number(second['ceiling_rps'])} req/s), "
            "so part of this gap is the ceiling")
    peer = next((r for r in rows if r is not best and r["ceiling_rps"] == best["ceiling_rps"]), None)
    if peer and peer["metrics"]["ok_rps"]["median"]:
        ratio = best["metrics"]["ok_rps"]["median"] / peer["metrics"]["ok_rps"]["median"]
        note += f"; against {peer['mode']} (same ceiling) {best['mode']} is at {ratio:.2f}×"
    else:
        note += "; no other target has the same ceiling"
    return note

def _heaps(run, several_drivers):
    """--heap: each heap size's throughput per CPU-second and per GB of peak RSS, and per mode the
    smallest heap whose median req/s stays within 5 % of that mode's best."""
    verdicts = {(v["target"], v["driver"], v["concurrency"], v["sleep_min_ms"], v["sleep_max_ms"]): v
                for v in smallest_holding_heaps(run["points"])}
    rows = []
    for r in run["summary"]:
        target, _, heap = r["mode"].rpartition("@")
        verdict = verdicts.get((target, r["driver"], r["concurrency"], r["sleep_min_ms"], r["sleep_max_ms"]))
        if not heap or verdict is None or heap not in verdict["heaps"]:
            continue
        holds = verdict["heaps"][heap] >= HOLDS_SHARE * verdict["best_rps"] if verdict["best_rps"] else False
        rows.append((target, r["driver"], r["concurrency"], heap_mb(heap),
                     [target] + ([r["driver"]] if several_drivers else []) + [r["concurrency"], sleep_text(r), heap,
                      metric(r, "ok_rps"), metric(r, "requests_per_cpu_s"), metric(r, "rps_per_gb_rss"),
                      metric(r, "rss_peak_mb"), metric(r, "heap_used_max_mb", spread=False),
                      "yes" if holds else "no"]))
    rows.sort(key=lambda row: row[:4])
    head = ["mode"] + (["driver"] if several_drivers else []) + ["c", "sleep ms", "heap", "req/s", "req per CPU-s",
                                                                 "req/s per GB RSS", "RSS peak MB", "heap used max MB",
                                                                 f"within {100 - HOLDS_SHARE * 100:g} % of best"]
    lines = [markdown_table(head, [row[-1] for row in rows]), ""]
    for v in sorted(verdicts.values(), key=lambda v: (v["target"], v["driver"], v["concurrency"])):
        where = f"c={v['concurrency']}" + (f" ({v['driver']})" if several_drivers else "")
        lines.append(f"- **{v['target']}** {where}: best {number(v['best_rps'])} req/s at {v['best_heap']}; the smallest "
                     f"heap within {100 - HOLDS_SHARE * 100:g} % of it: **{v['smallest_holding_heap'] or '–'}**.")
    lines += ["", "Medians over the repeats. A heap \"holds\" a mode's throughput when its median req/s is at least "
              f"{HOLDS_SHARE:.0%} of the best median of that mode at that level; RSS is the server's peak resident "
              "memory in the window (heap, metaspace, code, thread stacks, direct buffers), so per-GB figures "
              "include everything the process holds."]
    return "\n".join(lines)


def _stalls(run):
    """Per stalled point: what the probe saw, where the thread dump is, and what it says."""
    parts = []
    for p in run["points"]:
        watchdog = p.get("watchdog") or {}
        stall = watchdog.get("stall")
        if not stall:
            continue
        dump = stall.get("dump") or {}
        phase = (p.get("window") or {}).get("stalled_in")
        parts += [f"### {p['id']}: {p['mode']} c={p['concurrency']}", "",
                  f"- The probe ({watchdog.get('probe')}, a new connection every {watchdog.get('interval_s'):g} s) sent "
                  f"{stall['probe_sent_s']:g} s into the load tool's run" + (f" ({phase})" if phase else "")
                  + f" got no answer within {stall['waited_s']:g} s; "
                  f"{stall['answered_before']} probes had been answered before it. The load tool was stopped, then "
                  f"the server.",
                  "- Thread dump: " + (f"[{dump['file']}]({dump['file']})" if dump.get("file") else "none")
                  + (f" ({dump['error']})" if dump.get("error") else "")
                  + " (`jcmd PID Thread.dump_to_file -format=json`, virtual threads included)"]
        if dump.get("summary"):
            parts += summary_lines(dump["summary"])
        parts.append("")
    return "\n".join(parts)


def _points_table(run):
    rows = []
    for p in run["points"]:
        load = p.get("load") or {}
        errors = load.get("errors") or {}
        latency = load.get("latency_ms") or {}
        server = (p.get("resources") or {}).get("server") or {}
        driver = (p.get("resources") or {}).get("driver") or {}
        error_text = ", ".join(f"{k} {v}" for k, v in errors.items() if k != "total" and v) or "0"
        rows.append([p["index"], p["mode"], p["driver"], p["concurrency"], sleep_text(p), p["repeat"],
                     number(load.get("ok_rps")), number(latency.get("p50"), 1), number(latency.get("p99"), 1),
                     error_text, number(server.get("cpu_cores"), 2), number(driver.get("cpu_cores"), 2),
                     number(server.get("rss_peak_mb")), server.get("threads_max", "–"),
                     ", ".join(p.get("flags", [])) or "", f"[out](raw/{p['id']}.out)",
                     p.get("failure") or ""])
    return markdown_table(["#", "mode", "driver", "c", "sleep ms", "repeat", "req/s", "p50 ms", "p99 ms", "errors",
                   "server CPU", "driver CPU", "RSS peak MB", "threads", "flags", "raw", "failure"], rows)


HOW_TO_READ = """\
- **req/s** counts 2xx responses only, divided by the tool's measured duration; errors never add to it.
- **ceiling** is Little's law: at most min(concurrency, pool size) requests are in service at once,
  each needs the sleep (mean of a range), so throughput ≤ that ÷ sleep. **efficiency** = req/s ÷ ceiling:
  1.0 means the thread mode lost nothing to scheduling, queueing or CPU; a pool smaller than the
  concurrency lowers the ceiling itself, not the efficiency.
  **fanout**: the ceiling is per request, not per task. A request holds its connection until the
  longest of its 10 concurrent tasks ends (for 50-100 ms draws 95.5 ms on average, not 75 ms), and on a
  platform pool of N threads its tasks take 10 × the mean sleep of pool time, so N ÷ (10 × mean sleep)
  caps it as well (platform-4000: 5,333 req/s).
- **req per CPU-s** = 2xx responses ÷ server CPU seconds (user+sys) in the window;
  **req/s per GB RSS** = req/s ÷ peak resident memory during the window. Both are the per-CPU and
  per-memory views of throughput.
- **OS threads** come from /proc (Threads): platform pools show their size here, virtual threads do not.
- **GC pause total**, **heap used max** and **pinned events** (jdk.VirtualThreadPinned, pinned for 20 ms or
  more) come from a JFR recording of the server (started with jcmd before the warm-up, no agent).
- **client-bound**: the load tool used more than 90 % of a core. On 2 cores the tool and the server share
  the machine: such a point says more about the tool than about the thread mode.
- **other CPU cores**: CPU that neither the server nor the load tool used (other programs, kernel, the
  harness) — a shared or busy machine shows here.
- **stolen CPU cores**: CPU time the hypervisor gave other guests while this machine had work for it
  (steal in /proc/stat): a busy host shows here, and `host-steal` marks a point where it exceeds 0.1 cores
  or 10 % of the server's CPUs.
- Closed model (no --rate): each connection waits for its answer before the next request, so a slow
  server also slows the load (coordinated omission); latencies are those of the requests that were sent.
  With --rate and vegeta (open model) requests leave on schedule and latency runs from each request's
  intended start; bombardier's --rate only limits the send rate of its connections (still closed).
- Repeats: median [min–max] over the repeats (results.json adds the 95 % CI of the mean for n >= 3);
  the repeats column gives n. Latency percentiles are never medians or averages of windows: the
  windows' histograms are merged (p99 of all their requests, max the true max); a tool without raw
  latencies (bombardier) shows its worst window. A single repeat is one sample, not a distribution.
- **not-steady**: the window's per-second answers varied or trended by more than 15 %.
- Per-window histograms: `histograms/<id>.hgrm.gz` (HdrHistogram percentile distribution, ms);
  `./lab report DIR` rebuilds this report from results.json.
"""


def exposed_metrics_section(points):
    """A server the lab did not start (--url): what its /metrics said of each window."""
    rows = [(p["id"], *(_figure((p["server_metrics"] or {}).get(k)) for k in ("threads", "heap_used_mb", "gc_count",
                                                                             "gc_time_ms")),
             (p["server_metrics"] or {}).get("error") or "")
            for p in points if "server_metrics" in p]
    if not rows:
        return []
    return ["## The server's own metrics (GET /metrics, before and after each window)", "",
            markdown_table(["point", "JVM threads at the end", "heap used MB", "GCs in the window", "GC time ms", "not read"],
                   rows), ""]


def _figure(value):
    return "–" if value is None else f"{value:,}"


def write_report(path, run):
    several_drivers = len(run["config"]["drivers"]) > 1
    throughput, resources = _summary_tables(run, several_drivers)
    wall = run.get("wall_s")
    parts = [
        f"# LoomLab bench: {run['config']['name']}",
        "",
        _status(run),
        "",
        f"Command: `{run['env']['command']}`  ",
        f"Started {run['started']}, finished {run.get('finished', '?')}"
        + (f" ({format_duration(wall)})." if wall else "."),
        "",
        # The answer first (issue 56): what led at each point, then how it was measured.
        "## Observations",
        "",
        _observations(run, several_drivers),
        "",
        "## Setup",
        "",
        _setup(run),
        "",
        "## Servers",
        "",
        _servers(run),
        "",
        "## Throughput and latency (req/s: median [min–max] over repeats; latency: repeats merged [min–max of the windows])",
        "",
        throughput,
        "",
        "## Resources (median [min–max] over repeats)",
        "",
        resources,
        "",
    ]
    parts += own_app_section(run)
    parts += exposed_metrics_section(run["points"])
    if run["config"].get("heaps"):
        parts += [f"## Heap sizes: {', '.join(run['config']['heaps'])}", "", _heaps(run, several_drivers), ""]
    if run.get("charts"):
        parts += ["## Charts", ""]
        for name in CHARTS:
            if name in run["charts"]:
                parts += [f"![{name}]({run['charts'][name]})", ""]
    parts += locks_section(run)
    stalls = _stalls(run)
    if stalls:
        parts += ["## Stalls", "", "The server stopped answering during these points. How to read a stall, and what "
                  "to do about it: docs/bring-your-own-app.md.", "", stalls]
    used_flags = sorted({f for p in run["points"] for f in p.get("flags", [])})
    if used_flags:
        parts += ["## Flags", ""] + [f"- `{f}`: {FLAG_MEANINGS[f]}" for f in used_flags] + [""]
    parts += ["## Every measured window", "", _points_table(run), "",
              "## How to read this report", "", HOW_TO_READ,
              "Files: `results.json` (everything, schema in labkit/bench/RESULTS-SCHEMA.md), `results.csv` "
              "(one row per window), `env.json`, `raw/` (each tool's output, /proc samples, JFR copies), "
              "`servers/` (server logs).", ""]
    path.write_text(links_that_resolve("\n".join(parts), path.parent))
