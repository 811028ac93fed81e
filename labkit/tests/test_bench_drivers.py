"""The drivers' parsers against outputs recorded from real runs (fixtures/drivers/, recorded by
fixtures/record_driver_fixtures.py against Payara Micro and a killed server on 127.0.0.1)."""
import http.server
import json
import re
import subprocess
import threading
from pathlib import Path

import pytest

from labkit.load.tools import DRIVERS, DriverOutputError, LoadSpec, ToolMissing, redacted

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "drivers"
TOOLS = ("bombardier", "ab", "wrk")
BODY_TOOLS = TOOLS + ("vegeta",)


def load_fixture(tool, case):
    meta = json.loads((FIXTURES / f"{tool}-{case}.json").read_text())
    output = (FIXTURES / f"{tool}-{case}.out").read_text()
    spec = LoadSpec(url=meta["url"], concurrency=meta["concurrency"], duration_s=meta["duration_s"],
                    timeout_s=meta["timeout_s"], side_file_prefix=FIXTURES / f"{tool}-{case}")
    return meta, output, DRIVERS[tool].parse(output, spec, wall_s=meta["wall_s"])


def sleep_ms(url):
    return int(re.search(r"ms=(\d+)", url).group(1))


@pytest.mark.parametrize("tool", TOOLS)
def test_clean_run_counts_every_answer_as_ok_with_latency_above_the_sleep(tool):
    meta, _, result = load_fixture(tool, "ok")
    assert result.errors.total == 0
    assert result.responses == result.ok > 0
    assert result.complete
    assert meta["duration_s"] - 0.1 <= result.duration_s <= meta["duration_s"] + 2
    latency = result.latency_ms
    # No answer can come back faster than the server's sleep.
    assert latency.p50 >= sleep_ms(meta["url"])
    assert latency.p50 <= latency.p90 <= latency.p99 <= latency.p999 <= latency.max
    # Little's law: c connections each waiting at least the sleep cannot exceed c / sleep.
    assert result.ok_rps <= meta["concurrency"] / (sleep_ms(meta["url"]) / 1000) * 1.02


@pytest.mark.parametrize("tool", TOOLS)
def test_timeout_shorter_than_the_sleep_gives_timeouts_and_no_ok(tool):
    _, _, result = load_fixture(tool, "timeout")
    assert result.errors.timeout > 0
    assert result.ok == 0
    assert result.ok_rps == 0


def test_ab_stops_at_its_first_timeout_and_the_result_says_so():
    meta, _, result = load_fixture("ab", "timeout")
    assert not result.complete
    assert result.duration_s == meta["wall_s"]
    assert any("70007" in note for note in result.notes)


@pytest.mark.parametrize("tool", TOOLS)
def test_400_answers_are_responses_but_not_ok(tool):
    _, _, result = load_fixture(tool, "non2xx")
    assert result.responses > 0
    assert result.ok == 0
    assert result.errors.non_2xx == result.responses


@pytest.mark.parametrize("tool", TOOLS)
def test_server_killed_mid_run_gives_connection_errors_after_some_ok(tool):
    _, _, result = load_fixture(tool, "killed")
    assert result.ok > 0
    assert result.errors.connect + result.errors.reset > 0
    assert result.errors.timeout == 0


def test_ab_percentiles_from_its_request_file_match_its_own_table():
    _, output, result = load_fixture("ab", "ok")
    table = {int(p): int(ms) for p, ms in re.findall(r"^\s+(\d+)%\s+(\d+)", output, re.MULTILINE)}
    assert result.latency_source.startswith("hdr:")
    assert abs(result.latency_ms.p50 - table[50]) <= 1.5
    assert abs(result.latency_ms.p99 - table[99]) <= 1.5
    assert abs(result.latency_ms.max - table[100]) <= 1.5
    assert result.latency_hdr


def test_ab_without_its_request_file_falls_back_to_its_table():
    output = (FIXTURES / "ab-ok.out").read_text()
    result = DRIVERS["ab"].parse(output, LoadSpec(url="u", concurrency=50, duration_s=3, timeout_s=10))
    assert result.latency_source == "tool"
    assert result.latency_ms.p999 is None
    assert result.latency_ms.p50 == float(re.search(r"^\s+50%\s+(\d+)", output, re.MULTILINE).group(1))


