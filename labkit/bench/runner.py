"""The bench loop: for each session a freshly started server; for each point a warm-up (not
measured), a measured window with /proc sampling, then a JFR copy of that window.

Two ways to measure a point. Fresh (default): the warm-up and the window are separate runs of the
load tool, so every window starts by opening its connections. Steady (--steady, ab): one run holds
warm-up, window and drain; only requests that start in the window count, and the /proc figures
and the JFR copy cover the same window, so the connection ramp stays outside it.

A watchdog (labkit/measure/watchdog.py) probes the server on a connection of its own during every
run of the load tool. When the server stops answering, its thread dump is taken (threaddump.py) while
the load is still on, the point is recorded as stalled with the dump's summary, the server is stopped
and the bench goes on with the next session; the session's later points are not run.

Nothing here knows a tool, a target or a scenario by name: drivers, targets and scenarios come
from their registries. Every process started here is stopped in a `finally`, so Ctrl-C (a
KeyboardInterrupt) leaves no load tool and no server behind; finished points are already stored.
"""
import math
import time
from dataclasses import replace
from pathlib import Path

from labkit.ground.errors import LabError
from labkit.ground.process import tail
from labkit.load.tools import DRIVERS, LoadSpec
from labkit.measure.histograms import HISTOGRAM_DIR, decode, write_hgrm_gz
from labkit.measure.steadiness import per_second_from_samples, series_stats, settled
from labkit.measure.measured_server import MeasuredServer
from labkit.measure.plan import Estimator, build_plan
from labkit.measure.results import BENCH_SCHEMA, derive, flags, little_ceiling
from labkit.measure.sampler import process_running, write_samples_csv
from labkit.measure.threaddump import capture as capture_thread_dump
from labkit.measure.watchdog import Watchdog, stall_after_s
from labkit.load.requests_mix import check_answers, mean_answer_bytes
from labkit.servers.userapp import mode_proof, probe_info

from labkit.measure.metrics import exposed as exposed_metrics, window_of as metrics_window
from labkit.measure.session import (
    feed_of,
    host_of,
    PointLog,
    ServerStalled,
    drive,
    phase_at,
    probe,
    server_jdk,
    stall_failure,
    steady_window,
    window_record,
)


class RunRecorder(PointLog):
    """./lab bench's record; finish() writes results.json, results.csv, the charts and report.md."""

    def __init__(self, out_dir, config, env, planned_points):
        super().__init__(out_dir, BENCH_SCHEMA, config, env, planned_points=planned_points)
        (self.out_dir / "servers").mkdir(exist_ok=True)

    def finish(self, state, error=None):
        # Imported here: matplotlib (the charts) loads only when a run writes its results.
        from labkit.bench.rebuild import write_all
        self._close(state, error)
        return write_all(self.run, self.out_dir)


