"""One window of ./lab capacity as a value: the target, sleep, phase, step and round it belongs to, the
rate it offers and for how long. The runner makes the first window of each step; the window loop
(windows.py) measures it, and what comes after it (the same rate for longer, once more, or a
confirmation's next attempt higher or lower) is a copy with what changed replaced, never the same window altered.
"""
import math
from dataclasses import dataclass, replace

from labkit.load.levels import SleepSpec
from labkit.capacity.verdicts import connection_cap, longer_window


@dataclass(frozen=True)
class Window:
    mode: str                     # the target
    sleep: SleepSpec
    phase: str                    # "search" or "confirm"
    step: int                     # the search's step, or the attempt within a confirmation round
    repeat: int | None            # the confirmation round; None in the search
    rate: int                     # requests due per second (open model)
    window_s: int                 # the measured window, after the pre-roll
    goal_ms: float                # the latency the goal allows at this sleep
    ramp: bool = False            # on the search's doubling ramp (window_verdict's met-ramp)
    extends: dict | None = None   # the shorter window this one re-runs for too few young collections
    again_of: str | None = None   # the point id of the window this one measures once more

    @property
    def connections(self):
        """vegeta's connection bound for this window (verdicts.connection_cap)."""
        return connection_cap(self.rate, self.goal_ms)

    @property
    def heading(self):
        """'virtual 100 ms confirm r2 step 1': where the window stands in the plan, for the console."""
        return f"{self.mode} {self.sleep} {self.phase}{f' r{self.repeat}' if self.repeat else ''} step {self.step}"

    def point_id(self, index):
        """The window's point id, from its index in the run: '007-virtual-100ms-confirm2-s1-again-w30s-2000rps'."""
        return (f"{index:03d}-{self.mode}-{self.sleep.max_ms}ms-{self.phase}{self.repeat or ''}-s{self.step}"
                f"{'-again' if self.again_of else ''}{f'-w{self.window_s}s' if self.extends else ''}-{self.rate}rps")

    def again(self, point_id):
        """The same window measured once more, in place of the one recorded as `point_id`."""
        return replace(self, again_of=point_id)

    def longer(self, capacity, point_id, max_window_s):
        """The same rate for twice as long (at most max_window_s), after the window recorded as
        `point_id` met the goal with too few young collections (its record's `capacity`)."""
        why = (f"met the goal with {capacity['young_gcs']} young collection(s) in {self.window_s} s, "
               f"{capacity['min_young_gcs']} needed")
        return replace(self, window_s=longer_window(self.window_s, max_window_s), again_of=None,
                       extends={"id": point_id, "window_s": self.window_s, "young_gcs": capacity["young_gcs"],
                                "why": why})

    def lower(self, resolution):
        """A confirmation round's next attempt after this one missed: the same window `resolution` lower."""
        return replace(self, rate=max(1, math.floor(self.rate * (1 - resolution))), step=self.step + 1)

    def higher(self, resolution, max_rate):
        """A confirmation round's next attempt after this one met the goal: the same window `resolution`
        higher, at most `max_rate`."""
        rate = min(max_rate, max(self.rate + 1, math.ceil(self.rate * (1 + resolution))))
        return replace(self, rate=rate, step=self.step + 1)
