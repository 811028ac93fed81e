"""The baseline targets start, answer the lab contract and leave nothing behind; the memory sweep writes its report."""
import json
import os
import socket
import urllib.error
import urllib.request
import sys
from pathlib import Path

import pytest

from labkit.servers import baselines
from labkit import cli
from labkit.memory import runner as memory
from labkit.ground.errors import LabError
from labkit.catalog import all_targets

# Ports of this module's tests: inside the baselines' range (18200-18299).
PORT = 18240


def get_json(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_every_baseline_is_a_target_with_its_limit():
    targets = all_targets()
    assert {name: (targets[name].max_concurrent, targets[name].virtual) for name in baselines.BASELINES} == {
        "jdk-thread-per-request": (None, False),
        "jdk-executor-10000": (10000, False),
        "jdk-virtual": (None, True),
        "jdk-virtual-10000": (10000, True),
        "helidon": (None, True),
        "vertx-virtual": (None, True),
        "vertx-eventloop": (None, False),
    }


@pytest.mark.server
@pytest.mark.parametrize("name, virtual", [("jdk-executor-10000", False), ("helidon", True), ("vertx-virtual", True),
                                           ("vertx-eventloop", False)])
def test_a_target_starts_answers_and_stops_without_leftovers(name, virtual):
    server = all_targets()[name].start(PORT, ["-Xmx256m"])
    try:
        info = server.info()
        assert info["pid"] == server.pid
        assert info["server"]["name"] == name
        assert info["request"]["virtual"] is virtual
        status, body = get_json(server.base_url + "/api/sleep?ms=5&depth=20")
        assert status == 200 and body["virtual"] is virtual and body["depth"] == 20 and body["sleptMs"] == 5
        status, body = get_json(server.base_url + "/api/sleep?ms=-3")
        assert status == 400 and body["parameter"] == "ms"
    finally:
        server.stop()
    assert server.process.poll() is not None
    assert gone(server.pid)


@pytest.mark.server
@pytest.mark.parametrize("name", ["jdk-virtual", "helidon", "vertx-virtual", "vertx-eventloop"])
def test_baseline_targets_fan_out_the_bench_body(name):
    from labkit.catalog import scenario
    fanout = scenario("fanout")
    server = all_targets()[name].start(PORT, ["-Xmx256m"])
    try:
        request = urllib.request.Request(server.base_url + "/api/fanout?tasks=10&minMs=50&maxMs=100",
                                         data=fanout.body_file.read_bytes(), method="POST",
                                         headers={"Content-Type": "application/json"})
        status, body = get_json(request)
        assert status == 200
        assert body["body"] == json.loads(fanout.body_file.read_text())
        assert len(body["timings"]) == 10 and all(50 <= t["sleptMs"] <= 100 for t in body["timings"])
    finally:
        server.stop()
    assert gone(server.pid)
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", PORT)) != 0, "something still listens"


def test_a_taken_port_is_refused_before_anything_starts():
    with socket.socket() as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", PORT + 1))
        squatter.listen()
        server = baselines.BaselineServer(baselines.BASELINES["jdk-virtual"], port=PORT + 1)
        with pytest.raises(LabError, match=f"port {PORT + 1}"):
            server.start()
        assert server.process is None


@pytest.mark.server
def test_a_small_sweep_writes_table_chart_and_data(tmp_path):
    points = [memory.Point(False, 100, 50), memory.Point(True, 2000, 50)]
    document = memory.sweep(points, tmp_path, log=lambda message: None)
    platform, virtual = document["results"]
    assert (platform["kind"], platform["parked"]) == ("platform", 100)
    assert (virtual["kind"], virtual["parked"]) == ("virtual", 2000)
    assert virtual["after"]["vmHwmKb"] > virtual["before"]["vmHwmKb"]
    # Each platform thread reserves a whole stack of address space; a virtual thread reserves none of its own.
    assert platform["perThreadBytes"]["vmSize"] >= 512 * 1024
    assert (tmp_path / "thread-memory.png").stat().st_size > 10_000
    table = (tmp_path / "thread-memory-table.md").read_text().splitlines()
    assert len(table) == 4 and "| virtual |" in table[3]


@pytest.mark.parametrize("argv", [["memory", "--quick"], ["memory", "--sweep", "-v"], ["memory", "--xss", "big"]])
def test_memory_usage_errors_exit_2(argv, capsys):
    assert cli.main(argv) == 2
    assert "lab memory:" in capsys.readouterr().err


def test_ctrl_c_while_a_baseline_starts_stops_its_jvm(monkeypatch):
    monkeypatch.setattr(baselines, "ensure_baselines_built", lambda: None)
    server = baselines.BaselineServer(baselines.BASELINES["jdk-virtual"], 19282, java_home=Path(sys.executable).parent)
    # A child that would run for two minutes, and a Ctrl-C while the lab waits for it to answer.
    monkeypatch.setattr(server, "command", lambda: [sys.executable, "-c", "import time; time.sleep(120)"])

    def interrupted():
        raise KeyboardInterrupt
    monkeypatch.setattr(server, "is_ready", interrupted)

    with pytest.raises(KeyboardInterrupt):
        server.start()
    assert server.process.poll() is not None, "the child was left running"
