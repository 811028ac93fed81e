"""--request / --requests FILE (labkit/load/requests_mix.py): parsing and its errors, how each load tool
is told to send the requests (vegeta targets, wrk Lua, bombardier and ab options), and the check
that every request answers 2xx before the load (against a small local HTTP server)."""
import http.server
import subprocess
import sys
import threading

import pytest

from labkit import ROOT
from labkit.load.drivers import DRIVERS, LoadSpec
from labkit.ground.errors import LabError, UsageError
from labkit.load.requests_mix import (
    Request,
    RequestMix,
    check_answers,
    load_requests_file,
    parse_requests,
    request_argument,
)

MIX_YAML = """\
- path: /shop/catalog?page=1
  weight: 8
- method: post
  path: /shop/cart
  headers: {Content-Type: application/json, X-Trace: "1"}
  body: '{"item": 42}'
  weight: 2
"""


def spec(tmp_path, mix):
    mix = mix.with_body_files(tmp_path / "bodies")
    return LoadSpec(url="http://127.0.0.1:19620" + mix.requests[0].path, concurrency=4, duration_s=2, timeout_s=5,
                    side_file_prefix=tmp_path / "p1", requests=mix)


def test_a_requests_file_becomes_a_weighted_mix(tmp_path):
    path = tmp_path / "mix.yaml"
    path.write_text(MIX_YAML)
    mix = load_requests_file(path)
    get, post = mix.requests
    assert (get.method, get.path, get.weight, get.body) == ("GET", "/shop/catalog?page=1", 8, None)
    assert (post.method, post.path, post.weight, post.body) == ("POST", "/shop/cart", 2, b'{"item": 42}')
    assert post.headers == ("Content-Type: application/json", "X-Trace: 1")
    assert post.content_type == "application/json" and post.other_headers == ("X-Trace: 1",)
    # 8 : 2 is a round of 4 catalog pages and 1 cart.
    assert [r.path for r in mix.rounds()] == ["/shop/catalog?page=1"] * 4 + ["/shop/cart"]
    assert mix.single is None and "80 %" in mix.describe()


@pytest.mark.parametrize("data,message", [
    ([], "expected a list of requests"),
    ({"path": "/x"}, "expected a list of requests"),
    (["/x"], "expected a mapping"),
    ([{"method": "GET"}], "path is missing"),
    ([{"path": "x"}], "path must start with /"),
    ([{"path": "/a b"}], "path must start with /"),
    ([{"path": "/x", "weight": 0}], "weight must be a whole number"),
    ([{"path": "/x", "weight": 1.5}], "weight must be a whole number"),
    ([{"path": "/x", "weight": True}], "weight must be a whole number"),
    ([{"path": "/x", "method": "FETCH"}], "method must be one of"),
    ([{"path": "/x", "method": "GET", "body": "a"}], "a GET request has no body"),
    ([{"path": "/x", "body": 42}], "body must be text"),
    ([{"path": "/x", "headers": "X: 1"}], "headers must be a mapping"),
    ([{"path": "/x", "headers": {"Host": "evil"}}], "set by the load tool"),
    ([{"path": "/x", "headers": {"Bad Name": "1"}}], "bad header"),
    ([{"path": "/x", "wieght": 2}], "unknown key 'wieght'"),
])
def test_a_bad_request_is_named_with_its_number(data, message):
    with pytest.raises(UsageError, match=message):
        parse_requests(data, "--requests mix.yaml")


def test_a_body_without_method_is_a_post_and_the_list_may_sit_under_requests():
    mix = parse_requests({"requests": [{"path": "/x", "body": "a=1"}]}, "f")
    assert mix.single.method == "POST" and mix.single.body == b"a=1"


