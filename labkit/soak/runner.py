"""./lab soak: does a server survive overload? Each target is loaded at FACTOR x its capacity for
--load seconds, then left idle for --idle seconds; the checks say whether it crashed, ran out of
memory, how many requests failed (by kind: timeouts are counted, not hidden), whether its OS
threads and RSS came back near their idle values during the idle phase, and whether it answers a
fresh request within a second afterwards.

The load is vegeta, the lab's open model: requests are due at a fixed rate whatever the server
answers, so an overloaded server faces the growing queue it would face in production (a closed-model
tool would slow down with it and hide the overload). Latency runs from each request's intended
start; requests vegeta could not send on schedule are counted as failed (`other`), not dropped.
"""
import gzip
import http.client
import json
import shlex
import statistics
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from labkit.load.tools import DRIVERS, MAX_CONNECTIONS_OPEN_MODEL, DriverOutputError, LoadSpec
from labkit.measure.histograms import latency_ms, median_spread, merged
from labkit.measure.plan import rotated
from labkit.measure.results import portable, read_json, write_json
from labkit.measure.session import keep_log
from labkit.measure.sampler import (
    WindowSampler,
    process_running,
    read_samples_csv,
    summarize_window,
    write_samples_csv,
)
from labkit.ground.errors import LabError, UsageError
from labkit.ground.proc import tcp_counter
from labkit.ground.process import spawn, stop

DRIVER = "vegeta"
DEFAULT_PORT = 8080
# "Back near idle": within this share of the idle value, or this absolute margin, whichever is larger.
NEAR_IDLE_SHARE = 0.10
NEAR_IDLE_THREADS = 10
NEAR_IDLE_RSS_MB = 64
FRESH_REQUEST_LIMIT_S = 1.0
SETTLE_S = 5  # quiet seconds after the warm-up whose samples define "idle"
OOM_MARKER = "OutOfMemoryError"


@dataclass(frozen=True)
class SoakConfig:
    modes: tuple
    capacity: dict          # mode -> requests per second it sustained
    factor: float = 2.0
    load_s: int = 60
    idle_s: int = 60
    warmup_s: int = 20
    sleep_ms: int = 100
    timeout_s: float = 10.0
    port: int = DEFAULT_PORT
    jvm_options: tuple = ()
    repeats: int = 3
    jvm_defaults: bool = True
    cpus: object = None            # CpuPinning (--cpus): server and load tool on their own CPUs
    max_connections: int = None    # the load tool's connection bound; None: the driver's default

    def rate(self, mode):
        return max(1, round(self.capacity[mode] * self.factor))

    @property
    def path(self):
        return f"/api/sleep?ms={self.sleep_ms}"

    def to_dict(self):
        return {"modes": list(self.modes), "capacity_rps": self.capacity, "factor": self.factor,
                "load_s": self.load_s, "idle_s": self.idle_s, "warmup_s": self.warmup_s,
                "sleep_ms": self.sleep_ms, "timeout_s": self.timeout_s,
                "port": self.port, "jvm_options": list(self.jvm_options), "driver": DRIVER, "repeats": self.repeats,
                "jvm_defaults": self.jvm_defaults, "cpus": self.cpus.to_dict() if self.cpus else None,
                "max_connections": self.max_connections or MAX_CONNECTIONS_OPEN_MODEL,
                "near_idle": {"share": NEAR_IDLE_SHARE, "threads": NEAR_IDLE_THREADS, "rss_mb": NEAR_IDLE_RSS_MB},
                "fresh_request_limit_s": FRESH_REQUEST_LIMIT_S}


# ---- capacity -------------------------------------------------------------------------------------

def parse_capacity(text, modes, sleep_ms=None):
    """--capacity: N (req/s, every mode), MODE=N,MODE=N, or a results.json of ./lab bench or ./lab
    capacity (per mode: the capacity found, else the highest 2xx rate measured; only figures measured
    with the same sleep when `sleep_ms` is given: capacity depends on it)."""
    path = Path(text)
    if text.endswith((".json", ".json.gz")):
        if not path.is_file():
            raise UsageError(f"--capacity {text}: no such file")
        try:
            capacity = capacity_from_results(read_json(path), sleep_ms)
        except (ValueError, OSError) as e:
            raise UsageError(f"--capacity {text}: not a results file ({e})") from None
    elif "=" in text:
        capacity = {}
        for item in text.split(","):
            mode, _, value = item.partition("=")
            capacity[mode.strip()] = _rate(value, f"--capacity {item}")
    else:
        value = _rate(text, f"--capacity {text}")
        capacity = {mode: value for mode in modes}
    missing = [m for m in modes if m not in capacity]
    if missing:
        at = f" at a {sleep_ms} ms sleep" if sleep_ms is not None and text.endswith((".json", ".json.gz")) else ""
        raise UsageError(f"--capacity gives no rate for {', '.join(missing)}{at} (has: {', '.join(capacity) or 'none'})")
    return {m: capacity[m] for m in modes}


