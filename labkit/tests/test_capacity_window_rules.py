"""What a ./lab capacity window measures, without servers: the young-collection rule (a window that met
the goal with too few young collections is measured again longer; at --max-window it counts, flagged
few-gcs), a missed window measured once more when the hypervisor took the server's CPUs, a round
that ends once its server stopped answering, the warm-up that ends only when the JIT is quiet too,
the perf-counter reading both build on, and the report of a run with re-run windows (and of one made
before these rules)."""
import stat
import types
from pathlib import Path

from labkit.measure import perfcounters
from labkit.load.levels import SleepSpec
from labkit.measure.jfr import summarize_events
from labkit.measure.steadiness import warmup_end
from labkit.capacity import between as between_module
from labkit.capacity import session as session_module
from labkit.capacity import warmup as warmup_module
from labkit.capacity import windows as windows_module
from labkit.capacity.between import check_server
from labkit.capacity.config import CapacityConfig, LatencyGoal
from labkit.measure.server_setup import ServerSetup
from labkit.capacity.report.markdown import report
from labkit.capacity.runner import CapacityRunner
from labkit.capacity.session import ServerSession
from labkit.measure.measured_server import MeasuredServer
from labkit.capacity.summary import summarize
from labkit.capacity.verdicts import HOST_REST_S, server_lost, window_verdict
from labkit.capacity.warmup import warm_up

from labkit.tests.test_capacity_units import point, synthetic_run

FIXTURE = Path(__file__).parent / "fixtures" / "perfcounters" / "jcmd-perfcounter-print.txt"


# -- perf counters ------------------------------------------------------------------------------
def test_perf_counter_output_parses_to_integers_and_unquoted_strings():
    # Trimmed from `jcmd PID PerfCounter.print` of a Temurin 25 JVM (java -Xmn64m S.java).
    counters = perfcounters.parse(FIXTURE.read_text())
    assert counters[perfcounters.COMPILES] == 1147
    assert counters["sun.ci.standardCompiles"] + counters["sun.ci.osrCompiles"] == counters[perfcounters.COMPILES]
    assert counters["sun.gc.collector.0.invocations"] == 0
    assert counters["sun.gc.collector.0.name"] == "G1 young collection pauses"
    assert counters["java.rt.vmArgs"] == "-Xmn64m --add-modules=ALL-DEFAULT"  # an '=' inside a value stays in it
    assert counters["java.rt.vmFlags"] == ""
    assert "15599:" not in counters and not any(name.startswith("15599") for name in counters)  # the PID line


def fake_jdk(tmp_path, script):
    """A JDK folder whose bin/jcmd is `script` (a shell script body)."""
    jcmd = tmp_path / "bin" / "jcmd"
    jcmd.parent.mkdir(parents=True)
    jcmd.write_text("#!/bin/sh\n" + script)
    jcmd.chmod(jcmd.stat().st_mode | stat.S_IEXEC)
    return tmp_path


def test_reading_a_counter_through_jcmd_gives_its_value_or_says_why_not(tmp_path):
    good = fake_jdk(tmp_path / "good", f'cat "{FIXTURE}"\n')
    assert perfcounters.read_counter(good, 4242, perfcounters.COMPILES) == (1147, None)
    value, why = perfcounters.read_counter(good, 4242, "sun.ci.noSuchCounter")
    assert value is None and "no integer counter sun.ci.noSuchCounter" in why
    failing = fake_jdk(tmp_path / "failing", 'echo "4242:"; echo "com.sun.tools.attach.AttachNotSupportedException: '
                                              'Unable to open socket file"; exit 1\n')
    value, why = perfcounters.read_counter(failing, 4242, perfcounters.COMPILES)
    assert value is None and "exit 1" in why and "Unable to open socket file" in why
    value, why = perfcounters.read_counter(tmp_path / "no-jdk", 4242, perfcounters.COMPILES)
    assert value is None and why.startswith("jcmd PerfCounter.print:")


# -- young collections in a window ----------------------------------------------------------------
def gc_event(name, second):
    return {"type": "jdk.GarbageCollection",
            "values": {"startTime": f"2026-11-23T05:00:{second:02d}Z", "name": name,
                       "sumOfPauses": "PT0.05S", "longestPause": "PT0.05S"}}


