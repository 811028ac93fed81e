"""vegeta (Go, net/http client): the open model. Requests leave at a fixed rate (`-rate`) whatever
the server does; a stalled server therefore faces a growing queue, as it would in production.

What vegeta measures, and what LoomLab adds:
- vegeta times a request from the moment one of its workers takes the request's tick; it starts a
  new worker whenever all are busy (`-max-workers` unbounded, its default), so that moment is the
  scheduled one unless vegeta itself falls behind (CPU starved on a shared 2-core machine). Time
  spent waiting for a connection is inside its latency.
- LoomLab makes the latency run from each request's *intended* start: with the constant pacer,
  request `seq` is due `seq` intervals (1 s / rate) after request 0, so
  latency = answer time − intended start = vegeta's latency + how late the request left. A
  stalled load tool then shows up in the percentiles too, not only a stalled server.
- The results file (`-output`, vegeta's binary format) is read back through `vegeta encode
  -to=csv` into an HdrHistogram (µs); it is kept, because result files of several load hosts
  merge (`vegeta report a.bin b.bin`).

Closed model with vegeta (used for warm-up iterations): `rate` None means `-rate=0` with
`-max-workers=concurrency`, i.e. `concurrency` requests in flight, each sent when a worker is free.

Counting: a result with status 0 is a failed request (its error text gives the kind); any other
status is a response, 2xx ok. `-max-body=0`: bodies are not kept (only their status matters).
"""
import csv
import math
from pathlib import Path

from labkit.ground.command import last_lines, run_command
from labkit.ground.errors import LabError
from labkit.load.drivers.base import Driver, DriverOutputError, LoadSpec
from labkit.load.drivers.record import (
    ErrorCounts,
    LoadResult,
    encode_histogram,
    error_kind,
    latency_from_histogram,
    new_histogram,
    record_us,
)

# Connections vegeta may open to the server at once: a bound for the machine (each is a socket on
# both sides), far above what a 2-core server sustains; requests beyond it wait for one, and that
# wait is inside their latency.
MAX_CONNECTIONS = 15_000
WINDOW_TAIL_S = 1


class Vegeta(Driver):
    name = "vegeta"
    executable_name = "vegeta"
    install_hint = "run ab-scripts/install-vegeta.sh (needs Go: apt-get install golang-go)"
    supports_rate = True
    open_model = True
    supports_window = True
    supports_mix = True

    def results_file(self, spec: LoadSpec):
        return Path(f"{spec.side_file_prefix}.vegeta.bin")

    def targets_file(self, spec: LoadSpec):
        return Path(f"{spec.side_file_prefix}.vegeta-targets")

    def side_files(self, spec: LoadSpec):
        return [self.results_file(spec), self.targets_file(spec)] if spec.side_file_prefix else []

    def command(self, spec: LoadSpec, executable=None):
        if not spec.side_file_prefix:
            raise ValueError("vegeta writes its results to a file: the LoadSpec needs a side_file_prefix")
        targets = self.targets_file(spec)
        targets.parent.mkdir(parents=True, exist_ok=True)
        targets.write_text(self.targets_text(spec))
        command = [executable or self.find_executable(), "attack",
                   "-targets", str(targets), "-output", str(self.results_file(spec)),
                   # With a window vegeta needs no drain: after the attack it waits for every
                   # answer (up to the timeout). It attacks WINDOW_TAIL_S past the window, so a
                   # vegeta behind schedule still sends every request due in the window.
                   "-duration", f"{spec.duration_s + (WINDOW_TAIL_S if spec.window else 0)}s",
                   "-timeout", f"{max(1, round(spec.timeout_s * 1000))}ms",
                   "-max-body", "0", "-keepalive=true", "-http2=false"]
        if spec.rate:
            command += ["-rate", f"{spec.rate}/1s", "-max-connections", str(spec.max_connections or MAX_CONNECTIONS)]
        else:
            # Closed model: at most `concurrency` workers, each sending when its answer came.
            command += ["-rate", "0", "-workers", str(spec.concurrency), "-max-workers", str(spec.concurrency),
                        "-max-connections", str(spec.concurrency)]
        return command

    @staticmethod
    def targets_text(spec: LoadSpec):
        """vegeta's http targets format: the request line, then its headers, then @FILE for a body."""
        if spec.requests is not None:
            return mix_targets(spec)
        lines = [f"{spec.method} {spec.url}", *spec.headers]
        if spec.body_file:
            lines += [f"Content-Type: {spec.content_type}", f"@{Path(spec.body_file).resolve()}"]
        return "\n".join(lines) + "\n"

    def parse(self, output: str, spec: LoadSpec = None, wall_s=None):
        if spec is None:
            raise DriverOutputError("vegeta's results are in its -output file: the LoadSpec is needed to find it")
        results = self.results_file(spec)
        if not results.is_file() or results.stat().st_size == 0:
            raise DriverOutputError("vegeta wrote no results: " + last_lines(output))
        rows = self.decode(results)
        if not rows:
            raise DriverOutputError("vegeta's results file holds no request: " + last_lines(output))
        return summarize(rows, spec, self.name)

    def decode(self, results_path, executable=None):
        """[(timestamp_ns, status, latency_ns, error, seq)] of every request in a results file."""
        command = [executable or self.find_executable(), "encode", "-to=csv", str(results_path)]
        try:
            done = run_command(command, timeout=600)
        except LabError as e:
            raise DriverOutputError(f"vegeta encode: {e}") from None
        if done.returncode != 0:
            raise DriverOutputError(f"vegeta encode failed: {last_lines(done.stderr)}")
        return parse_csv(done.stdout.splitlines())

    def version_command(self, executable):
        return [executable, "-version"]