class BenchRunner:
    def __init__(self, config, scenario, targets, executables, java_home, out_dir, recorder, progress):
        self.config = config
        if scenario.requests is not None:
            # The load tools read request bodies from files: written once, kept with the results.
            scenario = replace(scenario, requests=scenario.requests.with_body_files(Path(out_dir) / "raw" / "requests"))
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
        # Points of sessions whose server stalled before their turn: planned, never run.
        self.skipped_points = 0

    @property
    def planned_points(self):
        return sum(len(s.points) for s in self.sessions)

    def run(self):
        self.progress.plan(self.sessions, self.planned_points, self.estimator.total_s(), self.out_dir)
        for session in self.sessions:
            self._run_session(session)

    # -- one server -------------------------------------------------------------------------
    def _run_session(self, session):
        target = self.targets[session.target or session.mode]
        self.progress.session_starting(session, target, self.config.setup.port)
        record = {"index": session.index, "mode": session.mode, "target": session.target, "heap": session.heap,
                  "repeat": session.repeat, "carriers": self.config.setup.carriers}
        measured = MeasuredServer.start(target, self.config.setup, session.heap, record, out_dir=self.out_dir,
                                        log_label=f"{session.index:02d}-{session.label}",
                                        on_close=self.recorder.add_session)
        self.started_sessions += 1
        with measured:
            server = measured.server
            self.estimator.server_started(record["start_s"])
            info = self._info(server)
            record["java"] = (info.get("java") or {}).get("version")
            record["request_virtual"] = (info.get("request") or {}).get("virtual")
            self.progress.session_ready(record["start_s"], server.pid, info)
            jfr = measured.record_jfr(self.java_home, self.raw, lambda why: self.progress.note(
                f"JFR unavailable for this server ({why}): GC, heap and pinning left out"), locks=self.config.jfr_locks)
            response_bytes = {}
            for number, point in enumerate(session.points):
                if point.path not in response_bytes:
                    response_bytes[point.path] = self._probe(server, point.path, session.mode)
                if self._run_point(point, session, server, jfr, info, response_bytes[point.path]):
                    left = len(session.points) - number - 1
                    self.skipped_points += left
                    record["stalled_at"] = point.id
                    self.progress.note("the server stalled: thread dump in raw/, server stopped"
                                       + (f"; its {left} later points are not run" if left else ""))
                    break

    def _info(self, server):
        try:
            return server.info() or {}
        except (OSError, ValueError):
            return {}

    def _probe(self, server, path, mode):
        if self.scenario.requests is not None:
            # Your requests: each must answer 2xx once before any load (else the run stops and shows the answer).
            try:
                sizes = check_answers(server.base_url, self.scenario.requests)
            except LabError as e:
                raise LabError(f"{mode}: {e}") from None
            return mean_answer_bytes(self.scenario.requests, sizes)
        return probe(server, path, mode, self.scenario.method, self.scenario.body_file,
                     self.scenario.headers_for(self.config))

    # -- one point ---------------------------------------------------------------------------
    def _run_point(self, point, session, server, jfr, info, response_bytes):
        """Measures one point and records it; returns True when the server stalled during it."""
        config, level = self.config, point.level
        if not process_running(server.pid, feed_of(server)):
            # Loading a dead server would only fill the report with connection errors.
            raise LabError(f"the {point.mode} server (pid {server.pid}) exited during the run; last lines of "
                           f"{server.log_path}:\n{tail(server.log_path)}")
        began = time.monotonic()
        target = self.targets[point.target or point.mode]
        service_s = self.scenario.service_time_s(config, level)
        task_pool = self._task_pool(target, level)
        ceiling = little_ceiling(level.concurrency, target.max_concurrent, service_s, config.rate,
                                 (task_pool["threads"], task_pool["seconds_per_request"]) if task_pool else None)
        url = server.base_url + point.path
        measure = self._measure_steady if config.steady else self._measure_fresh
        exposed_before = exposed_metrics(server)
        try:
            measured = measure(point, server, url, ceiling, response_bytes)
            stalled = None
        except ServerStalled as e:
            stalled = e
            measured = {"run": e.run, "start": e.start, "end": e.end, "warmup": None,
                        "window": window_record("steady" if config.steady else "fresh", e.start, e.end,
                                                stalled_in=e.phase)}
        run = measured["run"]
        write_samples_csv(self.raw / f"{point.id}.samples.csv", run["samples"])

        if stalled:
            # The server is stopped next: no JFR copy is asked of a JVM that no longer serves.
            jfr_summary = {"available": False, "error": "not read: the server stalled"}
        else:
            jfr_summary = self._jfr_window(jfr, point, measured["start"], measured["end"])
        record = {
            "index": point.index, "id": point.id, "session": session.index, "mode": point.mode,
            "target": point.target or point.mode, "heap": point.heap,
            "driver": point.driver, "scenario": self.scenario.name, "path": point.path, "url": url,
            "concurrency": level.concurrency, "sleep_min_ms": level.sleep.min_ms, "sleep_max_ms": level.sleep.max_ms,
            "depth": config.depth, "rate": config.rate, "repeat": point.repeat,
            "timeout_s": config.timeout_for(level), "service_time_s": service_s,
            "max_concurrent": target.max_concurrent,
            "task_pool": task_pool,
            "window": measured["window"],
            "warmup": measured["warmup"],
            "command": run["command"],
            "load": run["load"].to_dict() if run["load"] else None,
            "failure": stall_failure(run["watchdog"], stalled.phase) if stalled else run["failure"],
            "watchdog": run.get("watchdog"),
            **({"mode_proof": measured["mode_proof"]} if measured.get("mode_proof") else {}),
            "resources": run["resources"],
            **({"load_hosts": run["load_hosts"]} if run.get("load_hosts") else {}),
            "jfr": jfr_summary,
            **({"server_metrics": metrics_window(exposed_before, exposed_metrics(server))}
               if getattr(server, "external", False) else {}),
            "server": {"pid": server.pid, "java": (info.get("java") or {}).get("version"),
                       "request_virtual": (info.get("request") or {}).get("virtual")},
            "files": {"output": f"raw/{point.id}.out", "samples": f"raw/{point.id}.samples.csv",
                      **({"jfr": f"raw/{point.id}.jfr"} if jfr_summary.get("available") else {}),
                      **{"side": [str(Path(p).relative_to(self.out_dir)) for p in run["side_files"]]}},
        }
        dump_file = ((((run.get("watchdog") or {}).get("stall") or {}).get("dump")) or {}).get("file")
        if dump_file:
            record["files"]["threads"] = str(Path(dump_file).relative_to(self.out_dir))
        record["steadiness"] = self._steadiness(run, measured, response_bytes)
        if run["load"] and run["load"].latency_hdr:
            path = write_hgrm_gz(decode(run["load"].latency_hdr), self.out_dir / HISTOGRAM_DIR / f"{point.id}.hgrm.gz")
            record["files"]["hgrm"] = str(path.relative_to(self.out_dir))
        record["derived"] = derive(record, target.max_concurrent, service_s)
        record["flags"] = flags(record)
        self.recorder.add_point(record)
        self.done_points += 1
        self.estimator.point_finished(point, time.monotonic() - began)
        self.progress.point_done(point, record, self._eta())
        return stalled is not None

    def _steadiness(self, run, measured, response_bytes):
        """The window's per-second 2xx answers (the tool's own when it records each request, else
        from its read bytes) and how much they vary and trend (steadiness.series_stats)."""
        load = run["load"]
        if load is not None and load.per_second_ok:
            series, source = load.per_second_ok, "the load tool's per-request records"
        else:
            window = (run["resources"] or {}).get("window_t_s")
            series = per_second_from_samples(run["samples"], response_bytes, *(window or (None, None)))
            source = "the load tool's read bytes (/proc) ÷ one answer's size"
        if not series:
            return None
        return {"per_second_rps": series, "source": source, **(series_stats(series) or {})}

    def _task_pool(self, target, level):
        """The bounded pool a fan-out's tasks share on this target, or None: a platform target with a
        pool of max_concurrent threads runs its tasks on a pool that size (app: FanoutExecutors);
        virtual and unbounded targets give each task a thread of its own."""
        if self.scenario.pool_seconds is None or target.virtual is not False or target.max_concurrent is None:
            return None
        return {"threads": target.max_concurrent,
                "seconds_per_request": self.scenario.pool_seconds(self.config, level)}

    def _measure_fresh(self, point, server, url, ceiling, response_bytes):
        """A warm-up run (when the point has one), then the window as a run of its own."""
        config = self.config
        warmup = None
        if point.warmup and config.warmup_s > 0:
            warmup = self._warm_up(point, server, url, ceiling, response_bytes)

        before = self._probe_info(server)
        window_start = time.time()
        spec = self._spec(point, url, config.duration_s, self.raw / point.id, ceiling)
        run = self._drive(point, server, spec, [("measuring", config.duration_s)], response_bytes)
        window_end = time.time()
        return {"run": run, "start": window_start, "end": window_end, "warmup": warmup,
                "window": window_record("fresh", window_start, window_end),
                "mode_proof": self._mode_proof(point, before, server, run)}

    def _warm_up(self, point, server, url, ceiling, response_bytes):
        """One warm-up run of --warmup seconds; with --warmup-until-steady such runs are repeated
        until the last three agree within ±5 % (steadiness.settled) or --warmup-cap is spent."""
        config = self.config
        throughputs, failure, began = [], None, time.monotonic()
        while True:
            iteration = len(throughputs) + 1
            self.progress.phase(point, f"warm-up {config.warmup_s} s" + (f" (iteration {iteration})" if
                                config.warmup_until_steady else ""),
                                self._eta(point, config.warmup_s + config.duration_s))
            suffix = f".warmup{iteration}" if config.warmup_until_steady else ".warmup"
            spec = self._spec(point, url, config.warmup_s, self.raw / f"{point.id}{suffix}", ceiling)
            run = self._drive(point, server, spec, [("warm-up", config.warmup_s)], response_bytes,
                              after_s=config.duration_s)
            failure = run["failure"]
            throughputs.append(round(run["load"].ok_rps, 1) if run["load"] else 0.0)
            if (not config.warmup_until_steady or failure or settled(throughputs)
                    or time.monotonic() - began + config.warmup_s > config.warmup_cap_s):
                break
        warmup = {"seconds": round(time.monotonic() - began, 1) if config.warmup_until_steady else config.warmup_s,
                  "ok_rps": throughputs[-1] if throughputs else None, "failure": failure}
        if config.warmup_until_steady:
            warmup.update(iterations_ok_rps=throughputs, settled=settled(throughputs))
            self.progress.note(f"warmed up in {warmup['seconds']:.0f} s: "
                               f"{', '.join(f'{t:,.0f}' for t in throughputs)} req/s per {config.warmup_s} s"
                               + ("" if warmup["settled"] else " [did not settle]"))
        return warmup

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
        before = self._probe_info(server)
        run = self._drive(point, server, spec, phases, response_bytes)
        if run.get("window"):  # the load hosts started late: the window moved with them
            start, end = run["window"]
        return {"run": run, "start": start, "end": end,
                # The counters cover the whole run (warm-up and drain too): at least the window's requests.
                "mode_proof": self._mode_proof(point, before, server, run),
                "warmup": {"seconds": round(warmup_s, 3), "same_run": True, "ok_rps": None, "failure": None},
                "window": window_record("steady", start, end, epoch_s=[start, end], drain_s=spec.drain_s,
                                        note="inside one continuous run of the load tool, after its warm-up and "
                                             "connection ramp; only requests that started in the window count")}

    def _probe_info(self, server):
        """/api/info of the probe WAR beside your WARs (--war), for the proof of the mode; else None."""
        return probe_info(server) if self.config.setup.wars else None

    def _mode_proof(self, point, before, server, run):
        """userapp.mode_proof of one window: did your requests run on the mode's threads?"""
        if before is None:
            return None
        target = self.targets[point.target or point.mode]
        answered = run["load"].responses if run["load"] else 0
        proof = mode_proof(before, self._probe_info(server), answered, target.virtual)
        if proof["proven"] is False:
            self.progress.note(f"{point.id}: your requests did not show on the mode's threads: {proof['why']}")
        return proof

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
                        window=window, body_file=self.scenario.body_file,
                        headers=self.scenario.headers_for(config), requests=self.scenario.requests)
        if ceiling:
            # ab must be given a request count: the Little's-law ceiling over the whole run, with room to spare.
            spec = replace(spec, expected_requests=int(ceiling * spec.run_seconds * 1.5) + point.level.concurrency)
        return spec

    def _drive(self, point, server, spec, phases, response_bytes, after_s=0):
        """Runs the point's load tool for spec.run_seconds while sampling; returns its parsed result.
        `phases` name the parts of the run for the live line, `after_s` is the load still to come
        after this run (for the ETA)."""
        def live(elapsed, rps):
            what, into, length = phase_at(phases, elapsed)
            left = max(spec.run_seconds - elapsed, 0) + after_s
            self.progress.live(point, what, into, length, rps, self._eta(point, left))

        def dump(stall):
            self.progress.note(f"no answer to the watchdog's probe for {stall['waited_s']:g} s: thread dump (jcmd)")
            return capture_thread_dump(server.pid, server_jdk(server, self.java_home), f"{spec.side_file_prefix}.threads.json",
                                       host=host_of(server))

        longest_sleep_ms = point.level.sleep.max_ms
        timeout_s = stall_after_s(longest_sleep_ms, self.config.stall_after_s, point.level.concurrency)
        watchdog = Watchdog(server.base_url, timeout_s, on_stall=dump, path=server.info_path)
        start = time.time()
        run = drive(DRIVERS[point.driver], self.executables[point.driver], spec, server.pid, self.out_dir,
                    self.config.sample_interval_s, response_bytes, live, self.config.setup.cpus, watchdog,
                    feed=feed_of(server), load_hosts=self.config.setup.load_hosts)
        if watchdog.stall:
            raise ServerStalled(run, start, time.time(), phase_at(phases, watchdog.stall["probe_sent_s"])[0])
        return run

    def _eta(self, point=None, current_left_s=0.0):
        return self.estimator.remaining_s(self.done_points, self.started_sessions, current_left_s)
