"""The rate search of ./lab capacity: a doubling ramp until a step misses the goal, then a
bisection between the highest rate that met it and the lowest that did not.

Pure logic, no I/O: the runner asks next_rate(), measures a window at that rate and reports
whether it met the goal with record(rate, passed), until next_rate() returns None.
"""
from dataclasses import dataclass, field

MIN_RATE = 1


@dataclass
class RateSearch:
    start_rate: int
    max_rate: int
    # Stop bisecting once (failed − passed) ÷ passed is at most this.
    resolution: float = 0.05
    max_steps: int = 30
    passed: int | None = None   # highest rate that met the goal
    failed: int | None = None   # lowest rate that missed it
    steps: list = field(default_factory=list)

    def next_rate(self):
        if len(self.steps) >= self.max_steps:
            return None
        if not self.steps:
            return min(self.start_rate, self.max_rate)
        if self.failed is None:
            # Ramp: double until a miss, or stop at max_rate (the search then only knows a lower bound).
            if self.passed >= self.max_rate:
                return None
            return min(self.passed * 2, self.max_rate)
        if self.passed is None:
            # Even the first rate missed: halve until one meets the goal.
            if self.failed <= MIN_RATE:
                return None
            return max(self.failed // 2, MIN_RATE)
        if (self.failed - self.passed) / self.passed <= self.resolution or self.failed - self.passed <= 1:
            return None
        return (self.passed + self.failed) // 2

    def record(self, rate, passed):
        self.steps.append((rate, passed))
        if passed:
            self.passed = rate if self.passed is None else max(self.passed, rate)
        else:
            self.failed = rate if self.failed is None else min(self.failed, rate)

    @property
    def capacity(self):
        """The highest rate that met the goal (None when none did)."""
        return self.passed

    @property
    def reached_max(self):
        return self.failed is None and self.passed is not None and self.passed >= self.max_rate
