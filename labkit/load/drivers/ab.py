"""ApacheBench (ab, Debian's apache2-utils): one thread, closed model with `-c` connections.

Flags LoomLab always sets, and why:
- `-k` keep-alive, as bombardier and wrk do; without it every request opens a new connection
  and the test measures TCP set-up and TIME_WAIT instead of the server's threads.
- `-r` so a connection reset does not end the whole run, `-l` because the answers' length
  varies (the thread name is in the body) and ab would otherwise count that as a failure.
- `-g FILE` writes one line per request: LoomLab reads its total time (1 ms resolution) into an
  HdrHistogram, so p99.9 is known (ab's own table stops at p99). Failed requests have lines
  there too, so with errors the percentiles mix both.
- `-p FILE -T TYPE` when the run has a body: every request is then a POST of that file.
- `-t` with `-n`: ab sizes its request table from `-n` and ends at whichever comes first, so
  `-n` is set above what the run can reach.

ab ends the whole run at the first request that exceeds `-s` (its timeout): the result is then
marked incomplete, with the requests it finished.

Steady window (LoadSpec.window): one run holds warm-up, window and drain; `-t` covers all three.
The `-g` file's `seconds` column is each request's start in whole epoch seconds, so the requests
that started in [start, end) are counted exactly and only their times make the percentiles. That
file does not mark failures: error counts stay those of ab's whole run, and its non-2xx answers
are subtracted from the window's ok. A request still unanswered when ab stops after the drain
appears nowhere in ab's output (ab has no per-connection record to find it): vegeta, which
records every scheduled request, measures such windows without that gap.
"""
import re
from pathlib import Path

from labkit.ground.command import last_lines
from labkit.load.drivers.base import Driver, DriverOutputError, LoadSpec
from labkit.load.drivers.record import (
    ErrorCounts,
    Latency,
    LoadResult,
    encode_histogram,
    latency_from_histogram,
    new_histogram,
    record_us,
)

# How ab sends a request's body: -p makes it a POST of the file, -u a PUT.
BODY_OPTIONS = {"POST": "-p", "PUT": "-u"}
MIN_REQUEST_TABLE = 50_000
# When nothing bounds the run's requests (no Little's-law ceiling): ~64 MB of ab's table.
UNKNOWN_REQUEST_TABLE = 2_000_000
# ab keeps a 32-byte record per request for -n: 20 million is ~640 MB, the most LoomLab asks for.
MAX_REQUEST_TABLE = 20_000_000


def request_table(spec: LoadSpec):
    """ab's -n: above what the run can reach, so -t ends it (ab stops at whichever comes first)."""
    wanted = spec.expected_requests if spec.expected_requests is not None else UNKNOWN_REQUEST_TABLE
    return min(max(wanted, MIN_REQUEST_TABLE), MAX_REQUEST_TABLE)


def _number(pattern, text, cast=int):
    match = re.search(pattern, text, re.MULTILINE)
    return cast(match.group(1)) if match else None


