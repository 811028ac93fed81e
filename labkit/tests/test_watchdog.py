"""The stall watchdog without a server JVM: the probe against small local servers, the summary of
a real thread dump of a stalled server (fixtures/threaddump-carrier-starvation.json), the bench's
record, flag and report of a stall, and --carriers."""
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import pytest

from labkit.commands.bench import outcome
from labkit.bench.config import BenchConfig
from labkit.load.tools import DRIVERS
from labkit.bench.report import write_report
from labkit.measure.results import FLAG_MEANINGS, flags
from labkit.measure.session import start_server, stall_failure
from labkit.catalog import scenario
from labkit.measure.threaddump import code_frame, find_deadlock, method, summarize, summary_lines
from labkit.measure.watchdog import Watchdog, stall_after_s
from labkit.servers.carriers import carrier_options
from labkit.ground.errors import UsageError
from labkit.measure.foreground import serve
from labkit.tests.test_bench_units import ENV, TARGETS, args as bench_args, build

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "threaddump-carrier-starvation.json"
SPINNING_FRAME = "dev.loomlab.app.contend.SpinLock.acquire"


def real_dump():
    return json.loads(FIXTURE.read_text())


# -- the probe ---------------------------------------------------------------------------------
class Answering(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(404)  # any answer counts: the server ran the request
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def answering_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Answering)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def silent_server():
    """Listens (the kernel completes every connection) but never reads or answers: a stalled server."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


def wait_for(predicate, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not predicate():
        time.sleep(0.05)
    return predicate()


def test_an_answering_server_is_never_stalled_even_when_it_answers_404(answering_server):
    watchdog = Watchdog(answering_server, stall_after_s=10, interval_s=0.1).start()
    assert wait_for(lambda: watchdog.answered >= 3)
    watchdog.stop()
    record = watchdog.record()
    assert record["stall"] is None and not watchdog.stalled.is_set()
    assert record["probes"] == record["answered"] >= 3 and record["failed"] == 0


def test_a_server_that_answers_nothing_is_stalled_and_dumped_before_the_stall_is_announced(silent_server):
    seen_before_announced = []

    def on_stall(stall):
        seen_before_announced.append(watchdog.stalled.is_set())
        return {"file": "raw/x.threads.json"}

    watchdog = Watchdog(silent_server, stall_after_s=0.3, interval_s=0.1, on_stall=on_stall).start()
    assert watchdog.stalled.wait(20)
    watchdog.stop()
    assert seen_before_announced == [False]
    stall = watchdog.record()["stall"]
    assert stall["waited_s"] == 0.3 and stall["answered_before"] == 0
    assert stall["dump"] == {"file": "raw/x.threads.json"}
    assert stall["detected_s"] - stall["probe_sent_s"] >= 0.2  # the probe's 0.3 s, both rounded to 0.1 s


def test_a_refused_connection_is_a_failed_probe_not_a_stall():
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # bound, never listening: connections are refused
        watchdog = Watchdog(f"http://127.0.0.1:{port}", stall_after_s=5, interval_s=0.1).start()
        assert wait_for(lambda: watchdog.failed >= 2)
        watchdog.stop()
    assert watchdog.stall is None and watchdog.answered == 0


def test_the_stall_timeout_is_ten_seconds_three_sleeps_or_the_connections_drain_unless_given():
    assert stall_after_s(100) == 10.0
    assert stall_after_s(5000) == 15.0
    assert stall_after_s(100, connections=1000) == 10.0
    assert stall_after_s(100, connections=12000) == 60.0
    assert stall_after_s(5000, given=2.5, connections=12000) == 2.5


# -- the thread dump -----------------------------------------------------------------------------
def test_frames_are_named_without_module_loader_or_line():
    assert method("java.base/java.lang.Thread.sleep(Thread.java:509)") == "java.lang.Thread.sleep"
    assert method("app//com.acme.Lock.spin(Lock.java:7)") == "com.acme.Lock.spin"
    assert code_frame(["java.base/java.lang.Thread.onSpinWait(Thread.java:1)",
                       "com.acme.Lock.spin(Lock.java:7)"]) == "com.acme.Lock.spin"
    assert code_frame(["java.base/jdk.internal.misc.Unsafe.park(Native Method)"]) == "jdk.internal.misc.Unsafe.park"
    assert code_frame([]) is None


def test_the_real_stall_is_carrier_starvation_in_the_spinning_frame():
    summary = summarize(real_dump())
    cause = summary["cause"]
    assert cause["kind"] == "carrier-starvation" and cause["frame"] == SPINNING_FRAME
    assert SPINNING_FRAME in cause["text"]
    # The server ran with --carriers 2: both carriers spin, none is idle, and others wait for one.
    assert len(summary["carriers"]) == 2 and summary["idle_carriers"] == 0
    assert {c["code"] for c in summary["carriers"]} == {SPINNING_FRAME}
    assert all(c["state"] == "RUNNABLE" and c["carrier"].startswith("ForkJoinPool-") for c in summary["carriers"])
    assert summary["waiting_for_carrier"] >= 1
    assert summary["virtual_threads"] >= 3
    assert sum(site["threads"] for site in summary["wait_sites"]["virtual"]) == summary["virtual_threads"] - 2
    lines = "\n".join(summary_lines(summary))
    assert "carrier-starvation" in lines and "runs virtual thread" in lines and SPINNING_FRAME in lines


def test_a_free_carrier_means_no_carrier_starvation():
    dump = real_dump()
    # Take one spinner off its carrier: the carrier is still in the dump, now idle.
    for container in dump["threadDump"]["threadContainers"]:
        mounted = [t for t in container.get("threads") or () if t.get("carrier") is not None]
        if mounted:
            del mounted[0]["carrier"]
            break
    summary = summarize(dump)
    assert len(summary["carriers"]) == 1 and summary["idle_carriers"] == 1
    assert summary["cause"]["kind"] == "unknown"


def test_a_virtual_thread_blocked_on_its_carrier_is_pinned():
    dump = real_dump()
    for container in dump["threadDump"]["threadContainers"]:
        for thread in container.get("threads") or ():
            if thread.get("carrier") is not None:
                thread["state"] = "BLOCKED"
    assert summarize(dump)["cause"]["kind"] == "pinned"


def test_threads_waiting_for_each_others_locks_are_a_deadlock():
    def thread(tid, owns, blocked_on):
        return {"tid": tid, "name": f"worker-{tid}", "state": "BLOCKED", "blockedOn": blocked_on,
                "monitorsOwned": [{"depth": 1, "locks": [owns]}],
                "stack": [f"com.acme.Transfer.move(Transfer.java:{tid})"]}
    dump = {"threadDump": {"runtimeVersion": "25", "threadContainers": [{"container": "<root>", "parent": None,
            "threads": [thread("21", "java.lang.Object@a", "java.lang.Object@b"),
                        thread("22", "java.lang.Object@b", "java.lang.Object@a"),
                        {"tid": "23", "name": "bystander", "state": "WAITING", "stack": []}]}]}}
    assert sorted(find_deadlock(dump["threadDump"]["threadContainers"][0]["threads"])) == ["21", "22"]
    cause = summarize(dump)["cause"]
    assert cause["kind"] == "deadlock" and "worker-21" in cause["text"] and "worker-22" in cause["text"]
    dump["threadDump"]["threadContainers"][0]["threads"][1]["blockedOn"] = None
    assert summarize(dump)["cause"]["kind"] == "unknown"


# -- the bench's record of a stall ----------------------------------------------------------------
def stalled_point():
    watchdog = {"probe": "GET /api/info", "interval_s": 1.0, "stall_after_s": 10.0, "probes": 4, "answered": 3,
                "failed": 0, "slowest_s": 0.01,
                "stall": {"probe_sent_s": 3.0, "detected_s": 13.0, "waited_s": 10.0, "answered_before": 3,
                          "dump": {"file": "raw/001-virtual-bombardier-c3-r1.threads.json",
                                   "summary": summarize(real_dump())}}}
    return {"index": 1, "id": "001-virtual-bombardier-c3-r1", "mode": "virtual", "driver": "bombardier",
            "concurrency": 3, "sleep_min_ms": 100, "sleep_max_ms": 100, "repeat": 1, "watchdog": watchdog,
            "failure": stall_failure(watchdog, "measuring"), "load": None, "window": {"stalled_in": "measuring"}}


def test_a_stall_fails_the_point_with_its_cause_and_flags_it():
    point = stalled_point()
    assert point["failure"].startswith("the server stalled during measuring: the watchdog's probe got no answer "
                                       "within 10 s (3 s into the run); carrier-starvation: all 2 carriers run "
                                       f"virtual threads in {SPINNING_FRAME}")
    assert flags(point) == ["failed", "stalled"] and "stalled" in FLAG_MEANINGS
    healthy = dict(point, failure=None, watchdog=dict(point["watchdog"], stall=None))
    assert "stalled" not in flags(healthy)


def test_a_run_with_a_stall_and_skipped_points_is_not_complete():
    point = dict(stalled_point(), flags=["failed", "stalled"])
    state, error = outcome([point, {"id": "002-platform-4000-bombardier-c3-r1", "failure": None}], skipped=2)
    assert state == "failed"
    assert "the server stalled at 001-virtual-bombardier-c3-r1" in error and "2 later points" in error


def test_the_report_has_a_stalls_section_with_the_dump_summary(tmp_path):
    config = build(modes=("virtual",), carriers=2).to_dict()
    point = dict(stalled_point(), flags=["failed", "stalled"], path="/api/contend", load=None,
                 resources={}, derived={})
    run = {"state": "failed", "error": "1 of 1 points failed", "planned_points": 1, "points": [point],
           "summary": [], "sessions": [], "config": config, "started": "t0", "env": ENV}
    # The dump is linked when it is in the folder (a run's own), named without a link when not (a committed one).
    write_report(tmp_path / "report.md", run)
    assert "- Thread dump: raw/001-virtual-bombardier-c3-r1.threads.json" in (tmp_path / "report.md").read_text()
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "001-virtual-bombardier-c3-r1.threads.json").write_text("{}")
    write_report(tmp_path / "report.md", run)
    report = (tmp_path / "report.md").read_text()
    assert "## Stalls" in report and "### 001-virtual-bombardier-c3-r1: virtual c=3" in report
    assert "[raw/001-virtual-bombardier-c3-r1.threads.json](raw/001-virtual-bombardier-c3-r1.threads.json)" in report
    assert "**carrier-starvation**" in report and SPINNING_FRAME in report
    assert "| Carriers | 2 (--carriers: -Djdk.virtualThreadScheduler.parallelism=2) |" in report


# -- --carriers and the contend scenario ----------------------------------------------------------
def test_carriers_set_the_scheduler_parallelism_of_every_server_started():
    assert carrier_options(None) == [] and carrier_options(3) == ["-Djdk.virtualThreadScheduler.parallelism=3"]
    started = []
    target = SimpleNamespace(start=lambda port, options, jvm_defaults: started.append(options), takes_host=False)
    config = build(modes=("virtual",), carriers=4, jvm_opt=["-Xss1m"])
    start_server(target, config.setup)
    assert started == [["-Xss1m", "-Djdk.virtualThreadScheduler.parallelism=4"]]
    assert config.to_dict()["carriers"] == 4


def test_carriers_and_a_parallelism_jvm_option_together_are_a_usage_error():
    given = bench_args(carriers=2, jvm_opt=["-Djdk.virtualThreadScheduler.parallelism=8"])
    with pytest.raises(UsageError, match="both set the carriers"):
        BenchConfig.build(given, TARGETS, DRIVERS, tuple(TARGETS))


def test_the_contend_scenario_spins_for_one_lock_whose_ceiling_is_one_request_per_hold():
    contend = scenario("contend")
    config = build(modes=("virtual",), concurrency=((3, None),))
    level = config.levels[0]
    assert contend.path(config, level) == "/api/contend?holdMs=100&maxSpinMs=30000"
    assert contend.targets == ("virtual", "platform-4000")
    # c requests share one lock: Little's law gives one request per 100 ms hold, whatever c is.
    assert 3 / contend.service_time_s(config, level) == pytest.approx(10.0)


# -- ./lab run ----------------------------------------------------------------------------------
class StillRunning:
    returncode = None

    def poll(self):
        return None


def test_lab_run_stops_a_stalled_server_and_says_why(silent_server, tmp_path, capsys):
    server = SimpleNamespace(base_url=silent_server, pid=1, log_path=tmp_path / "server.log", process=StillRunning(),
                             java_home=tmp_path, info_path="/api/info")  # no jcmd there: the dump fails, and says so
    assert serve(server, "Payara Micro", stall_after_s=0.3) == 1
    out = capsys.readouterr().out
    assert "Payara Micro stalled: it answered nothing for 0.3 s; stopping it." in out
    assert "jcmd Thread.dump_to_file" in out and str(tmp_path / "server.log") in out
