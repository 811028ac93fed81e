"""Scenarios: what a bench point requests, and how long one request takes when nothing queues.

A point of a run is (repeat, target, heap, driver, load level); the scenario gives its request
(path, method, body, headers) and the service time its Little's-law ceiling is computed from.
Everything else (drivers, sampling, report) is the same for every scenario.

Extension point: to bench another page, register a Scenario here (or in a module that
labkit/catalog.py loads and that calls `register(...)` when imported, as labkit/apps/cargotracker.py
does) with
- `name`: the value of `./lab bench --scenario NAME`;
- `description`: what it requests and why, in a sentence;
- `path`: a function of the BenchConfig and the LoadLevel (concurrency, sleep) returning the
  request path, e.g. `lambda config, level: "/track.xhtml?trackingId=LOOM0004"`;
- `service_time_s`: function of the same two giving the time one request needs alone
  (seconds), used for the Little's-law ceiling; return None when unknown (the report then shows
  no ceiling and no efficiency);
- `targets`: the default targets that serve this scenario, used when --modes is not given (e.g.
  CargoTracker's, which labkit/apps/cargotracker.py registers in labkit/servers/registry.py's catalogue);
  None = the Payara modes;
- `uses_sleep`: whether --sleep/--depth mean anything for it (they are shown in the report);
- `default_sleep`: the sleep when --sleep is not given (None: the bench's default);
- `body_file`: a file every request sends as its body (the requests are then POSTs of it, sent
  natively by each load tool: bombardier --body-file, ab -p, wrk's wrk.body, vegeta's target body);
- `pool_seconds`: for a request that fans out to a shared pool of threads, the thread-seconds it
  keeps that pool busy; on a target whose pool is bounded (a platform pool of max_concurrent
  threads) the ceiling is then also pool size ÷ pool_seconds (results.little_ceiling).
- `headers`: a function of the BenchConfig returning request headers ("Name: value"), e.g. the
  login of a page that needs one; read when a server is up, and redacted in every record.
Nothing in runner.py, results.py or report.py changes for a new scenario.
"""
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from labkit.load.levels import SleepSpec


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    path: Callable = None            # path(config, level) -> "/api/..."
    service_time_s: Callable = None  # service_time_s(config, level) -> float | None
    targets: tuple | None = None
    uses_sleep: bool = False
    default_sleep: SleepSpec | None = None
    body_file: Path | None = None
    pool_seconds: Callable = None    # pool_seconds(config, level) -> float | None
    headers: Callable = None         # headers(config) -> ("Authorization: Basic ...",)
    requests: object = None          # your own requests (requests_mix.RequestMix): the drivers send these

    @property
    def method(self):
        if self.requests is not None and self.requests.single:
            return self.requests.single.method
        return "POST" if self.body_file else "GET"

    def headers_for(self, config):
        return tuple(self.headers(config)) if self.headers else ()


SCENARIOS: dict[str, Scenario] = {}

def register(scenario):
    SCENARIOS[scenario.name] = scenario
    return scenario


def requests_scenario(mix):
    """The scenario of --request/--requests: your requests, as given (not registered: it exists for one run)."""
    return Scenario(
        name="requests",
        description="your requests: " + mix.describe(),
        path=lambda config, level: mix.requests[0].path,
        service_time_s=lambda config, level: None,  # your application's own work: no service time to compare with
        requests=mix,
    )


def _sleep_path(config, level):
    sleep = level.sleep
    if sleep.is_fixed:
        return f"/api/sleep?ms={sleep.min_ms}&depth={config.depth}"
    return f"/api/sleep?min={sleep.min_ms}&max={sleep.max_ms}&depth={config.depth}"


register(Scenario(
    name="sleep",
    description="GET /api/sleep: the request thread sleeps (blocking, like a slow database call) at a call depth",
    path=_sleep_path,
    # A uniform draw from [min, max] averages to the middle.
    service_time_s=lambda config, level: level.sleep.mean_ms / 1000.0,
    uses_sleep=True,
))


FANOUT_TASKS = 10
FANOUT_BODY = Path(__file__).resolve().parent / "fanout-body.json"


def expected_longest_ms(sleep, tasks):
    """Mean of the longest of `tasks` independent uniform draws from the sleep's range: a request
    that waits for all its tasks takes that long. For n draws from [a, b] it is a + (b - a)·n/(n + 1)
    (10 draws from 50-100 ms: 95.5 ms, not the 75 ms mean of one task)."""
    return sleep.min_ms + (sleep.max_ms - sleep.min_ms) * tasks / (tasks + 1)


register(Scenario(
    name="fanout",
    description=f"POST /api/fanout: a {FANOUT_BODY.stat().st_size}-byte JSON order is parsed, {FANOUT_TASKS} blocking "
                "calls (sleeps drawn from --sleep, default 50-100 ms) run at once, the body is echoed back",
    path=lambda config, level: (f"/api/fanout?tasks={FANOUT_TASKS}&minMs={level.sleep.min_ms}"
                                f"&maxMs={level.sleep.max_ms}"),
    # Little's law per request, not per task: a request holds its connection (and, on a pool, its
    # worker) until the longest of its concurrent tasks ends.
    service_time_s=lambda config, level: expected_longest_ms(level.sleep, FANOUT_TASKS) / 1000.0,
    # Each task holds a pool thread for its own sleep: tasks x mean sleep per request.
    pool_seconds=lambda config, level: FANOUT_TASKS * level.sleep.mean_ms / 1000.0,
    uses_sleep=True,
    default_sleep=SleepSpec(50, 100),
    body_file=FANOUT_BODY,
))


# A spin long enough that a stalled virtual server stays stalled well past the watchdog's default
# 10 s, and short enough that it recovers by itself (the app caps a spin at 60 s).
CONTEND_MAX_SPIN_MS = 30_000

register(Scenario(
    name="contend",
    description="GET /api/contend: every request spins (Thread.onSpinWait, never parking) for one lock; its holder "
                "keeps it while it sleeps --sleep (default 100 ms). With as many spinners as carriers a virtual-thread "
                "server stalls: the reproduction of carrier starvation (docs/bring-your-own-app.md)",
    path=lambda config, level: f"/api/contend?holdMs={round(level.sleep.mean_ms)}&maxSpinMs={CONTEND_MAX_SPIN_MS}",
    # The lock lets one request in at a time: each of c requests waits for the c - 1 ahead of it, so
    # a request takes c holds and Little's law gives a ceiling of one request per hold.
    service_time_s=lambda config, level: level.concurrency * level.sleep.mean_ms / 1000.0,
    targets=("virtual", "platform-4000"),
    uses_sleep=True,
))
