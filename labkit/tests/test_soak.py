"""./lab soak: the checks from made-up samples, capacity input, and short real runs: a baseline
that survives, and a server that dies under the load (the crash must be reported, not hidden)."""
import gzip
import json
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from labkit import ROOT
from labkit.measure.results import SOAK_SCHEMA
from labkit.soak import checks, config as soak_config, report as soak_report, runner
from labkit.measure.server_setup import ServerSetup
from labkit.load.tools import ensure_tools
from labkit.measure.sampler import ProcessReading, Sample, read_samples_csv, write_samples_csv
from labkit.ground.errors import UsageError
from labkit.ground.process import spawn, stop
from labkit.servers.registry import Target


def test_back_near_idle_is_the_start_of_the_last_stretch_at_or_below_the_limit():
    assert checks.back_near_idle([(0.5, 300), (1.0, 120), (1.5, 90), (2.0, 95)], 100) == 1.5
    assert checks.back_near_idle([(0.5, 90), (1.0, 150), (1.5, 90)], 100) == 1.5, "a relapse restarts the clock"
    assert checks.back_near_idle([(0.5, 90), (1.0, 150)], 100) is None, "still above at the end"


def _sample(t, threads, rss_mb):
    return Sample(t=t, server=ProcessReading(cpu_s=0, rss_kb=rss_mb * 1024, hwm_kb=rss_mb * 1024, threads=threads,
                                             read_bytes=None), driver=None, machine_busy_s=0, machine_total_s=0)


def test_rebuild_takes_the_load_phase_and_the_cpu_of_both_from_the_raw_samples(tmp_path, capsys):
    # Server and load tool each burn one core while the load tool is attached (t 1 to 4); the server idles around it.
    samples = [Sample(t=t, server=ProcessReading(cpu_s=10 + max(0, min(t, 4) - 1), rss_kb=600 * 1024, hwm_kb=600 * 1024,
                                                 threads=4040 if 1 <= t <= 4 else 40, read_bytes=None),
                      driver=(ProcessReading(cpu_s=2 + (t - 1), rss_kb=1024, hwm_kb=1024, threads=0, read_bytes=None)
                              if 1 <= t <= 4 else None),
                      machine_busy_s=0, machine_total_s=0)
               for t in (0, 0.5, 1, 2, 3, 4, 5, 6)]
    (tmp_path / "raw").mkdir()
    write_samples_csv(tmp_path / "raw" / "v.r1.samples.csv", samples)
    config = soak_config.SoakConfig(modes=("v",), capacity={"v": 100}, repeats=1).to_dict()
    run = {"config": config, "env": {"command": "test"}, "state": "complete", "order": [["v"]],
           "targets": [{"mode": "v", "repeat": 1, "capacity_rps": 100, "rate": 200, "alive": True, "oom": False,
                        "load": {}, "fresh_request": {"status": 200, "seconds": 0.004}}]}
    stored = gzip.compress(json.dumps(run).encode())
    (tmp_path / "soak.json.gz").write_bytes(stored)
    assert subprocess.run([sys.executable, "-m", "labkit.cli", "report", str(tmp_path)], cwd=ROOT,
                          timeout=60).returncode == 0
    # The record is ./lab report's input: the figures derived from the samples go to report.md only.
    assert (tmp_path / "soak.json.gz").read_bytes() == stored
    rebuilt = soak_report.rebuild(json.loads(json.dumps(run)), tmp_path)
    resources = rebuilt["targets"][0]["resources"]
    assert resources["load_t_s"] == [1, 4], "the load phase is where the load tool was attached"
    assert resources["cpu_cores"] == {"server": 1.0, "load_tool": 1.0}
    assert resources["threads"]["idle"] == 40 and resources["threads"]["back_after_s"] == 1.0
    assert rebuilt["targets"][0]["checks"]["threads_back"] is True
    assert "| 1.00 / 1.00 |" in (tmp_path / "report.md").read_text()
    assert not (tmp_path / "soak.json").exists(), "no plain copy beside the compressed record"


def test_threads_that_stay_up_after_the_load_are_not_back():
    idle = [_sample(t, 40, 500) for t in (0, 0.5, 1)]
    load = [_sample(t, 4040, 1500) for t in (2, 3, 4)]
    after = [_sample(t, 4040, 520) for t in (5, 6, 7)]   # the platform pool keeps its threads
    result = checks.resource_checks(idle, idle + load + after, load_began=1.5, load_ended=4)
    assert result["threads"] == {"idle": 40, "peak": 4040, "end": 4040, "back_after_s": None, "limit": 50}
    assert result["rss_mb"]["back_after_s"] == 1.0 and result["rss_mb"]["peak"] == 1500


