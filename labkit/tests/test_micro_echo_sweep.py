"""The echo sweep end to end (short: C=10,50 for 2 s each), and its limits and failure reports.

Ports 18370-18399 (the lab's micro-benchmarks use 18300-18399; the Java tests 18340-18369).
"""
import csv
import socket
import sys

import pytest

from labkit.cli import main
from labkit.ground.build import ensure_benchmarks_jar
from labkit.ground.errors import UsageError
from labkit.ground.jdk import find_java_home
from labkit.micro import common, echo

TEST_PORTS = range(18370, 18400)
LATENCY_MS = 100


def quiet(*args, **kwargs):
    pass


def _bindable(port):
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def free_test_ports(count=2):
    """The first of `count` consecutive free ports in 18370-18399."""
    for first in TEST_PORTS:
        if first + count - 1 in TEST_PORTS and all(_bindable(p) for p in range(first, first + count)):
            return first
    pytest.skip(f"no {count} free test ports in 18370-18399")


@pytest.fixture(scope="module")
def java_and_jar():
    java_home = find_java_home()
    return java_home, java_home / "bin" / "java", ensure_benchmarks_jar(log=quiet)


@pytest.mark.server
def test_short_sweep_writes_csv_chart_and_report(java_and_jar, tmp_path):
    # Through the command line, as a user runs it; each run listens on 4 ports, runs rotate over 20.
    first = free_test_ports(echo.PORT_SPAN)
    argv = ["micro", "echo", "--sweep", "10,50", "--duration", "2", "--latency-ms", str(LATENCY_MS),
            "--port", str(first), "--out", str(tmp_path)]

    assert main(argv) == 0

    with open(tmp_path / "echo-sweep.csv", newline="") as f:
        written = list(csv.DictReader(f))
    assert [(r["connections"], r["client"]) for r in written] == [
        (str(c), client) for c in (10, 50) for client in ("nio", "platform", "virtual")]
    for r in written:
        c = int(r["connections"])
        assert r["status"] == "ok", r["failure"]
        assert int(r["connections_opened"]) == c
        assert int(r["corrupted"]) == 0 and int(r["errors"]) == 0
        assert int(r["echoes"]) >= c  # every connection completed at least one round trip
        # No client can beat the server's latency: C connections, one echo each per 100 ms.
        assert 0 < float(r["throughput_per_s"]) <= 1.05 * c * 1000 / LATENCY_MS
        assert float(r["cpu_s"]) > 0 and float(r["peak_rss_mb"]) > 10
        assert float(r["server_cpu_s"]) > 0
    threads = {r["client"]: int(r["peak_platform_threads"]) for r in written if r["connections"] == "50"}
    assert threads["platform"] >= 50 > threads["virtual"]  # one platform thread per connection, virtual ones are not
    chart = tmp_path / "echo-sweep.png"
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = (tmp_path / "report.md").read_text()
    assert "| 50 | virtual | ok |" in report and "![echo sweep](echo-sweep.png)" in report

    # The report and chart can be made again from the results alone.
    chart.unlink()
    (tmp_path / "report.md").unlink()
    assert main(["micro", "echo", "--from", str(tmp_path)]) == 0
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "report.md").read_text() == report


@pytest.mark.server
def test_client_out_of_sockets_reports_how_far_it_got(java_and_jar, tmp_path):
    _, java, jar = java_and_jar
    settings = echo.SweepSettings(connections=(200,), clients=("nio", "virtual"), duration_s=1.0,
                                  latency_ms=LATENCY_MS, port=free_test_ports(1), port_span=1,
                                  listen_ports=1, client_nofile=120)

    rows = echo.run_sweep(java, jar, settings, tmp_path, log=quiet)

    for r in rows:
        assert r["status"] == "incomplete"
        assert "Too many open files" in r["failure"]
        assert 0 < r["connections_opened"] < 200
        assert r["echoes"] == 0


def test_sweep_is_bounded_by_the_open_files_limit():
    assert echo.max_connections(limit=20000) == 19900
    assert echo.default_sweep(limit=20000) == (100, 1000, 5000, 10000, 15000, 19900)
    assert echo.default_sweep(quick=True, limit=20000) == (100, 1000)
    assert echo.default_sweep(limit=1124) == (100, 1000)
    assert echo.parse_sweep("5000,100,100,1000", limit=20000) == (100, 1000, 5000)
    with pytest.raises(UsageError, match="at most 19900"):
        echo.parse_sweep("100,20000", limit=20000)
    # Asked for on purpose: the client is to run out of sockets.
    assert echo.parse_sweep("20000", limit=20000, client_nofile=500) == (20000,)
    for bad in ("", "0,100", "100,lots"):
        with pytest.raises(UsageError):
            echo.parse_sweep(bad, limit=20000)


def test_clients_are_checked():
    assert echo.parse_clients("virtual,nio,virtual") == ("virtual", "nio")
    with pytest.raises(UsageError, match="nio,platform,virtual"):
        echo.parse_clients("nio,fibers")


def test_client_command_lowers_only_the_clients_file_limit():
    settings = echo.SweepSettings(connections=(10,), client_nofile=64)
    command = echo.client_command("java", "b.jar", settings, 18321, "nio", 10)
    assert command[:5] == ["/bin/sh", "-c", 'ulimit -n "$0" && exec "$@"', "64", "java"]
    assert "--connections" in command and command[command.index("--connections") + 1] == "10"
    assert command[command.index("--port") + 1] == "18321"
    assert command[command.index("--ports") + 1] == str(echo.LISTEN_PORTS)
    assert echo.server_command("java", "b.jar", settings, 18321, 10)[0] == "java"


def test_runs_rotate_over_blocks_of_listen_ports():
    settings = echo.SweepSettings(connections=(10,), port=18320, port_span=20, listen_ports=4)
    assert [settings.first_port(k) for k in range(7)] == [18320, 18324, 18328, 18332, 18336, 18320, 18324]


def test_ctrl_c_while_the_echo_server_starts_stops_it(tmp_path, monkeypatch):
    def interrupted(pid):
        raise KeyboardInterrupt  # as if Ctrl-C came just after the server was spawned
    monkeypatch.setattr(echo.proc, "Watch", interrupted)
    server = echo.EchoServerProcess([sys.executable, "-c", "import time; time.sleep(120)"], tmp_path / "server.log")

    with pytest.raises(KeyboardInterrupt):
        server.__enter__()
    assert server.process.poll() is not None, "the echo server was left running"
