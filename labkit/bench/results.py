"""Point records, the figures derived from them, medians over repeats, results.json and .csv.

The schema of both files is described in RESULTS-SCHEMA.md beside this module.
"""
import csv
import json
import math
import statistics
from pathlib import Path

SCHEMA = "loomlab.bench/1"
# Driver CPU above this share of one core: the load tool, not the server, may set the pace.
CLIENT_BOUND_CORES = 0.9
# Machine CPU above this share of all cores: the point ran on a saturated machine.
SATURATED_SHARE = 0.95
# CPU taken by programs other than server and driver above this (cores): the machine was shared.
OTHER_LOAD_CORES = 0.25
RATE_REACHED_SHARE = 0.95


def little_ceiling(concurrency, max_concurrent, service_time_s, rate=None, task_pool=None):
    """Little's law: at most min(concurrency, pool size) requests in service, each taking
    service_time_s, so throughput ≤ that / service_time_s; an open-model rate caps it too.
    `task_pool` = (threads, thread-seconds per request) when requests fan out to a bounded pool:
    that pool finishes at most threads / thread-seconds requests a second."""
    if not service_time_s or service_time_s <= 0:
        return float(rate) if rate else None
    in_service = concurrency if max_concurrent is None else min(concurrency, max_concurrent)
    ceiling = in_service / service_time_s
    if task_pool and task_pool[0] and task_pool[1]:
        ceiling = min(ceiling, task_pool[0] / task_pool[1])
    return min(ceiling, float(rate)) if rate else ceiling


def derive(record, max_concurrent, service_time_s):
    """Ceiling, efficiency, requests per CPU-second and per GB of RSS for one point record."""
    load = record.get("load") or {}
    server = (record.get("resources") or {}).get("server") or {}
    pool = record.get("task_pool") or {}
    ceiling = little_ceiling(record["concurrency"], max_concurrent, service_time_s, record.get("rate"),
                             (pool.get("threads"), pool.get("seconds_per_request")) if pool else None)
    ok_rps = load.get("ok_rps")
    ok = load.get("ok")
    cpu_s = server.get("cpu_s")
    rss_gb = server.get("rss_peak_mb", 0) / 1024 if server.get("rss_peak_mb") else None
    return {
        "ceiling_rps": _round(ceiling, 1),
        "efficiency": _round(ok_rps / ceiling, 4) if ceiling and ok_rps is not None else None,
        "requests_per_cpu_s": _round(ok / cpu_s, 1) if ok is not None and cpu_s else None,
        "rps_per_gb_rss": _round(ok_rps / rss_gb, 1) if ok_rps is not None and rss_gb else None,
    }


def flags(record):
    """Short warnings a reader must see next to the point's numbers."""
    found = []
    load = record.get("load")
    resources = record.get("resources") or {}
    if record.get("failure"):
        found.append("failed")
    driver_cores = (resources.get("driver") or {}).get("cpu_cores")
    if driver_cores is not None and driver_cores > CLIENT_BOUND_CORES:
        found.append("client-bound")
    machine = resources.get("machine") or {}
    if machine.get("busy_cores") is not None and machine["busy_cores"] >= SATURATED_SHARE * machine["cpus"]:
        found.append("cpu-saturated")
    if (machine.get("other_cores") or 0) > OTHER_LOAD_CORES:
        found.append("other-load")
    if load:
        if load["errors"]["total"]:
            found.append("errors")
        if not load["complete"]:
            found.append("incomplete")
        if record.get("rate") and load["ok_rps"] < RATE_REACHED_SHARE * record["rate"]:
            found.append("rate-not-reached")
    return found


FLAG_MEANINGS = {
    "failed": "no result: the load tool failed (see `failure`)",
    "client-bound": f"the load tool used more than {CLIENT_BOUND_CORES:.0%} of a core: it may have set the pace, not the server",
    "cpu-saturated": f"the machine's CPUs were at least {SATURATED_SHARE:.0%} busy: server and load tool competed for CPU",
    "other-load": f"programs other than server and load tool used more than {OTHER_LOAD_CORES} cores: the machine was shared",
    "errors": "some requests failed (timeouts, resets, non-2xx): see the error columns",
    "incomplete": "the load tool stopped before the planned end (ab stops at its first timeout)",
    "rate-not-reached": f"under {RATE_REACHED_SHARE:.0%} of --rate was reached: latencies then include waiting for a free connection",
}

# Figures aggregated over repeats, as (name, path into the point record).
SUMMARY_METRICS = (
    ("ok_rps", ("load", "ok_rps")),
    ("efficiency", ("derived", "efficiency")),
    ("latency_p50_ms", ("load", "latency_ms", "p50")),
    ("latency_p90_ms", ("load", "latency_ms", "p90")),
    ("latency_p99_ms", ("load", "latency_ms", "p99")),
    ("latency_p999_ms", ("load", "latency_ms", "p999")),
    ("latency_max_ms", ("load", "latency_ms", "max")),
    ("errors", ("load", "errors", "total")),
    ("server_cpu_cores", ("resources", "server", "cpu_cores")),
    ("requests_per_cpu_s", ("derived", "requests_per_cpu_s")),
    ("rss_avg_mb", ("resources", "server", "rss_avg_mb")),
    ("rss_peak_mb", ("resources", "server", "rss_peak_mb")),
    ("vm_hwm_mb", ("resources", "server", "vm_hwm_mb")),
    ("rps_per_gb_rss", ("derived", "rps_per_gb_rss")),
    ("threads_max", ("resources", "server", "threads_max")),
    ("gc_pause_total_ms", ("jfr", "gc_pause_total_ms")),
    ("heap_used_max_mb", ("jfr", "heap_used_max_mb")),
    ("pinned_events", ("jfr", "pinned_events")),
    ("driver_cpu_cores", ("resources", "driver", "cpu_cores")),
    ("other_cpu_cores", ("resources", "machine", "other_cores")),
)


