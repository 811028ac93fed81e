"""The options of ./lab bench, parsed and checked before anything starts.

Option values are parsed by argparse `type=` functions (a bad value gets argparse's usage line
and exit code 2); checks that need several options together raise UsageError from
BenchConfig.build, which the command turns into the same usage line.
"""
import argparse
from dataclasses import dataclass
from pathlib import Path

from labkit.servers.carriers import check_carrier_options
from labkit.ground.errors import UsageError
from labkit.servers.registry import choices
from labkit.measure.server_setup import ServerSetup
from labkit.servers.heaps import check_jvm_options
from labkit.apps.own import check_own_app
from labkit.load.levels import MAX_CONCURRENCY, LoadLevel, SleepSpec, sleep_spec
# Below this a timeout would cut off healthy but queued requests on a loaded 2-core machine.
MIN_DEFAULT_TIMEOUT_S = 20.0
TIMEOUT_SLEEP_FACTOR = 5


def concurrency_list(text):
    """'1000,6000' or with a sleep per level: '1000@100,6000@2000' (sleep as in --sleep).
    Items without a sleep get --sleep's value later (None here)."""
    levels = []
    for item in text.split(","):
        count, _, sleep = item.strip().partition("@")
        if not count.isdigit():
            raise argparse.ArgumentTypeError(
                f"concurrency must be a comma-separated list of numbers, optionally with @SLEEP (e.g. 1000,6000 or 1000@100), was '{text}'")
        number = int(count)
        if not 1 <= number <= MAX_CONCURRENCY:
            raise argparse.ArgumentTypeError(f"concurrency must be in 1..{MAX_CONCURRENCY}, was {number}")
        levels.append((number, sleep_spec(sleep) if sleep else None))
    return tuple(levels)


def default_timeout_s(sleep):
    """Always well above the longest sleep: queued requests on a busy server take several sleeps."""
    return max(MIN_DEFAULT_TIMEOUT_S, TIMEOUT_SLEEP_FACTOR * sleep.max_ms / 1000.0)



# What --quick means: the four modes, two concurrency levels at 100 ms, short windows and two
# back-to-back repeats on one server per mode, so the whole run fits in a few minutes on 2 cores.
QUICK = {
    "concurrency": ((100, None), (1000, None)),
    "sleep": SleepSpec(100, 100),
    "warmup": 5,
    "duration": 6,
    "repeats": 2,
    "restart": "mode",
    "name": "quick",
}

DEFAULTS = {
    "concurrency": ((1000, None),),
    "sleep": SleepSpec(100, 100),
    "depth": 100,
    "warmup": 10,
    "duration": 30,
    "repeats": 3,
    "restart": "repeat",
    "drivers": ("bombardier",),
    "scenario": "sleep",
    "name": "bench",
}