def test_jfr_counts_young_collections_apart_from_old_and_full_ones():
    window = (1795410000.0, 1795410030.0)  # 2026-11-23T05:00:00Z .. :30
    events = [gc_event("G1New", 3), gc_event("G1Old", 4), gc_event("G1New", 20), gc_event("G1Full", 25),
              gc_event("G1New", 45)]  # the last one after the window
    summary = summarize_events(events, *window)
    assert summary["gc_count"] == 4 and summary["young_gc_count"] == 2
    assert summary["gc_names"] == {"G1Full": 1, "G1New": 2, "G1Old": 1}
    assert summarize_events([gc_event("Shenandoah", 3)], *window)["young_gc_count"] is None


def capacity_config(**overrides):
    values = dict(modes=("virtual",), sleeps=(SleepSpec(100, 100),), goal=LatencyGoal("p99", 50.0, True), depth=100,
                  duration_s=15, preroll_s=None, repeats=3, start_rate=250, max_rate=50_000, resolution=0.05,
                  warmup_concurrency=1000, warmup_iteration_s=5, warmup_min_s=0, warmup_max_s=180, cooldown_s=3,
                  setup=ServerSetup(port=19700), min_young_gcs=2, max_window_s=120)
    values.update(overrides)
    return CapacityConfig(**values)


def bare_runner(tmp_path, config, java_home=None, targets=None):
    recorder = types.SimpleNamespace(out_dir=tmp_path)
    return CapacityRunner(config, targets or {}, "vegeta", recorder, java_home=java_home, log=lambda line: None)


def windows_with(runner, outcome):
    """Replaces the runner's measurement: outcome(window_s) -> (met_goal, young collections); the real
    judge decides. Returns the list of windows measured, as (window_s, extends id)."""
    measured = []

    def measure(session, window):
        met, young = outcome(window.window_s)
        record = {"id": f"{window.rate}rps-w{window.window_s}s", "flags": [], "capacity": {"met_goal": met},
                  "jfr": {"available": True, "young_gc_count": young}}
        runner.windows.judge(record, window)
        measured.append((window.window_s, (window.extends or {}).get("id")))
        return record
    runner.windows.measure_once = measure
    return measured


def run_window(runner, ramp=False):
    window = runner._first_window("virtual", SleepSpec(100, 100), "search", 1, None, 2000, ramp=ramp)
    return runner.windows.measure(None, window)


def test_on_the_ramp_a_pass_with_too_few_young_collections_counts_at_once(tmp_path):
    assert window_verdict(True, 0, 2, 15, 120, ramp=True) == (True, "met-ramp")
    assert window_verdict(True, 3, 2, 15, 120, ramp=True) == (True, "met")
    assert window_verdict(False, 0, 2, 15, 120, ramp=True) == (False, "missed")
    runner = bare_runner(tmp_path, capacity_config())
    measured = windows_with(runner, lambda window_s: (True, 0))
    record = run_window(runner, ramp=True)
    assert [w for w, _ in measured] == [15], "no longer window on the ramp"
    assert record["capacity"]["passed"] and record["capacity"]["verdict"] == "met-ramp" and record["flags"] == []


def test_a_window_with_too_few_young_collections_is_measured_again_twice_as_long_until_the_cap(tmp_path):
    runner = bare_runner(tmp_path, capacity_config())
    measured = windows_with(runner, lambda window_s: (True, 1))
    record = run_window(runner)
    assert measured == [(15, None), (30, "2000rps-w15s"), (60, "2000rps-w30s"), (120, "2000rps-w60s")]
    assert record["capacity"]["passed"] and record["capacity"]["verdict"] == "met-few-gcs"
    assert record["flags"] == ["few-gcs"] and record["capacity"]["window_s"] == 120


