"""The loop of ./lab capacity. For each sleep:

1. search: each target on a fresh server, warmed up until its throughput is steady and its JIT
   quiet (steadiness.warmup_end), then fixed-rate windows
   (open model, vegeta) from a doubling ramp and a bisection (search.py) to the highest rate
   whose latency meets the goal without errors;
2. confirm: `repeats` rounds; in each, every target on a fresh server (warmed up again) runs one
   window at its found rate, the target order rotated from round to round (recorded); a window
   that misses the goal is followed by one at a rate `resolution` lower, at most twice.

Every window starts from the same state: a full GC, rest until the server is quiet, the load tool's
closed sockets drained below a bound; a window the load tool could not drive (vegeta at a full core
and late) is measured once more (`-again`) after its sockets drain, and so is one that missed the goal
while the hypervisor took more than STEAL_AGAIN_SHARE of the server's CPUs (steal), after a rest.

Because every window starts with an empty young generation (Payara: -Xmn2g), a short window at a
moderate rate can hold no young collection at all, and its percentile then leaves out the pauses of
the steady state. So a window counts as meeting the goal only with min_young_gcs young collections
in it (JFR); one that met the goal with fewer is measured again at the same rate for twice as long
(`-wNNs`), up to max_window_s, where it counts, flagged few-gcs (window_verdict).

A window with failed requests is followed by one probe on a connection of its own (the watchdog's):
a server whose process exited or answers nothing ends its search or round there, flagged unresponsive.

Servers, load runs and /proc sampling are the measurement layer's (labkit/measure/session.py); every window is a
point record in the bench's layout plus capacity fields (phase, rate, goal, pass). Every process
started here is stopped in a `finally`.
"""
import math
import subprocess
import time
from pathlib import Path

from labkit.measure import perfcounters
from labkit.load.levels import SleepSpec
from labkit.measure.cpus import allowed_cpus
from labkit.load.tools import DRIVERS, MAX_CONNECTIONS_OPEN_MODEL, LoadSpec
from labkit.measure.histograms import HISTOGRAM_DIR, decode, write_hgrm_gz
from labkit.measure.jfr import JfrRecorder
from labkit.measure.plan import format_duration, rotated
from labkit.measure.results import flags
from labkit.measure.session import PointLog, drive, keep_log, probe, start_server, steady_window, window_record
from labkit.measure.sampler import process_running, read_process, write_samples_csv
from labkit.catalog import scenario as find_scenario
from labkit.measure.steadiness import WARMUP_ENDS, not_steady, series_stats, settled, warmup_end
from labkit.measure.watchdog import probe_once, stall_after_s
from labkit.ground.errors import LabError
from labkit.capacity.search import RateSearch

DRIVER = DRIVERS["vegeta"]
# A confirmation window that misses the goal is retried this many times, each `resolution` lower.
CONFIRM_STEP_DOWNS = 2
# Before the next window the server should be idle again (an overloaded step leaves work behind).
QUIET_CORES = 0.15
QUIET_MAX_S = 30
# The warm-up compiles the request path, which is the same whatever the sleep; a long sleep only slows
# it down: at 2 s and 1,000 connections the closed-model warm-up sends 500 req/s, a fraction of the
# rates the windows then offer, and C2 has not compiled what they run.
WARMUP_SLEEP_MAX_MS = 100
# Rough window counts of one search and of one confirmation round (its retries and longer re-runs),
# for the first ETA; refined as searches and rounds finish. Run 1 at 100 ms: 10.3 and 2.0.
EXPECTED_SEARCH_WINDOWS = 10
EXPECTED_CONFIRM_WINDOWS = 2
# vegeta's connections in a window: twice what the goal allows in flight at the rate (at least 64).
# A window that meets the goal never waits for one; an overloaded one queues in vegeta (inside the
# latency) instead of opening thousands of sockets. Each socket it closes stays in TIME_WAIT for 60 s
# on the client side, and with ~16,000 of them on loopback vegeta spent its core on connect() and sent
# almost nothing (measured: 151 of 61,875 requests at 4,125 req/s, vegeta at 100 % CPU).
# Never above the lab's open-model bound: at a 2 s sleep, 8,000 req/s would ask for 32,800, more
# than `ulimit -n` allows either process; the requests beyond it queue in vegeta, inside the latency.
CONNECTIONS_PER_GOAL = 2
MIN_CONNECTIONS = 64
# Before a window: wait (at most TIME_WAIT_MAX_WAIT_S) while more client sockets than this to the
# server's port are in TIME_WAIT (the warm-up's iterations and earlier windows leave them).
TIME_WAIT_LIMIT = 8000
TIME_WAIT_MAX_WAIT_S = 65
# Before measuring a window again because the load tool failed: wait until its sockets are this few.
TIME_WAIT_DRAINED = 1000
# A window that missed the goal while the hypervisor gave more than this share of the server's CPUs
# to other guests measured the host, not the target: it is measured once more after HOST_REST_S.
# Steal shows only while the guest has work, so an idle probe cannot tell a quiet host; the window
# measured again carries its own steal share (and the host-steal flag when it was stolen from too).
STEAL_AGAIN_SHARE = 0.10
HOST_REST_S = 30
# window_verdict: what a window's record says (capacity.verdict), and the flag some verdicts add.
RERUN_LONGER = "rerun-longer"
VERDICT_TEXT = {
    "met": "meets the goal",
    "missed": "misses the goal",
    RERUN_LONGER: "meets the goal with {young_gcs} young collection(s), {min_young_gcs} needed: does not count yet",
    "met-few-gcs": "meets the goal with {young_gcs} young collection(s) at the {window_s} s cap: counts (few-gcs)",
    "met-gcs-unknown": "meets the goal (young collections not counted: JFR unavailable; gcs-unknown)",
    "met-ramp": "meets the goal with {young_gcs} young collection(s): counts on the ramp only",
}
VERDICT_FLAGS = {"met-few-gcs": "few-gcs", "met-gcs-unknown": "gcs-unknown"}


