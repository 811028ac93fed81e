"""What `./lab bench` sends to your own application: `--request 'METHOD /path'` (repeatable) or
`--requests FILE`, a YAML list of requests with their weights, and the check that each answers 2xx
before anything is measured.

A requests file:

    - path: /shop/catalog?page=1          # required, starts with /
      weight: 8                           # share of the mix (a whole number, default 1)
    - method: POST                        # default GET
      path: /shop/cart
      headers: {Content-Type: application/json, Authorization: Bearer abc}
      body: '{"item": 42, "quantity": 1}' # sent as is (UTF-8)
      weight: 2

The load tools take the mix natively (labkit/drivers): vegeta's targets file (a request repeated
by its weight, vegeta goes round them), a wrk Lua script (the same weighted round), and for a
single request bombardier (--method, --header, --body-file) and ab (-m, -H, -p/-u with -T).
"""
import argparse
import http.client
import math
import re
from dataclasses import dataclass, field, replace
from functools import reduce
from pathlib import Path
from urllib.parse import urlsplit

from labkit.ground.errors import LabError, UsageError

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
KEYS = ("method", "path", "headers", "body", "weight")
MAX_WEIGHT = 1000
HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
DEFAULT_BODY_TYPE = "application/octet-stream"
# Lines of a failing answer shown when the check before the load fails.
SHOWN_LINES = 10


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: tuple = ()            # "Name: value"
    body: bytes | None = None
    weight: int = 1
    body_file: Path | None = field(default=None, compare=False)  # the body written out for the load tools

    def __str__(self):
        return f"{self.method} {self.path}"

    @property
    def content_type(self):
        for header in self.headers:
            name, _, value = header.partition(":")
            if name.strip().lower() == "content-type":
                return value.strip()
        return DEFAULT_BODY_TYPE

    @property
    def headers_with_type(self):
        """The headers, with the default Content-Type added to a body that has none (the tools send as told)."""
        if self.body is None or any(h.partition(":")[0].strip().lower() == "content-type" for h in self.headers):
            return self.headers
        return (*self.headers, f"Content-Type: {DEFAULT_BODY_TYPE}")

    @property
    def other_headers(self):
        """The headers without Content-Type (a tool that takes the body's type apart: ab -T)."""
        return tuple(h for h in self.headers if h.partition(":")[0].strip().lower() != "content-type")

    def to_dict(self):
        return {"method": self.method, "path": self.path, "headers": [_redact(h) for h in self.headers],
                "body_bytes": len(self.body) if self.body is not None else None, "weight": self.weight}


@dataclass(frozen=True)
class RequestMix:
    requests: tuple

    @property
    def single(self):
        return self.requests[0] if len(self.requests) == 1 else None

    def rounds(self):
        """The requests in one round of the mix, each as often as its weight (divided by the weights'
        greatest common divisor: 8 and 2 make a round of 4 + 1)."""
        divisor = reduce(math.gcd, (r.weight for r in self.requests))
        return [r for r in self.requests for _ in range(r.weight // divisor)]

    def with_body_files(self, folder):
        """The mix with each body written to a file in `folder` (the load tools read bodies from files)."""
        folder = Path(folder)
        requests = []
        for number, request in enumerate(self.requests, 1):
            if request.body is not None:
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / f"request-{number}.body"
                path.write_bytes(request.body)
                request = replace(request, body_file=path.resolve())
            requests.append(request)
        return RequestMix(tuple(requests))

    def describe(self):
        total = sum(r.weight for r in self.requests)
        if self.single:
            return str(self.single)
        return ", ".join(f"{r} ({100 * r.weight / total:.0f} %)" for r in self.requests)

    def to_dict(self):
        return [r.to_dict() for r in self.requests]


def _redact(header):
    name = header.partition(":")[0].strip()
    return f"{name}: <redacted>" if name.lower() in ("authorization", "cookie") else header


def _path(value, where):
    if not isinstance(value, str) or not value.startswith("/") or any(c.isspace() for c in value):
        raise UsageError(f"{where}: path must start with / and hold no spaces, was {value!r}")
    return value


def _method(value, where):
    method = str(value).upper()
    if method not in METHODS:
        raise UsageError(f"{where}: method must be one of {', '.join(METHODS)}, was {value!r}")
    return method


def request_argument(text):
    """argparse type of --request: 'METHOD /path' (no body: use --requests for one)."""
    parts = text.split()
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"--request must be 'METHOD /path' (e.g. 'GET /shop/'), was {text!r}")
    try:
        return Request(_method(parts[0], "--request"), _path(parts[1], "--request"))
    except UsageError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _headers(value, where):
    if value is None:
        return ()
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list) and all(isinstance(h, str) and ":" in h for h in value):
        items = [tuple(h.split(":", 1)) for h in value]
    else:
        raise UsageError(f"{where}: headers must be a mapping (Name: value) or a list of 'Name: value'")
    headers = []
    for name, header_value in items:
        name, header_value = str(name).strip(), str(header_value).strip()
        if not HEADER_NAME.fullmatch(name) or "\n" in header_value or "\r" in header_value:
            raise UsageError(f"{where}: bad header {name!r}")
        if name.lower() in ("host", "content-length"):
            raise UsageError(f"{where}: header {name} is set by the load tool")
        headers.append(f"{name}: {header_value}")
    return tuple(headers)


