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
