"""Is a window steady, and has a warm-up settled? Both read a throughput series.

- A measured window is flagged `not-steady` when its per-second 2xx throughput varies (coefficient
  of variation) or trends (least-squares slope over the window, relative to the mean) by more
  than NOT_STEADY_SHARE: a JIT still compiling, a GC storm, or a queue that builds up.
- A warm-up runs iterations (JMH-style) until the throughput stops rising: the last
  SETTLE_ITERATIONS iterations lie within ±SETTLE_TOLERANCE of their mean, or the cap is reached
  (the warm-up is then recorded as not settled).
"""
import statistics

NOT_STEADY_SHARE = 0.15
SETTLE_ITERATIONS = 3
SETTLE_TOLERANCE = 0.05


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
