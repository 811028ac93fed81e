"""The points of a run, grouped by server session, and how long the rest will take."""
import math
from dataclasses import dataclass

from labkit.load.levels import LoadLevel
from labkit.servers.heaps import series

# The bounds of a run's plan, one place for every run command's options (bench, capacity).
MAX_DURATION_S = 3_600
MAX_WARMUP_S = 600
MAX_REPEATS = 20


@dataclass(frozen=True)
class Point:
    index: int          # 1-based, in run order
    mode: str
    driver: str
    level: LoadLevel
    repeat: int         # 1-based
    path: str
    warmup: bool        # a warm-up (a run of its own, or with --steady the same run) precedes the window
    target: str = None  # the target started for it (mode is TARGET@HEAP with --heap)
    heap: str | None = None

    @property
    def id(self):
        return f"{self.index:03d}-{self.mode}-{self.driver}-c{self.level.concurrency}-r{self.repeat}"


@dataclass(frozen=True)
class Session:
    """One freshly started server and the points measured on it."""
    index: int
    mode: str
    repeat: int | None  # None when one session holds every repeat
    points: tuple
    target: str = None  # the target started (mode is TARGET@HEAP with --heap)
    heap: str | None = None

    @property
    def label(self):
        return self.mode if self.repeat is None else f"{self.mode}-r{self.repeat}"


def build_plan(config, scenario):
    """Sessions in run order. restart=repeat: repeat rounds outermost, each mode started afresh in
    every round (modes interleaved, so a slow minute of the machine hits all of them alike; the
    order rotated by one per round, so no mode always runs first or right after another);
    restart=mode: one session per mode, repeats back to back after one warm-up per level.
    With --heap every mode runs once per heap size, as a series of its own (TARGET@HEAP).
    With --steady every point warms up: each is a new run of the tool, with its own connection ramp."""
    sessions, index = [], 0
    heaps = config.heaps or (None,)

    def point(mode, heap, driver, level, repeat, warmup):
        nonlocal index
        index += 1
        return Point(index, series(mode, heap), driver, level, repeat, scenario.path(config, level),
                     warmup or config.steady, mode, heap)

    if config.restart == "repeat":
        for repeat in range(1, config.repeats + 1):
            for mode in rotated(config.modes, repeat - 1):
                for heap in heaps:
                    points = tuple(point(mode, heap, driver, level, repeat, True)
                                   for driver in config.drivers for level in config.levels)
                    sessions.append(Session(len(sessions) + 1, series(mode, heap), repeat, points, mode, heap))
    else:
        for mode in config.modes:
            for heap in heaps:
                points = tuple(point(mode, heap, driver, level, repeat, repeat == 1)
                               for driver in config.drivers for level in config.levels
                               for repeat in range(1, config.repeats + 1))
                sessions.append(Session(len(sessions) + 1, series(mode, heap), None, points, mode, heap))
    return sessions


def rotated(modes, by):
    """The modes' order in round `by` (0-based): rotated by one per round."""
    by %= len(modes)
    return tuple(modes[by:]) + tuple(modes[:by])


class Estimator:
    """Remaining time from the plan and what the run has measured so far (server start time,
    time spent per point beyond its warm-up and window)."""

    def __init__(self, config, sessions, start_guess_s=30.0, overhead_guess_s=4.0):
        self.config = config
        self.sessions = sessions
        self.starts = []
        self.overheads = []
        self.start_guess_s = start_guess_s
        self.overhead_guess_s = overhead_guess_s

    def server_started(self, seconds):
        self.starts.append(seconds)

    def point_finished(self, point, seconds):
        self.overheads.append(max(seconds - self.planned_s(point), 0.0))

    def planned_s(self, point):
        """The point's load time: warm-up, window and, with --steady, the drain after the window."""
        return self.config.duration_s + (self.config.warmup_s if point.warmup else 0) + self.drain_s(point)

    def drain_s(self, point):
        """With --steady the tool runs one request timeout past the window (whole seconds, as ab takes it)."""
        return max(1, math.ceil(self.config.timeout_for(point.level))) if self.config.steady else 0

    def _average(self, values, guess):
        return sum(values) / len(values) if values else guess

    def point_seconds(self, point):
        return self.planned_s(point) + self._average(self.overheads, self.overhead_guess_s)

    def remaining_s(self, done_points, started_sessions, current_left_s=0.0):
        """Seconds left when `done_points` points are finished and `started_sessions` servers started."""
        left = current_left_s
        for session in self.sessions:
            if session.index > started_sessions:
                left += self._average(self.starts, self.start_guess_s)
            for point in session.points:
                if point.index > done_points + (1 if current_left_s else 0):
                    left += self.point_seconds(point)
        return left

    def total_s(self):
        return self.remaining_s(0, 0)


def format_duration(seconds):
    seconds = max(0, int(math.ceil(seconds)))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"
