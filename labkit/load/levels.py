"""What a load level asks of a server: a concurrency and the sleep each request makes, as the
lab's WAR caps them (its own loomlab.sleep.maxMs and maxDepth). bench, capacity and soak share it."""
import argparse
import re
from dataclasses import dataclass

MAX_SLEEP_MS = 60_000        # the app's own cap (loomlab.sleep.maxMs)
MAX_DEPTH = 2_000            # the app's own cap (loomlab.sleep.maxDepth)
MAX_CONCURRENCY = 20_000     # ab's own limit, and a bound for a 2-core machine


@dataclass(frozen=True)
class SleepSpec:
    """A fixed sleep (min == max) or a uniform random one, in ms."""
    min_ms: int
    max_ms: int

    @property
    def is_fixed(self):
        return self.min_ms == self.max_ms

    @property
    def mean_ms(self):
        return (self.min_ms + self.max_ms) / 2

    def __str__(self):
        return f"{self.min_ms} ms" if self.is_fixed else f"{self.min_ms}-{self.max_ms} ms"


@dataclass(frozen=True)
class LoadLevel:
    """One concurrency level and the sleep it runs with."""
    concurrency: int
    sleep: SleepSpec

    def __str__(self):
        return f"c={self.concurrency} @ {self.sleep}"


def sleep_spec(text):
    """'100' (fixed) or '50-150' (uniform), in ms."""
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not match:
        raise argparse.ArgumentTypeError(f"sleep must be MS or MIN-MAX in ms (e.g. 100 or 50-150), was '{text}'")
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) is not None else low
    if high > MAX_SLEEP_MS:
        raise argparse.ArgumentTypeError(f"sleep must be at most {MAX_SLEEP_MS} ms, was {high}")
    if low > high:
        raise argparse.ArgumentTypeError(f"sleep range '{text}': MIN must not exceed MAX")
    return SleepSpec(low, high)
