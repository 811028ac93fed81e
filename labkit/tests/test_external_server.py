"""--url: a server the lab did not start. The options refuse what cannot go together, /metrics is read
in the formats MicroProfile Metrics exports, and, end to end, `./lab bench --url` against a Payara
Micro started by hand loads it without restarting it and says in its report which figures it lacks
(README's own line: test_documented_commands.test_readme_bench_of_a_running_server)."""
import argparse
import types

import pytest

from labkit.hosts.local import LocalHost
from labkit.capacity import between
from labkit.commands.where import record_server_url, use_url
from labkit.hosts.host import SshHost
from labkit.measure.env import server_url_row
from labkit.measure.jfr import JfrRecorder
from labkit.ground.errors import LabError, UsageError
from labkit.measure import metrics
from labkit.servers.external import ExternalServer, check_url

# As Payara Micro 6 serves it (MicroProfile Metrics 5): plain names with an mp_scope label, one sample
# a collector; an application's metric of the same name is in its own scope.
PAYARA_METRICS = """# TYPE thread_count gauge
thread_count{mp_scope="base"} 61.0
# TYPE memory_usedHeap_bytes gauge
memory_usedHeap_bytes{mp_scope="base"} 2.097152E8
# TYPE gc_total counter
gc_total{mp_scope="base",name="G1 Young Generation"} 7.0
gc_total{mp_scope="base",name="G1 Old Generation"} 1.0
# TYPE gc_time_seconds_total counter
gc_time_seconds_total{mp_scope="base",name="G1 Young Generation"} 0.25
gc_time_seconds_total{mp_scope="base",name="G1 Old Generation"} 0.05
thread_count{mp_scope="application"} 5000.0
vendor_something{x="y"} NaN
"""


def test_metrics_are_read_summed_over_collectors_and_a_window_is_their_difference():
    figures = metrics.figures(metrics.parse(PAYARA_METRICS))
    assert figures == {"threads": 61, "heap_used_mb": 200.0, "gc_count": 8, "gc_time_ms": 300.0}
    older = metrics.figures(metrics.parse("base_gc_total 2\nbase_gc_time_total 120\nbase_thread_count 40\n"))
    assert older == {"threads": 40, "heap_used_mb": None, "gc_count": 2, "gc_time_ms": 120.0}  # MP Metrics 3: ms
    assert metrics.window(older, figures) == {"threads": 61, "heap_used_mb": 200.0, "gc_count": 6, "gc_time_ms": 180.0}
    assert metrics.window_of((None, "GET /metrics answered 404"), (figures, None)) == {
        "available": False, "error": "GET /metrics answered 404"}


def test_a_url_is_checked_before_anything_runs():
    assert check_url("http://staging.example:8080/shop/") == "http://staging.example:8080/shop"
    for bad in ("staging:8080", "ftp://x", "http://x:99999", "http://x/?a=1"):
        with pytest.raises(UsageError):
            check_url(bad)


def url_args(**given):
    values = dict(url="http://127.0.0.1:1", modes=None, server_host=LocalHost(), server_ssh=None, server_pid=None,
                  remote_java=None, server_gc=True, server_jfr=True)
    values.update(given)
    return argparse.Namespace(**values)


def test_url_refuses_what_cannot_go_with_it():
    with pytest.raises(UsageError, match="leave out --modes"):
        use_url(url_args(modes=("virtual",)))
    with pytest.raises(UsageError, match="go together"):
        use_url(url_args(server_pid=123))
    with pytest.raises(UsageError, match="give --url too"):
        use_url(url_args(url=None, server_pid=123))
    args = url_args()
    assert use_url(args) == "http://127.0.0.1:1" and args.modes == ("url",)


def test_nothing_answering_at_the_url_is_a_clear_error():
    with pytest.raises(LabError, match="nothing answers at http://127.0.0.1:1"):
        ExternalServer("http://127.0.0.1:1").start()



def test_what_the_lab_does_to_a_server_it_did_not_start_is_said_and_each_can_be_turned_off(monkeypatch):
    for spared in (dict(server_gc=False), dict(server_jfr=False)):
        with pytest.raises(UsageError, match="give --url and --server-ssh too"):
            use_url(url_args(url=None, **spared))
        with pytest.raises(UsageError, match="without it the lab neither collects nor records there"):
            use_url(url_args(**spared))
    staging = SshHost("deploy@staging")
    everything = server_url_row(record_server_url({}, url_args(server_ssh=staging, server_pid=4711)))[1]
    assert ("Beside the requests, the lab read /proc/4711 on deploy@staging over ssh; forced a full GC "
            "(jcmd GC.run) after the warm-up and after every window (--no-server-gc: not); recorded JFR") in everything
    spared = server_url_row(record_server_url({}, url_args(server_ssh=staging, server_pid=4711, server_gc=False,
                                                           server_jfr=False)))[1]
    assert spared.endswith("Beside the requests, the lab read /proc/4711 on deploy@staging over ssh")
    # Without --server-ssh the lab reaches nothing but the URL, and says nothing more.
    assert "Beside" not in server_url_row(record_server_url({}, url_args()))[1]


def test_a_spared_server_gets_no_full_gc_and_no_jfr_recording(monkeypatch):
    collected = []
    monkeypatch.setattr(between, "full_gc", lambda java_home, pid, log, host=None: collected.append(pid) or True)
    context = types.SimpleNamespace(java_home="/opt/jdk", log=print)
    assert between.full_gc_of(ExternalServer("http://127.0.0.1:1", pid=4711), context) is True
    assert between.full_gc_of(ExternalServer("http://127.0.0.1:1", pid=4711, full_gc=False), context) is None
    assert collected == [4711]
    spared = ExternalServer("http://127.0.0.1:1", pid=4711, jfr=False)
    recorder = JfrRecorder(4711, "/opt/jdk", refused=spared.jfr_refused)
    monkeypatch.setattr(recorder, "_jcmd", lambda *arguments: pytest.fail("jcmd reached a spared JVM"))
    assert recorder.start() is False and recorder.error == "--no-server-jfr: no JFR recording on your server"


def test_the_recording_in_a_server_the_lab_leaves_running_ends_with_the_run(monkeypatch):
    calls = []
    recorder = JfrRecorder(4711, "/opt/jdk")
    monkeypatch.setattr(recorder, "_jcmd", lambda *arguments: calls.append(arguments) or "Started recording 1.")
    assert recorder.start()
    recorder.stop()
    assert calls[0][0] == "JFR.start" and calls[-1] == ("JFR.stop", "name=loomlab-bench")