def test_the_re_run_stops_once_a_window_holds_enough_collections_or_misses(tmp_path):
    runner = bare_runner(tmp_path, capacity_config())
    measured = windows_with(runner, lambda window_s: (True, window_s // 15))  # one young GC per 15 s
    record = run_window(runner)
    assert [w for w, _ in measured] == [15, 30]
    assert record["capacity"]["passed"] and record["capacity"]["verdict"] == "met" and record["flags"] == []

    runner = bare_runner(tmp_path, capacity_config())
    measured = windows_with(runner, lambda window_s: (window_s < 30, window_s // 15))  # the longer window misses
    record = run_window(runner)
    assert [w for w, _ in measured] == [15, 30]
    assert not record["capacity"]["passed"] and record["capacity"]["verdict"] == "missed"

    runner = bare_runner(tmp_path, capacity_config())
    measured = windows_with(runner, lambda window_s: (False, 0))  # a miss with no collection is not re-run
    assert not run_window(runner)["capacity"]["passed"] and [w for w, _ in measured] == [15]


def stolen_windows(runner, monkeypatch, outcomes):
    """Replaces the measurement: each window takes the next (met_goal, share of the server's CPUs
    stolen) from `outcomes`; returns the windows measured as (id, again_of) and the rests taken."""
    measured, rests, queue = [], [], list(outcomes)

    def measure(session, window):
        met, share = queue.pop(0)
        record = {"id": f"w{len(measured) + 1}", "flags": [], "capacity": {"met_goal": met},
                  "jfr": {"available": True, "young_gc_count": 5},
                  "resources": {"machine": {"server_cpus_steal_share": share}}}
        runner.windows.judge(record, window)
        measured.append((record["id"], window.again_of))
        return record
    runner.windows.measure_once = measure
    monkeypatch.setattr(windows_module.time, "sleep", rests.append)
    return measured, rests


def test_a_window_missed_while_the_host_stole_the_servers_cpus_is_measured_once_more(tmp_path, monkeypatch):
    runner = bare_runner(tmp_path, capacity_config())
    measured, rests = stolen_windows(runner, monkeypatch, [(False, 0.31), (True, 0.02)])
    record = run_window(runner)
    assert measured == [("w1", None), ("w2", "w1")] and rests == [HOST_REST_S]
    assert record["id"] == "w2" and record["capacity"]["passed"]

    # Once only: a second stolen miss stands.
    runner = bare_runner(tmp_path, capacity_config())
    measured, _ = stolen_windows(runner, monkeypatch, [(False, 0.3), (False, 0.3)])
    assert not run_window(runner)["capacity"]["passed"] and len(measured) == 2

    # A miss on a quiet host, or a pass on a stolen one, is not measured again.
    for outcome in [(False, 0.05), (False, None), (True, 0.4)]:
        runner = bare_runner(tmp_path, capacity_config())
        measured, rests = stolen_windows(runner, monkeypatch, [outcome])
        run_window(runner)
        assert measured == [("w1", None)] and rests == []


# -- a server that stopped answering -------------------------------------------------------------

def confirmed_rates(runner, lost, monkeypatch):
    """Runs one confirmation round at 4,000 req/s where every window misses, with the load tool both
    saturated and late (which alone would measure it again); `lost` marks each window's server as no
    longer answering. Returns the rates measured, in order."""
    rates = []

    def measure(session, window):
        rates.append(window.rate)
        record = {"id": f"w{len(rates)}", "flags": ["client-bound", "driver-behind"],
                  "capacity": {"met_goal": False}, "jfr": {"available": True, "young_gc_count": 5},
                  "resources": {"driver": {"cpu_cores": 1.0}}}
        if lost:
            record["server_unresponsive"] = {"probe": "GET /api/info", "outcome": "failed", "timeout_s": 10.0}
        runner.windows.judge(record, window)
        return record
    runner.windows.measure_once = measure
    server = types.SimpleNamespace(port=19700)
    runner.sessions.run = lambda mode, sleep, phase, repeat, work: work(
        ServerSession(MeasuredServer(server, {}), "url", 1))
    monkeypatch.setattr(windows_module, "wait_for_time_wait", lambda port, limit=None: None)
    runner._confirm("virtual", SleepSpec(100, 100), 1, {150: 4000})
    return rates


def test_a_round_ends_at_the_first_window_after_which_the_server_stopped_answering(tmp_path, monkeypatch):
    # A server still there: the missed window is measured again (the load tool failed), then twice lower.
    assert confirmed_rates(bare_runner(tmp_path, capacity_config()), lost=False,
                           monkeypatch=monkeypatch) == [4000, 4000, 3800, 3800, 3610, 3610]
    # A server that stopped answering: nothing more is measured against its closed port.
    assert confirmed_rates(bare_runner(tmp_path, capacity_config()), lost=True, monkeypatch=monkeypatch) == [4000]


class _Listener:
    """A TCP port on loopback: `answering` serves HTTP, otherwise it accepts connections into its
    backlog and never reads them (a listener whose server stopped taking requests)."""

    def __init__(self, answering):
        import http.server
        import socketserver
        import threading
        if answering:
            class Quiet(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(503)
                    self.end_headers()

                def log_message(self, *args):
                    pass
            self.server = socketserver.TCPServer(("127.0.0.1", 0), Quiet)
            threading.Thread(target=self.server.serve_forever, daemon=True).start()
            self.port = self.server.server_address[1]
            self.close = lambda: (self.server.shutdown(), self.server.server_close())
        else:
            import socket
            self.sock = socket.socket()
            self.sock.bind(("127.0.0.1", 0))
            self.sock.listen(8)
            self.port = self.sock.getsockname()[1]
            self.close = self.sock.close


def checked(log, port, errors, pid=None):
    """The record check_server leaves after a window with `errors` failed requests, the server on `port`."""
    import os
    server = types.SimpleNamespace(pid=pid or os.getpid(), host="127.0.0.1", port=port, info_path="/api/info")
    record = {"phase": "confirm", "flags": [], "load": {"errors": {"total": errors}}}
    check_server(server, "helidon", SleepSpec(2000, 2000), record, 15_000, log)
    return record


def test_after_a_window_with_errors_a_running_server_that_answers_nothing_is_unresponsive(tmp_path, monkeypatch):
    timeouts = []
    monkeypatch.setattr(between_module, "stall_after_s",
                        lambda sleep_ms, connections: timeouts.append((sleep_ms, connections)) or 0.5)
    lines = []

    # Any HTTP answer, even a 503, is a server still there: its errors are measured, not the end.
    answering = _Listener(answering=True)
    try:
        record = checked(lines.append, answering.port, errors=120)
    finally:
        answering.close()
    assert "server_unresponsive" not in record and record["flags"] == [] and lines == []

    # A listener that accepts and never answers: no answer within the probe's timeout.
    silent = _Listener(answering=False)
    try:
        record = checked(lines.append, silent.port, errors=120)
    finally:
        silent.close()
    assert record["server_unresponsive"] == {"probe": "GET /api/info", "outcome": "timeout", "timeout_s": 0.5}
    assert record["flags"] == ["unresponsive"] and server_lost(record)
    assert "did not answer GET /api/info" in lines[0] and "confirmation round ends here" in lines[0]

    # A closed port (the listener gone, the process alive): refused.
    record = checked(lines.append, silent.port, errors=120)
    assert record["server_unresponsive"]["outcome"] == "failed" and "refused or reset" in lines[1]

    # Without failed requests the window itself showed the server answering: no probe is sent.
    record = checked(lines.append, silent.port, errors=0)
    assert "server_unresponsive" not in record and len(lines) == 2
    # Each probe waited as long as the watchdog allows the window's sleep and connections.
    assert timeouts == [(2000, 15_000)] * 3


def test_after_a_window_a_server_whose_process_exited_is_lost_without_a_probe(tmp_path):
    import subprocess
    import sys
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    record = checked(lambda line: None, 1, errors=0, pid=done.pid)
    assert record["server_exited"] is True and "server_unresponsive" not in record
    assert server_lost(record)


def test_a_window_whose_server_exited_before_it_is_stored_saying_so(tmp_path):
    """The record in points.jsonl, not only the one in memory, says the server was gone: the report
    rebuilt from the folder must see what the live run saw."""
    import subprocess
    import sys
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    runner = bare_runner(tmp_path, capacity_config())
    stored = []
    runner.context.recorder.add_point = lambda record: stored.append(dict(record))
    window = runner._first_window("virtual", SleepSpec(100, 100), "search", 1, None, 2000)
    session = types.SimpleNamespace(server=types.SimpleNamespace(pid=done.pid), index=0)

    record = runner.windows.measure_once(session, window)

    assert [point["server_exited"] for point in stored] == [True]
    assert stored[0]["failure"] == f"the virtual server (pid {done.pid}) exited before this window"
    assert stored[0]["capacity"]["passed"] is False and server_lost(record)


def test_without_a_young_collection_count_a_window_counts_on_its_goal_and_is_flagged(tmp_path):
    runner = bare_runner(tmp_path, capacity_config())
    measured = windows_with(runner, lambda window_s: (True, None))  # JFR gave no count
    record = run_window(runner)
    assert [w for w, _ in measured] == [15]
    assert record["capacity"]["passed"] and record["capacity"]["verdict"] == "met-gcs-unknown"
    assert record["flags"] == ["gcs-unknown"] and record["capacity"]["young_gcs"] is None


# -- the warm-up ----------------------------------------------------------------------------------
def test_warm_up_goes_on_while_the_jit_compiles_even_with_a_steady_throughput():
    steady = [1000, 3000, 3050, 3020]
    assert warmup_end(steady, [600, 40, 40, 40.0], elapsed_s=60, min_s=30, max_s=180) is None
    assert warmup_end(steady, [600, 2, 1, 1.5], elapsed_s=60, min_s=30, max_s=180) == "steady+jit"
    assert warmup_end(steady, [600, 2, 1, 1.5], elapsed_s=20, min_s=30, max_s=180) is None   # before --warmup-min
    assert warmup_end([1000, 2000, 3000], [9, 0, 0.0], elapsed_s=60, min_s=30, max_s=180) is None  # still rising
    assert warmup_end(steady, [600, 40, 40, 40.0], elapsed_s=180, min_s=30, max_s=180) == "cap"
    assert warmup_end(steady, [600, 2, 1, None], elapsed_s=60, min_s=30, max_s=180) == "steady"  # no count: throughput alone
    assert warmup_end(steady, [600, 3, 3, 3.0], elapsed_s=60, min_s=30, max_s=180, jit_quiet_per_s=5) == "steady+jit"


def test_warm_up_does_not_end_on_a_plateau_whose_earlier_iterations_still_compiled():
    # Payara Micro 7, platform-4000 (results of docs/results/payara7.md): the throughput settled at
    # ~1,150 req/s while C2 was still busy; only the last iteration was quiet. Payara 6 went on from
    # the same plateau to 3,362 req/s.
    plateau = [341, 731, 652, 1131, 1101, 1152, 1187, 1173]
    compiles = [522, 91, 123, 21.2, 12.1, 11.3, 7.3, 4.0]
    assert warmup_end(plateau, compiles, elapsed_s=57, min_s=30, max_s=180) is None
    assert warmup_end(plateau + [1170, 1165], compiles + [3.1, 2.0], elapsed_s=71, min_s=30, max_s=180) == "steady+jit"


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def warm_up_with(monkeypatch, tmp_path, throughputs, compile_totals, config):
    """Runs the warm-up with each iteration taking 5 s of a fake clock, the load tool
    answering `throughputs` and jcmd reading `compile_totals` (None: a failed reading)."""
    clock = FakeClock()
    throughputs, totals = iter(throughputs), iter(compile_totals)

    def drive(*args, **kwargs):
        clock.sleep(5)
        return {"load": types.SimpleNamespace(ok_rps=next(throughputs)), "side_files": [], "failure": None}

    def read_counter(java_home, pid, name, host=None):
        total = next(totals)
        return (total, None) if total is not None else (None, "jcmd PerfCounter.print: boom")
    monkeypatch.setattr(warmup_module, "time", clock)
    monkeypatch.setattr(warmup_module, "drive", drive)
    monkeypatch.setattr(warmup_module.perfcounters, "read_counter", read_counter)
    runner = bare_runner(tmp_path, config, java_home=tmp_path)
    server = types.SimpleNamespace(base_url="http://127.0.0.1:19700", pid=4242)
    return warm_up(runner.context, server, "/api/sleep", "01-virtual", 100)


def test_warm_up_records_each_iterations_compiles_and_ends_when_the_jit_is_quiet(monkeypatch, tmp_path):
    # Steady from the third iteration on; quiet from the fifth; the rule needs three quiet ones.
    result = warm_up_with(monkeypatch, tmp_path, [1000, 3000, 3050, 3020, 3040, 3030, 3035],
                          [100, 5100, 6100, 6500, 6540, 6545, 6550, 6553], capacity_config())
    assert [i["compiles"] for i in result["iterations"]] == [5000, 1000, 400, 40, 5, 5, 3]
    assert [i["compiles_per_s"] for i in result["iterations"]] == [1000.0, 200.0, 80.0, 8.0, 1.0, 1.0, 0.6]
    assert result["ended"] == "steady+jit" and result["seconds"] == 35 and result["jit"]["error"] is None


def test_warm_up_at_the_cap_ends_with_that_reason_though_the_throughput_was_steady(monkeypatch, tmp_path):
    result = warm_up_with(monkeypatch, tmp_path, [3000] * 6, [0, 500, 1000, 1500, 2000, 2500, 3000],
                          capacity_config(warmup_max_s=30))
    assert result["ended"] == "cap" and result["settled"] and len(result["iterations"]) == 6


def test_warm_up_without_a_compile_count_falls_back_to_the_throughput_and_says_so(monkeypatch, tmp_path):
    result = warm_up_with(monkeypatch, tmp_path, [1000, 3000, 3050, 3020], [None] * 5, capacity_config())
    assert result["ended"] == "steady" and len(result["iterations"]) == 4
    assert all(i["compiles"] is None for i in result["iterations"])
    assert result["jit"]["error"] == "jcmd PerfCounter.print: boom"


def session_paths(monkeypatch, tmp_path, sleep):
    """Runs a server session for `sleep` with a fake server: (the warm-up's path, the windows' URL,
    the warm-up record)."""
    server = types.SimpleNamespace(pid=4242, base_url="http://127.0.0.1:19700", printable_command=lambda: "java",
                                   stop=lambda: None)
    from labkit.measure import measured_server
    monkeypatch.setattr(measured_server, "start_server", lambda target, setup, heap=None: server)
    monkeypatch.setattr(session_module, "probe", lambda server, path, mode: 120)
    monkeypatch.setattr(measured_server, "cpus_allowed", lambda server: [1])
    monkeypatch.setattr(measured_server, "keep_log", lambda server, out_dir, label: None)
    runner = bare_runner(tmp_path, capacity_config(sleeps=(sleep,)),
                         targets={"virtual": types.SimpleNamespace(description="a fake server")})
    runner.context.recorder.add_session = lambda session: None
    warmed, worked = [], []
    monkeypatch.setattr(session_module, "warm_up", lambda context, server, path, label, response_bytes:
                        warmed.append(path) or {"seconds": 1})
    monkeypatch.setattr(session_module, "full_gc_of", lambda server, context: None)
    monkeypatch.setattr(session_module, "cool_down", lambda pid, cooldown_s, feed=None: None)
    monkeypatch.setattr(session_module, "idle_latency", lambda server, path, timeout_s:
                        {"path": path, "probes_ms": [], "median_ms": None})
    runner.sessions.run("virtual", sleep, "search", None,
                        lambda session: worked.append((session.url, session.record["warmup"], session.idle)))
    url, warmup, idle = worked[0]
    assert url == server.base_url + idle["path"]  # at rest, the server is asked the windows' own request
    return warmed[0], url, warmup


def test_a_long_sleep_is_warmed_up_on_the_same_endpoint_at_a_short_sleep(monkeypatch, tmp_path):
    warm_path, url, warmup = session_paths(monkeypatch, tmp_path, SleepSpec(2000, 2000))
    assert url == "http://127.0.0.1:19700" + warm_path.replace("ms=100&", "ms=2000&")
    assert warmup["sleep_ms"] == [100, 100]
    warm_path, url, warmup = session_paths(monkeypatch, tmp_path, SleepSpec(20, 60))
    assert url.endswith(warm_path) and warmup["sleep_ms"] == [20, 60]  # short sleeps warm up as they run


def test_the_report_says_a_long_sleep_warmed_up_at_a_short_one_only_when_one_did():
    run = synthetic_run()
    run["summary"] = summarize(run)
    assert "warms up on the same endpoint" not in report(run)
    run["config"]["sleeps"].append({"sleep_min_ms": 2000, "sleep_max_ms": 2000, "goal_ms": 2050, "timeout_s": 8.2})
    assert "a longer sleep warms up on the same endpoint at 100 ms" in report(run)


# -- summary and report -------------------------------------------------------------------------
def rerun_run():
    """synthetic_run with the young-collection rule: virtual's 3,000 req/s step needed a 30 s window;
    platform-10000's 2,800 step met the goal in 15 s with one collection and missed it in 30 s."""
    run = synthetic_run()
    run["config"].update(min_young_gcs=2, max_window_s=120, warmup_jit_rate=2.0)
    points = []
    for p in run["points"]:
        p["capacity"].update(met_goal=p["capacity"]["passed"], young_gcs=3, min_young_gcs=2, window_s=15,
                             verdict="met" if p["capacity"]["passed"] else "missed")
        if p["phase"] == "search" and (p["mode"], p["rate"]) in (("virtual", 3000), ("platform-10000", 2800)):
            short = point(p["mode"], "search", p["rate"], False, [110] * 100, max_concurrent=p["max_concurrent"])
            short["id"] += "-short"
            short["capacity"].update(met_goal=True, young_gcs=1, min_young_gcs=2, window_s=15, verdict="rerun-longer")
            points.append(short)
            p["extends"] = {"id": short["id"], "window_s": 15, "young_gcs": 1, "why": "met the goal with 1"}
            p["capacity"]["window_s"] = 30
            if p["mode"] == "platform-10000":
                p["capacity"].update(met_goal=False, passed=False, verdict="missed")
        points.append(p)
    run["points"] = points
    return run


def test_summary_takes_the_longer_window_as_the_step_and_the_report_lists_the_re_runs():
    run = rerun_run()
    rows = {r["mode"]: r for r in summarize(run)}
    assert [s["rate"] for s in rows["virtual"]["search"]["steps"]] == [1500, 3000, 6000]
    assert rows["virtual"]["search"]["found_rps"] == 3000 and rows["virtual"]["rerun_longer"] == 1
    assert rows["platform-10000"]["search"]["found_rps"] == 1400
    assert rows["platform-10000"]["search"]["missed_rps"] == 2800
    run["summary"] = list(rows.values())
    text = report(run)
    assert "## Windows measured again for too few young collections" in text
    assert ("- virtual, sleep 100 ms, search step 1, 3,000 req/s: the 15 s window met the goal with 1 young "
            "collection(s) (2 needed); 30 s: 3, counts as met: yes") in text
    assert "platform-10000, sleep 100 ms, search step 1, 2,800 req/s" in text and "counts as met: no" in text
    assert "not yet: too few young GCs, re-run longer" in text
    assert "at least 2 young collections in it" in text


def test_a_run_made_before_the_rules_still_reports_and_says_it_had_none():
    run = synthetic_run()  # points with capacity {goal_ms, percentile, passed} only, no warm-up records
    run["summary"] = summarize(run)
    text = report(run)
    assert "Windows measured again" not in text
    assert "no rule (a run made before it)" in text
    assert "methods compiled per iteration" in text  # the column, empty for such a run


def test_the_eta_counts_the_host_speed_reference_and_guesses_a_warm_up_between_its_bounds(tmp_path):
    with_reference = bare_runner(tmp_path, capacity_config(reference=True, warmup_min_s=30, warmup_max_s=180))
    without = bare_runner(tmp_path, capacity_config(warmup_min_s=30, warmup_max_s=180))
    for runner in (with_reference, without):
        runner.timing.update(step_s=[40], confirm_windows=[2])
    # Before anything is measured: a reference of 25 s, a start of 20 s, a warm-up of (30 + 180) / 2 s.
    assert with_reference.remaining_s(0, 1) == 25 + 20 + 105 + 2 * 40
    assert without.remaining_s(0, 1) == 20 + 105 + 2 * 40
    # Then what was measured.
    with_reference.timing.update(reference_s=[41], start_s=[12], warmup_s=[90])
    assert with_reference.remaining_s(0, 2) == 2 * (41 + 12 + 90 + 2 * 40)


def test_the_eta_counts_each_confirmation_rounds_retries_as_it_learns_them(tmp_path):
    runner = bare_runner(tmp_path, capacity_config())
    runner.timing.update(start_s=[10], warmup_s=[50], step_s=[40])
    # Before any round: two and a half windows per round (a walk's usual length), not one.
    assert runner.remaining_s(0, 3) == 3 * (60 + 2.5 * 40)
    runner.sessions.run = lambda mode, sleep, phase, repeat, work: work(
        ServerSession(MeasuredServer(None, {}), "url", 1))
    measured = windows_with(runner, lambda window_s: (False, 3))
    runner._confirm("virtual", SleepSpec(100, 100), 1, {150: 2000})
    # A round that held nothing: the window at the found rate and both retries lower.
    assert len(measured) == 3 and runner.timing["confirm_windows"] == [3]
    assert runner.remaining_s(0, 3) == 3 * (60 + 3 * 40)
