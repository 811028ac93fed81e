"""Point records, the figures derived from them, medians over repeats, and the files a run is
stored in: every schema's name, results.json / soak.json (plain, or .gz as committed) and results.csv.

The files and their schemas are described in labkit/bench/RESULTS-SCHEMA.md.
"""
import csv
import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from labkit.measure.histograms import latency_ms, median_spread, merged, spectrum_ms
from labkit.measure.steadiness import NOT_STEADY_SHARE, not_steady

# The schema names of the results files, one place for every run kind (RESULTS-SCHEMA.md).
BENCH_SCHEMA = "loomlab.bench/1"
CAPACITY_SCHEMA = "loomlab.capacity/1"
SOAK_SCHEMA = "loomlab.soak/1"
# The file each run kind stores its record in, inside its results folder.
RESULTS_JSON = "results.json"   # ./lab bench, ./lab capacity
SOAK_JSON = "soak.json"         # ./lab soak
# Driver CPU above this share of one core, or of its cgroup's CPU quota when that is less: the load
# tool, not the server, may set the pace.
CLIENT_BOUND_CORES = 0.9
# Machine CPU above this share of all cores: the point ran on a saturated machine.
SATURATED_SHARE = 0.95
# CPU taken by programs other than server and driver above this (cores): the machine was shared.
OTHER_LOAD_CORES = 0.25
# The hypervisor ran other guests on our CPUs (steal in /proc/stat) for more than this many cores over
# the window, or for more than this share of the CPUs the server may run on: its figures are low.
HOST_STEAL_CORES = 0.1
HOST_STEAL_SHARE = 0.1
RATE_REACHED_SHARE = 0.95
# An open-model tool that sent a request this late against its schedule was itself short of CPU.
DRIVER_BEHIND_MS = 50


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
    rss_gb = server.get("rss_peak_mb", 0) / 1024 if server.get("rss_peak_mb") else None
    return {
        "ceiling_rps": _round(ceiling, 1),
        "efficiency": _round(ok_rps / ceiling, 4) if ceiling and ok_rps is not None else None,
        # Both rates over the measured window (2xx ÷ window, CPU ÷ the samples' span in it), so the
        # request count and the CPU time cover the same time.
        "requests_per_cpu_s": _round(ok_rps / server["cpu_cores"], 1) if ok_rps is not None and server.get("cpu_cores") else None,
        "rps_per_gb_rss": _round(ok_rps / rss_gb, 1) if ok_rps is not None and rss_gb else None,
    }


def driver_cores_allowed(driver):
    """The CPU the load tool could use, in cores: one, or its cgroup's quota when less (quota_cores)."""
    quota = driver.get("quota_cores")
    return min(1.0, quota) if quota else 1.0


def flags(record):
    """Short warnings a reader must see next to the point's numbers."""
    found = []
    load = record.get("load")
    resources = record.get("resources") or {}
    if record.get("failure"):
        found.append("failed")
    if (record.get("watchdog") or {}).get("stall"):
        found.append("stalled")
    driver = resources.get("driver") or {}
    if driver.get("cpu_cores") is not None and driver["cpu_cores"] > CLIENT_BOUND_CORES * driver_cores_allowed(driver):
        found.append("client-bound")
    machine = resources.get("machine") or {}
    if machine.get("busy_cores") is not None and (machine["busy_cores"] + (machine.get("steal_cores") or 0)
                                                   >= SATURATED_SHARE * machine["cpus"]):
        found.append("cpu-saturated")
    if (machine.get("other_cores") or 0) > OTHER_LOAD_CORES:
        found.append("other-load")
    if ((machine.get("steal_cores") or 0) > HOST_STEAL_CORES
            or (machine.get("server_cpus_steal_share") or 0) > HOST_STEAL_SHARE):
        found.append("host-steal")
    if load:
        if load["errors"]["total"]:
            found.append("errors")
        if not load["complete"]:
            found.append("incomplete")
        if record.get("rate") and load["ok_rps"] < RATE_REACHED_SHARE * record["rate"]:
            found.append("rate-not-reached")
        if (load.get("schedule_lag_max_ms") or 0) > DRIVER_BEHIND_MS:
            found.append("driver-behind")
    if not_steady((record.get("steadiness") or {}).get("per_second_rps")):
        found.append("not-steady")
    if any(host.get("lost") for host in record.get("load_hosts") or ()):
        found.append("load-host-lost")
    return found


