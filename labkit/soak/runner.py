"""./lab soak's run: each target on a fresh server, warmed up, sampled while quiet (its idle values),
overloaded with vegeta (measure.session.drive), left idle, then asked one fresh request; its record
and the checks (checks.py) go into soak.json and report.md after every round (report.py)."""
import http.client
import time
from urllib.parse import urlsplit

from labkit.ground.errors import LabError
from labkit.ground.proc import tcp_counter_in
from labkit.load.tools import DRIVERS, LoadSpec
from labkit.measure.plan import rotated
from labkit.measure.results import SOAK_SCHEMA
from labkit.measure.sampler import WindowSampler, process_running, write_samples_csv
from labkit.measure.measured_server import MeasuredServer
from labkit.measure.session import DRIVER_GRACE_S, drive, feed_of, host_of
from labkit.soak.checks import checks, resource_checks
from labkit.soak.config import DRIVER, SETTLE_S
from labkit.soak.report import write_files

OOM_MARKER = "OutOfMemoryError"
SAMPLE_INTERVAL_S = 0.5


def run_soak(config, targets, executable, out_dir, env, log=print):
    """Every target in turn; soak.json and report.md are rewritten after each, so Ctrl-C keeps what finished."""
    run = {"schema": SOAK_SCHEMA, "config": config.to_dict(), "env": env, "state": "running", "targets": [],
           "order": []}
    try:
        for repeat in range(1, config.repeats + 1):
            # No mode always first, or always right after the same other one.
            order = rotated(config.modes, repeat - 1)
            run["order"].append(list(order))
            for name in order:
                run["targets"].append(soak_target(targets[name], config, executable, out_dir, repeat, log))
                write_files(run, out_dir)
        run["state"] = "complete"
    except KeyboardInterrupt:
        run["state"] = "interrupted"
        raise
    except LabError as e:
        run["state"], run["error"] = "failed", str(e).splitlines()[0]
        raise
    finally:
        write_files(run, out_dir)
    return run


def soak_target(target, config, executable, out_dir, repeat=1, log=print):
    """Starts the target, warms it, measures idle, overloads, idles, checks; returns its record.
    The server is stopped whatever happens (Ctrl-C included)."""
    name = target.name
    mode = f"{name}.r{repeat}"  # file names of this round's raw data and server log
    raw = out_dir / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    rate = config.rate(name)
    record = {"mode": name, "repeat": repeat, "capacity_rps": config.capacity[name], "rate": rate}
    with MeasuredServer.start(target, config.setup, record=record, out_dir=out_dir, log_label=mode) as measured:
        server = measured.server
        url = server.base_url + config.path
        if config.warmup_s:
            log(f"{mode}: warm-up {config.warmup_s} s at {max(1, rate // 4)} req/s (not measured)")
            _load(executable, url, config, max(1, rate // 4), config.warmup_s, raw / f"{mode}.warmup",
                  server.pid, out_dir, feed=feed_of(server))
        sampler = WindowSampler(server.pid, interval=SAMPLE_INTERVAL_S, feed=feed_of(server)).start()
        time.sleep(SETTLE_S)
        idle_samples = list(sampler.samples)
        log(f"{mode}: {config.load_s} s at {rate} req/s ({config.factor:g} x {config.capacity[name]:g}), "
            f"open model, then {config.idle_s} s idle")
        load_began = sampler.samples[-1].t if sampler.samples else 0.0
        overflows_before = listen_overflows(server)
        load = _load(executable, url, config, rate, config.load_s, raw / f"{mode}.load", server.pid, out_dir,
                     sampler)
        overflows_after = listen_overflows(server)
        # Connections the kernel dropped because the server's accept queue was full (the whole host's count,
        # but nothing else listens there during a soak): the client retries them after 1, 3, 7 s...
        load["listen_overflows"] = (overflows_after - overflows_before
                                    if None not in (overflows_before, overflows_after) else None)
        load_ended = sampler.samples[-1].t if sampler.samples else load_began
        alive_after_load = process_running(server.pid, feed_of(server))
        if alive_after_load:
            _sleep_while_alive(server.pid, config.idle_s)
        samples = sampler.stop()
        write_samples_csv(raw / f"{mode}.samples.csv", samples)
        record["load"] = load
        record["resources"] = resource_checks(idle_samples, samples, load_began, load_ended)
        record["alive"] = process_running(server.pid, feed_of(server))
        record["fresh_request"] = fresh_request(server.base_url, "/api/sleep?ms=0") if record["alive"] else None
    # The log is kept when the server has stopped: all of it, shutdown included.
    record["oom"] = _log_mentions(out_dir / record["log"], OOM_MARKER) if record["log"] else None
    record["checks"] = checks(record)
    return record


def listen_overflows(server):
    """The ListenOverflows counter of the kernel that holds the server's accept queue: this machine's,
    or that of --server-host (a network namespace has its own); None when it cannot be read."""
    try:
        return tcp_counter_in(host_of(server).read("/proc/net/netstat"), "ListenOverflows")
    except (OSError, LabError):
        return None


def _load(executable, url, config, rate, seconds, prefix, server_pid, out_dir, sampler=None, feed=None):
    """One run of vegeta at `rate` for `seconds`: its record in soak.json (counts, percentiles, the
    merged histogram, the rate actually sent). With `sampler` (the round's, running) the tool is
    attached to it for the run, so its samples show the load phase."""
    spec = LoadSpec(url=url, concurrency=1, duration_s=seconds, timeout_s=config.timeout_s, rate=rate,
                    side_file_prefix=prefix, max_connections=config.max_connections)
    driver = DRIVERS[DRIVER]
    run = drive(driver, executable, spec, server_pid, out_dir, SAMPLE_INTERVAL_S, cpus=config.setup.cpus,
                sampler=sampler, feed=feed, load_hosts=config.setup.load_hosts)
    result = {"command": run["command"], "asked_rps": rate, "seconds": seconds}
    parsed = run["load"]
    if parsed is None:
        result["failure"] = run["failure"]
        return result
    result.update(parsed.to_dict())
    # vegeta's binary results hold every request (tens of MB at these rates); the record keeps the counts,
    # percentiles and the merged histogram (latency_hdr).
    driver.results_file(spec).unlink(missing_ok=True)
    sent = parsed.responses + parsed.errors.total - parsed.errors.non_2xx - parsed.unsent
    result["sent_rps"] = round(sent / seconds, 1)
    if run["stopped"]:
        result["failure"] = f"{DRIVER} did not end within {spec.run_seconds + spec.timeout_s + DRIVER_GRACE_S:.0f} s"
    return result


def _sleep_while_alive(pid, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process_running(pid):
        time.sleep(0.5)


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