def test_unreadable_or_invalid_yaml_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="cannot read it"):
        load_requests_file(tmp_path / "nosuch.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("- path: /x\n  weight: [1\n")
    with pytest.raises(UsageError, match="not valid YAML"):
        load_requests_file(bad)


def test_request_argument_is_method_and_path():
    assert request_argument("get /shop/") == Request("GET", "/shop/")
    for text in ("/shop/", "GET shop", "GET /a /b"):
        with pytest.raises(Exception, match="--request"):
            request_argument(text)


def test_vegeta_repeats_each_request_by_its_weight_with_headers_and_body(tmp_path):
    mix = parse_requests([{"path": "/a", "weight": 2},
                          {"method": "PUT", "path": "/b", "headers": {"X-A": "1"}, "body": "hi"}], "f")
    targets = DRIVERS["vegeta"].targets_text(spec(tmp_path, mix)).split("\n\n")
    assert targets[:2] == ["GET http://127.0.0.1:19620/a"] * 2
    assert targets[2].splitlines() == ["PUT http://127.0.0.1:19620/b", "X-A: 1",
                                       "Content-Type: application/octet-stream",
                                       f"@{(tmp_path / 'bodies' / 'request-2.body').resolve()}"]
    assert (tmp_path / "bodies" / "request-2.body").read_bytes() == b"hi"


def test_wrk_formats_one_round_per_thread_and_goes_round_it(tmp_path):
    mix = parse_requests([{"path": "/a", "weight": 3}, {"path": "/b", "method": "POST", "body": "x",
                                                        "headers": {"Content-Type": "text/plain"}}], "f")
    load = spec(tmp_path, mix)
    command = DRIVERS["wrk"].command(load, "wrk")
    script = command[command.index("--script") + 1]
    text = open(script).read()
    assert text.count('wrk.format("GET", "/a", {}, nil)') == 3
    assert 'wrk.format("POST", "/b", {["Content-Type"] = "text/plain"}, body(' in text
    assert "request = function()" in text and "wrk-record.lua" in text


def test_bombardier_and_ab_send_one_request_natively(tmp_path):
    mix = parse_requests([{"method": "PUT", "path": "/b?x=1", "headers": {"Content-Type": "text/plain", "X-A": "1"},
                           "body": "hi"}], "f")
    load = spec(tmp_path, mix)
    body = str((tmp_path / "bodies" / "request-1.body").resolve())
    bombardier = DRIVERS["bombardier"].command(load, "bombardier")
    assert ["--method", "PUT"] == bombardier[bombardier.index("--method"):bombardier.index("--method") + 2]
    assert bombardier[bombardier.index("--body-file") + 1] == body
    assert bombardier[-1] == "http://127.0.0.1:19620/b?x=1" and "X-A: 1" in bombardier
    ab = DRIVERS["ab"].command(load, "ab")
    assert ab[ab.index("-u") + 1] == body and ab[ab.index("-T") + 1] == "text/plain"
    assert "-H" in ab and ab[ab.index("-H") + 1] == "X-A: 1" and "-p" not in ab
    delete = spec(tmp_path, RequestMix((Request("DELETE", "/c"),)))
    ab = DRIVERS["ab"].command(delete, "ab")
    assert ab[ab.index("-m") + 1] == "DELETE" and ab[-1] == "http://127.0.0.1:19620/c"


def test_a_mix_is_refused_by_the_one_request_tools_and_ab_sends_bodies_only_with_post_or_put():
    mix = parse_requests([{"path": "/a"}, {"path": "/b"}], "f")
    assert "needs --driver vegeta or wrk" in DRIVERS["bombardier"].refuses(mix)
    assert "needs --driver vegeta or wrk" in DRIVERS["ab"].refuses(mix)
    assert DRIVERS["wrk"].refuses(mix) is None and DRIVERS["vegeta"].refuses(mix) is None
    patch = parse_requests([{"method": "PATCH", "path": "/a", "body": "x"}], "f")
    assert "only with POST or PUT" in DRIVERS["ab"].refuses(patch)
    assert DRIVERS["bombardier"].refuses(patch) is None


def test_bench_refuses_a_mix_for_bombardier_and_requests_with_a_scenario(tmp_path):
    path = tmp_path / "mix.yaml"
    path.write_text(MIX_YAML)
    for arguments, message in ((["--requests", str(path)], "bombardier sends one request"),
                               (["--request", "GET /a", "--scenario", "fanout"], "replace --scenario"),
                               (["--request", "GET /a", "--requests", str(path)], "not both"),
                               (["--request", "FETCH /a"], "method must be one of")):
        result = subprocess.run([sys.executable, "-m", "labkit.cli", "bench", *arguments], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        assert result.returncode == 2, result.stderr
        assert message in result.stderr and "Traceback" not in result.stderr


class Answers(http.server.BaseHTTPRequestHandler):
    """200 for /ok and /mix/..., 404 (with a long body) for anything else; every request recorded."""
    protocol_version = "HTTP/1.1"  # keep-alive, as the load tools expect

    def do_GET(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.seen.append((self.command, self.path, self.headers.get("Content-Type"), body))
        status = 200 if self.path == "/ok" or self.path.startswith("/mix/") else 404
        body = b"fine\n" if status == 200 else b"<html>\nline 2: not here\n" + b"more\n" * 30
        self.send_response(status)
        if self.request_version == "HTTP/1.0" and self.headers.get("Connection", "").lower() == "keep-alive":
            self.send_header("Connection", "keep-alive")  # ab's HTTP/1.0 keep-alive waits for it
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_PUT = do_DELETE = do_GET

    def log_message(self, *args):
        pass


@pytest.fixture
def answering_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answers)
    server.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def url(server):
    return f"http://127.0.0.1:{server.server_address[1]}"


def test_the_check_before_the_load_stops_at_the_first_non_2xx_and_shows_it(answering_server):
    answering_server = url(answering_server)
    sizes = check_answers(answering_server, RequestMix((Request("GET", "/ok"),)))
    assert sizes["GET /ok"] > len("fine\n")
    with pytest.raises(LabError) as failed:
        check_answers(answering_server, RequestMix((Request("GET", "/ok"), Request("POST", "/gone", body=b"x"))))
    message = str(failed.value)
    assert "POST /gone answered 404" in message and "line 2: not here" in message
    assert message.count("more") == 8  # the first 10 lines of the answer, not all of it


def run_tool(name, server, mix, tmp_path):
    driver = DRIVERS[name]
    try:
        executable = driver.find_executable()
    except Exception as missing:
        pytest.skip(str(missing))
    mix = mix.with_body_files(tmp_path / "bodies")
    load = LoadSpec(url=url(server) + mix.requests[0].path, concurrency=2, duration_s=2, timeout_s=5,
                    side_file_prefix=tmp_path / name, requests=mix, expected_requests=50_000)
    done = subprocess.run(driver.command(load, executable), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=60)
    result = driver.parse(done.stdout, load, wall_s=1)
    assert result.ok > 0, done.stdout[-2000:]
    return server.seen


@pytest.mark.parametrize("tool", ["vegeta", "wrk"])
def test_the_mix_tools_send_every_request_as_told_in_the_weighted_round(tool, answering_server, tmp_path):
    mix = parse_requests([{"path": "/mix/a", "weight": 3},
                          {"method": "PUT", "path": "/mix/b", "headers": {"Content-Type": "text/plain"},
                           "body": "hello"}], "f")
    seen = run_tool(tool, answering_server, mix, tmp_path)
    kinds = {(method, path, kind, body) for method, path, kind, body in seen}
    assert kinds == {("GET", "/mix/a", None, b""), ("PUT", "/mix/b", "text/plain", b"hello")}
    gets = sum(1 for s in seen if s[1] == "/mix/a")
    puts = len(seen) - gets
    # vegeta's workers share one round of 3 GETs then 1 PUT, wrk's threads (2 here) have one each: so
    # GETs are 3 per PUT plus at most 3 per unfinished round, give or take the requests cut off at the
    # end. A bound on counts, not a share, holds however few requests a starved machine manages.
    assert len(seen) >= 16 and -2 <= gets - 3 * puts <= 8, (gets, puts)


@pytest.mark.parametrize("tool", ["bombardier", "ab"])
def test_the_one_request_tools_send_its_method_headers_and_body(tool, answering_server, tmp_path):
    mix = parse_requests([{"method": "PUT", "path": "/mix/put?x=1", "headers": {"Content-Type": "text/plain",
                                                                                 "X-Trace": "7"},
                           "body": "hello"}], "f")
    seen = run_tool(tool, answering_server, mix, tmp_path)
    assert {(m, p, k, b) for m, p, k, b in seen} == {("PUT", "/mix/put?x=1", "text/plain", b"hello")}
