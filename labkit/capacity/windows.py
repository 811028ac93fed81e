"""The window loop of ./lab capacity: one fixed-rate vegeta run per window on a warmed-up server,
its point record judged (verdicts.py) and written; the same rate again for longer while a window met
the goal with too few young collections; a window measured once more when the load tool or the host,
not the server, set its pace.
"""
import math
import time
from dataclasses import replace

from labkit.load.tools import LoadSpec
from labkit.measure.histograms import HISTOGRAM_DIR, decode, write_hgrm_gz
from labkit.measure.plan import format_duration
from labkit.measure.sampler import process_running, write_samples_csv
from labkit.measure.flamegraph import folded_stacks, stacks_wanted
from labkit.measure.session import drive, feed_of, steady_window
from labkit.measure.watchdog import stall_after_s
from labkit.servers.external import TARGET_NAME as URL_TARGET
from labkit.servers.userapp import mode_proof, probe_info
from labkit.capacity.between import TIME_WAIT_DRAINED, check_server, cool_down, full_gc_of, wait_for_time_wait
from labkit.capacity.context import DRIVER, remove_raw_results
from labkit.capacity.limits import point_limits
from labkit.capacity.points import failed_point, gc_pauses_text, window_point
from labkit.capacity.recovery import MAX_RESTARTS, RECOVERY_MAX_S, await_recovery, collapsed
from labkit.capacity.verdicts import (
    HOST_REST_S,
    LOAD_TOOL,
    RERUN_LONGER,
    VERDICT_TEXT,
    judge as judge_record,
    measure_again,
    server_lost,
    stolen_share,
)