class CapacityRunner:
    def __init__(self, config, targets, executable, recorder, java_home=None, log=print):
        self.config = config
        # JFR (the bench's recorder: GC pauses, heap, pinning) per window; None: not recorded.
        self.java_home = java_home
        self.jfr = None
        self.targets = targets
        self.executable = executable
        self.recorder = recorder
        self.out_dir = Path(recorder.out_dir)
        self.raw = self.out_dir / "raw"
        self.log = log
        self.scenario = find_scenario(config.scenario)
        self.point_index = 0
        self.session_index = 0
        self.began = time.monotonic()
        self.timing = {"start_s": [], "warmup_s": [], "step_s": [], "search_windows": [], "confirm_windows": []}
        self.windows_measured = 0

    # -- the plan -----------------------------------------------------------------------------
    def run(self):
        config = self.config
        for sleep in config.sleeps:
            found = {}
            for mode in config.modes:
                found[mode] = self._search(mode, sleep)
            for repeat in range(1, config.repeats + 1):
                order = rotated(config.modes, repeat - 1)
                self.recorder.add_order(sleep, repeat, order)
                for mode in order:
                    if found[mode]:
                        self._confirm(mode, sleep, repeat, found[mode])

    def remaining_s(self, searches_left, confirms_left, steps_left_now=0):
        """Seconds still to go: server starts, warm-ups and windows (averages measured so far)."""
        avg = lambda values, guess: sum(values) / len(values) if values else guess
        session = avg(self.timing["start_s"], 20) + avg(self.timing["warmup_s"], 30)
        step = avg(self.timing["step_s"], self.config.preroll_for(self.config.sleeps[0]) + self.config.duration_s + 8)
        search = avg(self.timing["search_windows"], EXPECTED_SEARCH_WINDOWS)
        confirm = avg(self.timing["confirm_windows"], EXPECTED_CONFIRM_WINDOWS)
        return (searches_left * (session + search * step) + confirms_left * (session + confirm * step)
                + steps_left_now * step)

    def _left(self, sleep, mode, phase, repeat=0):
        """(searches, confirmations) not yet begun after the current one."""
        config = self.config
        sleeps_after = len(config.sleeps) - config.sleeps.index(sleep) - 1
        modes_after = len(config.modes) - config.modes.index(mode) - 1
        per_sleep_confirms = config.repeats * len(config.modes)
        if phase == "search":
            return modes_after + sleeps_after * len(config.modes), per_sleep_confirms * (sleeps_after + 1)
        done_confirms = (repeat - 1) * len(config.modes) + rotated(config.modes, repeat - 1).index(mode) + 1
        return sleeps_after * len(config.modes), per_sleep_confirms - done_confirms + per_sleep_confirms * sleeps_after

    # -- one server -----------------------------------------------------------------------------
    def _session(self, mode, sleep, phase, repeat, work):
        """Starts `mode` fresh, probes and warms it up, runs `work(server, response_bytes, session)`."""
        target = self.targets[mode]
        self.session_index += 1
        label = f"{self.session_index:02d}-{mode}-{sleep.max_ms}ms-{phase}" + (f"-r{repeat}" if repeat else "")
        self.log(f"starting {mode} ({phase}{f' {repeat}' if repeat else ''}, sleep {sleep}): {target.description} "
                 f"on port {self.config.port}")
        began = time.monotonic()
        server = start_server(target, self.config)
        session = {"index": self.session_index, "mode": mode, "phase": phase, "repeat": repeat or None,
                   "sleep_min_ms": sleep.min_ms, "sleep_max_ms": sleep.max_ms, "pid": server.pid,
                   "command": server.printable_command(),
                   "cpus_allowed": allowed_cpus(server.pid)}
        try:
            session["start_s"] = round(time.monotonic() - began, 1)
            self.timing["start_s"].append(session["start_s"])
            path = self.scenario.path(self.config, _level(sleep))
            response_bytes = probe(server, path, mode)
            if self.java_home:
                self.jfr = JfrRecorder(server.pid, self.java_home)
                if not self.jfr.start():
                    self.log(f"  JFR unavailable for this server ({self.jfr.error}): GC pauses left out")
                session["jfr_error"] = self.jfr.error
            warm = warm_up_sleep(sleep)
            if warm != sleep:
                self.log(f"  warming up at a {warm} sleep: the same code path as {sleep}, at rates the windows reach")
            session["warmup"] = self._warm_up(server, self.scenario.path(self.config, _level(warm)), label,
                                              response_bytes)
            session["warmup"]["sleep_ms"] = [warm.min_ms, warm.max_ms]
            session["warmup"]["full_gc"] = self._full_gc(server)
            # The warm-up ends with a thousand connections closing and its requests still in flight:
            # the first window must start from the same rest as every later one.
            self._cool_down(server)
            work(server, server.base_url + path, response_bytes, session)
        finally:
            self.jfr = None
            server.stop()
            session["log"] = keep_log(server, self.out_dir, label)
            self.recorder.add_session(session)

    def _warm_up(self, server, path, label, response_bytes):
        """Closed-model iterations (vegeta with warmup_concurrency workers) until the throughput stops
        rising and the JIT has gone quiet (steadiness.warmup_end), or warmup_max_s is reached. The JIT's
        compile count is read with jcmd between iterations; when that fails the throughput alone decides,
        as it did before the JIT rule, and the error is recorded."""
        config = self.config
        url = server.base_url + path
        iterations, began = [], time.monotonic()
        ended = None if config.warmup_max_s > 0 else "none"
        compiles_before, jit_error = (self._compiles(server) if ended is None else (None, None))
        read_at = time.monotonic()
        while ended is None:
            spec = LoadSpec(url=url, concurrency=config.warmup_concurrency, duration_s=config.warmup_iteration_s,
                            timeout_s=max(30.0, self.config.timeout_s or 0),
                            side_file_prefix=self.raw / f"{label}.warmup{len(iterations) + 1}")
            run = drive(DRIVER, self.executable, spec, server.pid, self.out_dir, config.sample_interval_s,
                        response_bytes, cpus=config.cpus)
            if run["load"] is None:
                raise LabError(f"warm-up of {label} failed: {run['failure']}")
            _remove(run["side_files"])
            compiles_after, error = self._compiles(server)
            jit_error = jit_error or error
            now = time.monotonic()
            compiles = (compiles_after - compiles_before
                        if compiles_after is not None and compiles_before is not None else None)
            iterations.append({"ok_rps": round(run["load"].ok_rps, 1), "compiles": compiles,
                               "compiles_per_s": round(compiles / (now - read_at), 1) if compiles is not None else None,
                               "seconds": round(now - read_at, 1)})
            compiles_before, read_at = compiles_after, now
            ended = warmup_end([i["ok_rps"] for i in iterations], iterations[-1]["compiles_per_s"], now - began,
                               config.warmup_min_s, config.warmup_max_s, config.warmup_jit_rate)
        seconds = round(time.monotonic() - began, 1)
        self.timing["warmup_s"].append(seconds)
        throughputs = [i["ok_rps"] for i in iterations]
        result = {"seconds": seconds, "iterations_ok_rps": throughputs, "iterations": iterations,
                  "settled": settled(throughputs), "ended": ended,
                  "jit": {"counter": perfcounters.COMPILES, "quiet_per_s": config.warmup_jit_rate,
                          "error": jit_error},
                  "concurrency": config.warmup_concurrency, "iteration_s": config.warmup_iteration_s}
        compiled = ", ".join("?" if i["compiles"] is None else f"{i['compiles']:,}" for i in iterations)
        self.log(f"  warmed up in {seconds:.0f} s: {', '.join(f'{t:,.0f}' for t in throughputs)} req/s per "
                 f"{config.warmup_iteration_s} s iteration; methods compiled {compiled}; ended: {WARMUP_ENDS[ended]}"
                 + (f"  [JIT count: {jit_error}]" if jit_error else ""))
        return result

    def _compiles(self, server):
        """(methods the server's JIT has compiled so far, None) or (None, why)."""
        if not self.java_home:
            return None, "no JDK to run jcmd"
        return perfcounters.read_counter(self.java_home, server.pid, perfcounters.COMPILES)

    # -- search and confirmation --------------------------------------------------------------
    def _search(self, mode, sleep):
        config = self.config
        search = RateSearch(start_rate=config.start_rate, max_rate=config.max_rate, resolution=config.resolution)

        def work(server, url, response_bytes, session):
            measured_before = self.windows_measured
            while (rate := search.next_rate()) is not None:
                searches, confirms = self._left(sleep, mode, "search")
                # On the ramp (no miss yet) a pass only leads to a higher rate: the GC rule waits for the bisection.
                record = self._window(server, url, response_bytes, session, mode, sleep, rate, "search",
                                      len(search.steps) + 1, None, (searches, confirms), ramp=search.failed is None)
                search.record(rate, record["capacity"]["passed"])
                if server_lost(record):
                    break
            session["search"] = {"steps": search.steps, "capacity": search.capacity, "failed": search.failed,
                                 "reached_max": search.reached_max}
            self.timing["search_windows"].append(self.windows_measured - measured_before)

        self._session(mode, sleep, "search", None, work)
        bracket = f" (missed at {search.failed:,})" if search.failed else " (the --max-rate, not a limit found)"
        self.log(f"  {mode} @ {sleep}: capacity {search.capacity or 0:,} req/s{bracket if search.capacity else ''}")
        return search.capacity

    def _confirm(self, mode, sleep, repeat, rate):
        config = self.config

        def work(server, url, response_bytes, session):
            measured_before = self.windows_measured
            current = rate
            for attempt in range(CONFIRM_STEP_DOWNS + 1):
                searches, confirms = self._left(sleep, mode, "confirm", repeat)
                record = self._window(server, url, response_bytes, session, mode, sleep, current, "confirm",
                                      attempt + 1, repeat, (searches, confirms))
                if record["capacity"]["passed"] or server_lost(record):
                    break
                current = max(1, math.floor(current * (1 - config.resolution)))
            self.timing["confirm_windows"].append(self.windows_measured - measured_before)

        self._session(mode, sleep, "confirm", repeat, work)

    def _window(self, server, url, response_bytes, session, mode, sleep, rate, phase, step, repeat, left, ramp=False):
        """A window at `rate` that may count: while one met the goal with fewer young collections than
        min_young_gcs (its percentile then left out the GC pauses of the steady state), the same rate
        again for twice as long, up to max_window_s (window_verdict)."""
        config = self.config
        window_s, extends = config.duration_s, None
        while True:
            record = self._window_once(server, url, response_bytes, session, mode, sleep, rate, phase, step, repeat,
                                       left, window_s, extends, ramp)
            capacity = record["capacity"]
            if capacity.get("verdict") != RERUN_LONGER or server_lost(record):
                return record
            longer = longer_window(window_s, config.max_window_s)
            extends = {"id": record["id"], "window_s": window_s, "young_gcs": capacity["young_gcs"],
                       "why": f"met the goal with {capacity['young_gcs']} young collection(s) in {window_s} s, "
                              f"{config.min_young_gcs} needed"}
            self.log(f"    {extends['why']}: the same rate again for {longer} s")
            window_s = longer

    def _window_once(self, server, url, response_bytes, session, mode, sleep, rate, phase, step, repeat, left,
                     window_s, extends, ramp=False):
        """A window at `rate`; measured again, once, when it missed because the load tool could not keep
        the rate, or while the hypervisor took the server's CPUs (a window says nothing about the server
        then)."""
        self.windows_measured += 1
        record = self._measure_window(server, url, response_bytes, session, mode, sleep, rate, phase, step,
                                      repeat, left, window_s, extends, ramp=ramp)
        if record["capacity"]["met_goal"] or server_lost(record):
            return record
        if load_tool_failed(record):
            self.log(f"    the load tool could not keep {rate:,} req/s (vegeta at "
                     f"{record['resources']['driver']['cpu_cores']:.2f} cores): once more after its sockets drain")
            self._wait_for_time_wait(server.port, limit=TIME_WAIT_DRAINED)
        elif (stolen_share(record) or 0) > STEAL_AGAIN_SHARE:
            self.log(f"    the hypervisor took {stolen_share(record):.0%} of the server's CPUs in this window: "
                     f"once more after {HOST_REST_S} s")
            time.sleep(HOST_REST_S)
        else:
            return record
        self.windows_measured += 1
        return self._measure_window(server, url, response_bytes, session, mode, sleep, rate, phase, step, repeat,
                                    left, window_s, extends, again_of=record["id"], ramp=ramp)

    def _measure_window(self, server, url, response_bytes, session, mode, sleep, rate, phase, step, repeat, left,
                        window_s, extends, again_of=None, ramp=False):
        """One fixed-rate vegeta run: a pre-roll, then the measured window of window_s (requests due in it)."""
        config = self.config
        self.point_index += 1
        point_id = (f"{self.point_index:03d}-{mode}-{sleep.max_ms}ms-{phase}{repeat or ''}-s{step}"
                    f"{'-again' if again_of else ''}{f'-w{window_s}s' if extends else ''}-{rate}rps")
        goal_ms = config.goal_ms(sleep)
        if not process_running(server.pid):
            record = self._failed_point(point_id, session, mode, sleep, rate, phase, step, repeat, goal_ms, window_s,
                                        f"the {mode} server (pid {server.pid}) exited before this window")
            record["server_exited"] = True
            return record
        began = time.monotonic()
        sockets = self._wait_for_time_wait(server.port)
        now = time.time()
        preroll_s = config.preroll_for(sleep)
        start, end = steady_window(now, preroll_s, window_s)
        spec = LoadSpec(url=url, concurrency=1, duration_s=math.ceil(end - now), rate=rate,
                        timeout_s=config.timeout_for(sleep), side_file_prefix=self.raw / point_id, window=(start, end),
                        max_connections=connection_cap(rate, goal_ms))
        eta = self.remaining_s(*left, steps_left_now=1)
        self.log(f"[{mode} {sleep} {phase}{f' r{repeat}' if repeat else ''} step {step}] {rate:,} req/s for "
                 f"{window_s} s (+{preroll_s} s pre-roll)  (ETA {format_duration(eta)})")
        run = drive(DRIVER, self.executable, spec, server.pid, self.out_dir, config.sample_interval_s,
                    response_bytes, cpus=config.cpus)
        write_samples_csv(self.raw / f"{point_id}.samples.csv", run["samples"])
        load = run["load"]
        record = self._point(point_id, session, mode, sleep, rate, phase, step, repeat, goal_ms, run, spec)
        record["jfr"] = self._jfr_window(point_id, start, end)
        self._judge(record, window_s, ramp)
        record["client_sockets"] = sockets
        if again_of:
            record["again_of"] = again_of
        if extends:
            record["extends"] = extends
        record["full_gc_after"] = self._full_gc(server)
        if load is not None and load.latency_hdr:
            path = write_hgrm_gz(decode(load.latency_hdr), self.out_dir / HISTOGRAM_DIR / f"{point_id}.hgrm.gz")
            record["files"]["hgrm"] = str(path.relative_to(self.out_dir))
        verdict = VERDICT_TEXT[record["capacity"]["verdict"]].format(**record["capacity"])
        latency = (load.latency_ms.__dict__ if load and load.latency_ms else {})
        server_res = (record.get("resources") or {}).get("server") or {}
        self.log(f"    {config.goal.percentile} {latency.get(config.goal.percentile, float('nan')):,.1f} ms "
                 f"(goal {goal_ms:g}), errors {load.errors.total if load else '-'}, "
                 f"server CPU {server_res.get('cpu_cores', float('nan')):.2f} cores{_gc_text(record['jfr'])} -> {verdict}"
                 + (f"  [{', '.join(record['flags'])}]" if record["flags"] else ""))
        self._cool_down(server)
        self._check_server(server, mode, sleep, record, spec.max_connections)
        self.recorder.add_point(record)
        self.timing["step_s"].append(time.monotonic() - began)
        _remove([p for p in run["side_files"]])
        return record

    def _check_server(self, server, mode, sleep, record, connections):
        """After a window with failed requests: is the server still there? A server whose process
        exited, or whose process runs but answers no request, ends the session's search or round: every
        later window would only measure a closed port (Helidon 4.5.0 closed its listener on EMFILE and
        ran on; its round's later windows failed in under a millisecond each). The probe is the
        watchdog's, on a connection of its own, after the cool-down, with the watchdog's timeout for
        the window's connections: a pool that is still working off an overloaded window's backlog
        (its sleeping threads leave the CPU quiet) answers late, not never."""
        if not process_running(server.pid):
            record["server_exited"] = True
            return
        if (record.get("load") or {}).get("errors", {}).get("total", 1) == 0:
            return
        timeout_s = stall_after_s(sleep.max_ms, connections=connections)
        outcome = probe_once(server.host, server.port, server.info_path, timeout_s)
        if outcome == "answered":
            return
        why = "refused or reset" if outcome == "failed" else f"no answer in {timeout_s:g} s"
        record["server_unresponsive"] = {"probe": f"GET {server.info_path}", "outcome": outcome,
                                         "timeout_s": timeout_s}
        record["flags"].append("unresponsive")
        ended = "search" if record["phase"] == "search" else "confirmation round"
        self.log(f"    the {mode} server (pid {server.pid}) runs but did not answer GET {server.info_path} after "
                 f"this window ({why}): its {ended} ends here; see its log in servers/")

    def _point(self, point_id, session, mode, sleep, rate, phase, step, repeat, goal_ms, run, spec):
        load = run["load"]
        target = self.targets[mode]
        service_s = sleep.mean_ms / 1000.0
        record = {
            "index": self.point_index, "id": point_id, "session": session["index"], "mode": mode,
            "driver": DRIVER.name, "scenario": self.scenario.name, "phase": phase, "step": step,
            "repeat": repeat, "rate": rate, "concurrency": None,
            "sleep_min_ms": sleep.min_ms, "sleep_max_ms": sleep.max_ms, "depth": self.config.depth,
            "timeout_s": spec.timeout_s, "service_time_s": service_s, "max_concurrent": target.max_concurrent,
            "window": window_record("steady", spec.window[0], spec.window[1], epoch_s=list(spec.window),
                                    preroll_s=self.config.preroll_for(sleep),
                                    note="requests due in the window, inside one vegeta run after its pre-roll"),
            "command": run["command"],
            "load": load.to_dict() if load else None,
            "failure": run["failure"],
            "resources": run["resources"],
            "files": {"samples": f"raw/{point_id}.samples.csv", "output": f"raw/{point_id}.out"},
        }
        record["derived"] = derived(record)
        record["steadiness"] = series_stats(load.per_second_ok) if load else None
        record["flags"] = flags(record)
        if load and not_steady(load.per_second_ok):
            record["flags"].append("not-steady")
        # passed: set by _judge once the window's young collections are known.
        record["capacity"] = {"goal_ms": goal_ms, "percentile": self.config.goal.percentile,
                              "met_goal": meets_goal(record, self.config.goal.percentile, goal_ms)}
        return record

    def _judge(self, record, window_s, ramp=False):
        """Whether the window counts as meeting the goal: the goal, and enough young collections in it."""
        config = self.config
        capacity = record["capacity"]
        young = young_gcs(record.get("jfr"))
        counts, verdict = window_verdict(capacity["met_goal"], young, config.min_young_gcs, window_s,
                                         config.max_window_s, ramp)
        capacity.update({"young_gcs": young, "min_young_gcs": config.min_young_gcs, "window_s": window_s,
                         "verdict": verdict, "passed": counts})
        if verdict in VERDICT_FLAGS:
            record["flags"].append(VERDICT_FLAGS[verdict])

    def _failed_point(self, point_id, session, mode, sleep, rate, phase, step, repeat, goal_ms, window_s, why):
        record = {"index": self.point_index, "id": point_id, "session": session["index"], "mode": mode,
                  "driver": DRIVER.name, "phase": phase, "step": step, "repeat": repeat, "rate": rate,
                  "sleep_min_ms": sleep.min_ms, "sleep_max_ms": sleep.max_ms, "load": None, "failure": why,
                  "flags": ["failed"], "files": {},
                  "capacity": {"goal_ms": goal_ms, "percentile": self.config.goal.percentile, "met_goal": False,
                               "young_gcs": None, "min_young_gcs": self.config.min_young_gcs,
                               "window_s": window_s, "verdict": "missed", "passed": False}}
        self.recorder.add_point(record)
        self.log(f"    {why}")
        return record

    def _full_gc(self, server):
        """A full GC (jcmd GC.run) after the warm-up and after every window, so each window starts from
        the same heap. Without it the first young collection of the search copied everything the
        warm-up's thousand connections left alive (measured: a 1.3 s pause on one CPU in the first window,
        at 250 req/s), and a window that overloaded the server left its dead backlog to the next ones
        (young pauses of 540-865 ms at rates that had shown 50 ms before): costs of an earlier phase,
        not of the rate measured."""
        if not self.java_home:
            return None
        jcmd = str(Path(self.java_home) / "bin" / "jcmd")
        try:
            done = subprocess.run([jcmd, str(server.pid), "GC.run"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as e:
            self.log(f"  full GC after the warm-up failed: {e}")
            return False
        if done.returncode != 0:
            self.log(f"  full GC after the warm-up failed: {done.stdout.strip().splitlines()[-1:] or done.returncode}")
            return False
        return True

    def _jfr_window(self, point_id, window_start, window_end):
        """The window's GC pauses, heap and pinning from the session's JFR recording. The dump is read
        and deleted (megabytes per window); the figures stay in the point record."""
        if self.jfr is None:
            return {"available": False, "error": "not recorded"}
        if not self.jfr.running:
            return {"available": False, "error": self.jfr.error}
        path = self.raw / f"{point_id}.jfr"
        try:
            if not self.jfr.dump(path, window_start):
                return {"available": False, "error": self.jfr.error}
            return self.jfr.read_window(path, window_start, window_end)
        finally:
            path.unlink(missing_ok=True)

    def _wait_for_time_wait(self, port, limit=None):
        """Waits while more client sockets to `port` than `limit` are in TIME_WAIT; returns what it saw."""
        limit = TIME_WAIT_LIMIT if limit is None else limit
        began = time.monotonic()
        count = time_wait_sockets(port)
        while count is not None and count > limit and time.monotonic() - began < TIME_WAIT_MAX_WAIT_S:
            time.sleep(2)
            count = time_wait_sockets(port)
        return {"time_wait_at_start": count, "waited_s": round(time.monotonic() - began, 1)}

    def _cool_down(self, server):
        """cooldown_s, then until the server's CPU is quiet (at most QUIET_MAX_S)."""
        time.sleep(self.config.cooldown_s)
        deadline = time.monotonic() + QUIET_MAX_S
        before = read_process(server.pid)
        while before is not None and time.monotonic() < deadline:
            time.sleep(1.0)
            after = read_process(server.pid)
            if after is None or after.cpu_s - before.cpu_s < QUIET_CORES:
                return
            before = after


def server_lost(record):
    """True when a window left no server to measure: it exited, or stopped answering (_check_server)."""
    return bool(record.get("server_exited") or record.get("server_unresponsive"))


def meets_goal(record, percentile, goal_ms):
    """The goal: a complete window, no failed request, and the window's percentile at most goal_ms."""
    load = record.get("load")
    if not load or load["errors"]["total"] or not load.get("latency_ms") or not load.get("complete", True):
        return False
    return load["latency_ms"][percentile] <= goal_ms


def young_gcs(jfr):
    """Young collections in the window from its JFR figures; None when not known (no JFR, runs made
    before the count, a single-generation collector)."""
    if not jfr or not jfr.get("available"):
        return None
    return jfr.get("young_gc_count")


def window_verdict(met_goal, young, min_young_gcs, window_s, max_window_s, ramp=False):
    """(counts as meeting the goal, verdict) of a window. A window that missed the goal missed it,
    whatever its collections (failing is conservative). One that met it counts only with at least
    min_young_gcs young collections in it; with fewer it is re-run longer (RERUN_LONGER) until
    window_s reaches max_window_s, where it counts, flagged few-gcs: a target that allocates so little
    that it collects less than that in the longest window has no steady-state pause the window misses.
    With the count unknown it counts on the goal alone, as before the rule (flagged gcs-unknown).
    On the search's doubling ramp (`ramp`) a window that met the goal with too few counts at once
    (met-ramp): it only sends the search to a higher rate, and the rate finally reported comes from
    the bisection and the confirmation rounds, which keep the rule. This spares the long windows the
    low rates need (at 250 req/s a Payara collected once in 120 s)."""
    if not met_goal:
        return False, "missed"
    if min_young_gcs <= 0 or (young is not None and young >= min_young_gcs):
        return True, "met"
    if young is None:
        return True, "met-gcs-unknown"
    if ramp:
        return True, "met-ramp"
    if window_s >= max_window_s:
        return True, "met-few-gcs"
    return False, RERUN_LONGER


def longer_window(window_s, max_window_s):
    """The next window of a re-run for too few young collections: twice as long, at most the cap."""
    return min(2 * window_s, max_window_s)


def derived(record):
    """CPU per request (server CPU ms per 2xx answer) and the Little's-law ceiling of the target."""
    load = record.get("load") or {}
    server = (record.get("resources") or {}).get("server") or {}
    cores, ok_rps = server.get("cpu_cores"), load.get("ok_rps")
    ceiling = record["max_concurrent"] / record["service_time_s"] if record.get("max_concurrent") else None
    return {
        # cores ÷ req/s, both over the same window: the server's CPU time per answered request.
        "cpu_ms_per_request": round(cores / ok_rps * 1000, 4) if cores is not None and ok_rps else None,
        "ceiling_rps": round(ceiling, 1) if ceiling else None,
    }


def stolen_share(record):
    """The share of the server's CPUs' time the hypervisor gave other guests in the window, or None
    when it was not measured (sampler.summarize)."""
    return ((record.get("resources") or {}).get("machine") or {}).get("server_cpus_steal_share")


def load_tool_failed(record):
    """True when the load tool, not the server, set the window's pace: vegeta used its whole core and
    sent requests late (flags client-bound and driver-behind)."""
    return {"client-bound", "driver-behind"} <= set(record.get("flags", []))


def connection_cap(rate, goal_ms):
    """vegeta's connection bound for a window at `rate` with a latency goal of `goal_ms`."""
    wanted = math.ceil(rate * goal_ms / 1000 * CONNECTIONS_PER_GOAL)
    return min(MAX_CONNECTIONS_OPEN_MODEL, max(MIN_CONNECTIONS, wanted))


def time_wait_sockets(port, tables=("/proc/net/tcp", "/proc/net/tcp6")):
    """Sockets in TIME_WAIT whose remote end is `port` (the load tool's side of closed connections to
    the server), or None when /proc/net/tcp cannot be read."""
    wanted = f":{port:04X}"
    count, read_any = 0, False
    for table in tables:
        try:
            with open(table) as f:
                next(f, None)
                for line in f:
                    fields = line.split()
                    if len(fields) > 3 and fields[3] == "06" and fields[2].endswith(wanted):
                        count += 1
            read_any = True
        except OSError:
            continue
    return count if read_any else None


def _gc_text(jfr):
    from labkit.capacity.report import gc_pauses_text
    return f", GC pauses {gc_pauses_text(jfr)}" if jfr and jfr.get("available") else ""


def warm_up_sleep(sleep):
    """The sleep of the warm-up's requests: the search's, at most WARMUP_SLEEP_MAX_MS."""
    return SleepSpec(min(sleep.min_ms, WARMUP_SLEEP_MAX_MS), min(sleep.max_ms, WARMUP_SLEEP_MAX_MS))


def _level(sleep):
    from labkit.load.levels import LoadLevel
    return LoadLevel(1, sleep)


def _remove(paths):
    """Raw vegeta result files are large (tens of MB per window): the histograms keep what counts."""
    for path in paths:
        if str(path).endswith(".vegeta.bin"):
            Path(path).unlink(missing_ok=True)


class CapacityRecorder(PointLog):
    """The run's record, written as it goes (points.jsonl) and in full at the end (results.json)."""

    def __init__(self, out_dir, config, env):
        super().__init__(out_dir, SCHEMA, config, env, orders=[])

    def add_order(self, sleep, repeat, order):
        self.run["orders"].append({"sleep_min_ms": sleep.min_ms, "sleep_max_ms": sleep.max_ms, "repeat": repeat,
                                   "modes": list(order)})

    def finish(self, state, error=None):
        from labkit.capacity.report import write_all
        self._close(state, error)
        return write_all(self.run, self.out_dir)


SCHEMA = "loomlab.capacity/1"
