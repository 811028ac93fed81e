"""The options of ./lab capacity, parsed and checked before anything starts."""
import argparse
import math
from dataclasses import dataclass
from pathlib import Path

from labkit.apps.own import check_own_app
from labkit.load.levels import SleepSpec, sleep_spec
from labkit.load.tools import DRIVERS
from labkit.servers.registry import DEFAULT_MODES
from labkit.measure.server_setup import ServerSetup
from labkit.measure.reference import reference_lengths, reference_text
from labkit.measure.steadiness import JIT_QUIET_PER_S, SETTLE_ITERATIONS
from labkit.ground.errors import UsageError
from labkit.servers.registry import choices
from labkit.capacity.goals import LatencyGoal, goal_limits

MAX_RATE = 200_000
# A confirmation round walks from the found rate one --resolution step at a time: up while its windows
# meet the goal, until one misses (or --max-rate), so that a round's capacity is never a floor set by the
# walk (two runs with a two-step cap reached it in most rounds: capacity.md, upstream-executor.md); and
# down while they miss, at most this many steps, so that a server that holds nothing costs three windows
# and its round counts as below the lowest rate it tried.
CONFIRM_WALK_STEPS = 2
# The warm-up compiles the request path, which is the same whatever the sleep; a long sleep only slows
# it down: at 2 s and 1,000 connections the closed-model warm-up sends 500 req/s, a fraction of the
# rates the windows then offer, and C2 has not compiled what they run.
WARMUP_SLEEP_MAX_MS = 100


def warm_up_sleep(sleep):
    """The sleep of the warm-up's requests: the search's, at most WARMUP_SLEEP_MAX_MS."""
    return SleepSpec(min(sleep.min_ms, WARMUP_SLEEP_MAX_MS), min(sleep.max_ms, WARMUP_SLEEP_MAX_MS))


def sleep_list(text):
    sleeps = tuple(sleep_spec(item) for item in text.split(","))
    if len(set(sleeps)) != len(sleeps):
        raise argparse.ArgumentTypeError(f"--sleep lists the same sleep twice: '{text}'")
    return sleeps


DEFAULTS = {
    "sleeps": (SleepSpec(100, 100),),
    "goals": (LatencyGoal("p99", 50.0, True),),
    "depth": 100,
    "duration": 15,
    "preroll": None,   # per sleep: preroll_for()
    "repeats": 3,
    "start_rate": 250,
    "max_rate": 50_000,
    "resolution": 0.05,
    "warmup_concurrency": 1000,
    "warmup_iteration": 5,
    "warmup_min": 30,
    "warmup_max": 180,
    "warmup_jit_rate": JIT_QUIET_PER_S,
    # A window counts as meeting the goal only with this many young collections in it; one that met it
    # with fewer is measured again twice as long, up to max_window (never below --duration).
    "min_young_gcs": 2,
    "max_window": 120,
    "cooldown": 3,
    "name": "capacity",
}