def _round(**changes):
    """A round's record that passes every check; `changes` replace its fields."""
    record = {"alive": True, "oom": False, "load": {"ok": 100, "errors": {"total": 0}},
              "resources": {"threads": {"back_after_s": 2.0}, "rss_mb": {"back_after_s": 4.5}},
              "fresh_request": {"status": 200, "seconds": 0.004}}
    return {**record, **changes}


def test_a_round_that_survived_and_recovered_passes_every_check():
    assert checks.checks(_round()) == {"no_crash": True, "no_oom": True, "load_measured": True, "threads_back": True,
                                       "rss_back": True, "fresh_request_within_1s": True}


@pytest.mark.parametrize("changes, check, verdict", [
    ({"alive": False}, "no_crash", False),
    ({"oom": True}, "no_oom", False),
    ({"oom": None}, "no_oom", None),                       # no server log to read
    ({"load": {"failure": "vegeta exit 1: no results"}}, "load_measured", False),
    ({"load": {}}, "load_measured", False),
    ({"resources": None}, ("threads_back", "rss_back"), None),  # no samples after the load
    ({"resources": {"threads": {"back_after_s": None}, "rss_mb": {"back_after_s": 1.0}}}, "threads_back", False),
    ({"resources": {"threads": {"back_after_s": 1.0}, "rss_mb": {"back_after_s": None}}}, "rss_back", False),
    ({"fresh_request": {"status": 200, "seconds": checks.FRESH_REQUEST_LIMIT_S + 0.001}}, "fresh_request_within_1s", False),
    ({"fresh_request": {"status": 503, "seconds": 0.01}}, "fresh_request_within_1s", False),
    ({"fresh_request": None}, "fresh_request_within_1s", False),  # the server had died
])
def test_each_check_fails_on_its_own_evidence(changes, check, verdict):
    hit = check if isinstance(check, tuple) else (check,)
    result = checks.checks(_round(**changes))
    assert all(result[name] is verdict for name in hit)
    assert all(value is True for name, value in result.items() if name not in hit), "the other checks still pass"


def test_recheck_takes_the_recorded_load_phase_else_where_the_load_tool_was_attached():
    def samples(attached):
        return [Sample(t=t, server=ProcessReading(cpu_s=0, rss_kb=500 * 1024, hwm_kb=500 * 1024,
                                                  threads=400 if 2 <= t <= 4 else 40, read_bytes=None),
                       driver=(ProcessReading(cpu_s=0, rss_kb=0, hwm_kb=0, threads=0, read_bytes=None)
                               if attached and 2 <= t <= 4 else None),
                       machine_busy_s=0, machine_total_s=0)
                for t in (0, 1, 2, 3, 4, 5, 6, 7)]
    record = checks.recheck(_round(resources=None), samples(attached=True))
    assert record["resources"]["load_t_s"] == [2, 4] and record["resources"]["threads"]["back_after_s"] == 1.0
    assert record["checks"]["threads_back"] is True
    # A recorded load phase wins over the samples: here it ends at 6 s, so the threads are back at once.
    recorded = checks.recheck(_round(resources={"load_t_s": [1, 6]}), samples(attached=True))
    assert recorded["resources"]["load_t_s"] == [1, 6] and recorded["resources"]["threads"]["peak"] == 400
    assert recorded["resources"]["threads"]["back_after_s"] == 1.0
    untouched = _round(resources=None, checks={"no_crash": True})
    assert checks.recheck(dict(untouched), samples(attached=False)) == untouched, "no load phase: left as it was"


class _ServerHost:
    """A --server-host stand-in: SshHost's own read(), with its ssh command answered as given (the
    text of /proc/net/netstat there, or a failure)."""

    def __init__(self, netstat=None, error=None, returncode=0):
        self.netstat, self.error, self.returncode, self.commands = netstat, error, returncode, []
        self.target = "srv"

    def run(self, command, timeout=60, check=True):
        from labkit.ground.errors import LabError
        self.commands.append(list(command))
        if self.error:
            raise self.error
        if check and self.returncode:
            raise LabError(f"{command} failed on srv")
        return subprocess.CompletedProcess(command, self.returncode, stdout=self.netstat or "", stderr="")

    def read(self, path):
        from labkit.hosts.host import SshHost
        return SshHost.read(self, path)


