"""Each limit named when it is the limit, in small ./lab capacity runs on this machine (the server on
one CPU, vegeta on the other): a pool of 8 threads at 1 s sleeps stops at its Little's-law ceiling
(8 req/s), and its first window, twice that, collapses: the next window waits until the server
answers at its idle latency again (labkit/capacity/recovery.py); CPU-bound requests (`/api/work`, a
SHA-256 chain) stop where the server's one CPU is full, and JFR's execution samples name the hashing
as where the time went; requests queued on one monitor (`/api/contend?lock=monitor`, --jfr-locks)
stop at the lock; virtual threads parked under deep stacks, whose stack chunks every young collection
copies, stop where G1's young pauses outgrow the goal's slack; and vegeta held to a tenth of a core (a
cgroup quota) stops the search itself, which the windows name as the load tool. Each run's capacity,
every window that missed and the report name the limit with its figures (labkit/measure/limits.py)."""
import json
import os
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from labkit import ROOT
from labkit.ground import proc

# The runs: 3 s windows after the default pre-roll (two sleeps, at least 2 s), a bisection to 25 %,
# one round, no host-speed reference (the runs measure limits, not the host or a capacity).
SHORT = ["--duration", "3", "--repeats", "1", "--warmup-min", "0", "--warmup-max", "2", "--warmup-iteration", "1",
         "--cooldown", "0", "--resolution", "25", "--no-reference", "--cpus", "server=1,driver=0"]
# At a few requests a second no window holds a young collection: the rule that re-runs such a window
# longer (up to 120 s) is not what these runs test.
NO_YOUNG_RULE = ["--min-young-gcs", "0"]


def capacity(out, *arguments):
    """A run with SHORT's settings, of which `arguments` may change any (argparse keeps an option's last value)."""
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "capacity", *SHORT, *arguments, "--port", "19480",
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


@pytest.mark.server
def test_young_pauses_longer_than_the_slack_are_named_gc(tmp_path):
    # A parked virtual thread keeps its stack on the heap: each request, asleep for 1 s under 2,000
    # frames, holds its stack chunk there until it wakes, and every young collection copies the chunks
    # of the requests in flight. With a 64 MB young generation, 200 requests a second make G1's young
    # pauses outgrow the goal's 20 ms of slack (48 ms in a run here, with the CPU at 0.71 of its core).
    output, run, report = capacity(tmp_path / "gc", "--modes", "virtual@g1-young64m", "--sleep", "1000",
                                   "--depth", "2000", "--slo", "p99=+20ms", "--start-rate", "50", "--max-rate", "200",
                                   "--warmup-min", "10", "--warmup-max", "30", "--warmup-iteration", "5",
                                   "--warmup-concurrency", "50", *NO_YOUNG_RULE)
    # Where the search and the round's walk stop depends on how long each pause ran (19-48 ms in runs
    # here at 100-200 req/s), the test asks that windows which missed name the pauses, with figures
    # that show it.
    named = [p for p in missed(run) if p["limit"]["limit"] == "gc-young"]
    assert named, [(p["rate"], p["limit"]["limit"], p["jfr"]["gc_pauses"]) for p in missed(run)]
    for point in named:
        check = point["limit"]["checks"]["gc-young"]
        evidence = check["evidence"]
        assert evidence["longest_ms"] > evidence["slack_ms"] == 20, (point["id"], evidence)
        # The pauses alone kept p99's share of the requests past the goal, or made the miss of a tail near it.
        alone = evidence["share_of_window"] >= evidence["threshold_share"]
        assert alone or evidence["made_the_miss"], (point["id"], evidence)
        assert "young pause" in check["words"] and ("they put p99 at the service time plus a pause" in check["words"]
                                                     if alone else "they made the miss" in check["words"])
    assert "limit: gc-young" in output


# cgroup v1's CPU controller, where this project's machines mount it; cgroup v2's unified tree otherwise.
CGROUP_V1_CPU = Path("/sys/fs/cgroup/cpu")
CGROUP_V2 = Path("/sys/fs/cgroup")


@contextmanager
def vegeta_held_to(share_of_a_core):
    """Within the block every vegeta process runs in a cgroup allowed `share_of_a_core` of one CPU, as
    in a container with a CPU quota: a thread moves each one in as it appears (within 20 ms)."""
    period_us = 10_000   # short periods: a throttled vegeta waits at most a period, not 100 ms
    quota_us = max(1_000, int(period_us * share_of_a_core))
    if (CGROUP_V1_CPU / "cpu.cfs_quota_us").exists():
        group = CGROUP_V1_CPU / f"loomlab-test-vegeta-{os.getpid()}"
        group.mkdir()
        (group / "cpu.cfs_period_us").write_text(str(period_us))
        (group / "cpu.cfs_quota_us").write_text(str(quota_us))
    else:
        group = CGROUP_V2 / f"loomlab-test-vegeta-{os.getpid()}"
        group.mkdir()
        (group / "cpu.max").write_text(f"{quota_us} {period_us}")
    stop = threading.Event()

    def move_each_vegeta_in():
        while not stop.wait(0.02):
            for pid in proc.pids():
                stat = proc.read_stat(pid)
                if stat is not None and stat.comm == "vegeta":
                    try:
                        (group / "cgroup.procs").write_text(str(pid))
                    except OSError:
                        pass   # it exited meanwhile
    mover = threading.Thread(target=move_each_vegeta_in, daemon=True)
    mover.start()
    try:
        yield
    finally:
        stop.set()
        mover.join()
        for pid in (group / "cgroup.procs").read_text().split():
            try:
                (group.parent / "cgroup.procs").write_text(pid)
            except OSError:
                pass
        group.rmdir()


@pytest.mark.server
def test_a_load_tool_short_of_cpu_is_named_before_the_server(tmp_path):
    # vegeta held to a tenth of a core (a cgroup quota) runs out of it at a couple of hundred requests
    # a second, where the server answers 10 ms sleeps on a CPU of its own (in a run here: 250 req/s
    # held, 300 and 400 missed, vegeta at 0.10 of a core). A tenth of a core is far below one core's
    # line: the lab reads the quota and measures the load tool against that, and names it before
    # anything the server showed (a window whose vegeta catches up in bursts can find the server's
    # CPU full too).
    with vegeta_held_to(0.1):
        output, run, report = capacity(tmp_path / "tool", "--modes", "virtual", "--sleep", "10",
                                       "--start-rate", "100", "--max-rate", "3200", *NO_YOUNG_RULE)
    row = run["summary"][0]
    assert row["capacity_rps"]["median"] and row["capacity_rps"]["median"] >= 50, row
    over = max(missed(run), key=lambda p: p["rate"])
    assert over["rate"] > row["capacity_rps"]["median"], [(p["rate"], p["capacity"]["met_goal"]) for p in run["points"]]
    limit = over["limit"]
    assert limit["limit"] == "load-tool", (over["id"], limit)
    evidence = limit["checks"]["load-tool"]["evidence"]
    assert "client-bound" in evidence["flags"] and evidence["quota_cores"] == pytest.approx(0.1), evidence
    assert 0.09 <= evidence["cpu_cores"] <= 0.12, evidence
    assert "its cgroup's CPU quota: 0.10 of a core" in limit["checks"]["load-tool"]["words"]
    assert "limit: load-tool" in output