def _rate(text, what):
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{what}: a rate in requests per second, e.g. 1500") from None
    if not value > 0:
        raise UsageError(f"{what}: the rate must be above 0")
    return value


def capacity_from_results(run, sleep_ms=None):
    """mode -> req/s from a results.json: a capacity run's summary, else the best 2xx rate of a bench
    (the median of a point's repeats)."""
    def same_sleep(record):
        return sleep_ms is None or (record.get("sleep_min_ms"), record.get("sleep_max_ms")) == (sleep_ms, sleep_ms)
    found = {}
    for row in run.get("summary") or []:
        value = row.get("capacity_rps") if isinstance(row, dict) else None
        if isinstance(value, dict):
            value = value.get("median")
        if value and same_sleep(row):
            found[row["mode"]] = max(found.get(row["mode"], 0), float(value))
    if found:
        return found
    # A bench: per target, its best point, each point the median of its repeats (one lucky repeat
    # does not set the load). Targets are named without their --heap suffix, so a bench that ran a
    # target at several heaps gives no single rate for it.
    repeats, heaps = {}, {}
    for point in run.get("points") or []:
        ok_rps = (point.get("load") or {}).get("ok_rps")
        if ok_rps and same_sleep(point):
            target = point.get("target") or point["mode"]
            heaps.setdefault(target, set()).add(point.get("heap"))
            key = (target, point.get("heap"), point.get("driver"), point.get("scenario"), point.get("concurrency"),
                   point.get("rate"))
            repeats.setdefault(key, []).append(float(ok_rps))
    for (target, *_), rates in repeats.items():
        if len(heaps[target]) == 1:
            found[target] = max(found.get(target, 0), statistics.median(rates))
    return found


# ---- one target -----------------------------------------------------------------------------------