def test_wrk_histogram_mean_matches_wrk_printed_average():
    _, output, result = load_fixture("wrk", "ok")
    printed = re.search(r"Latency\s+([\d.]+)ms", output)
    assert abs(result.latency_ms.mean - float(printed.group(1))) / float(printed.group(1)) < 0.01


def test_wrk_responses_after_the_timeout_count_as_timeouts_not_answers():
    _, output, result = load_fixture("wrk", "timeout")
    completed = int(re.search(r"(\d+) requests in", output).group(1))
    assert completed > 0 and result.errors.timeout == completed and result.responses == 0


@pytest.mark.parametrize("tool", TOOLS)
def test_output_without_a_result_is_an_error_quoting_the_last_line(tool):
    with pytest.raises(DriverOutputError, match="connection refused here"):
        DRIVERS[tool].parse("starting\nconnection refused here\n", LoadSpec(url="u", concurrency=1, duration_s=1, timeout_s=1))


def spec(**changes):
    values = dict(url="http://127.0.0.1:1/api/sleep?ms=100", concurrency=1000, duration_s=30, timeout_s=2.5)
    values.update(changes)
    return LoadSpec(**values)


def test_bombardier_command_carries_timeout_in_ms_and_rate_when_asked():
    command = DRIVERS["bombardier"].command(spec(rate=500), "bombardier")
    assert command[command.index("--timeout") + 1] == "2500ms"
    assert command[command.index("--rate") + 1] == "500"
    assert command[command.index("--connections") + 1] == "1000"
    assert "--rate" not in DRIVERS["bombardier"].command(spec(), "bombardier")


def test_ab_command_rounds_the_timeout_up_and_sizes_the_request_table():
    command = DRIVERS["ab"].command(spec(expected_requests=400_000_000), "ab")
    assert command[command.index("-s") + 1] == "3"  # 2.5 s rounded up: never below the asked timeout
    assert command.index("-t") < command.index("-n")  # -t resets -n, so -n must come after
    assert int(command[command.index("-n") + 1]) <= 20_000_000
    assert {"-k", "-r", "-l"} <= set(command)
    unbounded = DRIVERS["ab"].command(spec(), "ab")  # no ceiling known: a table that a long run cannot exhaust
    assert int(unbounded[unbounded.index("-n") + 1]) >= 1_000_000


def test_wrk_command_never_has_more_threads_than_connections():
    command = DRIVERS["wrk"].command(spec(concurrency=1, timeout_s=0.2), "wrk")
    assert command[command.index("--threads") + 1] == "1"
    assert command[command.index("--timeout") + 1] == "1s"


@pytest.mark.parametrize("tool, flag", [("bombardier", "--header"), ("ab", "-H"), ("wrk", "--header")])
def test_every_driver_sends_the_scenarios_headers_and_reports_redact_credentials(tool, flag):
    login = "Authorization: Basic YWRtaW46c2VjcmV0"
    command = DRIVERS[tool].command(spec(headers=(login, "Accept: text/html")), tool)
    assert command[command.index(login) - 1] == flag
    assert command[command.index("Accept: text/html") - 1] == flag
    assert command[-1].startswith("http://"), "the URL stays last"
    shown = redacted(command)
    assert "Authorization: <redacted>" in shown and not any("YWRtaW46c2VjcmV0" in part for part in shown)
    assert "Accept: text/html" in shown


