"""Each limit named when it is the limit, in small ./lab capacity runs on this machine (the server on
one CPU, vegeta on the other): a pool of 8 threads at 1 s sleeps stops at its Little's-law ceiling
(8 req/s), and its first window, twice that, collapses: the next window waits until the server
answers at its idle latency again (labkit/capacity/recovery.py); CPU-bound requests (`/api/work`, a
SHA-256 chain) stop where the server's one CPU is full, and JFR's execution samples name the hashing
as where the time went; requests queued on one monitor (`/api/contend?lock=monitor`, --jfr-locks)
stop at the lock. Each run's capacity, every window that missed and the report name the limit with
its figures (labkit/measure/limits.py)."""
import json
import subprocess
import sys

import pytest

from labkit import ROOT

# The runs: 3 s windows after the default pre-roll (two sleeps, at least 2 s), a bisection to 25 %,
# one round, no host-speed reference (the runs measure limits, not the host or a capacity).
SHORT = ["--duration", "3", "--repeats", "1", "--warmup-min", "0", "--warmup-max", "2", "--warmup-iteration", "1",
         "--cooldown", "0", "--resolution", "25", "--no-reference", "--cpus", "server=1,driver=0"]
# At a few requests a second no window holds a young collection: the rule that re-runs such a window
# longer (up to 120 s) is not what these runs test.
NO_YOUNG_RULE = ["--min-young-gcs", "0"]


def capacity(out, *arguments):
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "capacity", *arguments, *SHORT, "--port", "19480",
                             "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:]
    return result.stdout, json.loads((out / "results.json").read_text()), (out / "report.md").read_text()


def missed(run):
    return [p for p in run["points"] if not p["capacity"]["met_goal"]]


@pytest.mark.server
def test_a_pool_of_8_at_1_s_sleeps_stops_at_its_ceiling_and_recovers_from_its_collapse(tmp_path):
    output, run, report = capacity(tmp_path / "pool", "--modes", "platform-8", "--sleep", "1000",
                                   "--start-rate", "16", "--max-rate", "64", *NO_YOUNG_RULE)
    first = run["points"][0]
    assert first["rate"] == 16 and "collapsed" in first["flags"], first["flags"]
    recovery = first["recovery"]
    assert recovery["outcome"] == "recovered" and recovery["median_ms"] <= recovery["within_ms"], recovery
    # At rest a probe of the sleep endpoint takes the sleep: the idle latency came from the server at rest.
    session = run["sessions"][0]
    assert 1000 <= session["idle"]["ms"] < 1200 and session["idle"]["path"].startswith("/api/sleep?ms=1000")
    assert "collapsed; back at rest after" in output
    # Every window at or above the ceiling missed, and names the pool with its figures.
    for point in missed(run):
        if point["rate"] >= 8:
            limit = point["limit"]
            assert limit["limit"] == "pool", (point["id"], limit)
            assert limit["checks"]["pool"]["evidence"]["ceiling_rps"] == pytest.approx(8, rel=0.01)
    row = run["summary"][0]
    assert 4 <= row["capacity_rps"]["median"] <= 8   # at most the ceiling: arrivals on a schedule can fill it exactly
    assert row["limit"]["rounds"][0]["limit"] == "pool", row["limit"]
    assert "## After a collapse" in report and "back at rest, measured on" in report
    assert "What limited each capacity" in report and "8 threads at a time serve at most 8 req/s" in report


