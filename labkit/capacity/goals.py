"""The latency goals of ./lab capacity, without I/O: `--slo` parsed (one goal, or several for capacity
as a function of the goal), and how a window measured against one goal is judged against another.

Why several goals from one search: a window's latency does not depend on the goal it was measured
for, so its histogram answers every goal at once. Only two things do depend on the goal: whether the
window counted at all (verdicts.window_verdict re-runs a window that met its goal with too few young
collections, and a window that met a looser goal may never have been re-run), and which rates the
bisection chose. So a window decides another goal where it can (verdict_at), and the search bisects
once more, on the same server, for each goal the windows already measured do not settle.
"""
import argparse
import re
from dataclasses import dataclass

from labkit.capacity.verdicts import meets_goal, window_verdict, young_gcs

# The percentiles a goal may name, as the point records spell them (load.latency_ms).
GOAL_PERCENTILES = {"p50": "p50", "p90": "p90", "p99": "p99", "p99.9": "p999", "p999": "p999"}
_PERCENTILE = r"(p50|p90|p99|p99\.9|p999)"
_LIMIT = re.compile(r"\s*(?:" + _PERCENTILE + r"\s*=\s*)?(\+)?\s*(\d+(?:\.\d+)?)\s*(ms|%)?\s*")
SLO_USAGE = ("--slo takes PERCENTILE=LIMIT[,LIMIT...]: an absolute limit (p99=150ms or p99=150), one above the "
             "sleep (p99=+50ms) or a share above it (p99=+5%); e.g. p99=+50ms,+5%,+10%,+25%")


def percentile_name(key):
    """How a report writes a latency_ms key: 'p999' as 'p99.9'."""
    return next(k for k, v in GOAL_PERCENTILES.items() if v == key)


@dataclass(frozen=True)
class LatencyGoal:
    """`percentile` (a latency_ms key) at most `ms`; relative: at most the sleep + `ms`; percent: at
    most the sleep + `ms` % of it (relative too)."""
    percentile: str
    ms: float
    relative: bool
    percent: bool = False

    def limit_ms(self, sleep):
        if self.percent:
            # Rounded: 100 ms + 5 % must be the same 105 in every record that compares goals.
            return round(sleep.max_ms * (1 + self.ms / 100), 3)
        return self.ms + (sleep.max_ms if self.relative else 0)

    @property
    def percentile_name(self):
        return percentile_name(self.percentile)

    @property
    def limit_text(self):
        """'+50ms', '+5%' or '150ms': the goal as --slo writes it, without the percentile."""
        return f"+{self.ms:g}%" if self.percent else f"{'+' if self.relative else ''}{self.ms:g}ms"

    def __str__(self):
        if self.percent:
            return f"{self.percentile_name} <= sleep + {self.ms:g} %"
        return f"{self.percentile_name} <= {'sleep + ' if self.relative else ''}{self.ms:g} ms"

    def to_dict(self):
        return {"percentile": self.percentile, "ms": self.ms, "relative_to_sleep": self.relative,
                **({"percent_of_sleep": True} if self.percent else {})}

    @classmethod
    def from_dict(cls, data):
        return cls(data["percentile"], data["ms"], data["relative_to_sleep"], data.get("percent_of_sleep", False))