def soak_target(target, config, executable, out_dir, repeat=1, log=print):
    """Starts the target, warms it, measures idle, overloads, idles, checks; returns its record.
    The server is stopped whatever happens (Ctrl-C included)."""
    name = target.name
    mode = f"{name}.r{repeat}"  # file names of this round's raw data and server log
    raw = out_dir / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    rate = config.rate(name)
    record = {"mode": name, "repeat": repeat, "capacity_rps": config.capacity[name], "rate": rate}
    with (config.cpus.server_affinity() if config.cpus else nullcontext()):
        server = target.start(config.port, list(config.jvm_options), jvm_defaults=config.jvm_defaults)
    try:
        record["pid"] = server.pid
        url = server.base_url + config.path
        if config.warmup_s:
            log(f"{mode}: warm-up {config.warmup_s} s at {max(1, rate // 4)} req/s (not measured)")
            _load(executable, url, config, max(1, rate // 4), config.warmup_s, raw / f"{mode}.warmup", None)
        sampler = WindowSampler(server.pid, interval=0.5).start()
        time.sleep(SETTLE_S)
        idle_samples = list(sampler.samples)
        log(f"{mode}: {config.load_s} s at {rate} req/s ({config.factor:g} x {config.capacity[name]:g}), "
            f"open model, then {config.idle_s} s idle")
        load_began = sampler.samples[-1].t if sampler.samples else 0.0
        overflows_before = tcp_counter("ListenOverflows")
        load = _load(executable, url, config, rate, config.load_s, raw / f"{mode}.load", sampler)
        overflows_after = tcp_counter("ListenOverflows")
        # Connections the kernel dropped because the server's accept queue was full (the whole machine's count,
        # but nothing else listens here during a soak): the client retries them after 1, 3, 7 s...
        load["listen_overflows"] = (overflows_after - overflows_before
                                    if None not in (overflows_before, overflows_after) else None)
        load_ended = sampler.samples[-1].t if sampler.samples else load_began
        alive_after_load = process_running(server.pid)
        if alive_after_load:
            _sleep_while_alive(server.pid, config.idle_s)
        samples = sampler.stop()
        write_samples_csv(raw / f"{mode}.samples.csv", samples)
        record["load"] = load
        record["resources"] = resource_checks(idle_samples, samples, load_began, load_ended)
        record["alive"] = process_running(server.pid)
        record["fresh_request"] = fresh_request(server.base_url, "/api/sleep?ms=0") if record["alive"] else None
        record["log"] = keep_log(server, out_dir, mode)
        record["oom"] = _log_mentions(out_dir / record["log"], OOM_MARKER) if record["log"] else None
    finally:
        server.stop()
    record["checks"] = checks(record)
    return record


def _load(executable, url, config, rate, seconds, prefix, sampler):
    spec = LoadSpec(url=url, concurrency=1, duration_s=seconds, timeout_s=config.timeout_s, rate=rate,
                    side_file_prefix=prefix, max_connections=config.max_connections)
    driver = DRIVERS[DRIVER]
    command = (config.cpus.driver_prefix() if config.cpus else []) + driver.command(spec, executable)
    output_path = Path(f"{prefix}.out")
    began = time.monotonic()
    process = spawn(command, output_path)
    try:
        if sampler:
            sampler.attach_driver(process.pid)
        limit = seconds + config.timeout_s + 30
        while process.poll() is None and time.monotonic() - began < limit:
            time.sleep(0.2)
        hung = process.poll() is None
    finally:
        stop(process, grace_seconds=5)
        if sampler:
            sampler.attach_driver(None)
    result = {"command": shlex.join(command), "asked_rps": rate, "seconds": seconds}
    try:
        parsed = driver.parse(output_path.read_text(errors="replace"), spec, wall_s=time.monotonic() - began)
    except (DriverOutputError, ValueError, KeyError, OSError) as e:
        result["failure"] = f"{DRIVER} exit {process.returncode}: {e}"
        return result
    result.update(parsed.to_dict())
    # vegeta's binary results hold every request (tens of MB at these rates); the record keeps the counts,
    # percentiles and the merged histogram (latency_hdr).
    driver.results_file(spec).unlink(missing_ok=True)
    sent = parsed.responses + parsed.errors.total - parsed.errors.non_2xx - parsed.unsent
    result["sent_rps"] = round(sent / seconds, 1)
    if hung:
        result["failure"] = f"{DRIVER} did not end within {seconds + config.timeout_s + 30:.0f} s"
    return result


def _sleep_while_alive(pid, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process_running(pid):
        time.sleep(0.5)


def resource_checks(idle_samples, samples, load_began, load_ended):
    """Idle, peak and final OS threads and RSS, and when (seconds after the load) each came back
    near its idle value for good (None: not within the idle phase)."""
    idle = [s.server for s in idle_samples if s.server]
    during = [s for s in samples if s.server and load_began <= s.t <= load_ended]
    after = [s for s in samples if s.server and s.t > load_ended]
    if not idle or not after:
        return None
    idle_threads = sorted(r.threads for r in idle)[len(idle) // 2]
    idle_rss_mb = sorted(r.rss_kb for r in idle)[len(idle) // 2] / 1024
    result = {"threads": {"idle": idle_threads, "peak": max((s.server.threads for s in during), default=None),
                          "end": after[-1].server.threads},
              "rss_mb": {"idle": round(idle_rss_mb, 1),
                         "peak": round(max((s.server.rss_kb for s in during), default=0) / 1024, 1),
                         "end": round(after[-1].server.rss_kb / 1024, 1)}}
    thread_limit = idle_threads + max(NEAR_IDLE_THREADS, NEAR_IDLE_SHARE * idle_threads)
    rss_limit_mb = idle_rss_mb + max(NEAR_IDLE_RSS_MB, NEAR_IDLE_SHARE * idle_rss_mb)
    result["threads"]["back_after_s"] = back_near_idle([(s.t - load_ended, s.server.threads) for s in after], thread_limit)
    result["rss_mb"]["back_after_s"] = back_near_idle([(s.t - load_ended, s.server.rss_kb / 1024) for s in after],
                                                      rss_limit_mb)
    result["threads"]["limit"] = round(thread_limit, 1)
    result["rss_mb"]["limit"] = round(rss_limit_mb, 1)
    # The two share the machine's cores: what the load tool burns, the server could not have.
    window = summarize_window(samples, load_began, load_ended) or {}
    result["cpu_cores"] = {"server": (window.get("server") or {}).get("cpu_cores"),
                           "load_tool": (window.get("driver") or {}).get("cpu_cores")}
    result["load_t_s"] = [round(load_began, 3), round(load_ended, 3)]
    return result


def load_window(samples):
    """(first, last) sample time with the load tool attached: the load phase of a samples file."""
    attached = [s.t for s in samples if s.driver]
    return (attached[0], attached[-1]) if attached else None


def back_near_idle(series, limit):
    """The time of the first sample from which every later one stays at or below `limit`; None if
    the last one is still above."""
    back = None
    for t, value in series:
        if value <= limit:
            if back is None:
                back = round(max(t, 0.0), 1)
        else:
            back = None
    return back


def fresh_request(base_url, path):
    """One new connection and request after the idle phase: status and seconds."""
    parts = urlsplit(base_url)
    began = time.monotonic()
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return {"status": response.status, "seconds": round(time.monotonic() - began, 3)}
    except OSError as e:
        return {"status": None, "seconds": round(time.monotonic() - began, 3), "error": str(e)}
    finally:
        connection.close()


def _log_mentions(path, text):
    with open(path, "rb") as f:
        return text.encode() in f.read()


def checks(record):
    """Each check: True (passed), False (failed) or None (could not be measured)."""
    load = record.get("load") or {}
    resources = record.get("resources") or {}
    fresh = record.get("fresh_request") or {}
    return {
        "no_crash": record.get("alive"),
        "no_oom": None if record.get("oom") is None else not record["oom"],
        "load_measured": "failure" not in load if load else False,
        "threads_back": None if not resources else resources["threads"]["back_after_s"] is not None,
        "rss_back": None if not resources else resources["rss_mb"]["back_after_s"] is not None,
        "fresh_request_within_1s": (bool(fresh) and fresh.get("status") == 200
                                    and fresh["seconds"] <= FRESH_REQUEST_LIMIT_S),
    }


# ---- the run --------------------------------------------------------------------------------------

def run_soak(config, targets, executable, out_dir, env, log=print):
    """Every target in turn; soak.json and report.md are rewritten after each, so Ctrl-C keeps what finished."""
    run = {"config": config.to_dict(), "env": env, "state": "running", "targets": [], "order": []}
    try:
        for repeat in range(1, config.repeats + 1):
            # No mode always first, or always right after the same other one.
            order = rotated(config.modes, repeat - 1)
            run["order"].append(list(order))
            for name in order:
                run["targets"].append(soak_target(targets[name], config, executable, out_dir, repeat, log))
                _write(run, out_dir)
        run["state"] = "complete"
    except KeyboardInterrupt:
        run["state"] = "interrupted"
        raise
    except LabError as e:
        run["state"], run["error"] = "failed", str(e).splitlines()[0]
        raise
    finally:
        _write(run, out_dir)
    return run


def rebuild(out_dir):
    """Rewrites soak.json's resource figures and report.md from the raw samples (./lab report DIR)."""
    out_dir = Path(out_dir)
    # As written by a run, or compressed as committed under docs/results/.
    compressed = not (out_dir / "soak.json").is_file()
    run = read_json(out_dir / ("soak.json.gz" if compressed else "soak.json"))
    for record in run["targets"]:
        names = (f"{record['mode']}.r{record.get('repeat', 1)}.samples.csv", f"{record['mode']}.samples.csv")
        found = [out_dir / "raw" / (name + gz) for name in names for gz in ("", ".gz") if (out_dir / "raw" / (name + gz)).is_file()]
        if not found:
            continue
        samples = read_samples_csv(found[0])
        window = tuple((record.get("resources") or {}).get("load_t_s") or ()) or load_window(samples)
        if window:
            began, ended = window
            record["resources"] = resource_checks([s for s in samples if s.t <= began], samples, began, ended)
            record["checks"] = checks(record)
    _write(run, out_dir, compressed)
    return run


def _write(run, out_dir, compressed=False):
    # Paths relative to the folder or the repository: a committed soak names none of this machine's.
    run = portable(run, Path(out_dir).resolve())
    if compressed:
        (out_dir / "soak.json.gz").write_bytes(gzip.compress((json.dumps(run, indent=2) + "\n").encode(), mtime=0))
    else:
        write_json(out_dir / "soak.json", run)
    (out_dir / "report.md").write_text(report(run))


def _number(value):
    return f"{value:,.1f}" if isinstance(value, (int, float)) else "n/a"


def _problem(check_passed):
    """A crash/OOM column: "no" when the check passed, "**YES**" when it failed."""
    return {True: "no", False: "**YES**", None: "n/a"}[check_passed]


def summarize(run):
    """Per target, over its rounds: medians with their range, latency from the rounds' merged
    histogram (never averaged percentiles), and how many rounds failed each check."""
    rows = []
    for mode in run["config"]["modes"]:
        rounds = [t for t in run["targets"] if t["mode"] == mode]
        if not rounds:
            continue
        loads = [t.get("load") or {} for t in rounds]
        resources = [t.get("resources") or {} for t in rounds]

        def back_after(kind):
            return [(r.get(kind) or {}).get("back_after_s") for r in resources if r.get(kind)]
        fresh = [t.get("fresh_request") or {} for t in rounds]
        rows.append({
            "mode": mode, "rounds": len(rounds), "rate": rounds[0]["rate"],
            "sent_rps": median_spread([l.get("sent_rps") for l in loads]),
            "ok_rps": median_spread([l.get("ok_rps") for l in loads]),
            "failed": median_spread([(l.get("errors") or {}).get("total") for l in loads if l.get("errors")]),
            "server_cores": median_spread([(r.get("cpu_cores") or {}).get("server") for r in resources]),
            "load_tool_cores": median_spread([(r.get("cpu_cores") or {}).get("load_tool") for r in resources]),
            "latency_ms": latency_ms(merged(l.get("latency_hdr") for l in loads)),
            "threads_back_after_s": median_spread([b for b in back_after("threads") if b is not None]),
            "threads_not_back": sum(b is None for b in back_after("threads")),
            "rss_back_after_s": median_spread([b for b in back_after("rss_mb") if b is not None]),
            "rss_not_back": sum(b is None for b in back_after("rss_mb")),
            "fresh_worst_s": max((f["seconds"] for f in fresh if f.get("status") == 200), default=None),
            "fresh_failed": sum(f.get("status") != 200 for f in fresh),
            "crashed": sum((t.get("checks") or {}).get("no_crash") is False for t in rounds),
            "oom": sum((t.get("checks") or {}).get("no_oom") is False for t in rounds),
        })
    return rows


def _spread(figure, digits=1):
    if not figure:
        return "n/a"
    return f"{figure['median']:,.{digits}f} [{figure['min']:,.{digits}f}–{figure['max']:,.{digits}f}]"


def summary_table(run):
    rows = summarize(run)
    if not rows:
        return []
    lines = ["## Over the rounds", "",
             "Median [min–max] over the rounds; latency from the rounds' merged histogram; a check's count is the "
             "rounds that failed it.", "",
             "| target | rounds | asked req/s | sent req/s | 2xx req/s | failed requests | latency p50 / p99 / max ms "
             "| server cores | load tool cores | threads back after s (not back) | RSS back after s (not back) "
             "| fresh request: slowest ms (failed) | crashed | OOM |",
             "|---|---:|---:|---:|---:|---:|---|---|---|---|---|---|---:|---:|"]
    for row in rows:
        latency = row["latency_ms"]
        latency_text = " / ".join(_number(latency.get(k)) for k in ("p50", "p99", "max")) if latency else "n/a"
        fresh = f"{row['fresh_worst_s'] * 1000:.0f}" if row["fresh_worst_s"] is not None else "n/a"
        lines.append(f"| {row['mode']} | {row['rounds']} | {row['rate']:,} | {_spread(row['sent_rps'])} "
                     f"| {_spread(row['ok_rps'])} | {_spread(row['failed'], 0)} | {latency_text} "
                     f"| {_spread(row['server_cores'], 2)} | {_spread(row['load_tool_cores'], 2)} "
                     f"| {_spread(row['threads_back_after_s'])} ({row['threads_not_back']}) "
                     f"| {_spread(row['rss_back_after_s'])} ({row['rss_not_back']}) | {fresh} ({row['fresh_failed']}) "
                     f"| {row['crashed']} | {row['oom']} |")
    return lines + [""]


def _cpus_text(cpus):
    if not cpus or not any(cpus.values()):
        return "server and load tool share every CPU (no --cpus)"
    return f"server on {cpus.get('server') or 'any'}, load tool on {cpus.get('driver') or 'any'} (--cpus)"


def _cores_text(cores):
    if not cores:
        return "n/a"
    return " / ".join("n/a" if cores.get(k) is None else f"{cores[k]:.2f}" for k in ("server", "load_tool"))


def report(run):
    config = run["config"]
    lines = [f"# Overload soak ({run['state']})", "",
             f"Command: `{run['env'].get('command', './lab soak')}`", "",
             f"Each target: warm-up {config['warmup_s']} s at a quarter of the rate, {SETTLE_S} s quiet (its idle "
             f"threads and RSS: the medians there), then `GET {'/api/sleep?ms=' + str(config['sleep_ms'])}` at "
             f"{config['factor']:g} x its capacity for {config['load_s']} s with {config['driver']} (open model: requests "
             f"due at that rate whatever the answers, latency from each one's intended start; timeout "
             f"{config['timeout_s']:g} s, at most {config.get('max_connections', MAX_CONNECTIONS_OPEN_MODEL):,} "
             f"connections: requests due while all are busy wait in the load tool), then {config['idle_s']} s idle, "
             f"then one fresh request. CPUs: {_cpus_text(config.get('cpus'))}. "
             f"\"Back\" is the time after the load from which threads or RSS stayed within "
             f"max({NEAR_IDLE_SHARE:.0%}, {NEAR_IDLE_THREADS} threads / {NEAR_IDLE_RSS_MB} MB) of idle.", "",
             "Rounds: " + "; ".join(f"{i}: {', '.join(order)}" for i, order in enumerate(run.get("order") or [], 1))
             + " (each target on a fresh server, order rotated per round).", "",
             *summary_table(run),
             "## Each round", "",
             "| target | round | capacity | asked → sent req/s | 2xx req/s | failed (timeout/connect/reset/non-2xx/other) "
             "| listen-queue overflows "
             "| latency p50 / p99 / max ms "
             "| CPU cores server / load tool | threads idle → peak → end (back after) "
             "| RSS MB idle → peak → end (back after) | fresh request | crash | OOM |",
             "|---|---:|---:|---:|---:|---|---:|---|---|---|---|---|---|---|"]
    for t in run["targets"]:
        load = t.get("load") or {}
        errors = load.get("errors") or {}
        failed = (f"{errors.get('total', 0)} ({errors.get('timeout', 0)}/{errors.get('connect', 0)}/"
                  f"{errors.get('reset', 0)}/{errors.get('non_2xx', 0)}/{errors.get('other', 0)})"
                  if errors else load.get("failure", "n/a"))
        r = t.get("resources") or {}
        threads, rss = r.get("threads") or {}, r.get("rss_mb") or {}

        def span(d):
            if not d:
                return "n/a"
            back = f"{d['back_after_s']:g} s" if d.get("back_after_s") is not None else "**not back**"
            return f"{d['idle']} → {d['peak']} → {d['end']} ({back})"
        latency = load.get("latency_ms") or {}
        latency_text = (" / ".join(_number(latency.get(k)) for k in ("p50", "p99", "max")) if latency else "n/a")
        fresh = t.get("fresh_request") or {}
        fresh_text = (f"{fresh.get('status')} in {fresh['seconds'] * 1000:.0f} ms" if fresh else "n/a")
        checks_ = t.get("checks") or {}
        lines.append(f"| {t['mode']} | {t.get('repeat', 1)} | {t['capacity_rps']:g} | {t['rate']} → {_number(load.get('sent_rps'))} "
                     f"| {_number(load.get('ok_rps'))} | {failed} "
                     f"| {'n/a' if load.get('listen_overflows') is None else format(load['listen_overflows'], ',')} "
                     f"| {latency_text} | {_cores_text(r.get('cpu_cores'))} "
                     f"| {span(threads)} | {span(rss)} | {fresh_text} "
                     f"| {_problem(checks_.get('no_crash'))} | {_problem(checks_.get('no_oom'))} |")
    lines += ["", "Files: `soak.json` (every figure, each round's latency histogram), `raw/<target>.r<round>.samples.csv` "
                  "(/proc every 0.5 s over quiet, load and idle), `raw/<target>.r<round>.load.out` (the load tool), "
                  "`servers/<target>.r<round>.log`."]
    return "\n".join(lines) + "\n"
