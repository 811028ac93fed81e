"""The plan of ./lab capacity and its ETA. For each sleep:

1. search: each target on a fresh server, warmed up until its throughput is steady and its JIT
   quiet (steadiness.warmup_end), then fixed-rate windows
   (open model, vegeta) from a doubling ramp and a bisection (search.py) to the highest rate
   whose latency meets the goal without errors;
2. confirm: `repeats` rounds; in each, every target on a fresh server (warmed up again) walks from
   its found rate, the target order rotated from round to round (recorded): a window that meets the
   goal is followed by one `resolution` higher, one that misses by one `resolution` lower, until the
   verdict turns (down: after CONFIRM_WALK_STEPS steps at most; up: at --max-rate at most). A round can
   thus end above the search's rate as well as below it, so the rounds' spread is the capacity's, not
   the search's step.

With several goals (--slo p99=+50ms,+5%,...) the search bisects for the main goal first, then, on the
same server, for each other goal whose capacity the windows so far do not settle (goals.py: a window
decides every goal its latency and young collections can); each round then walks once per goal.

Every window starts from the same state (between.py): a full GC, rest until the server is quiet, the
load tool's closed sockets drained below a bound; a window the load tool could not drive (vegeta at a
full core and late) is measured once more (`-again`) after its sockets drain, and so is one that
missed the goal while the hypervisor took more than STEAL_AGAIN_SHARE of the server's CPUs (steal),
after a rest (verdicts.measure_again).

Because every window starts with an empty young generation (Payara: -Xmn2g), a short window at a
moderate rate can hold no young collection at all, and its percentile then leaves out the pauses of
the steady state. So a window counts as meeting the goal only with min_young_gcs young collections
in it (JFR); one that met the goal with fewer is measured again at the same rate for twice as long
(`-wNNs`), up to max_window_s, where it counts, flagged few-gcs (verdicts.window_verdict).

A window with failed requests is followed by one probe on a connection of its own (the watchdog's):
a server whose process exited or answers nothing ends its search or round there, flagged unresponsive.
A window that collapsed (failed requests, or its percentile at several times the goal) is followed by
probes until the server answers at its idle latency again, or by a fresh server in its place
(recovery.py): no rate is judged on a server an earlier window broke.

Servers, load runs and /proc sampling are the measurement layer's (labkit/measure/session.py); every
window is a point record in the bench's layout plus capacity fields (points.py). Every process started
here is stopped in a `finally` (session.py).
"""
from pathlib import Path

from labkit.catalog import scenario as find_scenario
from labkit.load.scenarios import requests_scenario
from labkit.measure.plan import rotated
from labkit.measure.reference import reference_lengths
from labkit.capacity.config import CONFIRM_WALK_STEPS
from labkit.capacity.context import RunContext
from labkit.capacity.goals import verdict_at
from labkit.capacity.search import RateSearch
from labkit.capacity.session import ServerSessions
from labkit.capacity.verdicts import server_lost
from labkit.capacity.window import Window
from labkit.capacity.windows import WindowMeasurer

# Rough window counts of one search and of one confirmation round (its walk and longer re-runs), per
# goal, for the first ETA; refined as searches and rounds finish. Run 1 at 100 ms: 10.3 and 2.0 (a
# round then only went down; one that holds now takes a step up as well).
EXPECTED_SEARCH_WINDOWS = 10
EXPECTED_CONFIRM_WINDOWS = 2.5
EXPECTED_BISECTION_WINDOWS = 3
# Seconds beside one host-speed reference's warm-up and window (a JDK server's start), before any is
# measured. A warm-up's guess is the middle of its bounds: Payara's took 80-123 s of at most 180 at
# 100 ms, the JDK server's 34 s; the minimum alone made a first ETA of 44 min for a run of 53.
REFERENCE_START_S = 5


def _scenario(config, out_dir):
    """The sleep endpoint, or your requests (--request/--requests), whose bodies the load tool reads
    from files kept with the results."""
    if config.requests is None:
        return find_scenario(config.scenario)
    return requests_scenario(config.requests.with_body_files(Path(out_dir) / "raw" / "requests"))