def latency_goals(text):
    """'p99=+50ms' (sleep + 50 ms, the default), 'p99=150ms' or 'p99=150' (absolute, ms), 'p99=+5%'
    (sleep + 5 %), or several: 'p99=+50ms,+5%,200ms'. The first is the run's main goal (its report's
    capacity table and ratios); every goal gets a capacity. One percentile for all of them."""
    items = text.split(",")
    goals = []
    percentile = None
    for item in items:
        match = _LIMIT.fullmatch(item)
        if not match or (not goals and not match.group(1)):
            raise argparse.ArgumentTypeError(f"{SLO_USAGE}; was '{text}'")
        named = GOAL_PERCENTILES[match.group(1)] if match.group(1) else percentile
        if percentile is not None and named != percentile:
            raise argparse.ArgumentTypeError(f"--slo: one percentile for every goal, was '{text}'")
        percentile = named
        plus, value, unit = match.group(2), float(match.group(3)), match.group(4)
        if unit == "%" and not plus:
            raise argparse.ArgumentTypeError(f"--slo: a share of the sleep is written above it, e.g. +5%; was '{item.strip()}'")
        if not 0 < value <= (1000 if unit == "%" else 600_000):
            raise argparse.ArgumentTypeError(f"--slo: {item.strip()} is out of range: a limit is in (0, 600000] ms, "
                                             f"a share in (0, 1000] %")
        goal = LatencyGoal(percentile, value, bool(plus), unit == "%")
        if goal in goals:
            raise argparse.ArgumentTypeError(f"--slo names {item.strip()} twice: '{text}'")
        goals.append(goal)
    return tuple(goals)


def latency_goal(text):
    """One goal (latency_goals of a text that names one)."""
    goals = latency_goals(text)
    if len(goals) != 1:
        raise argparse.ArgumentTypeError(f"one goal expected, was '{text}'")
    return goals[0]


def goal_limits(goals, sleep):
    """The distinct limits (ms) of `goals` at `sleep`, in the goals' order: the searches of that sleep
    (+50ms and +50% are one search at a 100 ms sleep)."""
    limits = []
    for goal in goals:
        limit = goal.limit_ms(sleep)
        if limit not in limits:
            limits.append(limit)
    return limits


# -- a window judged against any goal -------------------------------------------------------------
def measured_again(points):
    """The ids of windows measured once more (the load tool or the host set their pace): the window
    measured again is the step's result, the first one says nothing about the server."""
    return {p["again_of"] for p in points if p.get("again_of")}


def verdict_at(point, percentile, goal_ms, min_young_gcs, max_window_s):
    """Whether a window counts as meeting `percentile` <= `goal_ms`: True, False, or None when it
    cannot tell (it met the goal but held too few young collections to count, and was never measured
    longer for it). A window measured for this very goal keeps the verdict it was given; another is
    judged by the same rule (verdicts.window_verdict) as if it were its own window, off the ramp."""
    capacity = point["capacity"]
    if capacity.get("goal_ms") == goal_ms and capacity.get("percentile", percentile) == percentile:
        if capacity.get("verdict") == "rerun-longer":
            return None
        return bool(capacity["passed"])
    if not meets_goal(point, percentile, goal_ms):
        return False
    window_s = capacity.get("window_s") or max_window_s
    counts, _ = window_verdict(True, young_gcs(point.get("jfr")), min_young_gcs or 0, window_s, max_window_s or window_s)
    return True if counts else None


def bracket(points, percentile, goal_ms, min_young_gcs, max_window_s):
    """(highest rate that met the goal, lowest rate above it that missed) among `points`, each judged
    with verdict_at; None for either when no window says. Windows measured again and windows that
    were re-run longer are left out (their successors speak for the step)."""
    again = measured_again(points)
    passed, missed = [], []
    for p in points:
        if p.get("id") in again or (p.get("capacity") or {}).get("verdict") == "rerun-longer":
            continue
        verdict = verdict_at(p, percentile, goal_ms, min_young_gcs, max_window_s)
        if verdict is True:
            passed.append(p["rate"])
        elif verdict is False:
            missed.append(p["rate"])
    found = max(passed) if passed else None
    above = [rate for rate in missed if found is None or rate > found]
    return found, (min(above) if above else None)


def settled(found, missed, resolution):
    """Whether a bracket locates the capacity as closely as the search would: the gap between the rate
    that met the goal and the one that missed is at most `resolution` of the former."""
    if found is None or missed is None:
        return False
    return (missed - found) / found <= resolution or missed - found <= 1