@dataclass(frozen=True)
class CapacityConfig:
    modes: tuple
    sleeps: tuple               # SleepSpec, one search per sleep
    goal: LatencyGoal           # the main goal: the report's capacity table and ratios
    depth: int
    duration_s: int             # measured window of each step
    preroll_s: int | None       # unmeasured load at the step's rate before its window (same run); None: per sleep
    repeats: int                # confirmation windows at the found rate, each on a fresh server
    start_rate: int
    max_rate: int
    resolution: float
    warmup_concurrency: int
    warmup_iteration_s: int
    warmup_min_s: int           # the stability rule only counts after this (Payara's JIT needs it)
    warmup_max_s: int
    cooldown_s: int
    # How each server starts and where (port, JVM options, --cpus, --war, the hosts); no --carriers here:
    # every server runs with the JVM's default.
    setup: ServerSetup = ServerSetup()
    timeout_s: float | None = None
    name: str = "capacity"
    warmup_jit_rate: float = JIT_QUIET_PER_S   # compiles/s each settled warm-up iteration may have had
    min_young_gcs: int = 2      # young collections a window needs to count as meeting the goal
    max_window_s: int = 120     # a window re-run for too few of them doubles up to this
    out_dir: Path | None = None
    sample_interval_s: float = 0.5
    scenario: str = "sleep"
    # --request/--requests: what is loaded instead of the sleep endpoint (load/requests_mix.RequestMix), or None.
    requests: object = None
    # --slo with several goals: the others, each searched and confirmed too (capacity per goal).
    other_goals: tuple = ()
    # The host-speed reference before each session (measure/reference.py): on from the command line
    # unless --no-reference; off for a config made in code, which starts no server of its own.
    reference: bool = False
    # --jfr-locks: JFR's contended monitor enters and parks in every window (the limits' locks check).
    jfr_locks: bool = False

    @property
    def goals(self):
        return (self.goal,) + tuple(self.other_goals)

    def goal_ms(self, sleep):
        return self.goal.limit_ms(sleep)

    def goal_limits(self, sleep):
        """The limits searched at `sleep`, the main goal's first (goals.goal_limits)."""
        return goal_limits(self.goals, sleep)

    def preroll_for(self, sleep):
        """The pre-roll before a window: given, or two sleeps and at least 2 s, so the connections
        vegeta opens at the start (about rate x sleep of them) are open and answered once."""
        if self.preroll_s is not None:
            return self.preroll_s
        return max(2, math.ceil(2 * sleep.max_ms / 1000))

    def timeout_for(self, sleep):
        """A step's request timeout: well above the goal (a late answer must be measured, not cut),
        short enough that an overloaded step ends soon."""
        if self.timeout_s is not None:
            return self.timeout_s
        return max(5.0, 4 * max(self.goal_limits(sleep)) / 1000.0)

    def to_dict(self):
        setup = self.setup
        return {"modes": list(self.modes),
                "sleeps": [{"sleep_min_ms": s.min_ms, "sleep_max_ms": s.max_ms, "goal_ms": self.goal_ms(s),
                            **({"goals_ms": self.goal_limits(s)} if self.other_goals else {}),
                            "timeout_s": self.timeout_for(s), "preroll_s": self.preroll_for(s)} for s in self.sleeps],
                "goal": self.goal.to_dict(), "goal_text": str(self.goal), "depth": self.depth,
                **({"goals": [goal.to_dict() for goal in self.goals]} if self.other_goals else {}),
                "duration_s": self.duration_s, "preroll_s": self.preroll_s, "repeats": self.repeats,
                "start_rate": self.start_rate, "max_rate": self.max_rate, "resolution": self.resolution,
                "confirm_walk_steps": CONFIRM_WALK_STEPS, "confirm_walk_up": "until a miss",
                "reference": reference_text(*reference_lengths(self.duration_s)) if self.reference else None,
                "warmup_concurrency": self.warmup_concurrency, "warmup_iteration_s": self.warmup_iteration_s,
                "warmup_min_s": self.warmup_min_s, "warmup_max_s": self.warmup_max_s,
                "warmup_jit_rate": self.warmup_jit_rate, "warmup_jit_iterations": SETTLE_ITERATIONS,
                "min_young_gcs": self.min_young_gcs,
                "max_window_s": self.max_window_s, "cooldown_s": self.cooldown_s, "port": setup.port,
                "timeout_s": self.timeout_s, "jvm_options": list(setup.jvm_options), "jvm_defaults": setup.jvm_defaults,
                "cpus": setup.cpus.to_dict() if setup.cpus else None, "name": self.name,
                "sample_interval_s": self.sample_interval_s, "scenario": self.scenario, "driver": "vegeta",
                "jfr_locks": self.jfr_locks,
                **({"wars": [war.to_dict() for war in setup.wars]} if setup.wars else {}),
                **({"requests": self.requests.to_dict()} if self.requests is not None else {})}

    @classmethod
    def build(cls, args, known_targets):
        def pick(name):
            value = getattr(args, name, None)
            return DEFAULTS.get(name) if value is None else value

        modes = args.modes or DEFAULT_MODES
        unknown = [m for m in modes if m not in known_targets]
        if unknown:
            raise UsageError(f"unknown mode '{unknown[0]}' in --modes; choose from: {choices(known_targets)}")
        start_rate, max_rate = pick("start_rate"), pick("max_rate")
        if start_rate > max_rate:
            raise UsageError(f"--start-rate {start_rate} is above --max-rate {max_rate}")
        sleeps, goals = pick("sleeps"), pick("goals")
        wars, mix = check_own_app(args, modes, known_targets, ("vegeta",), DRIVERS)
        if mix is not None:
            relative = next((each for each in goals if each.relative), None)
            if relative:
                raise UsageError(f"--slo {relative} is relative to the sleep endpoint's sleep; your requests have none: "
                                 f"give an absolute goal such as p99=200ms")
            if args.sleeps:
                raise UsageError("--sleep sets the lab's sleep endpoint; your requests (--request/--requests) have none")
            # One search, whose goal is absolute: the default sleep is the endpoint's, never held against it.
            sleeps = (SleepSpec(0, 0),)
        for sleep in sleeps:
            for each in goals:
                if not each.relative and each.ms <= sleep.max_ms:
                    raise UsageError(f"--slo {each} is not above the sleep ({sleep.max_ms} ms): no rate can meet it")
        duration, max_window = pick("duration"), args.max_window
        if max_window is not None and max_window < duration:
            raise UsageError(f"--max-window {max_window} is below --duration {duration}")
        timeout = args.timeout
        if timeout is not None:
            for sleep in sleeps:
                limit = max(goal_limits(goals, sleep))
                if timeout * 1000 <= limit:
                    raise UsageError(f"--timeout {timeout:g} s is not above the latency goal ({limit:g} ms)")
        return cls(modes=tuple(modes), sleeps=tuple(sleeps), goal=goals[0], other_goals=tuple(goals[1:]),
                   depth=pick("depth"),
                   duration_s=duration, preroll_s=pick("preroll"), repeats=pick("repeats"),
                   start_rate=start_rate, max_rate=max_rate, resolution=pick("resolution"),
                   warmup_concurrency=pick("warmup_concurrency"), warmup_iteration_s=pick("warmup_iteration"),
                   warmup_min_s=min(pick("warmup_min"), pick("warmup_max")), warmup_max_s=pick("warmup_max"), cooldown_s=pick("cooldown"),
                   setup=ServerSetup.from_args(args, modes, wars=wars), timeout_s=timeout, name=pick("name"), warmup_jit_rate=pick("warmup_jit_rate"),
                   min_young_gcs=pick("min_young_gcs"),
                   max_window_s=max(DEFAULTS["max_window"], duration) if max_window is None else max_window,
                   out_dir=Path(args.out) if args.out else None, requests=mix, reference=not args.no_reference,
                   jfr_locks=bool(args.jfr_locks), scenario="requests" if mix is not None else "sleep")
