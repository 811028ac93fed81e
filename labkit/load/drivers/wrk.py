"""wrk (Debian's wrk 4): event-loop client, closed model with `-c` connections over `-t` threads.

LoomLab runs wrk with wrk-record.lua, whose done() prints the counters and every recorded latency;
those go into an HdrHistogram for the percentiles. Two wrk behaviours to know when reading its
numbers:
- a response that arrives after `--timeout` is counted by wrk both as a completed request and as
  a timeout (its latency is not recorded); LoomLab counts it as a timeout only.
- wrk counts only statuses of 400 and above as errors, so a 3xx passes as ok.
- a run with a body (a POST) gets a small script of its own, written beside the run's output,
  that sets wrk.method, wrk.body and the Content-Type, then loads wrk-record.lua: wrk takes one
  script, and a static request (no request() function) keeps wrk on its fast path.
- before done() wrk adds synthetic latencies for requests a slow response held back (its own
  coordinated-omission correction), so the latency count can exceed the response count.
"""
import json
import os
from pathlib import Path

from labkit.ground.command import last_lines
from labkit.load.drivers.base import Driver, DriverOutputError, LoadSpec
from labkit.load.drivers.record import (
    ErrorCounts,
    LoadResult,
    encode_histogram,
    latency_from_histogram,
    new_histogram,
    record_us,
)

SCRIPT = Path(__file__).resolve().parent / "wrk-record.lua"
SUMMARY = "LOOMLAB-WRK "
LATENCY = "LOOMLAB-WRK-LATENCY "


class Wrk(Driver):
    name = "wrk"
    executable_name = "wrk"
    install_hint = "apt-get install wrk"
    supports_mix = True

    def threads(self, concurrency):
        return max(1, min(os.cpu_count() or 1, concurrency))

    def command(self, spec: LoadSpec, executable=None):
        return [executable or self.find_executable(),
                "--threads", str(self.threads(spec.concurrency)),
                "--connections", str(spec.concurrency),
                "--duration", f"{spec.duration_s}s",
                "--timeout", f"{spec.timeout_whole_seconds}s",
                "--script", str(self.script(spec)),
                *[arg for header in spec.headers for arg in ("--header", header)],
                spec.url]

    def request_script(self, spec: LoadSpec):
        """The script a run with a body or requests of your own uses (None otherwise: wrk-record.lua itself)."""
        if not spec.body_file and spec.requests is None:
            return None
        prefix = spec.side_file_prefix or Path(spec.body_file).with_suffix("")
        return Path(f"{prefix}.wrk-request.lua")

    def script(self, spec: LoadSpec):
        """wrk-record.lua, or for a POST a script that sets the request up and then loads it."""
        path = self.request_script(spec)
        if path is None:
            return SCRIPT
        path.parent.mkdir(parents=True, exist_ok=True)
        if spec.requests is not None:
            path.write_text(mix_script(spec.requests))
            return path
        path.write_text(
            "-- Written by LoomLab for one wrk run: every request POSTs the body file, then wrk-record.lua reports.\n"
            f"local body = io.open({_lua_string(spec.body_file)}, \"rb\")\n"
            "wrk.method = \"POST\"\n"
            "wrk.body = body:read(\"*a\")\n"
            "body:close()\n"
            f"wrk.headers[\"Content-Type\"] = {_lua_string(spec.content_type)}\n"
            f"dofile({_lua_string(SCRIPT)})\n")
        return path

    def side_files(self, spec: LoadSpec):
        path = self.request_script(spec)
        return [path] if path else []

    def parse(self, output: str, spec: LoadSpec = None, wall_s=None):
        summary = None
        histogram = new_histogram()
        for line in output.splitlines():
            if line.startswith(LATENCY):
                value, count = line[len(LATENCY):].split()
                record_us(histogram, int(value), int(count))
            elif line.startswith(SUMMARY):
                summary = json.loads(line[len(SUMMARY):])
        if summary is None:
            raise DriverOutputError("wrk printed no result: " + last_lines(output))
        counts = summary["errors"]
        errors = ErrorCounts(connect=counts["connect"], reset=counts["read"] + counts["write"],
                             timeout=counts["timeout"], non_2xx=counts["status"])
        responses = max(summary["responses"] - counts["timeout"], 0)
        result = LoadResult(tool=self.name, responses=responses, ok=max(responses - counts["status"], 0),
                            duration_s=summary["durationUs"] / 1e6, errors=errors)
        result.latency_ms = latency_from_histogram(histogram)
        if result.latency_ms:
            result.latency_source = "hdr:wrk recorded latencies (1 us resolution, wrk-corrected)"
            result.latency_hdr = encode_histogram(histogram)
        return result

    def version_command(self, executable):
        return [executable, "--version"]


def mix_script(mix):
    """A wrk script sending a RequestMix: each thread formats one round of the mix (a request as often
    as its weight) once in init(), and request() goes round it; then wrk-record.lua reports."""
    lines = ["-- Written by LoomLab for one wrk run: a round of your requests (each as often as its weight),",
             "-- formatted once per thread; request() goes round it. Then wrk-record.lua reports.",
             "local round = {}",
             "local bodies = {}",
             "local next_request = 0",
             "local function body(path)",
             "  if bodies[path] == nil then",
             "    local file = io.open(path, \"rb\")",
             "    bodies[path] = file:read(\"*a\")",
             "    file:close()",
             "  end",
             "  return bodies[path]",
             "end",
             "init = function(args)"]
    for request in mix.rounds():
        headers = ", ".join(f"[{_lua_string(name.strip())}] = {_lua_string(value.strip())}"
                            for name, value in (h.split(":", 1) for h in request.headers_with_type))
        body = f"body({_lua_string(request.body_file)})" if request.body_file else "nil"
        lines.append(f"  round[#round + 1] = wrk.format({_lua_string(request.method)}, {_lua_string(request.path)}, "
                     f"{{{headers}}}, {body})")
    lines += ["end",
              "request = function()",
              "  next_request = next_request % #round + 1",
              "  return round[next_request]",
              "end",
              f"dofile({_lua_string(SCRIPT)})", ""]
    return "\n".join(lines)


def _lua_string(value):
    """A Lua 5.1 string literal of `value` (UTF-8): printable ASCII as is, every other byte as \\ddd."""
    out = []
    for byte in str(value).encode("utf-8"):
        char = chr(byte)
        out.append(char if 32 <= byte < 127 and char not in "\"\\" else f"\\{byte:03d}")
    return '"' + "".join(out) + '"'


DRIVER = Wrk()
