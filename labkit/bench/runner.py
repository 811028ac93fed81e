"""The bench loop: for each session a freshly started server; for each point a warm-up (not
measured), a measured window with /proc sampling, then a JFR copy of that window.

Two ways to measure a point. Fresh (default): the warm-up and the window are separate runs of the
load tool, so every window starts by opening its connections. Steady (--steady, ab): one run holds
warm-up, window and drain; only requests that start in the window count, and the /proc figures
and the JFR copy cover the same window, so the connection ramp stays outside it.

Nothing here knows a tool, a target or a scenario by name: drivers, targets and scenarios come
from their registries. Every process started here is stopped in a `finally`, so Ctrl-C (a
KeyboardInterrupt) leaves no load tool and no server behind; finished points are already stored.
"""
import http.client
import json
import math
import resource
import shlex
import shutil
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import LabError
from ..process import spawn, stop, tail
from .drivers import DRIVERS, DriverOutputError, LoadSpec, redacted
from .jfr import JfrRecorder
from .plan import Estimator, build_plan
from .results import SCHEMA, derive, flags, little_ceiling, summarize as summarize_points, write_csv, write_json
from .sampler import WindowSampler, process_running, summarize, summarize_window, write_samples_csv

# A load tool gets its duration plus its timeout plus this before it is stopped as hung.
DRIVER_GRACE_S = 30
LIVE_UPDATE_S = 1.0


def _now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _iso(epoch):
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="milliseconds")


def steady_window(now_epoch, warmup_s, duration_s):
    """(start, end) in whole epoch seconds for a run starting now: start is the first whole second
    after the warm-up, because ab records each request's start in whole seconds, so a window on
    second boundaries takes exactly the requests that started in it."""
    start = math.ceil(now_epoch + warmup_s)
    return start, start + duration_s


def window_record(kind, start_epoch, end_epoch, **extra):
    """The record's `window`: "fresh" (a run of its own) or "steady" (inside a longer run)."""
    return {"kind": kind, "start": _iso(start_epoch), "end": _iso(end_epoch),
            "wall_s": round(end_epoch - start_epoch, 3), **extra}


def phase_at(phases, elapsed_s):
    """(name, seconds into it, its length) of the phase a run is in after `elapsed_s`; `phases` is
    [(name, seconds), ...] in order. Past the end it stays in the last phase."""
    began = 0.0
    for name, length in phases:
        if elapsed_s < began + length:
            return name, elapsed_s - began, length
        began += length
    name, length = phases[-1]
    return name, elapsed_s - (began - length), length


def measured_resources(spec, samples, sampler, driver_cpu_s):
    """/proc figures of the measured window: the whole run, or with a steady window only the
    samples inside it (the driver's exact rusage CPU covers its whole run, so the sampled one)."""
    if spec.window is None:
        return summarize(samples, driver_cpu_s)
    start, end = spec.window
    return summarize_window(samples, sampler.seconds_since_start(start), sampler.seconds_since_start(end))


class RunRecorder:
    """The run's record: points are appended to points.jsonl as they finish (so a crash keeps
    them); finish() writes results.json, results.csv, the charts and report.md."""

    def __init__(self, out_dir, config, env, planned_points):
        self.out_dir = out_dir
        self.started = time.monotonic()
        self.run = {"schema": SCHEMA, "state": "running", "started": _now_iso(), "config": config.to_dict(),
                    "env": env, "planned_points": planned_points, "sessions": [], "points": []}
        (out_dir / "raw").mkdir(parents=True, exist_ok=True)
        (out_dir / "servers").mkdir(exist_ok=True)
        write_json(out_dir / "env.json", env)

    @property
    def points(self):
        return self.run["points"]

    def add_session(self, session):
        self.run["sessions"].append(session)

    def add_point(self, record):
        self.run["points"].append(record)
        with open(self.out_dir / "points.jsonl", "a") as f:
            f.write(json.dumps(record) + "\n")

    def finish(self, state, error=None):
        from .charts import write_charts
        from .report import write_report
        self.run["state"] = state
        if error:
            self.run["error"] = error
        self.run["finished"] = _now_iso()
        self.run["wall_s"] = round(time.monotonic() - self.started, 1)
        self.run["summary"] = summarize_points(self.run["points"])
        write_csv(self.out_dir / "results.csv", self.run["points"])
        self.run["charts"] = write_charts(self.run["summary"], self.out_dir, self.run["env"]["host"]["cpus"])
        write_json(self.out_dir / "results.json", self.run)
        write_report(self.out_dir / "report.md", self.run)
        return self.run


