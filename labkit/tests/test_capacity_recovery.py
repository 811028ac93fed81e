"""After a window that collapsed, ./lab capacity measures on only once the server answers at its idle
latency again, and otherwise on a fresh server (labkit/capacity/recovery.py): a collapse is failed
requests or a percentile at COLLAPSE_GOAL_TIMES x the goal; a real HTTP server here stands for a
server that is slow after its window and comes back, or never does; the session in place of the
broken one is a fresh server, and the old one is stopped and recorded with why it ended. The whole
path on Payara (a pool that collapses, then recovers) runs in test_limits_e2e.py."""
import http.server
import threading
import time
from types import SimpleNamespace

import pytest

from labkit.capacity import recovery
from labkit.capacity.recovery import await_recovery, collapsed, idle_latency, recovered_within
from labkit.capacity.session import ServerSession, ServerSessions
from labkit.measure.measured_server import MeasuredServer
from labkit.capacity.verdicts import server_lost
from labkit.capacity.windows import WindowMeasurer
from labkit.servers.external import TARGET_NAME as URL_TARGET


@pytest.fixture
def slow_server():
    """A real HTTP server whose answers take state["delay_s"]; yields (state, host, port)."""
    state = {"delay_s": 0.02, "requests": 0}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            state["requests"] += 1
            time.sleep(state["delay_s"])
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, "127.0.0.1", server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def handle(host, port):
    return SimpleNamespace(host=host, port=port, info_path="/api/info", pid=1)


def window_record(errors=0, p99=120.0):
    return {"load": {"errors": {"total": errors}, "latency_ms": {"p99": p99}}, "flags": [], "phase": "search"}


def test_a_collapse_is_failed_requests_or_the_percentile_at_three_times_the_goal():
    assert collapsed(window_record(errors=1), "p99", 150)
    assert collapsed(window_record(p99=450.0), "p99", 150)
    assert not collapsed(window_record(p99=449.9), "p99", 150)
    assert not collapsed({"load": None}, "p99", 150)
    assert recovered_within(100.0) == 125.0 and recovered_within(2.0) == 7.0


def test_a_server_slow_after_its_window_is_waited_for_until_it_answers_at_its_idle_latency(slow_server):
    state, host, port = slow_server
    idle = idle_latency(handle(host, port), "/api/sleep?ms=20", 5)
    assert idle["path"] == "/api/sleep?ms=20" and 20 <= idle["ms"] < 60, idle
    state["delay_s"] = 0.4                      # the backlog of the window before
    threading.Timer(1.5, lambda: state.update(delay_s=0.02)).start()
    began = time.monotonic()
    outcome = await_recovery(handle(host, port), idle, 5)
    assert outcome["recovered"] and outcome["median_ms"] <= outcome["within_ms"], outcome
    assert outcome["waited_s"] >= 1.0 and time.monotonic() - began >= 1.0
    assert outcome["idle_ms"] == idle["ms"]


def measurer_for(session_log):
    config = SimpleNamespace(goal=SimpleNamespace(percentile="p99"))
    return WindowMeasurer(SimpleNamespace(config=config, log=session_log.append), eta=lambda window: 0)


def test_a_server_that_does_not_come_back_is_restarted_once_then_its_search_ends(slow_server, monkeypatch):
    monkeypatch.setattr(recovery, "RECOVERY_MAX_S", 1.0)
    monkeypatch.setattr(recovery, "RECOVERY_INTERVAL_S", 0.1)
    state, host, port = slow_server
    idle = idle_latency(handle(host, port), "/api/sleep?ms=20", 5)
    state["delay_s"] = 0.3                      # never back
    log = []
    measured = MeasuredServer(handle(host, port), {"index": 1})
    session = ServerSession(measured, f"http://{host}:{port}/api/sleep?ms=20", 2, idle=idle)
    window = SimpleNamespace(mode="platform-8", goal_ms=150.0, sleep=SimpleNamespace(max_ms=100))
    measurer = measurer_for(log)

    first = window_record(errors=12, p99=5000.0)
    assert measurer.after_collapse(session, window, first, 64) is True
    assert first["recovery"]["outcome"] == "restarted" and not first["recovery"]["recovered"]
    assert first["flags"] == ["collapsed"] and not server_lost(first)
    assert "the next window runs on a fresh server" in log[-1]

    session.restarts = 1
    second = window_record(errors=3, p99=900.0)
    assert measurer.after_collapse(session, window, second, 64) is False
    assert second["recovery"]["outcome"] == "not-recovered" and second["flags"] == ["collapsed", "not-recovered"]
    assert server_lost(second) and "its search ends here" in log[-1]

    session.restarts = 0                        # a server the lab did not start (--url) is not restarted
    yours = window_record(errors=1)
    assert measurer.after_collapse(session, SimpleNamespace(**{**vars(window), "mode": URL_TARGET}), yours, 64) is False
    assert yours["recovery"]["outcome"] == "not-recovered" and server_lost(yours)

    state["delay_s"] = 0.02
    calm = window_record(p99=140.0)
    assert measurer.after_collapse(session, window, calm, 64) is False and "recovery" not in calm


class FakeServer:
    def __init__(self, pid):
        self.pid, self.stopped, self.log_path = pid, False, "/nonexistent/server.log"

    def stop(self):
        self.stopped = True


def test_a_restart_puts_a_fresh_server_in_the_same_session_and_records_the_old_one(monkeypatch, tmp_path):
    recorded = []
    context = SimpleNamespace(out_dir=tmp_path, log=lambda line: None,
                              recorder=SimpleNamespace(add_session=recorded.append))
    sessions = ServerSessions(context)
    opened = []

    def fake_open(mode, sleep, phase, repeat, restart_of=None):
        sessions.count += 1
        record = {"index": sessions.count, "mode": mode, **({"restart_of": restart_of} if restart_of else {})}
        measured = MeasuredServer(FakeServer(100 + sessions.count), record, out_dir=tmp_path,
                                  log_label=f"{sessions.count:02d}-{mode}", on_close=context.recorder.add_session)
        session = ServerSession(measured, f"http://x/{sessions.count}", 2)
        session.restart = lambda why: sessions._restart(session, mode, sleep, phase, repeat, why)
        opened.append(session.server)
        return session
    monkeypatch.setattr(sessions, "_open", fake_open)

    seen = []

    def work(session):
        seen.append((session.index, session.server.pid))
        session.restart("not back at rest")
        seen.append((session.index, session.server.pid, session.restarts))

    sessions.run("platform-8", SimpleNamespace(max_ms=1000), "search", None, work)
    assert seen == [(1, 101), (2, 102, 1)]
    assert all(server.stopped for server in opened)
    assert [r["index"] for r in recorded] == [1, 2]
    assert recorded[0]["ended"] == "restarted: not back at rest" and recorded[1]["restart_of"] == 1
