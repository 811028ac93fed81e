"""The one record every driver produces, whatever the tool printed.

Counting rules, the same for every tool:
- `responses`: requests that got an HTTP response (any status) within the measured run.
- `ok`: responses with a 2xx status. Throughput figures use `ok`, so errors never inflate them.
- `errors`: failed requests by kind: `timeout` (no answer within the timeout), `connect`
  (connection refused / could not connect), `reset` (connection reset, closed or broken while a
  request was in flight), `non_2xx` (a response, but not 2xx), `other` (anything else the tool
  reported). `non_2xx` responses are counted both in `responses` and in `errors`.
- latency percentiles in milliseconds, from the tool's full latency data when it gives it
  (HdrHistogram, `latency_source` says which).
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from hdrh.histogram import HdrHistogram

# One microsecond to one hour, 3 significant digits: every latency a run can produce.
HISTOGRAM_LOWEST_US = 1
HISTOGRAM_HIGHEST_US = 3_600_000_000
HISTOGRAM_DIGITS = 3

PERCENTILES = (("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p999", 99.9))


@dataclass
class ErrorCounts:
    timeout: int = 0
    connect: int = 0
    reset: int = 0
    non_2xx: int = 0
    other: int = 0

    @property
    def total(self):
        return self.timeout + self.connect + self.reset + self.non_2xx + self.other

    def add(self, kind, count):
        setattr(self, kind, getattr(self, kind) + int(count))


@dataclass
class Latency:
    """Latency figures in milliseconds."""
    mean: float
    p50: float
    p90: float
    p99: float
    p999: float | None  # None when the tool gives no p99.9 and no raw latencies
    max: float


@dataclass
class LoadResult:
    tool: str
    responses: int
    ok: int
    duration_s: float
    errors: ErrorCounts = field(default_factory=ErrorCounts)
    latency_ms: Latency | None = None
    # "hdr:<what>" when computed here from the tool's raw latencies, "tool" when the tool's own percentiles.
    latency_source: str = "none"
    # Base64 HdrHistogram (microseconds) when raw latencies were available: lets repeats be merged later.
    latency_hdr: str | None = None
    # False when the tool stopped before its planned end (ab aborts on a timeout, for one).
    complete: bool = True
    notes: list[str] = field(default_factory=list)
    # 2xx answers per second of the window, when the tool records each request (steadiness check).
    per_second_ok: list[int] | None = None
    # p99 latency (ms) of the requests due in each second of the window, when the tool records each
    # request (vegeta): the time series of the HTML report. None where it cannot be known.
    per_second_p99_ms: list[float | None] | None = None
    # Open model: how late the latest request left against its schedule (ms); latencies include it.
    schedule_lag_max_ms: float | None = None
    # Open model: requests due in the run that the tool never sent (counted in errors.other too).
    unsent: int = 0

    @property
    def rps(self):
        """Responses of any status per second, as the tools print it."""
        return self.responses / self.duration_s if self.duration_s > 0 else 0.0

    @property
    def ok_rps(self):
        """2xx responses per second: the throughput LoomLab reports."""
        return self.ok / self.duration_s if self.duration_s > 0 else 0.0

    def to_dict(self):
        record = asdict(self)
        record["errors"]["total"] = self.errors.total
        record["rps"] = round(self.rps, 3)
        record["ok_rps"] = round(self.ok_rps, 3)
        return record


def new_histogram():
    return HdrHistogram(HISTOGRAM_LOWEST_US, HISTOGRAM_HIGHEST_US, HISTOGRAM_DIGITS)


def record_us(histogram, value_us, count=1):
    """Records a latency, clamped into the histogram's range (a 0 µs reading becomes 1 µs)."""
    value = min(max(int(round(value_us)), HISTOGRAM_LOWEST_US), HISTOGRAM_HIGHEST_US)
    histogram.record_value(value, int(count))


def latency_from_histogram(histogram):
    """Percentiles of a microsecond histogram, in ms; None when it holds no value."""
    if histogram.get_total_count() == 0:
        return None
    values = {name: histogram.get_value_at_percentile(p) / 1000.0 for name, p in PERCENTILES}
    return Latency(mean=histogram.get_mean_value() / 1000.0, max=histogram.get_max_value() / 1000.0, **values)


def encode_histogram(histogram):
    encoded = histogram.encode()
    return encoded.decode() if isinstance(encoded, bytes) else encoded


def decode_histogram(encoded):
    """The histogram encode_histogram wrote (text or bytes)."""
    return HdrHistogram.decode(encoded.encode() if isinstance(encoded, str) else encoded)


# Tool error messages → kinds. Checked in order; the texts are those of Go's net package,
# fasthttp, APR (ab) and errno strings.
_ERROR_KINDS = (
    ("timeout", re.compile(r"timeout|timed out|deadline exceeded", re.I)),
    ("connect", re.compile(r"connection refused|dial tcp|connect:|no route to host|cannot assign requested", re.I)),
    ("reset", re.compile(r"reset by peer|broken pipe|closed|\bEOF\b|connection abort|unexpected end", re.I)),
)


def error_kind(description):
    """The kind of one error message a tool printed."""
    for kind, pattern in _ERROR_KINDS:
        if pattern.search(description):
            return kind
    return "other"