class CapacityRunner:
    def __init__(self, config, targets, executable, recorder, java_home=None, log=print):
        self.config = config
        # java_home: jcmd (full GCs, the JIT's compile count) and JFR per window; None: neither.
        self.context = RunContext(config, targets, _scenario(config, recorder.out_dir), executable, recorder,
                                  java_home, log)
        self.log = log
        self.timing = self.context.timing
        self.sessions = ServerSessions(self.context)
        self.windows = WindowMeasurer(self.context, self._eta)

    # -- the plan -----------------------------------------------------------------------------
    def run(self):
        config = self.config
        for sleep in config.sleeps:
            found = {}
            for mode in config.modes:
                found[mode] = self._search(mode, sleep)
            for repeat in range(1, config.repeats + 1):
                order = rotated(config.modes, repeat - 1)
                self.context.recorder.add_order(sleep, repeat, order)
                for mode in order:
                    if any(found[mode].values()):
                        self._confirm(mode, sleep, repeat, found[mode])

    def remaining_s(self, searches_left, confirms_left, steps_left_now=0):
        """Seconds still to go: host-speed references, server starts, warm-ups and windows (averages
        measured so far)."""
        avg = lambda values, guess: sum(values) / len(values) if values else guess
        config = self.config
        reference = (avg(self.timing["reference_s"], REFERENCE_START_S + sum(reference_lengths(config.duration_s)))
                     if config.reference else 0)
        session = (reference + avg(self.timing["start_s"], 20)
                   + avg(self.timing["warmup_s"], (config.warmup_min_s + config.warmup_max_s) / 2))
        step = avg(self.timing["step_s"], config.preroll_for(config.sleeps[0]) + config.duration_s + 8)
        # Each goal beyond the main one: a few more bisection windows, and one more walk per round.
        goals = len(config.goals)
        search = avg(self.timing["search_windows"], EXPECTED_SEARCH_WINDOWS + EXPECTED_BISECTION_WINDOWS * (goals - 1))
        confirm = avg(self.timing["confirm_windows"], EXPECTED_CONFIRM_WINDOWS * goals)
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

    def _eta(self, window):
        """Seconds still to go with `window` about to be measured."""
        return self.remaining_s(*self._left(window.sleep, window.mode, window.phase, window.repeat or 0),
                                steps_left_now=1)

    def _first_window(self, mode, sleep, phase, step, repeat, rate, ramp=False, goal_ms=None):
        config = self.config
        return Window(mode=mode, sleep=sleep, phase=phase, step=step, repeat=repeat, rate=rate,
                      window_s=config.duration_s, goal_ms=config.goal_ms(sleep) if goal_ms is None else goal_ms,
                      ramp=ramp)

    # -- search and confirmation --------------------------------------------------------------
    def _search(self, mode, sleep):
        """{goal limit: capacity found (None: none)} of one search on one server, the main goal's first."""
        config = self.config
        limits = config.goal_limits(sleep)
        searches = {limit: RateSearch(start_rate=config.start_rate, max_rate=config.max_rate,
                                      resolution=config.resolution) for limit in limits}

        def work(session):
            measured_before = self.windows.measured
            step = 0
            lost = False
            for limit in limits:
                search = searches[limit]
                while not lost and (rate := search.next_rate()) is not None:
                    step += 1
                    # On the ramp (no miss yet) a pass only leads to a higher rate: the GC rule waits for the bisection.
                    window = self._first_window(mode, sleep, "search", step, None, rate, ramp=search.failed is None,
                                                goal_ms=limit)
                    record = self.windows.measure(session, window)
                    self._record_verdicts(searches, limit, record)
                    lost = server_lost(record)
            main = searches[limits[0]]
            session.record["search"] = {"steps": main.steps, "capacity": main.capacity,
                                        "failed": main.failed, "reached_max": main.reached_max}
            if len(limits) > 1:
                session.record["search"]["goals"] = [
                    {"goal_ms": limit, "capacity": searches[limit].capacity, "failed": searches[limit].failed,
                     "reached_max": searches[limit].reached_max} for limit in limits]
            self.timing["search_windows"].append(self.windows.measured - measured_before)

        self.sessions.run(mode, sleep, "search", None, work)
        for limit, search in searches.items():
            bracket = f" (missed at {search.failed:,})" if search.failed else " (the --max-rate, not a limit found)"
            at_goal = f" at {limit:g} ms" if len(searches) > 1 else ""
            self.log(f"  {mode} @ {sleep}{at_goal}: capacity {search.capacity or 0:,} req/s"
                     f"{bracket if search.capacity else ''}")
        return {limit: search.capacity for limit, search in searches.items()}

    def _record_verdicts(self, searches, measured_for, record):
        """A window measured for one goal's search tells every other search what it can (goals.verdict_at)."""
        config = self.config
        for limit, search in searches.items():
            if limit == measured_for:
                search.record(record["rate"], record["capacity"]["passed"])
                continue
            verdict = verdict_at(record, config.goal.percentile, limit, config.min_young_gcs, config.max_window_s)
            if verdict is not None:
                search.record(record["rate"], verdict)

    def _confirm(self, mode, sleep, repeat, found):
        """One round on a fresh server: per goal (`found`: {goal limit: rate}), a walk from its found rate."""
        def work(session):
            measured_before = self.windows.measured
            for limit, rate in found.items():
                if rate and self._walk(session, self._first_window(mode, sleep, "confirm", 1, repeat, rate,
                                                                   goal_ms=limit)):
                    break
            self.timing["confirm_windows"].append(self.windows.measured - measured_before)

        self.sessions.run(mode, sleep, "confirm", repeat, work)

    def _walk(self, session, window):
        """Up from a window that met the goal until one misses, down from one that missed until one
        holds (at most CONFIRM_WALK_STEPS steps), one `resolution` at a time. Returns True when the
        server was lost."""
        record = self.windows.measure(session, window)
        upward = record["capacity"]["passed"]
        steps_down = 0
        while not server_lost(record) and record["capacity"]["passed"] == upward:
            if upward:
                if window.rate >= self.config.max_rate:   # the search stopped there, and so does the walk
                    break
                window = window.higher(self.config.resolution, self.config.max_rate)
            else:
                if steps_down >= CONFIRM_WALK_STEPS:
                    break
                window, steps_down = window.lower(self.config.resolution), steps_down + 1
            record = self.windows.measure(session, window)
        return server_lost(record)
