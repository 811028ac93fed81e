"""What every driver shares: the run it is asked for, and finding its tool."""
from __future__ import annotations

import math
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from labkit import ROOT

# Tools LoomLab builds itself (bombardier) land here; it is searched before PATH.
TOOLS_BIN = ROOT / ".lab" / "tools" / "bin"


class ToolMissing(Exception):
    """The load tool is not installed; the message is one line saying how to get it."""


class DriverOutputError(Exception):
    """The tool's output holds no result (it failed to start, or was killed)."""


@dataclass(frozen=True)
class LoadSpec:
    """One run of a load tool: closed model (`concurrency` connections, each sending its next
    request when the previous answer came) or, with `rate`, a fixed request rate.

    With `window` (steady measurement), `duration_s` is the time from the tool's start to the
    window's end; the tool then runs `drain_s` longer, so requests started in the window finish."""
    url: str
    concurrency: int
    duration_s: int
    timeout_s: float
    rate: int | None = None
    # Files the tool writes besides its output (ab's per-request data) start with this path.
    side_file_prefix: Path | None = None
    # Estimated upper bound of requests in the run, for tools that must be given a count (ab).
    expected_requests: int | None = None
    # (start, end) in whole epoch seconds: only requests that start in [start, end) are measured.
    window: tuple[int, int] | None = None
    # A request body (a file each tool sends natively): the requests are then POSTs of it with this type.
    body_file: Path | None = None
    content_type: str = "application/json"
    # Request headers, each "Name: value" (e.g. the Authorization of a page that needs a login).
    headers: tuple[str, ...] = ()
    # Open model: the most connections the tool may open (None: its own bound). Requests beyond it
    # wait for a connection, and that wait is inside their latency.
    max_connections: int | None = None
    # Your own application's requests (labkit/requests_mix.RequestMix): when set, the tool sends these
    # (a weighted mix, or one request with its method, headers and body) instead of url/body_file.
    requests: object = None

    @property
    def method(self):
        if self.requests is not None and self.requests.single:
            return self.requests.single.method
        return "POST" if self.body_file else "GET"

    @property
    def base_url(self):
        """scheme://host:port of the url, to which a request's path is added."""
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    def request_url(self, request):
        return self.base_url + request.path

    @property
    def drain_s(self):
        """Time after the window for its last requests to finish: at most the request timeout."""
        return self.timeout_whole_seconds if self.window else 0

    @property
    def run_seconds(self):
        """How long the tool runs: its duration, plus the drain after a window."""
        return self.duration_s + self.drain_s

    @property
    def timeout_whole_seconds(self):
        """For tools that take whole seconds: rounded up, so never below the asked timeout."""
        return max(1, math.ceil(self.timeout_s))


class Driver:
    """Builds a tool's command line and reads the tool's output into a LoadResult."""
    name = ""
    executable_name = ""
    install_hint = ""
    supports_rate = False
    # True when requests leave on a schedule whatever the server does and latency runs from each
    # request's intended start (an open model); a rate-limited closed-model tool is not one.
    open_model = False
    # True when the tool records each request's start time, so a window inside one continuous
    # run can be measured (LoadSpec.window); tools that only report whole runs cannot.
    supports_window = False
    # True when the tool can send a weighted mix of different requests (LoadSpec.requests) in one
    # run; the others send one request, with its method, headers and body.
    supports_mix = False

    def refuses(self, mix):
        """Why this tool cannot send the RequestMix `mix` (one line), or None when it can."""
        if mix is not None and not self.supports_mix and mix.single is None:
            return (f"{self.name} sends one request; a mix of {len(mix.requests)} requests needs --driver vegeta "
                    f"or wrk")
        return None

    def find_executable(self):
        """Path of the tool, .lab/tools/bin first; raises ToolMissing with the install line."""
        local = TOOLS_BIN / self.executable_name
        if local.is_file() and os.access(local, os.X_OK):
            return str(local)
        found = shutil.which(self.executable_name)
        if found:
            return found
        raise ToolMissing(f"{self.executable_name} is not installed: {self.install_hint}")

    def command(self, spec: LoadSpec, executable=None):
        raise NotImplementedError

    def parse(self, output: str, spec: LoadSpec, wall_s=None):
        """The LoadResult of one run from the tool's combined stdout+stderr (and side files).
        `wall_s`, the run's wall time measured outside the tool, stands in for the duration
        when the tool stopped without printing one."""
        raise NotImplementedError

    def side_files(self, spec: LoadSpec):
        """Extra files this run writes (kept as raw output beside the tool's text)."""
        return []

    def version_command(self, executable):
        return [executable, "--version"]


SECRET_HEADERS = ("authorization:", "cookie:")


def redacted(command):
    """A tool's command line fit for a report: the values of credential headers replaced."""
    return [f"{arg.split(':', 1)[0]}: <redacted>" if arg.lower().startswith(SECRET_HEADERS) else arg
            for arg in command]