class WindowMeasurer:
    """Measures windows (window.Window) on server sessions (session.ServerSession) and records them."""

    def __init__(self, context, eta):
        self.context = context
        # eta(window): seconds the run has left with `window` about to start (the runner's plan knows).
        self.eta = eta
        self.points = 0     # point records made so far (each record's index is its number)
        self.measured = 0   # windows measured, each measurement again included

    def measure(self, session, window):
        """A window that may count: while one met the goal with fewer young collections than
        min_young_gcs (its percentile then left out the GC pauses of the steady state), the same rate
        again for twice as long, up to max_window_s (verdicts.window_verdict). Returns the last record."""
        while True:
            record = self.measure_with_again(session, window)
            capacity = record["capacity"]
            if capacity.get("verdict") != RERUN_LONGER or server_lost(record):
                return record
            window = window.longer(capacity, record["id"], self.context.config.max_window_s)
            self.context.log(f"    {window.extends['why']}: the same rate again for {window.window_s} s")

    def measure_with_again(self, session, window):
        """A window; measured again, once, when it missed because the load tool could not keep the rate,
        or while the hypervisor took the server's CPUs (a window says nothing about the server then)."""
        self.measured += 1
        record = self.measure_once(session, window)
        why = measure_again(record)
        if why is None:
            return record
        if why == LOAD_TOOL:
            self.context.log(f"    the load tool could not keep {window.rate:,} req/s (vegeta at "
                             f"{record['resources']['driver']['cpu_cores']:.2f} cores): once more after its sockets drain")
            wait_for_time_wait(session.server.port, limit=TIME_WAIT_DRAINED)
        else:
            self.context.log(f"    the hypervisor took {stolen_share(record):.0%} of the server's CPUs in this window: "
                             f"once more after {HOST_REST_S} s")
            time.sleep(HOST_REST_S)
        self.measured += 1
        return self.measure_once(session, window.again(record["id"]))

    def measure_once(self, session, window):
        """One fixed-rate vegeta run: a pre-roll, then the measured window of window_s (requests due in
        it); then a full GC and a rest, and whether the server is still there."""
        context, config = self.context, self.context.config
        server = session.server
        self.points += 1
        point_id = window.point_id(self.points)
        if not process_running(server.pid, feed_of(server)):
            why = f"the {window.mode} server (pid {server.pid}) exited before this window"
            record = {**failed_point(context, self.points, point_id, session.index, window, why), "server_exited": True}
            context.recorder.add_point(record)
            context.log(f"    {why}")
            return record
        began = time.monotonic()
        sockets = wait_for_time_wait(server.port)
        now = time.time()
        preroll_s = config.preroll_for(window.sleep)
        start, end = steady_window(now, preroll_s, window.window_s)
        spec = LoadSpec(url=session.url, concurrency=1, duration_s=math.ceil(end - now), rate=window.rate,
                        timeout_s=config.timeout_for(window.sleep), side_file_prefix=context.raw / point_id,
                        window=(start, end), max_connections=window.connections, requests=context.scenario.requests)
        context.log(f"[{window.heading}] {window.rate:,} req/s for {window.window_s} s (+{preroll_s} s pre-roll)  "
                    f"(ETA {format_duration(self.eta(window))})")
        # Your WARs (--war): the probe WAR's pool counters around the window, as ./lab bench shows them.
        before = probe_info(server) if config.setup.wars else None
        run = drive(DRIVER, context.executable, spec, server.pid, context.out_dir, config.sample_interval_s,
                    session.response_bytes, cpus=config.setup.cpus, feed=feed_of(server),
                    load_hosts=config.setup.load_hosts)
        if run.get("window"):  # the load hosts started late: the window moved with them
            start, end = run["window"]
            spec = replace(spec, window=(start, end))
        write_samples_csv(context.raw / f"{point_id}.samples.csv", run["samples"])
        load = run["load"]
        record = window_point(context, self.points, point_id, session.index, window, run, spec)
        if run.get("window_moved_s"):
            record["window"]["moved_s"] = run["window_moved_s"]
        if before is not None:
            record["mode_proof"] = mode_proof(before, probe_info(server), load.responses if load else 0,
                                              context.targets[window.mode].virtual)
        record["jfr"], dump = self._jfr_window(session, point_id, start, end)
        try:
            self.judge(record, window)
            limits = point_limits(context.recorder.run, record, session.record)
            if limits is not None:
                record["limit"] = limits
                if dump is not None and stacks_wanted(limits):
                    record["jfr"]["cpu_stacks"] = folded_stacks(context.java_home, dump, start, end)
        finally:
            if dump is not None:
                dump.unlink(missing_ok=True)
        record["client_sockets"] = sockets
        if window.again_of:
            record["again_of"] = window.again_of
        if window.extends:
            record["extends"] = dict(window.extends)
        record["full_gc_after"] = full_gc_of(server, context)
        if load is not None and load.latency_hdr:
            path = write_hgrm_gz(decode(load.latency_hdr), context.out_dir / HISTOGRAM_DIR / f"{point_id}.hgrm.gz")
            record["files"]["hgrm"] = str(path.relative_to(context.out_dir))
        self._log_result(record, window, load)
        cool_down(server.pid, config.cooldown_s, feed_of(server))
        check_server(server, window.mode, window.sleep, record, spec.max_connections, context.log)
        restart = self.after_collapse(session, window, record, spec.max_connections)
        context.recorder.add_point(record)
        context.timing["step_s"].append(time.monotonic() - began)
        remove_raw_results(run["side_files"])
        if restart:
            session.restart(f"not back at its idle latency {RECOVERY_MAX_S} s after window {point_id}")
        return record

    def after_collapse(self, session, window, record, connections):
        """After a window that collapsed: wait for the server to answer at its idle latency again
        (recovery.py). Returns True when it must be restarted; one that did not come back after a
        restart ends its search or round (server_not_recovered, as server_lost reads it)."""
        config, log = self.context.config, self.context.log
        if (server_lost(record) or session.idle is None or session.idle["ms"] is None
                or not collapsed(record, config.goal.percentile, window.goal_ms)):
            return False
        timeout_s = stall_after_s(window.sleep.max_ms, connections=connections)
        recovery = await_recovery(session.server, session.idle, timeout_s)
        record["recovery"] = recovery
        record["flags"].append("collapsed")
        back = (f"probes {recovery['median_ms']} ms" if recovery["median_ms"] is not None
                else f"probes {', '.join(map(str, recovery['probes_ms']))}")
        if recovery["recovered"]:
            recovery["outcome"] = "recovered"
            log(f"    collapsed; back at rest after {recovery['waited_s']:g} s ({back}, idle {recovery['idle_ms']} ms)")
            return False
        # A server the lab did not start (--url) is not the lab's to restart.
        if session.restarts < MAX_RESTARTS and window.mode != URL_TARGET:
            recovery["outcome"] = "restarted"
            log(f"    collapsed and not back at rest after {recovery['waited_s']:g} s ({back}, idle "
                f"{recovery['idle_ms']} ms): the next window runs on a fresh server")
            return True
        recovery["outcome"] = "not-recovered"
        record["server_not_recovered"] = True
        record["flags"].append("not-recovered")
        ended = "search" if record["phase"] == "search" else "confirmation round"
        log(f"    collapsed and not back at rest after {recovery['waited_s']:g} s ({back}): its {ended} ends here")
        return False

    def judge(self, record, window):
        """Whether the window counts as meeting the goal: the goal, and enough young collections in it."""
        config = self.context.config
        judge_record(record, window.window_s, config.min_young_gcs, config.max_window_s, window.ramp)

    def _log_result(self, record, window, load):
        percentile = self.context.config.goal.percentile
        verdict = VERDICT_TEXT[record["capacity"]["verdict"]].format(**record["capacity"])
        latency = (load.latency_ms.__dict__ if load and load.latency_ms else {})
        server = (record.get("resources") or {}).get("server") or {}
        jfr = record["jfr"]
        gc_text = f", GC pauses {gc_pauses_text(jfr)}" if jfr and jfr.get("available") else ""
        limit = record.get("limit")
        self.context.log(f"    {percentile} {latency.get(percentile, float('nan')):,.1f} ms "
                         f"(goal {window.goal_ms:g}), errors {load.errors.total if load else '-'}, "
                         f"server CPU {server.get('cpu_cores', float('nan')):.2f} cores{gc_text} -> {verdict}"
                         + (f"  [{', '.join(record['flags'])}]" if record["flags"] else "")
                         + (f"; limit: {', '.join([limit['limit'], *limit['also']])}" if limit else ""))

    def _jfr_window(self, session, point_id, window_start, window_end):
        """The window's GC pauses, heap, pinning and top methods from the session's JFR recording, and
        the dump they were read from (None when there is none), for the caller to fold a CPU-bound
        window's stacks from and then delete (megabytes per window; the figures stay in the record)."""
        jfr = session.jfr
        if jfr is None:
            return {"available": False, "error": "not recorded"}, None
        if not jfr.running:
            return {"available": False, "error": jfr.error}, None
        path = self.context.raw / f"{point_id}.jfr"
        if not jfr.dump(path, window_start):
            path.unlink(missing_ok=True)
            return {"available": False, "error": jfr.error}, None
        try:
            return jfr.read_window(path, window_start, window_end), path
        except BaseException:
            path.unlink(missing_ok=True)
            raise