def parse_requests(data, source):
    """The RequestMix of a requests file's parsed YAML: a list of requests (or {requests: [...]})."""
    if isinstance(data, dict) and set(data) == {"requests"}:
        data = data["requests"]
    if not isinstance(data, list) or not data:
        raise UsageError(f"{source}: expected a list of requests (each with at least a path)")
    requests = []
    for number, item in enumerate(data, 1):
        where = f"{source}, request {number}"
        if not isinstance(item, dict):
            raise UsageError(f"{where}: expected a mapping with path (and method, headers, body, weight)")
        unknown = sorted(set(map(str, item)) - set(KEYS))
        if unknown:
            raise UsageError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(KEYS)})")
        if "path" not in item:
            raise UsageError(f"{where}: path is missing")
        weight = item.get("weight", 1)
        if isinstance(weight, bool) or not isinstance(weight, int) or not 1 <= weight <= MAX_WEIGHT:
            raise UsageError(f"{where}: weight must be a whole number in 1..{MAX_WEIGHT}, was {weight!r}")
        body = item.get("body")
        if body is not None and not isinstance(body, str):
            raise UsageError(f"{where}: body must be text (quote it in YAML), was {type(body).__name__}")
        method = _method(item.get("method", "POST" if body is not None else "GET"), where)
        if body is not None and method in ("GET", "HEAD"):
            raise UsageError(f"{where}: a {method} request has no body")
        requests.append(Request(method, _path(item["path"], where), _headers(item.get("headers"), where),
                                body.encode() if body is not None else None, weight))
    return RequestMix(tuple(requests))


def load_requests_file(path):
    """--requests FILE: the file read and parsed, every problem a UsageError naming the file."""
    import yaml
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise UsageError(f"--requests {path}: cannot read it ({e.strerror or e})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise UsageError(f"--requests {path}: not valid YAML ({str(e).splitlines()[0]})") from None
    return parse_requests(data, f"--requests {path}")


def add_request_arguments(parser):
    parser.add_argument("--request", dest="request_lines", action="append", type=request_argument, default=[],
                        metavar="'METHOD /PATH'",
                        help="what to load instead of the lab's scenario, repeatable (an equal mix); e.g. "
                             "--request 'GET /shop/'; with --war its paths include the WAR's context root")
    parser.add_argument("--requests", dest="requests_file", metavar="FILE",
                        help="a YAML list of requests (method, path, headers, body, weight): a weighted mix; "
                             "docs/bring-your-own-app.md")


def mix_from_arguments(args):
    """The RequestMix of --request/--requests, or None when neither is given."""
    lines = tuple(getattr(args, "request_lines", None) or ())
    file = getattr(args, "requests_file", None)
    if lines and file:
        raise UsageError("give --request or --requests, not both")
    if file:
        return load_requests_file(file)
    return RequestMix(lines) if lines else None


# ---- the check before the load ---------------------------------------------------------------------

def send_once(base_url, method, path, body=None, headers=(), timeout=65):
    """One request before the load, on its own connection: (status, reason, answer bytes, the whole
    answer's size on the wire, status line and headers included). A LabError when it cannot be sent."""
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    request_headers = {name.strip(): value.strip() for name, value in (h.split(":", 1) for h in headers)}
    try:
        connection.request(method, path, body=body, headers=request_headers)
        response = connection.getresponse()
        answer = response.read()
    except OSError as e:
        raise LabError(f"{method} {path} failed before the load started: {e}") from None
    finally:
        connection.close()
    header_bytes = sum(len(k) + len(v) + 4 for k, v in response.getheaders())
    size = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + header_bytes + 2 + len(answer)
    return response.status, response.reason, answer, size


def check_answers(base_url, mix, timeout=65):
    """Sends each request of the mix once; a LabError showing the status and the answer's first lines
    when one does not answer 2xx. Returns {str(request): size of the whole answer in bytes}."""
    sizes = {}
    for request in mix.requests:
        status, reason, answer, size = send_once(base_url, request.method, request.path, request.body,
                                                 request.headers_with_type, timeout)
        if not 200 <= status < 300:
            shown = "\n".join(answer.decode(errors="replace").splitlines()[:SHOWN_LINES])
            raise LabError(f"{request} answered {status} {reason} before the load started "
                           f"(every request must answer 2xx); its first lines:\n{shown}")
        sizes[str(request)] = size
    return sizes


def mean_answer_bytes(mix, sizes):
    """The weighted mean size of an answer, to turn the load tool's read bytes into a live req/s."""
    total = sum(r.weight for r in mix.requests)
    return sum(sizes[str(r)] * r.weight for r in mix.requests) / total
