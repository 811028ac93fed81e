"""Scenarios: what a bench point requests, and how long one request takes when nothing queues.

A point of a run is (target, scenario URL path, concurrency, repeat). The core loop only needs a
scenario's `path(config)` and `service_time_s(config)`; everything else (drivers, sampling,
report) is the same for every scenario.

Extension point: to bench another page, register a Scenario here (or in a module listed in
EXTRA_SCENARIO_MODULES that calls `register(...)` when imported) with
- `name`: the value of `./lab bench --scenario NAME`;
- `path`: a function of the BenchConfig and the LoadLevel (concurrency, sleep) returning the
  request path, e.g. `lambda config, level: "/cargo-tracker/public/track?trackingId=ABC123"`;
- `service_time_s`: function of the same two giving the time one request needs alone
  (seconds), used for the Little's-law ceiling; return None when unknown (the report then shows
  no ceiling and no efficiency);
- `targets`: the default targets that serve this scenario (e.g. the CargoTracker app's targets,
  registered in labkit/targets.py), used when --modes is not given; None = the Payara modes;
- `uses_sleep`: whether --sleep/--depth mean anything for it (they are shown in the report);
- `headers`: a function of the BenchConfig returning request headers ("Name: value"), e.g. the
  login of a page that needs one; read when a server is up, and redacted in every record.
Nothing in runner.py, results.py or report.py changes for a new scenario.
"""
from dataclasses import dataclass
from typing import Callable

from ..errors import UsageError


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    path: Callable = None            # path(config, level) -> "/api/..."
    service_time_s: Callable = None  # service_time_s(config, level) -> float | None
    targets: tuple | None = None
    uses_sleep: bool = False
    headers: Callable = None         # headers(config) -> ("Authorization: Basic ...",)

    def headers_for(self, config):
        return tuple(self.headers(config)) if self.headers else ()


SCENARIOS: dict[str, Scenario] = {}

# Modules that register more scenarios when imported (e.g. a CargoTracker page).
EXTRA_SCENARIO_MODULES = ("labkit.cargotracker",)


def register(scenario):
    SCENARIOS[scenario.name] = scenario
    return scenario


def all_scenarios():
    import importlib
    for module in EXTRA_SCENARIO_MODULES:
        importlib.import_module(module)
    return dict(SCENARIOS)


def scenario(name):
    known = all_scenarios()
    try:
        return known[name]
    except KeyError:
        raise UsageError(f"unknown scenario '{name}'; choose from: {', '.join(known)}") from None


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
