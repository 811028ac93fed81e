"""--load-hosts on the namespace cluster: the server in srv, vegeta in lg1 and lg2. Each load host sends
its half of the rate, and the merged count is the sum of the hosts' counts; a load host whose vegeta
is killed mid-window flags the point load-host-lost, and what it never sent is not counted as
served. Root only (network namespaces); CI runs as root."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from labkit import ROOT
from labkit.ground.build import ensure_built
from labkit.hosts import cluster
from labkit.load.spread import shares

pytestmark = [pytest.mark.server,
              pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root (CI runs as root)")]

PORT = 18095
RATE = 200
SECONDS = 8


@pytest.fixture(scope="module")
def hosts():
    made = cluster.up(3, log=lambda message: None)
    yield made
    cluster.down(log=lambda message: None)


def test_the_rate_is_split_so_the_shares_add_up():
    assert shares(200, 2) == [100, 100] and shares(7, 3) == [3, 2, 2] and sum(shares(12_345, 7)) == 12_345


def bench(out, extra=()):
    return subprocess.Popen([sys.executable, "-m", "labkit.cli", "bench", "--server-host", "srv", "--load-hosts", "lg1,lg2",
                             "--port", str(PORT), "--modes", "virtual", "--driver", "vegeta", "--rate", str(RATE),
                             "--concurrency", "50", "--sleep", "10", "--duration", str(SECONDS), "--warmup", "2",
                             "--repeats", "1", "--out", str(out), *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def vegeta_in(netns):
    for pid in cluster.namespace_pids(netns):
        try:
            args = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if args and args[0].endswith(b"vegeta") and b"attack" in args:
            return pid
    return None


def test_each_load_host_sends_its_share_and_the_counts_add_up(hosts, tmp_path):
    ensure_built(log=lambda message: None)
    out = tmp_path / "run"
    lab = bench(out)
    output, _ = lab.communicate(timeout=400)
    assert lab.returncode == 0, output
    run = json.loads((out / "results.json").read_text())
    assert [h["host"] for h in run["env"]["load_hosts"]] == ["lg1", "lg2"]
    assert all(abs(h["clock_offset_ms"]) < 50 for h in run["env"]["load_hosts"])
    point = run["points"][0]
    per_host = point["load_hosts"]
    assert [h["rate"] for h in per_host] == [RATE // 2, RATE // 2]
    for host in per_host:
        assert abs(host["requests"] - RATE // 2 * SECONDS) <= RATE // 2, host  # its half, within a second's worth
        assert host["cpu_s"] is not None and host["cpu_s"] > 0
    load = point["load"]
    assert load["responses"] + load["errors"]["total"] == sum(h["requests"] for h in per_host)
    assert load["ok"] == sum(h["ok"] for h in per_host)
    assert "load-host-lost" not in point["flags"]


def test_a_load_host_killed_mid_window_flags_the_point_and_counts_nothing_it_did_not_send(hosts, tmp_path):
    ensure_built(log=lambda message: None)
    out = tmp_path / "run"
    lab = bench(out)
    killed = {}

    def kill_lg2_when_measuring():
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            # The measured window's vegeta (not the warm-up's): its results file names the point.
            pid = vegeta_in("loomlab-lg2")
            if pid and b".warmup" not in open(f"/proc/{pid}/cmdline", "rb").read():
                time.sleep(SECONDS / 2)
                os.kill(pid, signal.SIGKILL)
                killed["pid"] = pid
                return
            time.sleep(0.1)
    killer = threading.Thread(target=kill_lg2_when_measuring, daemon=True)
    killer.start()
    output, _ = lab.communicate(timeout=400)
    killer.join(timeout=5)
    assert killed, "lg2's vegeta was never seen measuring"
    run = json.loads((out / "results.json").read_text())
    point = run["points"][0]
    assert "load-host-lost" in point["flags"] and "incomplete" in point["flags"], point["flags"]
    lost = [h for h in point["load_hosts"] if h.get("lost")]
    assert [h["host"] for h in lost] == ["lg2"]
    # Served: at most what the two hosts' results hold; lg2 stopped about halfway, so well below the rate.
    assert point["load"]["ok"] <= sum(h.get("ok", 0) for h in point["load_hosts"])
    assert point["load"]["ok"] < 0.85 * RATE * SECONDS


def test_a_window_moves_with_load_hosts_that_start_later_than_it_was_planned_for():
    """Copying vegeta and its targets to each host is an ssh connection each: on a loaded machine the
    agreed start came seconds after the window had begun, and every window missed as incomplete. The
    window moves by the delay, and each host's vegeta runs long enough to cover it."""
    from pathlib import Path

    from labkit.load.spread import LATE_MARGIN_S, SpreadRun
    from labkit.load.tools import DRIVERS, LoadSpec
    spec = LoadSpec(url="http://198.18.0.2:8080/", concurrency=1, duration_s=4, rate=40, timeout_s=5,
                    window=(100, 103), side_file_prefix=Path("/tmp/x"))
    run = SpreadRun(DRIVERS["vegeta"], "vegeta", spec, ["lg1", "lg2"], [])
    assert [s.duration_s for s in run.specs] == [4 + LATE_MARGIN_S] * 2 and [s.rate for s in run.specs] == [20, 20]
    run._move_window(98.5)  # planned for 99 (the window's end less the run's length): on time
    assert run.spec.window == (100, 103) and run.shift_s == 0
    run._move_window(101.5)
    assert run.spec.window == (102.5, 105.5) and all(s.window == (102.5, 105.5) for s in run.specs)
    # Each host's run still covers the moved window: it starts at 101.5 and runs 5 s.
    assert 101.5 + run.specs[0].duration_s >= run.spec.window[1]