@dataclass(frozen=True)
class BenchConfig:
    modes: tuple
    scenario: str
    levels: tuple            # LoadLevel, in the order given
    depth: int
    duration_s: int
    warmup_s: int
    repeats: int
    # "repeat": every repeat starts each mode's server afresh (independent samples, modes
    # interleaved); "mode": one server per mode, repeats measured back to back on it.
    restart: str
    drivers: tuple
    rate: int | None
    timeout_s: float | None  # None: derived per level from its sleep
    # How each server starts and where (port, JVM options, --cpus, --carriers, --war, the hosts).
    setup: ServerSetup = ServerSetup()
    name: str = "bench"
    out_dir: Path | None = None
    quick: bool = False
    sample_interval_s: float = 0.5
    # True: each point's window lies inside one continuous run of the load tool (after its
    # warm-up and connection ramp) instead of being a fresh run of its own.
    steady: bool = False
    # --warmup-until-steady: warm-up runs of warmup_s repeated until the throughput settles,
    # at most warmup_cap_s in all.
    warmup_until_steady: bool = False
    warmup_cap_s: int = 180
    # --heap: every mode once per heap size (-Xms = -Xmx), smallest first; () = the servers' own heap.
    heaps: tuple = ()
    # --jfr-locks: the JFR recording also holds contended monitor enters and parks (jfr.py).
    jfr_locks: bool = False
    # --stall-after: seconds without an answer to the watchdog's probe that make a stall; None =
    # derived per level from its sleep (watchdog.stall_after_s).
    stall_after_s: float | None = None
    # --request/--requests: what is loaded instead of a scenario (requests_mix.RequestMix), or None.
    requests: object = None

    def timeout_for(self, level):
        return self.timeout_s if self.timeout_s is not None else default_timeout_s(level.sleep)

    def to_dict(self):
        setup = self.setup
        return {
            "modes": list(self.modes), "scenario": self.scenario,
            "levels": [{"concurrency": l.concurrency, "sleep_min_ms": l.sleep.min_ms, "sleep_max_ms": l.sleep.max_ms,
                        "timeout_s": self.timeout_for(l)} for l in self.levels],
            "depth": self.depth, "duration_s": self.duration_s, "warmup_s": self.warmup_s,
            "repeats": self.repeats, "restart": self.restart, "drivers": list(self.drivers),
            "rate": self.rate, "timeout_s": self.timeout_s, "port": setup.port,
            "jvm_options": list(setup.jvm_options), "name": self.name, "quick": self.quick,
            "sample_interval_s": self.sample_interval_s, "steady": self.steady,
            "jvm_defaults": setup.jvm_defaults, "heaps": list(self.heaps),
            "cpus": setup.cpus.to_dict() if setup.cpus else None,
            "warmup_until_steady": self.warmup_until_steady, "warmup_cap_s": self.warmup_cap_s,
            "jfr_locks": self.jfr_locks,
            "carriers": setup.carriers, "stall_after_s": self.stall_after_s,
            "wars": [war.to_dict() for war in setup.wars],
            "requests": self.requests.to_dict() if self.requests is not None else None,
        }

    @classmethod
    def build(cls, args, known_targets, known_drivers, default_modes, default_sleep=None):
        """The config from parsed options (None = not given); raises UsageError on a bad combination."""
        preset = dict(DEFAULTS, **(QUICK if args.quick else {}))

        def pick(name):
            value = getattr(args, name, None)
            return preset.get(name) if value is None else value

        modes = pick("modes") or tuple(default_modes)
        unknown = [m for m in modes if m not in known_targets]
        if unknown:
            raise UsageError(f"unknown mode '{unknown[0]}' in --modes; choose from: {choices(known_targets)}")
        rate = args.rate
        # A rate is an open-model point: its default tool is the open-model one.
        drivers = args.drivers or (("vegeta",) if rate is not None else preset["drivers"])
        unknown = [d for d in drivers if d not in known_drivers]
        if unknown:
            raise UsageError(f"unknown driver '{unknown[0]}'; choose from: {', '.join(known_drivers)}")
        # A scenario may have a sleep of its own (fanout: 50-100 ms per task); --sleep still wins.
        sleep = args.sleep if args.sleep is not None else default_sleep or pick("sleep")
        levels = tuple(LoadLevel(c, s or sleep) for c, s in pick("concurrency"))
        if len(set(levels)) != len(levels):
            raise UsageError("--concurrency lists the same level twice")
        if rate is not None:
            no_rate = [d for d in drivers if not known_drivers[d].supports_rate]
            if no_rate:
                raise UsageError(f"--rate needs a driver with a fixed-rate mode (vegeta, or bombardier's rate limit); "
                                 f"{', '.join(no_rate)} has none")
        steady, until_steady = bool(args.steady), bool(args.warmup_until_steady)
        if steady:
            _check_steady(drivers, known_drivers, pick("warmup"))
            if until_steady:
                raise UsageError("--warmup-until-steady repeats separate warm-up runs; --steady warms up inside the "
                                 "measured run: choose one")
        if until_steady and pick("warmup") == 0:
            raise UsageError("--warmup-until-steady needs --warmup above 0 (the length of one warm-up run)")
        timeout = args.timeout
        if timeout is not None:
            longest = max(l.sleep.max_ms for l in levels)
            if timeout * 1000 <= longest:
                raise UsageError(f"--timeout {timeout:g} s is not above the sleep ({longest} ms): every request would time out")
        heaps = tuple(args.heap or ())
        conflict = check_jvm_options(heaps, tuple(args.jvm_opt or ()))
        if conflict:
            raise UsageError(conflict)
        carriers = args.carriers
        conflict = check_carrier_options(carriers, tuple(args.jvm_opt or ()))
        if conflict:
            raise UsageError(conflict)
        wars, mix = check_own_app(args, modes, known_targets, drivers, known_drivers)
        config = cls(modes=tuple(modes), scenario="requests" if mix is not None else pick("scenario"),
                     levels=levels, depth=pick("depth"),
                     duration_s=pick("duration"), warmup_s=pick("warmup"), repeats=pick("repeats"),
                     restart=pick("restart"), drivers=tuple(drivers), rate=rate, timeout_s=timeout,
                     setup=ServerSetup.from_args(args, modes, wars=wars, carriers=carriers),
                     name=pick("name"),
                     out_dir=Path(args.out) if args.out else None, quick=bool(args.quick), steady=steady,
                     heaps=heaps, warmup_until_steady=until_steady, warmup_cap_s=args.warmup_cap or 180,
                     stall_after_s=args.stall_after, jfr_locks=bool(args.jfr_locks), requests=mix)
        return config


def _check_steady(drivers, known_drivers, warmup_s):
    """--steady needs a tool that records each request's start, and a warm-up to hold the ramp."""
    if any(not known_drivers[d].supports_window for d in drivers):
        whole_runs = [name for name, driver in known_drivers.items() if not driver.supports_window]
        able = [name for name, driver in known_drivers.items() if driver.supports_window]
        raise UsageError(f"--steady needs a load tool that records each request's start: use --driver "
                         f"{','.join(able)} ({' and '.join(whole_runs)} only report whole runs)")
    if warmup_s == 0:
        raise UsageError("--steady needs a warm-up (--warmup above 0): the window starts after the connection ramp")