FLAG_MEANINGS = {
    "load-host-lost": "a load host's vegeta failed or left no results (see `load_hosts`): the requests it should "
                      "have sent are missing, so the point is incomplete, never a smaller rate passed off as the one asked",
    "failed": "no result: the load tool failed (see `failure`)",
    "stalled": "the server stopped answering: the watchdog's probe (a request on a connection of its own, every "
               "second) got no answer in time; its thread dump was saved and summarised (see `watchdog.stall` and the "
               "report's Stalls section), the server was stopped and the session's later points were not run",
    "client-bound": f"the load tool used more than {CLIENT_BOUND_CORES:.0%} of a core: it may have set the pace, not the server",
    "cpu-saturated": f"the machine's CPUs (all programs together, plus the time the hypervisor took) were at least "
                     f"{SATURATED_SHARE:.0%} busy: the server may have waited for CPU",
    "other-load": f"programs other than server and load tool used more than {OTHER_LOAD_CORES} cores: the machine was shared",
    "host-steal": f"the hypervisor took the machine's CPUs for other guests (steal) for more than {HOST_STEAL_CORES} "
                  f"cores, or more than {HOST_STEAL_SHARE:.0%} of the server's CPUs' time: the server had work and no "
                  "CPU, so its throughput and latency are worse than this machine gives when the host is quiet",
    "errors": "some requests failed (timeouts, resets, non-2xx): see the error columns",
    "incomplete": "the load tool did not cover the planned window: it stopped before the end (ab stops at its "
                  "first timeout) or began after the window opened (vegeta's first request due late)",
    "rate-not-reached": f"under {RATE_REACHED_SHARE:.0%} of the rate was answered with 2xx in the window",
    "driver-behind": f"the open-model load tool sent some request more than {DRIVER_BEHIND_MS} ms after it was due "
                     "(it was short of CPU); latency from the intended start counts that delay, so the window "
                     "measures the machine as much as the server",
    "not-steady": f"the window's per-second 2xx throughput varied or trended by more than {NOT_STEADY_SHARE:.0%} "
                  "(see `steadiness`): a warm-up still going on, a GC storm or a growing queue",
    "few-gcs": "./lab capacity: the window met the goal with fewer young collections than --min-young-gcs even at "
               "--max-window; it counts, but its percentile may leave out pauses of the steady state",
    "gcs-unknown": "./lab capacity: the window's young collections could not be counted (JFR unavailable), so it "
                   "counts on the goal alone, without the young-collection rule",
    "unresponsive": "./lab capacity: after this window, which had failed requests, the server's process still ran "
                    "but did not answer a probe request on a connection of its own (refused, reset or no answer "
                    "in time): its search or confirmation round ended here (see `server_unresponsive`)",
    "collapsed": "./lab capacity: requests failed in this window or its percentile reached several times the goal "
                 "(capacity/recovery.py); before the next window the lab waited for the server to answer at "
                 "its idle latency again, and restarted it when it did not (see `recovery`: recovered, restarted "
                 "or not-recovered)",
    "not-recovered": "./lab capacity: after this collapse the server (restarted once already in this search or round, "
                     "or one the lab did not start: --url) did not answer at its idle latency again: the search or "
                     "round ended here, no rate judged on it",
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
    ("monitor_enter_count", ("jfr", "locks", "monitor_enter", "count")),
    ("monitor_enter_total_ms", ("jfr", "locks", "monitor_enter", "total_ms")),
    ("park_count", ("jfr", "locks", "park", "count")),
    ("park_total_ms", ("jfr", "locks", "park", "total_ms")),
    ("driver_cpu_cores", ("resources", "driver", "cpu_cores")),
    ("other_cpu_cores", ("resources", "machine", "other_cores")),
    ("steal_cpu_cores", ("resources", "machine", "steal_cores")),
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
            spread = median_spread([value_at(m, path) for m in members])
            if spread:
                row["metrics"][name] = spread
        _merge_latency(row, members)
        for member in members:
            for flag in member.get("flags", []):
                row["flags"][flag] = row["flags"].get(flag, 0) + 1
        rows.append(row)
    return rows


LATENCY_METRICS = {"latency_p50_ms": "p50", "latency_p90_ms": "p90", "latency_p99_ms": "p99",
                   "latency_p999_ms": "p999", "latency_max_ms": "max"}


def _merge_latency(row, members):
    """Latency over repeats is never a median or mean of percentiles: with every window's histogram
    the repeats are merged (p99 of all their requests, the true max); when a tool gave only its own
    percentiles (bombardier), the worst window's. `value` holds it, min/max the single windows'."""
    measured = [m for m in members if value_at(m, ("load", "latency_ms"))]
    if not measured:
        return
    encoded = [value_at(m, ("load", "latency_hdr")) for m in measured]
    histogram = merged(encoded) if all(encoded) else None
    latency = latency_ms(histogram)
    if latency:
        row["spectrum_ms"] = spectrum_ms(histogram)
    how = "merged" if latency else "worst-window"
    row["latency_how"] = how
    for name, key in LATENCY_METRICS.items():
        metric = row["metrics"].get(name)
        if not metric:
            continue
        metric.pop("median", None)
        metric.pop("ci95", None)
        metric["value"] = latency[key] if latency else metric["max"]
        metric["how"] = how


def write_json(path, run):
    Path(path).write_text(json.dumps(run, indent=2) + "\n")


def read_json(path):
    """A results file as written (results.json) or as committed under docs/results/ (results.json.gz)."""
    path = Path(path)
    raw = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
    return json.loads(raw)


def stored_file(folder, *names):
    """The first of `names` the folder holds, as a run writes it (folder/name) or as committed under
    docs/results/ (folder/name.gz); None when it holds none."""
    for name in names:
        for candidate in (name, name + ".gz"):
            path = Path(folder) / candidate
            if path.is_file():
                return path
    return None


@dataclass(frozen=True)
class StoredRun:
    """A run's record as its results folder holds it, and the file it came from."""
    path: Path
    run: dict

    @classmethod
    def read(cls, path):
        """Raises ValueError, OSError or EOFError when the file is not (gzipped) JSON."""
        return cls(Path(path), read_json(path))

    @property
    def name(self):
        """The file's name as a run writes it (results.json, soak.json), whether or not it is compressed."""
        return self.path.name.removesuffix(".gz")

    @property
    def compressed(self):
        return self.path.name.endswith(".gz")

    @property
    def schema(self):
        # soak.json carried no schema before SOAK_SCHEMA was named: its file name says what it is.
        if "schema" not in self.run and self.name == SOAK_JSON:
            return SOAK_SCHEMA
        return self.run.get("schema")


def portable(value, out_dir, root=None):
    """`value` (JSON-like) with this machine's paths made relative: inside the results folder to
    the folder, inside the repository to the repository root. Committed results then name no
    absolute path of the machine that produced them."""
    from labkit import ROOT
    root = str(root or ROOT)
    out_dir = str(out_dir)
    if isinstance(value, str):
        for base in (out_dir, root):
            value = value.replace(base + "/", "").replace(base, ".")
        return value
    if isinstance(value, dict):
        return {k: portable(v, out_dir, root) for k, v in value.items()}
    if isinstance(value, list):
        return [portable(v, out_dir, root) for v in value]
    return value


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
    ("machine_steal_cores", ("resources", "machine", "steal_cores")),
    ("server_cpus_steal_share", ("resources", "machine", "server_cpus_steal_share")),
    ("gc_count", ("jfr", "gc_count")), ("gc_pause_total_ms", ("jfr", "gc_pause_total_ms")),
    ("gc_pause_max_ms", ("jfr", "gc_pause_max_ms")), ("heap_used_max_mb", ("jfr", "heap_used_max_mb")),
    ("heap_after_gc_avg_mb", ("jfr", "heap_after_gc_avg_mb")), ("pinned_events", ("jfr", "pinned_events")),
    ("monitor_enter_count", ("jfr", "locks", "monitor_enter", "count")),
    ("monitor_enter_total_ms", ("jfr", "locks", "monitor_enter", "total_ms")),
    ("park_count", ("jfr", "locks", "park", "count")), ("park_total_ms", ("jfr", "locks", "park", "total_ms")),
    ("ceiling_rps", ("derived", "ceiling_rps")), ("efficiency", ("derived", "efficiency")),
    ("requests_per_cpu_s", ("derived", "requests_per_cpu_s")), ("rps_per_gb_rss", ("derived", "rps_per_gb_rss")),
    ("flags", ("flags",)), ("failure", ("failure",)),
)


def write_csv(path, records, columns=CSV_COLUMNS):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow([name for name, _ in columns])
        for record in records:
            row = []
            for name, column_path in columns:
                value = value_at(record, column_path)
                if isinstance(value, list):
                    value = ";".join(value)
                row.append("" if value is None else value)
            writer.writerow(row)


def _round(value, digits):
    return None if value is None else round(value, digits)