@pytest.mark.server
def test_cpu_bound_requests_stop_where_the_servers_cpu_is_full(tmp_path):
    output, run, _ = capacity(tmp_path / "cpu", "--modes", "virtual", "--request", "GET /api/work?rounds=20000",
                                   "--slo", "p99=100ms", "--start-rate", "25", "--max-rate", "3200", *NO_YOUNG_RULE)
    row = run["summary"][0]
    capacity_rps = row["capacity_rps"]["median"]
    assert capacity_rps and capacity_rps >= 25, row
    # The most overloaded window (the ramp's miss, above every rate that held) had the server's one
    # CPU full: the CPU is its limit.
    over = max(missed(run), key=lambda p: p["rate"])
    assert over["rate"] > capacity_rps, [(p["rate"], p["capacity"]["met_goal"]) for p in run["points"]]
    limit = over["limit"]
    assert limit["limit"] == "cpu", (over["id"], limit)
    # Busy as the rule counts it: the server's cores and the hypervisor's steal from them.
    evidence = limit["checks"]["cpu"]["evidence"]
    assert evidence["server_cores"] + evidence["steal_share"] * evidence["cpus"] >= 0.85, limit["checks"]["cpu"]
    # ...and says where the time went: the SHA-256 chain on top of the window's JFR execution samples.
    profile = over["jfr"]["cpu_profile"]
    # (The JDK's SHA-256 lives in sun.security.provider; with inlining its top frame may be a helper such
    # as ByteArrayAccess.i2bBig rather than SHA2.implCompress.)
    hashing = lambda frame: "SHA" in frame or "Digest" in frame or frame.startswith("sun.security.provider.")
    assert profile["samples"] > 0 and any(hashing(e["frame"]) for e in profile["top"]), profile
    assert "JFR execution samples" in limit["checks"]["cpu"]["words"]
    assert "limit: cpu" in output
    # Its whole stacks too, for the flame graph: the lab's work endpoint under the SHA-256 chain.
    stacks = over["jfr"]["cpu_stacks"]
    assert stacks["samples"] > 0 and stacks["stacks"], stacks
    named = [[stacks["frames"][i] for i in stack] for stack, _ in stacks["stacks"]]
    assert any(any("WorkResource" in f for f in frames) and any(hashing(f) for f in frames)
               for frames in named), named[:3]
    assert f'id="flame-{over["index"]}"' in (tmp_path / "cpu" / "report.html").read_text()


@pytest.mark.server
def test_requests_waiting_for_one_monitor_stop_at_the_lock(tmp_path):
    # One monitor held 20 ms per request lets 50 req/s through whatever the pool: 32 threads are far
    # from their own ceiling, the CPU idles while the waiters block, and JFR records the waits.
    output, run, report = capacity(tmp_path / "locks", "--modes", "platform-32", "--jfr-locks",
                                   "--request", "GET /api/contend?holdMs=20&lock=monitor", "--slo", "p99=100ms",
                                   "--start-rate", "12", "--max-rate", "96", "--warmup-concurrency", "4",
                                   *NO_YOUNG_RULE)
    assert run["config"]["jfr_locks"] is True
    row = run["summary"][0]
    assert row["capacity_rps"]["median"] and row["capacity_rps"]["median"] <= 50, row
    over = max(missed(run), key=lambda p: p["rate"])
    assert over["rate"] > 50, [(p["rate"], p["capacity"]["met_goal"]) for p in run["points"]]
    limit = over["limit"]
    assert limit["limit"] == "locks", (over["id"], limit)
    evidence = limit["checks"]["locks"]["evidence"]
    assert evidence["threads_waiting"] >= 1 and "ContendResource" in evidence["top_site"], evidence
    # The CPU stayed below its line; the pool's ceiling is not known for your requests (no service time
    # of their own), and the lock, named first, is what held them.
    assert not limit["checks"]["cpu"]["crossed"] and not limit["checks"].get("pool", {}).get("crossed"), limit["checks"]
    # Windows well under the lock's ceiling met the goal, their requests waiting for the monitor far less.
    blocked = lambda point: point["jfr"]["locks"]["monitor_enter"]["total_ms"]
    low = [p for p in run["points"] if p["capacity"]["met_goal"] and p["rate"] <= 25]
    assert low and all(blocked(p) < blocked(over) / 4 for p in low), [(p["rate"], blocked(p)) for p in low]
    assert "limit: locks" in output and "threads waiting for a monitor" in report

