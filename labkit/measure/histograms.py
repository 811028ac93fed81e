"""Latency histograms across windows: merged, never averaged.

A point record holds its window's HdrHistogram (µs, base64 `load.latency_hdr`) whenever the tool
gave raw latencies. Repeats of a point are merged into one histogram, so a p99 over repeats is
the p99 of all their requests and the max is the true max; percentiles of single windows are
never averaged. Per point (and per merged group) a `.hgrm.gz` (HdrHistogram's percentile
distribution text, ms, gzip) is written beside the results for HdrHistogram's own plotters.
"""
import gzip
import io
import math
import statistics


from labkit.load.drivers.record import decode_histogram
from labkit.load.tools import PERCENTILES, new_histogram

HISTOGRAM_DIR = "histograms"
# Percentiles of the spectrum chart: 1/(1-p) grows tenfold per step, as HdrHistogram plots them.
SPECTRUM = (0.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99, 99.995, 99.999, 100.0)
# Student's t, two-sided 95 %, by degrees of freedom (n − 1); above 30 the normal 1.96.
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042}


def decode(encoded):
    return decode_histogram(encoded)


def merged(encoded_histograms):
    """One histogram of every request in the given windows; None when there is none."""
    total = None
    for encoded in encoded_histograms:
        if not encoded:
            continue
        histogram = decode(encoded)
        if total is None:
            total = new_histogram()
        total.add(histogram)
    return total


def encode(histogram):
    encoded = histogram.encode()
    return encoded.decode() if isinstance(encoded, bytes) else encoded


def latency_ms(histogram):
    """{count, mean, p50, p90, p99, p999, max} in ms of a µs histogram, or None when empty."""
    if histogram is None or histogram.get_total_count() == 0:
        return None
    figures = {name: round(histogram.get_value_at_percentile(p) / 1000.0, 3) for name, p in PERCENTILES}
    return {"count": histogram.get_total_count(), "mean": round(histogram.get_mean_value() / 1000.0, 3),
            **figures, "max": round(histogram.get_max_value() / 1000.0, 3)}


def share_above(histogram, limit_ms):
    """The share of a µs histogram's requests slower than `limit_ms` (a goal), by HdrHistogram's
    buckets as its percentiles read them; None when empty."""
    if histogram is None or histogram.get_total_count() == 0:
        return None
    limit_us = limit_ms * 1000.0
    above = sum(item.count_at_value_iterated_to for item in histogram.get_recorded_iterator()
                if item.value_iterated_to > limit_us)
    return above / histogram.get_total_count()


def spectrum_ms(histogram):
    """[(percentile, latency ms)] for the percentile-spectrum chart."""
    return [(p, histogram.get_value_at_percentile(p) / 1000.0) for p in SPECTRUM]


def write_hgrm_gz(histogram, path):
    """HdrHistogram's percentile distribution text (values in ms), gzip-compressed."""
    text = io.BytesIO()
    histogram.output_percentile_distribution(text, 1000.0)
    path.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same histogram gives the same bytes (diff-friendly when committed).
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(text.getvalue())
    return path


def median_spread(values):
    """{median, min, max, n, ci95: [low, high] | None} of repeated measurements: a t-interval of the
    mean (n >= 3), beside the median and the full range, so a reader sees both."""
    values = [v for v in values if isinstance(v, (int, float)) and not math.isnan(v)]
    if not values:
        return None
    result = {"median": round(statistics.median(values), 4), "min": round(min(values), 4),
              "max": round(max(values), 4), "n": len(values), "ci95": None}
    if len(values) >= 3:
        mean = statistics.fmean(values)
        half = _t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
        # Rates, times and sizes are never negative: a wide interval stops at 0.
        low = max(mean - half, 0.0) if min(values) >= 0 else mean - half
        result["ci95"] = [round(low, 4), round(mean + half, 4)]
    return result


def _t95(degrees):
    known = [d for d in sorted(_T95) if d <= degrees]
    return _T95[known[-1]] if degrees <= 30 else 1.96
