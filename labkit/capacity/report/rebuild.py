"""The files a capacity run derives from its point records, in their one order: the summary (and the
table per goal), results.csv, the charts, results.json, report.md, report.html. CapacityRecorder.finish
writes them at the end of a run and `./lab report DIR` writes them again from results.json alone."""
import json
from pathlib import Path

from labkit.measure.report_files import links_that_resolve
from labkit.measure.results import stored_file, write_csv
from labkit.measure.sampler import cpu_full, read_samples_csv
from labkit.capacity.by_goal import by_goal, run_goals
from labkit.capacity.summary import summarize
from labkit.capacity.report.charts import write_charts
from labkit.capacity.report.html_report import write_html
from labkit.capacity.report.markdown import report

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


def full_cpu_from_samples(run, out_dir):
    """Gives each window that ran before its full-CPU stretches were recorded the figure from its /proc
    samples (raw/ of a run, samples/ as committed), in memory: `./lab report` names them for older runs."""
    for point in run["points"]:
        resources = point.get("resources") or {}
        server, span = resources.get("server"), resources.get("window_t_s")
        samples = (point.get("files") or {}).get("samples")
        if not server or "cpu_full" in server or not span or not samples:
            continue
        name = Path(samples).name
        path = stored_file(Path(out_dir) / "raw", name) or stored_file(Path(out_dir) / "samples", name)
        if path is None:
            continue
        inside = [s for s in read_samples_csv(path) if span[0] <= s.t <= span[1]]
        full = cpu_full(inside) if len(inside) >= 2 else None
        if full is not None:
            server["cpu_full"] = full


def write_all(run, out_dir, goals=None, record=True):
    """`goals` (./lab report --slo): the goals of the capacity-per-goal table, else the run's own.
    `record` False (./lab report): results.json, its input, stays as it is; the derived fields (summary,
    the table per goal, the charts' names) are computed for the report only."""
    run["summary"] = summarize(run)
    goals = run_goals(run, goals)
    if goals:
        run["by_goal"] = by_goal(run, goals)
    write_csv(out_dir / "results.csv", run["points"], CSV_COLUMNS)
    run["charts"] = write_charts(run, out_dir)
    if record:
        (out_dir / "results.json").write_text(json.dumps(run, indent=2) + "\n")
    (out_dir / "report.md").write_text(links_that_resolve(report(run), out_dir))
    write_html(run, out_dir)
    return run