def mix_targets(spec):
    """vegeta's targets for a RequestMix: one round of the mix (a request as often as its weight),
    targets separated by a blank line; vegeta sends them in turn, round after round."""
    targets = []
    for request in spec.requests.rounds():
        lines = [f"{request.method} {spec.request_url(request)}", *request.headers_with_type]
        if request.body_file:
            lines.append(f"@{Path(request.body_file).resolve()}")
        targets.append("\n".join(lines))
    return "\n\n".join(targets) + "\n"


def parse_csv(lines):
    """vegeta's CSV: timestamp (ns), code, latency (ns), bytes out, bytes in, error, body, attack,
    seq, method, url, headers."""
    rows = []
    for columns in csv.reader(lines):
        if len(columns) < 9:
            continue
        rows.append((int(columns[0]), int(columns[1]), int(columns[2]), columns[5], int(columns[8])))
    return rows


def summarize(rows, spec, tool="vegeta"):
    """The LoadResult of a run's requests. With spec.rate the latency runs from each request's
    intended start; with spec.window only requests *due* in [start, end) (epoch s) count."""
    rows = sorted(rows, key=lambda r: r[4])
    first_ns = rows[0][0]
    interval_ns = 1_000_000_000 // spec.rate if spec.rate else None
    window = spec.window
    histogram = new_histogram()
    errors = ErrorCounts()
    responses = ok = 0
    lag_max_ns = 0
    answered = []  # (due, finished) of the 2xx answers
    start_ns = window[0] * 1_000_000_000 if window else first_ns
    by_due_second = {}  # the latencies (µs) of the requests due in each second
    for timestamp, status, latency, error, seq in rows:
        due = first_ns + seq * interval_ns if interval_ns else timestamp
        if window and not window[0] * 1_000_000_000 <= due < window[1] * 1_000_000_000:
            continue
        finished = timestamp + latency
        lag_max_ns = max(lag_max_ns, timestamp - due)
        value_us = max(latency, finished - due) / 1000
        record_us(histogram, value_us)
        by_due_second.setdefault(int((due - start_ns) // 1_000_000_000), []).append(value_us)
        if status == 0:
            errors.add(error_kind(error), 1)
            continue
        responses += 1
        if 200 <= status < 300:
            ok += 1
            answered.append(finished)
        else:
            errors.add("non_2xx", 1)
    counted = histogram.get_total_count()
    if not counted:
        raise DriverOutputError("no request of vegeta's run was due inside the measured window")
    unsent = _unsent(rows, first_ns, interval_ns, window, spec, counted)
    if unsent:
        # vegeta ends its attack at -duration even when it is behind schedule: requests due before
        # that but never sent would otherwise vanish from the window (the tool could not keep the rate).
        errors.add("other", unsent)
    duration_s = float(window[1] - window[0]) if window else float(spec.duration_s)
    result = LoadResult(tool=tool, responses=responses, ok=ok, duration_s=duration_s, errors=errors,
                        latency_ms=latency_from_histogram(histogram), latency_hdr=encode_histogram(histogram))
    result.unsent = unsent
    if interval_ns:
        result.latency_source = ("hdr:vegeta results, from each request's intended start "
                                 "(request 0's send + seq / rate), 1 us resolution")
        result.schedule_lag_max_ms = round(lag_max_ns / 1e6, 3)
    else:
        result.latency_source = "hdr:vegeta results, closed model (from each request's send), 1 us resolution"
    # 2xx answers per second, by the second they arrived in, counted from the window's start plus the
    # median latency: in a steady state each second then holds the answers to one second of requests.
    origin = (window[0] * 1_000_000_000 if window else first_ns) + histogram.get_value_at_percentile(50) * 1000
    per_second = {}
    for finished in answered:
        second = int((finished - origin) // 1_000_000_000)
        per_second[second] = per_second.get(second, 0) + 1
    result.per_second_ok = [per_second.get(s, 0) for s in range(int(duration_s))]
    result.per_second_p99_ms = [per_second_p99_ms(by_due_second.get(s)) for s in range(int(duration_s))]
    if window:
        result.notes.append(f"steady window: {counted} requests were due in it")
        late_start_ns = first_ns - window[0] * 1_000_000_000
        if interval_ns and late_start_ns > interval_ns:
            # The schedule only exists from vegeta's first request on: the part of the window before
            # it was never loaded, so the window measured less than it claims.
            result.complete = False
            result.notes.append(f"vegeta's first request was due {late_start_ns / 1e6:,.0f} ms after the window "
                                "opened: that part of the window had no load (incomplete)")
    if unsent:
        result.notes.append(f"{unsent} requests due in the window were never sent (vegeta fell behind its schedule "
                            "and its attack ended): counted as errors (other)")
    return result


def per_second_p99_ms(values_us):
    """The p99 (ms) of one second's latencies (µs), nearest rank as HdrHistogram takes it; None for a
    second in which no request was due."""
    if not values_us:
        return None
    ordered = sorted(values_us)
    return round(ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)] / 1000, 3)


def _unsent(rows, first_ns, interval_ns, window, spec, counted):
    """Requests of the fixed-rate schedule due in the window (or the run) that have no result."""
    if not interval_ns:
        return 0
    if window:
        start, end = window[0] * 1_000_000_000, window[1] * 1_000_000_000
        due = math.ceil((end - first_ns) / interval_ns) - max(math.ceil((start - first_ns) / interval_ns), 0)
        return max(due - counted, 0)
    # Without a window the last request of the schedule may fall either side of the end: allow one.
    due = spec.duration_s * 1_000_000_000 // interval_ns
    return max(due - counted - 1, 0)


DRIVER = Vegeta()