def test_listen_overflows_are_read_on_the_host_whose_kernel_holds_the_servers_accept_queue():
    import types
    from labkit.ground.errors import LabError
    from labkit.ground.proc import tcp_counter
    from labkit.hosts.local import LocalHost
    there = _ServerHost("TcpExt: SyncookiesSent ListenOverflows\nTcpExt: 0 4242\n")
    assert runner.listen_overflows(types.SimpleNamespace(on=there)) == 4242
    assert there.commands == [["cat", "/proc/net/netstat"]]
    assert runner.listen_overflows(types.SimpleNamespace(on=_ServerHost(error=LabError("ssh srv: refused")))) is None
    assert runner.listen_overflows(types.SimpleNamespace(on=_ServerHost("", returncode=1))) is None
    # A server here: this machine's own counter, read by the LocalHost the server runs on.
    here = types.SimpleNamespace(on=LocalHost())
    assert runner.listen_overflows(here) is not None
    assert abs(runner.listen_overflows(here) - tcp_counter("ListenOverflows")) < 1000


def test_capacity_comes_from_a_number_a_list_or_results_json(tmp_path):
    assert soak_config.parse_capacity("150", ("a", "b")) == {"a": 150, "b": 150}
    assert soak_config.parse_capacity("a=100,b=2.5e3", ("a", "b")) == {"a": 100, "b": 2500}
    bench = {"points": [{"mode": "a", "concurrency": 100, "load": {"ok_rps": 90}, "sleep_min_ms": 100, "sleep_max_ms": 100},
                        {"mode": "a", "concurrency": 1000, "load": {"ok_rps": 120}, "sleep_min_ms": 100, "sleep_max_ms": 100},
                        {"mode": "a", "load": {"ok_rps": 9000}, "sleep_min_ms": 1, "sleep_max_ms": 1},
                        {"mode": "b", "load": None, "sleep_min_ms": 100, "sleep_max_ms": 100}]}
    (tmp_path / "bench.json").write_text(json.dumps(bench))
    with pytest.raises(UsageError, match="no rate for b"):
        soak_config.parse_capacity(str(tmp_path / "bench.json"), ("a", "b"))
    assert soak_config.parse_capacity(str(tmp_path / "bench.json"), ("a",), sleep_ms=100) == {"a": 120}, "same sleep only"
    # As committed under docs/results/: compressed.
    (tmp_path / "results.json.gz").write_bytes(gzip.compress(json.dumps(bench).encode()))
    assert soak_config.parse_capacity(str(tmp_path / "results.json.gz"), ("a",), sleep_ms=100) == {"a": 120}
    (tmp_path / "broken.json.gz").write_bytes(b"not gzip")
    with pytest.raises(UsageError, match="not a results file"):
        soak_config.parse_capacity(str(tmp_path / "broken.json.gz"), ("a",))
    # The median of a point's repeats, the best point; a target at one heap is named without it.
    repeats = {"points": [{"mode": "v@4g", "target": "v", "heap": "4g", "concurrency": c, "load": {"ok_rps": r},
                           "sleep_min_ms": 100, "sleep_max_ms": 100}
                          for c, r in ((1000, 700), (1000, 900), (1000, 5000), (12000, 800), (12000, 850), (12000, 860))]}
    assert soak_config.capacity_from_results(repeats) == {"v": 900}
    repeats["points"].append(dict(repeats["points"][0], mode="v@1g", heap="1g"))
    assert soak_config.capacity_from_results(repeats) == {}, "several heaps: no single rate"
    capacity_run = {"summary": [{"mode": "a", "capacity_rps": {"median": 800, "min": 760, "max": 820}}]}
    assert soak_config.capacity_from_results(capacity_run) == {"a": 800}
    for bad in ("0", "-5", "fast", "a=x"):
        with pytest.raises(UsageError):
            soak_config.parse_capacity(bad, ("a",))


# A server that answers /api/sleep and dies (exit 3) at its 40th request, as a crash under load would.
DYING_SERVER = textwrap.dedent("""
    import http.server, os, sys
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        count = 0
        def do_GET(self):
            Handler.count += 1
            if Handler.count >= 40:
                os._exit(3)
            self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers()
            self.wfile.write(b"{}")
        def log_message(self, *args):
            pass
    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
""")


class _DyingServer:
    def __init__(self, port, log_path):
        self.base_url = f"http://127.0.0.1:{port}"
        self.log_path = log_path
        self.process = spawn([sys.executable, "-c", DYING_SERVER, str(port)], log_path)
        self.pid = self.process.pid
        deadline = time.monotonic() + 10
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0 and time.monotonic() < deadline:
            time.sleep(0.05)

    def printable_command(self):
        return "python3 -c DYING_SERVER"

    def stop(self):
        stop(self.process)


