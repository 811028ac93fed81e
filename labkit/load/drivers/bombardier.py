"""bombardier (Go, fasthttp client): closed model with `-c` connections, or `--rate` limited.

LoomLab gives bombardier its own output template (bombardier-record.tmpl) so the result is one
JSON line with the exact percentiles LoomLab reports, p99.9 included; bombardier keeps every
latency in a microsecond histogram, so no raw data is needed to get them exactly.

Seen in the recorded runs (labkit/tests/fixtures/drivers): with a timeout shorter than the
answer, bombardier 1.2.6 reports the timeout about 5 s after sending, not at the timeout, and it
counts failed requests in its latencies. `timeTakenSeconds` includes the wait for requests still
in flight at the end of the duration; their answers are counted too.
"""
import json
from pathlib import Path

from labkit.ground.command import last_lines
from labkit.load.drivers.base import Driver, DriverOutputError, LoadSpec
from labkit.load.drivers.record import ErrorCounts, Latency, LoadResult, error_kind

TEMPLATE = Path(__file__).resolve().parent / "bombardier-record.tmpl"
RECORD_START = '{"tool":"bombardier"'


class Bombardier(Driver):
    name = "bombardier"
    executable_name = "bombardier"
    install_hint = "run ab-scripts/install-bombardier.sh (needs Go: apt-get install golang-go)"
    supports_rate = True

    def command(self, spec: LoadSpec, executable=None):
        command = [executable or self.find_executable(),
                   "--connections", str(spec.concurrency),
                   "--duration", f"{spec.duration_s}s",
                   "--timeout", f"{max(1, round(spec.timeout_s * 1000))}ms",
                   "--print", "result",
                   "--format", f"path:{TEMPLATE}"]
        if spec.rate:
            command += ["--rate", str(spec.rate)]
        if spec.requests is not None:
            return command + self._request_options(spec)
        if spec.body_file:
            command += ["--method", spec.method, "--body-file", str(spec.body_file),
                        "--header", f"Content-Type: {spec.content_type}"]
        for header in spec.headers:
            command += ["--header", header]
        return command + [spec.url]

    def _request_options(self, spec):
        """One request of your own: its method, headers and body file (bombardier sends one request)."""
        request = spec.requests.single
        if request is None:
            raise ValueError(f"bombardier sends one request; a mix of {len(spec.requests.requests)} needs "
                             f"--driver vegeta or wrk")
        options = ["--method", request.method]
        if request.body_file:
            options += ["--body-file", str(request.body_file)]
        for header in request.headers_with_type:
            options += ["--header", header]
        return options + [spec.request_url(request)]

    def parse(self, output: str, spec: LoadSpec = None, wall_s=None):
        line = next((l for l in output.splitlines() if l.startswith(RECORD_START)), None)
        if line is None:
            raise DriverOutputError("bombardier printed no result: " + last_lines(output))
        data = json.loads(line)
        responses = sum(data[k] for k in ("req1xx", "req2xx", "req3xx", "req4xx", "req5xx"))
        errors = ErrorCounts(non_2xx=responses - data["req2xx"])
        listed = 0
        for error in data.get("errors", []):
            errors.add(error_kind(error["description"]), error["count"])
            listed += error["count"]
        # `others` counts requests that ended without a status; bombardier lists most of them by message.
        if data["others"] > listed:
            errors.add("other", data["others"] - listed)
        result = LoadResult(tool=self.name, responses=responses, ok=data["req2xx"],
                            duration_s=data["timeTakenSeconds"], errors=errors)
        latency = data.get("latencyUs")
        if latency:
            percentiles = latency["percentiles"]
            result.latency_ms = Latency(mean=latency["mean"] / 1000, p50=percentiles["0.5"] / 1000,
                                        p90=percentiles["0.9"] / 1000, p99=percentiles["0.99"] / 1000,
                                        p999=percentiles["0.999"] / 1000, max=latency["max"] / 1000)
            result.latency_source = "tool"
            if errors.total - errors.non_2xx:
                result.notes.append("bombardier's latencies include failed requests (at the time they failed)")
        return result

    def version_command(self, executable):
        return [executable, "--version"]


DRIVER = Bombardier()
