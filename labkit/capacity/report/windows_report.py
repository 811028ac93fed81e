"""report.md's every-window table (one row per window, in the order measured), its section on the
windows measured again, longer, for too few young collections, and the one on collapses: whether the
server came back at rest or was restarted before the next window."""
from labkit.ground.formatting import number
from labkit.capacity.points import gc_pauses_text
from labkit.capacity.report.limits_report import window_limit_cell


STEPS_HEADERS = ["#", "target", "sleep", "phase", "step", "offered req/s", "window s", "2xx req/s", "p50 ms",
                 "p99 ms", "max ms", "errors", "server cores", "CPU ms/req", "RSS MB",
                 "GC pauses; longest VM operation", "counts as met", "limit", "flags", "histogram"]


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
                     gc_pauses_text(p.get("jfr")), counted_text(p["capacity"]), window_limit_cell(run, p),
                     ", ".join(p.get("flags", [])),
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


def rerun_section(run):
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


RECOVERY_OUTCOMES = {"recovered": "back at rest, measured on",
                     "restarted": "not back at rest: the next window ran on a fresh server",
                     "not-recovered": "not back at rest, on a server restarted once already or one the lab did "
                                      "not start (--url): its search or round ended there"}


def collapse_section(run):
    """Each window that collapsed (recovery.py) and what came after it; [] when none did (and for runs
    made before the rule, whose records have no `recovery`)."""
    lines = []
    percentile = run["config"]["goal"]["percentile"]
    for p in run["points"]:
        recovery = p.get("recovery")
        if not recovery:
            continue
        load = p.get("load") or {}
        round_text = f" r{p['repeat']}" if p.get("repeat") else ""
        probes = (f"median {number(recovery['median_ms'], 1)} ms" if recovery.get("median_ms") is not None
                  else "probes " + ", ".join(map(str, recovery["probes_ms"])))
        lines.append(f"- {p['mode']}, sleep {p['sleep_max_ms']} ms, {p['phase']}{round_text} step {p['step']}, "
                     f"{number(p['rate'])} req/s ({number((load.get('errors') or {}).get('total'))} failed, "
                     f"{percentile} {number((load.get('latency_ms') or {}).get(percentile), 1)} ms): "
                     f"{RECOVERY_OUTCOMES[recovery['outcome']]}; after {number(recovery['waited_s'], 1)} s the "
                     f"probes' {probes} against {number(recovery['within_ms'], 1)} ms at most (idle "
                     f"{number(recovery['idle_ms'], 1)} ms)")
    if not lines:
        return []
    return ["## After a collapse", "",
            "A window with failed requests or a percentile at several times the goal is followed by probes of the "
            "server's idle latency (its answer time at rest after the warm-up) until it is back, or by a fresh "
            "server (labkit/capacity/recovery.py): no rate is judged on a server an earlier window broke.", "",
            *lines, ""]
