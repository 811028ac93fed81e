"""Is a window steady, and has a warm-up settled? Both read a throughput series.

- A measured window is flagged `not-steady` when its per-second 2xx throughput varies (coefficient
  of variation) or trends (least-squares slope over the window, relative to the mean) by more
  than NOT_STEADY_SHARE: a JIT still compiling, a GC storm, or a queue that builds up.
- A warm-up runs iterations (JMH-style) until the throughput stops rising: the last
  SETTLE_ITERATIONS iterations lie within ±SETTLE_TOLERANCE of their mean, or the cap is reached
  (the warm-up is then recorded as not settled).
- ./lab capacity's warm-up (warmup_end) also waits for the JIT: a throughput plateau while C2 is
  still compiling the hot path is not the steady state (docs/results/capacity-harness: platform-4000
  servers stopped by the plateau rule at 1,745-2,341 req/s after 31-86 s, where another had gone on
  to 4,700 after 133 s), so each of the settled iterations must also have compiled at most
  JIT_QUIET_PER_S methods per second. Each of them, not only the last: a Payara Micro 7
  platform-4000 warm-up that required the last alone ended on a plateau at 1,101-1,187 req/s after
  57 s, its last three iterations compiling 11.3, 7.3 and 4.0 methods a second, where Payara 6 went
  on from the same plateau to 3,362 (docs/results/payara7.md).
"""
import statistics

NOT_STEADY_SHARE = 0.15
SETTLE_ITERATIONS = 3
SETTLE_TOLERANCE = 0.05
# The JIT counts as quiet when an iteration compiled at most this many methods per second
# (sun.ci.totalCompiles between two readings). Measured on Payara Micro `virtual` (two warm-ups at
# c=1000, server on one CPU; docs/results/capacity-harness/pilot3-gc-jit-virtual): about 600/s in the
# first iteration, 21-34/s on the plateau before the throughput jumped (about 1,000 to 4,100 req/s),
# 5-10/s for half a minute after the jump, then a tail of 2-4/s for minutes with the throughput level.
# 5/s ends a warm-up after the jump (the plateau before it is 4x above), where 2/s waited for the end
# of the tail (one of the two warm-ups ran to the 180 s cap).
JIT_QUIET_PER_S = 5.0
# Why a warm-up ended (warmup_end), as results.json spells it.
WARMUP_ENDS = {
    "steady+jit": "throughput steady and the JIT quiet",
    "steady": "throughput steady (the JIT's compile count could not be read: the rule without it)",
    "cap": "the cap (--warmup-max) before both were true",
    "none": "no warm-up (--warmup-max 0)",
}


def series_stats(values):
    """{mean, cv, trend} of a per-second series; None for fewer than 3 values or a zero mean.
    trend: the fitted change from the first to the last second, as a share of the mean."""
    if values is None or len(values) < 3:
        return None
    mean = statistics.fmean(values)
    if mean <= 0:
        return None
    n = len(values)
    x_mean = (n - 1) / 2
    slope = sum((x - x_mean) * (v - mean) for x, v in enumerate(values)) / sum((x - x_mean) ** 2 for x in range(n))
    return {"mean": round(mean, 2), "cv": round(statistics.pstdev(values) / mean, 4),
            "trend": round(slope * (n - 1) / mean, 4)}


def not_steady(values, share=NOT_STEADY_SHARE):
    stats = series_stats(values)
    return bool(stats) and (stats["cv"] > share or abs(stats["trend"]) > share)


def settled(throughputs, iterations=SETTLE_ITERATIONS, tolerance=SETTLE_TOLERANCE):
    """True when the last `iterations` warm-up throughputs are within ±tolerance of their mean."""
    if len(throughputs) < iterations:
        return False
    last = throughputs[-iterations:]
    mean = statistics.fmean(last)
    return mean > 0 and all(abs(v - mean) <= tolerance * mean for v in last)


def warmup_end(throughputs, compiles_per_s, elapsed_s, min_s, max_s, jit_quiet_per_s=JIT_QUIET_PER_S):
    """Why a warm-up ends after its latest iteration (a WARMUP_ENDS key), or None to run another.

    `compiles_per_s`: each iteration's methods compiled per second, as `throughputs`, None where
    jcmd could not count. Steady: from min_s on, the throughputs have settled and each of the settled
    iterations (the last SETTLE_ITERATIONS) compiled at most jit_quiet_per_s methods per second
    ("steady+jit"); with no count for the latest iteration (jcmd failed) settling alone ends it, as
    before the JIT rule ("steady"). Otherwise max_s ends it ("cap")."""
    if elapsed_s >= min_s and settled(throughputs):
        latest = compiles_per_s[-SETTLE_ITERATIONS:]
        if latest[-1] is None:
            return "steady"
        if all(rate is not None and rate <= jit_quiet_per_s for rate in latest):
            return "steady+jit"
    if elapsed_s >= max_s:
        return "cap"
    return None


def per_second_from_samples(samples, response_bytes, start_t=None, end_t=None):
    """Per-second answers of a window from the load tool's read bytes (/proc samples, interpolated
    to whole seconds) ÷ one answer's size: for tools that report no per-request times."""
    readings = [(s.t, s.driver.read_bytes) for s in samples if s.driver and s.driver.read_bytes is not None]
    if len(readings) < 2 or not response_bytes:
        return None
    start = readings[0][0] if start_t is None else start_t
    end = readings[-1][0] if end_t is None else end_t

    def bytes_at(t):
        for (t0, b0), (t1, b1) in zip(readings, readings[1:]):
            if t0 <= t <= t1:
                return b0 + (b1 - b0) * ((t - t0) / (t1 - t0) if t1 > t0 else 0)
        return None
    series = []
    second = start
    while second + 1 <= end:
        low, high = bytes_at(second), bytes_at(second + 1)
        if low is None or high is None:
            break
        series.append(round((high - low) / response_bytes, 1))
        second += 1
    return series