def test_a_server_that_dies_under_the_load_is_reported_as_crashed(tmp_path):
    executable = ensure_tools(["vegeta"])["vegeta"]
    target = Target("dies", "dies at its 40th request", None, lambda port, jvm_options=(), jvm_defaults=True: _DyingServer(port, tmp_path / "s.log"))
    config = soak_config.SoakConfig(modes=("dies",), capacity={"dies": 25}, load_s=3, idle_s=2, warmup_s=0,
                             setup=ServerSetup(port=19251),
                             repeats=2)
    run = runner.run_soak(config, {"dies": target}, executable, tmp_path / "out", {"command": "test"}, log=lambda m: None)
    assert [record["repeat"] for record in run["targets"]] == [1, 2], "each round on a fresh server"
    for record in run["targets"]:
        assert record["checks"]["no_crash"] is False
        assert record["fresh_request"] is None
        assert record["load"]["errors"]["total"] > 0, "requests after the crash count as failed"
    assert run["schema"] == SOAK_SCHEMA
    assert json.loads((tmp_path / "out" / "soak.json").read_text())["schema"] == SOAK_SCHEMA
    # The load ran through measure.session.drive on the round's own sampler: the tool shows in the
    # samples during the load only, and the record keeps what vegeta was asked and what it sent.
    samples = read_samples_csv(tmp_path / "out" / "raw" / "dies.r1.samples.csv")
    began, ended = checks.load_window(samples)
    assert 2 <= ended - began <= 4 and samples[-1].driver is None
    load = run["targets"][0]["load"]
    assert load["asked_rps"] == 50 and load["seconds"] == 3 and load["sent_rps"] > 0
    assert "vegeta" in load["command"] and "-rate 50/1s" in load["command"]
    [row] = soak_report.summarize(run)
    assert (row["rounds"], row["crashed"], row["fresh_failed"]) == (2, 2, 2)
    assert row["failed"]["min"] > 0
    report = (tmp_path / "out" / "report.md").read_text()
    assert "| dies | 1 | 25 |" in report and "| dies | 2 | 25 |" in report
    assert "| dies | 2 | 50 |" in report, "the summary row: two rounds at 50 req/s"
    assert "**YES**" in report
    assert (tmp_path / "out" / "servers" / "dies.r2.log").is_file()


@pytest.mark.server
def test_a_short_soak_of_a_baseline_survives_and_answers_afterwards(tmp_path):
    out = tmp_path / "soak"
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "soak", "--modes", "jdk-virtual", "--capacity", "100",
                             "--load", "4", "--idle", "4", "--warmup", "1", "--repeats", "1", "--port", "19252", "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert result.returncode == 0, result.stdout
    run = json.loads((out / "soak.json").read_text())
    assert run["state"] == "complete"
    [record] = run["targets"]
    assert record["rate"] == 200
    assert record["checks"]["no_crash"] and record["checks"]["no_oom"] and record["checks"]["load_measured"]
    assert record["checks"]["fresh_request_within_1s"], record["fresh_request"]
    assert record["load"]["ok"] > 0
    assert record["resources"]["threads"]["idle"] > 0
    assert (out / "raw" / "jdk-virtual.r1.samples.csv").is_file() and (out / "report.md").is_file()


@pytest.mark.parametrize("arguments, message", [
    (["--modes", "virtual", "--capacity", "fast"], "a rate in requests per second"),
    (["--modes", "nosuch", "--capacity", "100"], "unknown target(s) nosuch"),
    (["--modes", "virtual,jdk-virtual", "--capacity", "virtual=100"], "no rate for jdk-virtual"),
    (["--modes", "virtual", "--capacity", "100", "--idle", "0"], "--idle must be in 1..3600"),
    (["--modes", "virtual", "--capacity", "100", "--sleep", "0.5"], "--sleep must be whole milliseconds"),
    (["--modes", "virtual", "--capacity", "100", "--factor", "0"], "--factor must be above 0, was 0"),
    (["--modes", "virtual", "--capacity", "100", "--timeout", "0"], "seconds must be in (0, 3600]"),
    (["--modes", "virtual", "--capacity", "100", "--jvm-opt=-Xmx1g\nx"], "must be a single line"),
    (["--modes", "virtual", "--capacity", "100", "--repeats", "0"], "--repeats must be in 1..20"),
    (["--modes", "virtual", "--capacity", "100", "--cpus", "server=1,driver=1"], "server and driver share CPU(s) 1"),
    (["--modes", "virtual", "--capacity", "100", "--max-connections", "0"], "--max-connections must be in 1..15000"),
])
def test_bad_input_gets_the_usage_line_and_exit_2(arguments, message):
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "soak", *arguments], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: ./lab soak")
    assert message in result.stderr