def value_at(record, path):
    value = record
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def group_key(record):
    return (record["mode"], record["driver"], record["concurrency"], record["sleep_min_ms"], record["sleep_max_ms"])


def summarize(records):
    """One row per (mode, driver, concurrency, sleep): median, min and max of each figure over
    the repeats that produced it, the number of repeats, and how many carried each flag."""
    groups = {}
    for record in records:
        groups.setdefault(group_key(record), []).append(record)
    rows = []
    for (mode, driver, concurrency, sleep_min, sleep_max), members in groups.items():
        row = {"mode": mode, "driver": driver, "concurrency": concurrency, "sleep_min_ms": sleep_min,
               "sleep_max_ms": sleep_max, "rate": members[0].get("rate"),
               "repeats": len(members), "measured": sum(1 for m in members if m.get("load")),
               "errors_total": sum(value_at(m, ("load", "errors", "total")) or 0 for m in members),
               "ceiling_rps": value_at(members[0], ("derived", "ceiling_rps")), "metrics": {}, "flags": {}}
        for name, path in SUMMARY_METRICS:
            values = [v for v in (value_at(m, path) for m in members) if isinstance(v, (int, float)) and not math.isnan(v)]
            if values:
                row["metrics"][name] = {"median": _round(statistics.median(values), 4),
                                        "min": _round(min(values), 4), "max": _round(max(values), 4), "n": len(values)}
        for member in members:
            for flag in member.get("flags", []):
                row["flags"][flag] = row["flags"].get(flag, 0) + 1
        rows.append(row)
    return rows


def write_json(path, run):
    Path(path).write_text(json.dumps(run, indent=2) + "\n")


# results.csv: one row per measured point, flat columns (same names as in RESULTS-SCHEMA.md).
CSV_COLUMNS = (
    ("index", ("index",)), ("id", ("id",)), ("mode", ("mode",)), ("driver", ("driver",)),
    ("concurrency", ("concurrency",)), ("sleep_min_ms", ("sleep_min_ms",)), ("sleep_max_ms", ("sleep_max_ms",)),
    ("depth", ("depth",)), ("rate", ("rate",)), ("repeat", ("repeat",)), ("path", ("path",)),
    ("timeout_s", ("timeout_s",)),
    ("responses", ("load", "responses")), ("ok", ("load", "ok")), ("duration_s", ("load", "duration_s")),
    ("ok_rps", ("load", "ok_rps")), ("rps", ("load", "rps")),
    ("err_timeout", ("load", "errors", "timeout")), ("err_connect", ("load", "errors", "connect")),
    ("err_reset", ("load", "errors", "reset")), ("err_non_2xx", ("load", "errors", "non_2xx")),
    ("err_other", ("load", "errors", "other")), ("err_total", ("load", "errors", "total")),
    ("complete", ("load", "complete")),
    ("lat_mean_ms", ("load", "latency_ms", "mean")), ("lat_p50_ms", ("load", "latency_ms", "p50")),
    ("lat_p90_ms", ("load", "latency_ms", "p90")), ("lat_p99_ms", ("load", "latency_ms", "p99")),
    ("lat_p999_ms", ("load", "latency_ms", "p999")), ("lat_max_ms", ("load", "latency_ms", "max")),
    ("latency_source", ("load", "latency_source")),
    ("server_cpu_s", ("resources", "server", "cpu_s")), ("server_cpu_cores", ("resources", "server", "cpu_cores")),
    ("server_rss_avg_mb", ("resources", "server", "rss_avg_mb")),
    ("server_rss_peak_mb", ("resources", "server", "rss_peak_mb")),
    ("server_vm_hwm_mb", ("resources", "server", "vm_hwm_mb")),
    ("server_threads_avg", ("resources", "server", "threads_avg")),
    ("server_threads_max", ("resources", "server", "threads_max")),
    ("driver_cpu_cores", ("resources", "driver", "cpu_cores")),
    ("machine_busy_cores", ("resources", "machine", "busy_cores")),
    ("machine_other_cores", ("resources", "machine", "other_cores")),
    ("gc_count", ("jfr", "gc_count")), ("gc_pause_total_ms", ("jfr", "gc_pause_total_ms")),
    ("gc_pause_max_ms", ("jfr", "gc_pause_max_ms")), ("heap_used_max_mb", ("jfr", "heap_used_max_mb")),
    ("heap_after_gc_avg_mb", ("jfr", "heap_after_gc_avg_mb")), ("pinned_events", ("jfr", "pinned_events")),
    ("ceiling_rps", ("derived", "ceiling_rps")), ("efficiency", ("derived", "efficiency")),
    ("requests_per_cpu_s", ("derived", "requests_per_cpu_s")), ("rps_per_gb_rss", ("derived", "rps_per_gb_rss")),
    ("flags", ("flags",)), ("failure", ("failure",)),
)


def write_csv(path, records):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow([name for name, _ in CSV_COLUMNS])
        for record in records:
            row = []
            for name, column_path in CSV_COLUMNS:
                value = value_at(record, column_path)
                if isinstance(value, list):
                    value = ";".join(value)
                row.append("" if value is None else value)
            writer.writerow(row)


def _round(value, digits):
    return None if value is None else round(value, digits)