@pytest.mark.parametrize("tool,hint", [("bombardier", "install-bombardier.sh"), ("ab", "apache2-utils"), ("wrk", "apt-get install wrk")])
def test_missing_tool_is_one_line_saying_how_to_get_it(tool, hint, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr("labkit.load.drivers.base.TOOLS_BIN", tmp_path)
    with pytest.raises(ToolMissing) as missing:
        DRIVERS[tool].find_executable()
    assert hint in str(missing.value) and "\n" not in str(missing.value)


@pytest.mark.parametrize("message,kind", [
    ("timeout", "timeout"),
    ("dial tcp 127.0.0.1:18151: connect: connection refused", "connect"),
    ("read tcp 127.0.0.1:5->127.0.0.1:6: read: connection reset by peer", "reset"),
    ("the server closed connection before returning the first response byte", "reset"),
    ("something new", "other"),
])
def test_error_messages_are_sorted_into_kinds(message, kind):
    from labkit.load.drivers.record import error_kind
    assert error_kind(message) == kind


# -- ab: a steady window inside one run ------------------------------------------------------
WINDOW = (1_800_000_010, 1_800_000_013)


def write_ab_requests(prefix, seconds_and_ms):
    """An `ab -g` file with one line per (start second, total ms), as ab writes it."""
    lines = ["starttime\tseconds\tctime\tdtime\tttime\twait"]
    lines += [f"Fri Jan 15 08:00:{s % 60:02d} 2027\t{s}\t0\t{ms}\t{ms}\t{ms}" for s, ms in seconds_and_ms]
    Path(f"{prefix}.ab-requests.tsv").write_text("\n".join(lines) + "\n")


def steady_spec(prefix, **changes):
    values = dict(url="u", concurrency=50, duration_s=12, timeout_s=2.5, side_file_prefix=prefix, window=WINDOW)
    values.update(changes)
    return LoadSpec(**values)


def ramp_window_and_drain():
    start, end = WINDOW
    return ([(start - 1, 3700)] * 40                     # the connection ramp, before the window
            + [(start, 101)] * 100 + [(start + 1, 102)] * 100 + [(end - 1, 103)] * 99 + [(end - 1, 250)]
            + [(end, 9000)] * 30)                        # started at the end second: drain, not window


def test_ab_steady_window_counts_only_the_requests_that_started_inside_it(tmp_path):
    write_ab_requests(tmp_path / "run", ramp_window_and_drain())
    result = DRIVERS["ab"].parse((FIXTURES / "ab-ok.out").read_text(), steady_spec(tmp_path / "run"))
    assert result.responses == result.ok == 300
    assert result.duration_s == 3.0 and result.ok_rps == pytest.approx(100.0)
    # Neither the ramp's 3.7 s nor the drain's 9 s reach the percentiles.
    assert result.latency_ms.max == pytest.approx(250, rel=0.01)
    assert result.latency_ms.p50 == pytest.approx(102, rel=0.01)
    assert result.latency_ms.p99 == pytest.approx(103, rel=0.01)
    assert "steady window" in result.latency_source and result.latency_hdr
    assert result.complete and result.errors.total == 0
    assert any("300 of the run's 370 requests" in note for note in result.notes)
    assert any("error counts cover ab's whole run" in note for note in result.notes)


def test_ab_steady_window_counts_non_2xx_answers_as_errors_not_ok(tmp_path):
    write_ab_requests(tmp_path / "run", ramp_window_and_drain())
    output = (FIXTURES / "ab-ok.out").read_text() + "Non-2xx responses:      20\n"
    result = DRIVERS["ab"].parse(output, steady_spec(tmp_path / "run"))
    assert result.responses == 300 and result.ok == 280 and result.errors.non_2xx == 20


def test_ab_steady_window_keeps_the_whole_runs_errors_and_says_so(tmp_path):
    write_ab_requests(tmp_path / "run", ramp_window_and_drain())
    result = DRIVERS["ab"].parse((FIXTURES / "ab-killed.out").read_text(), steady_spec(tmp_path / "run"))
    # ab's summary: Receive 8431, Exceptions 4220 over the whole run; the window's count is from -g.
    assert result.errors.reset == 8431 + 4220
    assert result.responses == result.ok == 300
    assert any("whole run" in note and "does not mark failures" in note for note in result.notes)


def test_ab_steady_window_that_ab_may_have_cut_short_is_incomplete(tmp_path):
    write_ab_requests(tmp_path / "run", ramp_window_and_drain())
    output = re.sub(r"Complete requests:\s+\d+", "Complete requests:      50000", (FIXTURES / "ab-ok.out").read_text())
    result = DRIVERS["ab"].parse(output, steady_spec(tmp_path / "run", expected_requests=10))
    assert not result.complete
    assert any("-n 50000" in note for note in result.notes)


def test_ab_steady_window_without_its_requests_is_a_clear_failure(tmp_path):
    output = (FIXTURES / "ab-ok.out").read_text()
    with pytest.raises(DriverOutputError, match="no per-request file"):
        DRIVERS["ab"].parse(output, steady_spec(tmp_path / "missing"))
    start, end = WINDOW
    write_ab_requests(tmp_path / "run", [(start - 1, 100), (end, 100)])
    with pytest.raises(DriverOutputError, match=r"no request started inside the steady window .* among the 2"):
        DRIVERS["ab"].parse(output, steady_spec(tmp_path / "run"))


def test_ab_stopped_at_its_first_timeout_gives_no_steady_window(tmp_path):
    with pytest.raises(DriverOutputError, match="70007.*steady window cannot be measured"):
        DRIVERS["ab"].parse((FIXTURES / "ab-timeout.out").read_text(), steady_spec(tmp_path / "run"))


def test_ab_steady_run_lasts_through_the_window_and_a_drain_of_one_timeout():
    command = DRIVERS["ab"].command(spec(duration_s=12, timeout_s=2.5, window=WINDOW), "ab")
    assert command[command.index("-t") + 1] == "15"  # 12 s to the window's end + 3 s drain (2.5 rounded up)
    assert DRIVERS["ab"].command(spec(duration_s=12, timeout_s=2.5), "ab")[command.index("-t") + 1] == "12"


def test_only_ab_and_vegeta_can_measure_a_window_inside_a_run():
    assert {name: driver.supports_window for name, driver in DRIVERS.items()} == {
        "bombardier": False, "ab": True, "wrk": False, "vegeta": True}


def test_only_vegeta_is_an_open_model_though_bombardier_takes_a_rate_too():
    assert {name for name, driver in DRIVERS.items() if driver.open_model} == {"vegeta"}
    assert {name for name, driver in DRIVERS.items() if driver.supports_rate} == {"vegeta", "bombardier"}


# -- vegeta: its results rows -> LoadResult (the intended-start correction and the counting) -------
from labkit.load.drivers.vegeta import parse_csv, summarize as summarize_vegeta  # noqa: E402

MS = 1_000_000  # ns


def vegeta_spec(rate=100, window=None):
    return LoadSpec(url="http://127.0.0.1:1/api/sleep?ms=10", concurrency=1, duration_s=2, timeout_s=5, rate=rate,
                    window=window)


def test_vegeta_latency_runs_from_the_intended_start_when_a_request_left_late():
    start = 1_700_000_000 * 1000 * MS
    # 100 req/s: request n is due 10 ms after request n-1; request 5 left 300 ms late, answered in 12 ms.
    rows = [(start + n * 10 * MS + (300 * MS if n == 5 else 0), 200, 12 * MS, "", n) for n in range(200)]
    result = summarize_vegeta(rows, vegeta_spec())
    assert result.ok == result.responses == 200 and result.errors.total == 0
    assert result.latency_ms.max == pytest.approx(312, abs=1)
    assert result.latency_ms.p50 == pytest.approx(12, abs=0.1)
    assert result.schedule_lag_max_ms == pytest.approx(300)
    assert result.latency_source.startswith("hdr:") and "intended start" in result.latency_source


def test_vegeta_counts_status_0_by_error_text_and_non_2xx_as_answered_errors():
    start = 1_700_000_000 * 1000 * MS
    rows = [(start + n * 10 * MS, status, 5 * MS, error, n) for n, (status, error) in enumerate(
        [(200, ""), (503, ""), (0, "Get \"http://x\": dial tcp 127.0.0.1:1: connect: connection refused"),
         (0, "Get \"http://x\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)")])]
    result = summarize_vegeta(rows, vegeta_spec())
    assert (result.responses, result.ok) == (2, 1)
    assert (result.errors.non_2xx, result.errors.connect, result.errors.timeout) == (1, 1, 1)


def test_vegeta_window_keeps_the_requests_due_inside_it():
    start_s = 1_700_000_000
    # 4 s at 100 req/s, request 0 sent 3 ms after a whole second.
    rows = [(start_s * 1000 * MS + 3 * MS + n * 10 * MS, 200, 5 * MS, "", n) for n in range(400)]
    result = summarize_vegeta(rows, vegeta_spec(window=(start_s + 1, start_s + 3)))
    assert result.ok == 200 and result.duration_s == 2.0
    assert result.per_second_ok == [100, 100]


def test_vegeta_requests_due_in_the_window_but_never_sent_are_errors():
    start_s = 1_700_000_000
    # 100 req/s from start_s + 3 ms; vegeta fell behind and ended its attack after request 249.
    rows = [(start_s * 1000 * MS + 3 * MS + n * 10 * MS, 200, 5 * MS, "", n) for n in range(250)]
    result = summarize_vegeta(rows, vegeta_spec(window=(start_s + 1, start_s + 3)))
    assert result.ok == 150 and result.errors.other == 50
    assert any("never sent" in note for note in result.notes)


def test_vegeta_that_began_after_the_window_opened_gives_an_incomplete_window():
    start_s = 1_700_000_000
    # The window opens at start_s + 1, but vegeta's request 0 was only due 400 ms later.
    rows = [(start_s * 1000 * MS + 1400 * MS + n * 10 * MS, 200, 5 * MS, "", n) for n in range(300)]
    result = summarize_vegeta(rows, vegeta_spec(window=(start_s + 1, start_s + 3)))
    assert not result.complete
    assert any("400 ms after the window opened" in note for note in result.notes)


def test_vegeta_whose_first_request_was_due_as_the_window_opened_is_complete():
    start_s = 1_700_000_000
    rows = [(start_s * 1000 * MS + 3 * MS + n * 10 * MS, 200, 5 * MS, "", n) for n in range(400)]
    assert summarize_vegeta(rows, vegeta_spec(window=(start_s, start_s + 3))).complete


def test_vegeta_open_model_bounds_its_connections_by_the_spec_or_its_own_limit(tmp_path):
    spec = LoadSpec(url="http://127.0.0.1:1/", concurrency=1, duration_s=2, timeout_s=5, rate=100,
                    side_file_prefix=tmp_path / "run")
    command = DRIVERS["vegeta"].command(spec, "vegeta")
    assert command[command.index("-max-connections") + 1] == "15000"
    spec = LoadSpec(url="http://127.0.0.1:1/", concurrency=1, duration_s=2, timeout_s=5, rate=100,
                    side_file_prefix=tmp_path / "run", max_connections=64)
    command = DRIVERS["vegeta"].command(spec, "vegeta")
    assert command[command.index("-max-connections") + 1] == "64"


def test_vegeta_csv_rows_read_timestamp_status_latency_error_and_seq():
    line = ('1795376544062357016,200,30026461,0,0,,,,7,GET,http://127.0.0.1:19101/api/sleep?ms=10,'
            'Q29udGVudC1MZW5ndGg6IDY5DQo=')
    assert parse_csv([line]) == [(1795376544062357016, 200, 30026461, "", 7)]


# -- a request body: every tool POSTs the file itself ---------------------------------------------
class _RecordingHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).seen.append(("POST", self.headers.get("Content-Type"), body))
        self._answer()

    def do_GET(self):
        type(self).seen.append(("GET", self.headers.get("Content-Type"), b""))
        self._answer()

    def _answer(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        # ab -k speaks HTTP/1.0: it reuses a connection only when the answer says keep-alive.
        self.send_header("Connection", "keep-alive")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.fixture
def recording_server():
    _RecordingHandler.seen = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _RecordingHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("tool", BODY_TOOLS)
def test_a_body_is_posted_by_the_tool_itself_with_its_content_type(tool, recording_server, tmp_path):
    driver = DRIVERS[tool]
    try:
        executable = driver.find_executable()
    except ToolMissing as missing:
        pytest.skip(str(missing))
    body = tmp_path / "body.json"
    body.write_bytes('{"order":{"id":42,"note":"été"}}'.encode())
    port = recording_server.server_address[1]
    run = spec(url=f"http://127.0.0.1:{port}/api/fanout?tasks=2", concurrency=1, duration_s=1, timeout_s=2,
               body_file=body, side_file_prefix=tmp_path / "run", expected_requests=1000)
    output = subprocess.run(driver.command(run, executable), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, timeout=30, cwd=tmp_path).stdout
    assert driver.parse(output, run, wall_s=1.0).ok > 0, output
    seen = _RecordingHandler.seen
    assert seen, output
    assert all(request == ("POST", "application/json", body.read_bytes()) for request in seen), seen[:3]


def test_without_a_body_the_commands_stay_gets():
    assert "--method" not in DRIVERS["bombardier"].command(spec(), "bombardier")
    assert "-p" not in DRIVERS["ab"].command(spec(), "ab")
    script = DRIVERS["wrk"].command(spec(), "wrk")
    assert script[script.index("--script") + 1].endswith("wrk-record.lua")
