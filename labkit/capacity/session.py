"""One fresh server of ./lab capacity, ready for windows: started, probed, recorded by JFR, warmed up,
collected and rested; then the search's or a round's windows run against it, and it is stopped (in
a `finally`) with its log kept and its session recorded."""
import time
from dataclasses import dataclass, field

from labkit.load.levels import LoadLevel
from labkit.measure.measured_server import MeasuredServer
from labkit.measure.reference import measure_reference
from labkit.measure.watchdog import stall_after_s
from labkit.measure.session import feed_of, probe
from labkit.ground.errors import LabError
from labkit.load.requests_mix import check_answers, mean_answer_bytes
from labkit.capacity.between import cool_down, full_gc_of
from labkit.capacity.config import warm_up_sleep
from labkit.capacity.recovery import idle_latency, probe_path
from labkit.capacity.warmup import warm_up


@dataclass
class ServerSession:
    """A server the windows of one search or one confirmation round run against. After a collapse it
    did not recover from (recovery.py), restart() puts a fresh server in its place, in this same
    object, so the search's or round's loop goes on where it was."""
    measured: MeasuredServer       # the server, its record (results.json "sessions") and JFR recording
    url: str                       # what each window requests
    response_bytes: int            # the probe's answer size (the load tool checks it)
    idle: dict | None = None       # its answer time at rest after the warm-up (recovery.idle_latency)
    restarts: int = 0              # fresh servers started in this search or round after a collapse
    restart: object = field(default=None, repr=False)  # restart(why): a fresh server in this one's place

    @property
    def server(self):
        """A labkit.servers.interface.ServerHandle."""
        return self.measured.server

    @property
    def record(self):
        return self.measured.record

    @property
    def jfr(self):
        """The server's JFR recording; None: not recorded."""
        return self.measured.jfr

    @property
    def index(self):
        return self.record["index"]


class ServerSessions:
    """Starts each target fresh for a search or a round, numbering the sessions of the run."""

    def __init__(self, context):
        self.context = context
        self.count = 0

    def run(self, mode, sleep, phase, repeat, work):
        """Starts `mode` fresh, probes and warms it up, then runs `work(ServerSession)`; stops it after."""
        session = self._open(mode, sleep, phase, repeat)
        try:
            work(session)
        finally:
            self._close(session)

    def _restart(self, session, mode, sleep, phase, repeat, why):
        self.context.log(f"  restarting {mode}: {why}")
        session.record["ended"] = f"restarted: {why}"
        self._close(session)
        fresh = self._open(mode, sleep, phase, repeat, restart_of=session.index)
        for name in ("measured", "url", "response_bytes", "idle"):
            setattr(session, name, getattr(fresh, name))
        session.restarts += 1

    def _open(self, mode, sleep, phase, repeat, restart_of=None):
        """A fresh server of `mode`: started, probed, recorded by JFR, warmed up, collected and rested."""
        context, config = self.context, self.context.config
        target = context.targets[mode]
        self.count += 1
        label = f"{self.count:02d}-{mode}-{sleep.max_ms}ms-{phase}" + (f"-r{repeat}" if repeat else "")
        if config.reference:
            _reference(context, f"{mode} {phase}{f' {repeat}' if repeat else ''}")
        context.log(f"starting {mode} ({phase}{f' {repeat}' if repeat else ''}, sleep {sleep}): {target.description} "
                    f"on port {config.setup.port}")
        record = {"index": self.count, "mode": mode, "phase": phase, "repeat": repeat or None,
                  "sleep_min_ms": sleep.min_ms, "sleep_max_ms": sleep.max_ms,
                  **({"restart_of": restart_of} if restart_of is not None else {})}
        measured = MeasuredServer.start(target, config.setup, record=record, out_dir=context.out_dir, log_label=label,
                                        on_close=context.recorder.add_session)
        session = ServerSession(measured, "", 0)
        session.restart = lambda why: self._restart(session, mode, sleep, phase, repeat, why)
        server = measured.server
        try:
            context.timing["start_s"].append(record["start_s"])
            path = context.scenario.path(config, LoadLevel(1, sleep))
            session.response_bytes = _probe(context.scenario, server, path, mode)
            session.url = server.base_url + path
            if context.java_home:
                # With its execution samples: a window whose limit is the CPU names where the time went.
                measured.record_jfr(context.java_home, context.raw, profile=True, locks=config.jfr_locks,
                                    note=lambda why: context.log(f"  JFR unavailable for this server ({why}): GC pauses left out"))
            warm = warm_up_sleep(sleep)
            if warm != sleep:
                context.log(f"  warming up at a {warm} sleep: the same code path as {sleep}, at rates the windows reach")
            record["warmup"] = warm_up(context, server, context.scenario.path(config, LoadLevel(1, warm)), label,
                                       session.response_bytes)
            record["warmup"]["sleep_ms"] = [warm.min_ms, warm.max_ms]
            record["warmup"]["full_gc"] = full_gc_of(server, context)
            # The warm-up ends with a thousand connections closing and its requests still in flight:
            # the first window must start from the same rest as every later one.
            cool_down(server.pid, config.cooldown_s, feed_of(server))
            session.idle = record["idle"] = idle_latency(server, probe_path(session, context.scenario),
                                                         stall_after_s(sleep.max_ms))
        except BaseException:
            self._close(session)
            raise
        return session

    def _close(self, session):
        """Stops the server once, keeps its log and records the session (MeasuredServer.close)."""
        session.measured.close()


def _reference(context, before):
    """The host-speed reference before a session (measure/reference.py), recorded in env.json."""
    began = time.monotonic()
    record = measure_reference(context.config, context.executable, before, context.config.duration_s)
    context.timing["reference_s"].append(time.monotonic() - began)
    context.recorder.add_reference(record)
    if record.get("error"):
        context.log(f"  host-speed reference not measured: {record['error']}")
    else:
        context.log(f"  host-speed reference: {record['cpu_ms_per_request']:.4f} ms CPU per request "
                    f"({record['ok_rps']:,.0f} req/s)")


def _probe(scenario, server, path, mode):
    """Before the search: the sleep endpoint answers 2xx, or each of your requests does (else the run
    stops and shows the answer); the answer's size turns the tool's read bytes into req/s."""
    if scenario.requests is None:
        return probe(server, path, mode)
    try:
        sizes = check_answers(server.base_url, scenario.requests)
    except LabError as e:
        raise LabError(f"{mode}: {e}") from None
    return mean_answer_bytes(scenario.requests, sizes)