class ApacheBench(Driver):
    name = "ab"
    executable_name = "ab"
    install_hint = "apt-get install apache2-utils"
    supports_window = True

    def requests_file(self, spec: LoadSpec):
        return Path(f"{spec.side_file_prefix}.ab-requests.tsv") if spec.side_file_prefix else None

    def side_files(self, spec: LoadSpec):
        return [self.requests_file(spec)] if spec.side_file_prefix else []

    def command(self, spec: LoadSpec, executable=None):
        command = [executable or self.find_executable(), "-k", "-r", "-l",
                   "-c", str(spec.concurrency),
                   # -t first: it resets -n to 50000, the -n after it wins.
                   "-t", str(spec.run_seconds), "-n", str(request_table(spec)),
                   "-s", str(spec.timeout_whole_seconds)]
        if spec.side_file_prefix:
            command += ["-g", str(self.requests_file(spec))]
        if spec.requests is not None:
            return command + self._request_options(spec)
        if spec.body_file:
            # -p makes every request a POST of the file; -T is its Content-Type.
            command += ["-p", str(spec.body_file), "-T", spec.content_type]
        for header in spec.headers:
            command += ["-H", header]
        return command + [spec.url]

    def refuses(self, mix):
        single = mix.single if mix is not None else None
        if single is not None and single.body is not None and single.method not in BODY_OPTIONS:
            return f"ab sends a body only with POST or PUT, not {single.method}: use --driver bombardier, vegeta or wrk"
        return super().refuses(mix)

    def _request_options(self, spec):
        """One request of your own: -m for its method, -p (POST) or -u (PUT) with -T for a body, -H headers."""
        request = spec.requests.single
        if request is None:
            raise ValueError(f"ab sends one request; a mix of {len(spec.requests.requests)} needs --driver vegeta or wrk")
        options = []
        if request.body_file:
            if request.method not in BODY_OPTIONS:
                raise ValueError(f"ab sends a body only with POST or PUT, not {request.method}: use --driver "
                                 f"bombardier, vegeta or wrk")
            options += [BODY_OPTIONS[request.method], str(request.body_file), "-T", request.content_type]
            headers = request.other_headers
        else:
            if request.method != "GET":
                options += ["-m", request.method]
            headers = request.headers
        for header in headers:
            options += ["-H", header]
        return options + [spec.request_url(request)]

    def parse(self, output: str, spec: LoadSpec = None, wall_s=None):
        fatal = re.findall(r"^(apr_\w+: .*)$", output, re.MULTILINE)
        complete = _number(r"^Complete requests:\s+(\d+)", output)
        if complete is None:
            if spec is not None and spec.window and fatal:
                # ab exits at its first timeout without writing -g: nothing tells which requests were in the window.
                raise DriverOutputError(f"ab stopped the run early ({fatal[-1]}) and wrote no per-request "
                                        "times: the steady window cannot be measured")
            return self._aborted(output, fatal, wall_s)
        failed_connect = _number(r"\(Connect: (\d+),", output) or 0
        failed_receive = _number(r"Receive: (\d+),", output) or 0
        failed_exceptions = _number(r"Exceptions: (\d+)\)", output) or 0
        non_2xx = _number(r"^Non-2xx responses:\s+(\d+)", output) or 0
        # ab counts a request that failed while reading its answer as "complete"; connect failures
        # and exceptions (poll errors on a dead connection) it counts apart.
        responses = max(complete - failed_receive, 0)
        # ab counts a non-2xx status when it reads the headers, a completion when the answer ends:
        # at the end of a timed run the two can differ by the answers still being read.
        non_2xx = min(non_2xx, responses)
        errors = ErrorCounts(connect=failed_connect, reset=failed_receive + failed_exceptions, non_2xx=non_2xx)
        if spec is not None and spec.window:
            return self._steady_window(spec, errors, complete, fatal)
        result = LoadResult(tool=self.name, responses=responses, ok=max(responses - non_2xx, 0),
                            duration_s=_number(r"^Time taken for tests:\s+([\d.]+) seconds", output, float),
                            errors=errors)
        for line in fatal:
            result.notes.append(line)
        self._read_latency(result, output, spec)
        return result

    def _steady_window(self, spec, errors, complete, fatal):
        """The result of the requests that started inside spec.window; errors are the whole run's."""
        start, end = spec.window
        histogram, total = self._window_histogram(spec)
        inside = histogram.get_total_count()
        if not inside:
            raise DriverOutputError(f"no request started inside the steady window [{start}, {end}) "
                                    f"(epoch s) among the {total} in ab's per-request file")
        # ab's -g file holds no status: every non-2xx answer of the run is taken to be in the window
        # (an error may then be counted that happened outside it, never an error missed).
        ok = max(inside - errors.non_2xx, 0)
        result = LoadResult(tool=self.name, responses=inside, ok=ok, duration_s=float(end - start),
                            errors=errors, latency_ms=latency_from_histogram(histogram),
                            latency_source="hdr:ab -g, requests started in the steady window (1 ms resolution)",
                            latency_hdr=encode_histogram(histogram))
        result.notes += fatal
        result.notes.append(f"steady window: {inside} of the run's {total} requests started in it; "
                            "the others were warm-up (with the connection ramp) or drain")
        result.notes.append("error counts cover ab's whole run (warm-up, window and drain): its per-request file "
                            "does not mark failures, so with errors the window's count and latencies may include some; "
                            "the run's non-2xx answers are subtracted from the window's ok")
        result.notes.append("a request still unanswered when ab stops after the drain is in neither ab's counts nor "
                            "its per-request file: use --driver vegeta, which counts it (timeout, or never sent)")
        if complete >= request_table(spec):
            # ab ends at -n or -t, whichever comes first: a full table may have ended it inside the window.
            result.complete = False
            result.notes.append(f"ab used its whole request table (-n {request_table(spec)}): the run may have "
                                "ended before the window did")
        return result

    def _window_histogram(self, spec):
        """Total times of the requests that started in spec.window (µs histogram), and how many
        requests the whole file holds."""
        requests_file = self.requests_file(spec)
        if requests_file is None or not requests_file.is_file():
            raise DriverOutputError("ab wrote no per-request file (-g): the steady window cannot be measured")
        start, end = spec.window
        histogram, total = new_histogram(), 0
        with open(requests_file) as lines:
            next(lines, None)  # header: starttime seconds ctime dtime ttime wait
            for line in lines:
                columns = line.rstrip("\n").split("\t")
                if len(columns) < 6:
                    continue
                total += 1
                if start <= int(columns[1]) < end:
                    record_us(histogram, int(columns[4]) * 1000)
        return histogram, total

    def _aborted(self, output, fatal, wall_s):
        if not fatal:
            raise DriverOutputError("ab printed no result: " + last_lines(output))
        done = _number(r"^Total of (\d+) requests completed", output) or 0
        errors = ErrorCounts()
        for line in fatal:
            errors.add("timeout" if "70007" in line or "timeout" in line.lower() else "reset", 1)
        result = LoadResult(tool=self.name, responses=done, ok=done, duration_s=wall_s or 0.0,
                            errors=errors, complete=False)
        result.notes.append(f"ab stopped the run early: {fatal[-1]}")
        if done:
            result.notes.append("ab gives no status counts for a stopped run: its completed requests are counted as 2xx")
        return result

    def _read_latency(self, result, output, spec):
        requests_file = self.requests_file(spec) if spec else None
        if requests_file and requests_file.is_file():
            histogram = new_histogram()
            with open(requests_file) as lines:
                next(lines, None)  # header: starttime seconds ctime dtime ttime wait
                for line in lines:
                    columns = line.rstrip("\n").split("\t")
                    if len(columns) >= 6:
                        record_us(histogram, int(columns[4]) * 1000)
            result.latency_ms = latency_from_histogram(histogram)
            if result.latency_ms:
                result.latency_source = "hdr:ab -g per-request times (1 ms resolution)"
                result.latency_hdr = encode_histogram(histogram)
                return
        # Without the per-request file: ab's own table (no p99.9).
        p50 = _number(r"^\s+50%\s+(\d+)", output)
        if p50 is None:
            return
        result.latency_ms = Latency(mean=_number(r"^Total:\s+\d+\s+(\d+)", output, float),
                                    p50=float(p50), p90=float(_number(r"^\s+90%\s+(\d+)", output)),
                                    p99=float(_number(r"^\s+99%\s+(\d+)", output)), p999=None,
                                    max=float(_number(r"^\s+100%\s+(\d+)", output)))
        result.latency_source = "tool"

    def version_command(self, executable):
        return [executable, "-V"]


DRIVER = ApacheBench()