class BenchRunner:
    def __init__(self, config, scenario, targets, executables, java_home, out_dir, recorder, progress):
        self.config = config
        self.scenario = scenario
        self.targets = targets
        self.executables = executables
        self.java_home = java_home
        self.out_dir = Path(out_dir)
        self.raw = self.out_dir / "raw"
        self.recorder = recorder
        self.progress = progress
        self.sessions = build_plan(config, scenario)
        assert self.planned_points == recorder.run["planned_points"], "plan and recorder disagree"
        self.estimator = Estimator(config, self.sessions)
        self.done_points = 0
        self.started_sessions = 0

    @property
    def planned_points(self):
        return sum(len(s.points) for s in self.sessions)

    def run(self):
        self.progress.plan(self.sessions, self.planned_points, self.estimator.total_s(), self.out_dir)
        for session in self.sessions:
            self._run_session(session)

    # -- one server -------------------------------------------------------------------------
    def _run_session(self, session):
        target = self.targets[session.mode]
        self.progress.session_starting(session, target, self.config.port)
        began = time.monotonic()
        server = target.start(self.config.port, list(self.config.jvm_options), jvm_defaults=self.config.jvm_defaults)
        self.started_sessions += 1
        record = {"index": session.index, "mode": session.mode, "repeat": session.repeat, "pid": server.pid,
                  "command": server.printable_command() if hasattr(server, "printable_command") else None}
        try:
            record["start_s"] = round(time.monotonic() - began, 1)
            self.estimator.server_started(record["start_s"])
            info = self._info(server)
            record["java"] = (info.get("java") or {}).get("version")
            record["request_virtual"] = (info.get("request") or {}).get("virtual")
            self.progress.session_ready(record["start_s"], server.pid, info)
            jfr = JfrRecorder(server.pid, self.java_home)
            if not jfr.start():
                self.progress.note(f"JFR unavailable for this server ({jfr.error}): GC, heap and pinning left out")
            record["jfr_error"] = jfr.error
            response_bytes = {}
            for point in session.points:
                if point.path not in response_bytes:
                    response_bytes[point.path] = self._probe(server, point.path, session.mode)
                self._run_point(point, session, server, jfr, info, response_bytes[point.path])
        finally:
            server.stop()
            record["log"] = self._keep_log(server, session)
            self.recorder.add_session(record)

    def _info(self, server):
        try:
            return server.info() or {}
        except (OSError, ValueError):
            return {}

    def _probe(self, server, path, mode):
        """One request before the load: the scenario must answer 2xx (else the whole run would only
        measure errors), and its size turns the driver's read bytes into a live req/s."""
        parts = urlsplit(server.base_url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=65)
        try:
            headers = dict(h.split(":", 1) for h in self.scenario.headers_for(self.config))
            connection.request("GET", path, headers={k.strip(): v.strip() for k, v in headers.items()})
            response = connection.getresponse()
            body = response.read()
        except OSError as e:
            raise LabError(f"{mode}: GET {path} failed before the load started: {e}") from None
        finally:
            connection.close()
        if not 200 <= response.status < 300:
            raise LabError(f"{mode}: GET {path} answered {response.status} before the load started: "
                           f"{body[:200].decode(errors='replace')}")
        headers = sum(len(k) + len(v) + 4 for k, v in response.getheaders())
        return len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + headers + 2 + len(body)

    def _keep_log(self, server, session):
        source = Path(getattr(server, "log_path", "") or "")
        if not source.is_file():
            return None
        target = self.out_dir / "servers" / f"{session.index:02d}-{session.label}.log"
        shutil.copyfile(source, target)
        return str(target.relative_to(self.out_dir))

    # -- one point ---------------------------------------------------------------------------
    def _run_point(self, point, session, server, jfr, info, response_bytes):
        config, level = self.config, point.level
        if not process_running(server.pid):
            # Loading a dead server would only fill the report with connection errors.
            raise LabError(f"the {point.mode} server (pid {server.pid}) exited during the run; last lines of "
                           f"{server.log_path}:\n{tail(server.log_path)}")
        began = time.monotonic()
        target = self.targets[point.mode]
        service_s = self.scenario.service_time_s(config, level)
        ceiling = little_ceiling(level.concurrency, target.max_concurrent, service_s, config.rate)
        url = server.base_url + point.path
        measure = self._measure_steady if config.steady else self._measure_fresh
        measured = measure(point, server, url, ceiling, response_bytes)
        run = measured["run"]
        write_samples_csv(self.raw / f"{point.id}.samples.csv", run["samples"])

        jfr_summary = self._jfr_window(jfr, point, measured["start"], measured["end"])
        record = {
            "index": point.index, "id": point.id, "session": session.index, "mode": point.mode,
            "driver": point.driver, "scenario": self.scenario.name, "path": point.path, "url": url,
            "concurrency": level.concurrency, "sleep_min_ms": level.sleep.min_ms, "sleep_max_ms": level.sleep.max_ms,
            "depth": config.depth, "rate": config.rate, "repeat": point.repeat,
            "timeout_s": config.timeout_for(level), "service_time_s": service_s,
            "max_concurrent": target.max_concurrent,
            "window": measured["window"],
            "warmup": measured["warmup"],
            "command": run["command"],
            "load": run["load"].to_dict() if run["load"] else None,
            "failure": run["failure"],
            "resources": run["resources"],
            "jfr": jfr_summary,
            "server": {"pid": server.pid, "java": (info.get("java") or {}).get("version"),
                       "request_virtual": (info.get("request") or {}).get("virtual")},
            "files": {"output": f"raw/{point.id}.out", "samples": f"raw/{point.id}.samples.csv",
                      **({"jfr": f"raw/{point.id}.jfr"} if jfr_summary.get("available") else {}),
                      **{"side": [str(Path(p).relative_to(self.out_dir)) for p in run["side_files"]]}},
        }
        record["derived"] = derive(record, target.max_concurrent, service_s)
        record["flags"] = flags(record)
        self.recorder.add_point(record)
        self.done_points += 1
        self.estimator.point_finished(point, time.monotonic() - began)
        self.progress.point_done(point, record, self._eta())

    def _measure_fresh(self, point, server, url, ceiling, response_bytes):
        """A warm-up run (when the point has one), then the window as a run of its own."""
        config = self.config
        warmup = None
        if point.warmup and config.warmup_s > 0:
            self.progress.phase(point, f"warm-up {config.warmup_s} s", self._eta(point, config.warmup_s + config.duration_s))
            spec = self._spec(point, url, config.warmup_s, self.raw / f"{point.id}.warmup", ceiling)
            run = self._drive(point, server, spec, [("warm-up", config.warmup_s)], response_bytes,
                              after_s=config.duration_s)
            warmup = {"seconds": config.warmup_s, "ok_rps": run["load"].ok_rps if run["load"] else None,
                      "failure": run["failure"]}

        window_start = time.time()
        spec = self._spec(point, url, config.duration_s, self.raw / point.id, ceiling)
        run = self._drive(point, server, spec, [("measuring", config.duration_s)], response_bytes)
        window_end = time.time()
        return {"run": run, "start": window_start, "end": window_end, "warmup": warmup,
                "window": window_record("fresh", window_start, window_end)}

    def _measure_steady(self, point, server, url, ceiling, response_bytes):
        """One run of the tool: warm-up (with the connection ramp), the window on whole seconds,
        then a drain so that the window's last requests can finish."""
        config = self.config
        now = time.time()
        start, end = steady_window(now, config.warmup_s, config.duration_s)
        # The tool starts a moment after `now`, so a run of this length still reaches the window's end.
        spec = self._spec(point, url, math.ceil(end - now), self.raw / point.id, ceiling, window=(start, end))
        warmup_s = start - now
        phases = [("warm-up", warmup_s), ("measuring", config.duration_s), ("draining", spec.drain_s)]
        self.progress.phase(point, f"warm-up {warmup_s:.0f} s, measuring {config.duration_s} s, drain {spec.drain_s} s "
                                   f"in one {point.driver} run (steady)", self._eta(point, spec.run_seconds))
        run = self._drive(point, server, spec, phases, response_bytes)
        return {"run": run, "start": start, "end": end,
                "warmup": {"seconds": round(warmup_s, 3), "same_run": True, "ok_rps": None, "failure": None},
                "window": window_record("steady", start, end, epoch_s=[start, end], drain_s=spec.drain_s,
                                        note="inside one continuous run of the load tool, after its warm-up and "
                                             "connection ramp; only requests that started in the window count")}

    def _jfr_window(self, jfr, point, window_start, window_end):
        if not jfr.running:
            return {"available": False, "error": jfr.error}
        path = self.raw / f"{point.id}.jfr"
        if not jfr.dump(path, window_start):
            return {"available": False, "error": jfr.error}
        return jfr.read_window(path, window_start, window_end)

    def _spec(self, point, url, seconds, prefix, ceiling, window=None):
        config = self.config
        spec = LoadSpec(url=url, concurrency=point.level.concurrency, duration_s=seconds,
                        timeout_s=config.timeout_for(point.level), rate=config.rate, side_file_prefix=prefix,
                        window=window, headers=self.scenario.headers_for(config))
        if ceiling:
            # ab must be given a request count: the Little's-law ceiling over the whole run, with room to spare.
            spec = replace(spec, expected_requests=int(ceiling * spec.run_seconds * 1.5) + point.level.concurrency)
        return spec

    def _drive(self, point, server, spec, phases, response_bytes, after_s=0):
        """Runs the point's load tool for spec.run_seconds while sampling; returns its parsed result.
        `phases` name the parts of the run for the live line, `after_s` is the load still to come
        after this run (for the ETA)."""
        config = self.config
        driver = DRIVERS[point.driver]
        command = driver.command(spec, self.executables[point.driver])
        prefix = spec.side_file_prefix
        output_path = Path(f"{prefix}.out")
        sampler = WindowSampler(server.pid, config.sample_interval_s)
        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        sampler.start()
        began = time.monotonic()
        process = spawn(command, output_path, cwd=self.out_dir)
        killed = False
        try:
            sampler.attach_driver(process.pid)
            limit = spec.run_seconds + spec.timeout_s + DRIVER_GRACE_S
            last_live = 0.0
            while process.poll() is None:
                elapsed = time.monotonic() - began
                if elapsed > limit:
                    killed = True
                    break
                if elapsed - last_live >= LIVE_UPDATE_S:
                    last_live = elapsed
                    rate = sampler.driver_read_rate()
                    rps = rate / response_bytes if rate is not None and response_bytes else None
                    what, into, length = phase_at(phases, elapsed)
                    left = max(spec.run_seconds - elapsed, 0) + after_s
                    self.progress.live(point, what, into, length, rps, self._eta(point, left))
                time.sleep(0.1)
        finally:
            if process.poll() is None:
                stop(process, grace_seconds=5)
            samples = sampler.stop()
        wall_s = time.monotonic() - began
        children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # The driver is the only child reaped in this window, so the children's rusage delta is its exact CPU.
        driver_cpu_s = ((children_after.ru_utime + children_after.ru_stime)
                        - (children_before.ru_utime + children_before.ru_stime))
        output = output_path.read_text(errors="replace") if output_path.is_file() else ""
        load, failure = None, None
        try:
            load = driver.parse(output, spec, wall_s=wall_s)
            if killed:
                load.complete = False
                load.notes.append(f"stopped by the harness after {wall_s:.0f} s: the tool did not end on time")
        except (DriverOutputError, ValueError, KeyError) as e:
            failure = f"{driver.name} exit {process.returncode}: {e}"
        return {"load": load, "failure": failure, "command": " ".join(shlex.quote(c) for c in redacted(command)),
                "samples": samples, "resources": measured_resources(spec, samples, sampler, driver_cpu_s),
                "side_files": [p for p in driver.side_files(spec) if Path(p).is_file()]}

    def _eta(self, point=None, current_left_s=0.0):
        return self.estimator.remaining_s(self.done_points, self.started_sessions, current_left_s)
