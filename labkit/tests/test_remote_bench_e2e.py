"""./lab bench --server-host on the namespace cluster: the server runs in the srv namespace, and what the
report says about it was measured there — the /proc samples come from srv's /proc over ssh (the
feed), with the JVM's pid there, and JFR's recording was made there and copied back. A 1 s SIGSTOP
of the remote server shows in the window's p99, as test_open_model.py shows it locally.
Root only (network namespaces); CI runs as root."""
import csv
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

pytestmark = [pytest.mark.server,
              pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root (CI runs as root)")]

PORT = 18091


@pytest.fixture(scope="module")
def srv():
    made = cluster.up(2, log=lambda message: None)
    yield made[0]
    cluster.down(log=lambda message: None)


def jvm_in(netns):
    for pid in cluster.namespace_pids(netns):
        try:
            args = (open(f"/proc/{pid}/cmdline", "rb").read()).decode(errors="replace")
        except OSError:
            continue
        if "payara-micro" in args and "java" in args.split("\0")[0]:
            return pid
    return None


def test_bench_on_the_server_host_measures_the_remote_jvm_and_sees_its_pause(srv, tmp_path):
    ensure_built(log=lambda message: None)
    out = tmp_path / "run"
    command = [sys.executable, "-m", "labkit.cli", "bench", "--server-host", "srv", "--port", str(PORT),
               "--modes", "virtual", "--driver", "vegeta", "--rate", "200", "--concurrency", "50",
               "--sleep", "20", "--duration", "8", "--warmup", "3", "--repeats", "1", "--out", str(out)]
    lab = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    paused = {}

    def pause_once():
        # Four seconds into the measured window (the warm-up is 3 s; the server boots first).
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not (out / "raw").is_dir():
            time.sleep(0.2)
        while time.monotonic() < deadline and not list((out / "raw").glob("*warmup*")):
            time.sleep(0.2)
        time.sleep(3 + 4)
        pid = jvm_in(srv.netns)
        if pid:
            os.kill(pid, signal.SIGSTOP)
            time.sleep(1.0)
            os.kill(pid, signal.SIGCONT)
            paused["pid"] = pid
    pauser = threading.Thread(target=pause_once, daemon=True)
    pauser.start()
    output, _ = lab.communicate(timeout=400)
    pauser.join(timeout=5)
    assert lab.returncode == 0, output
    run = json.loads((out / "results.json").read_text())
    assert run["env"]["server_host"]["address"] == srv.address and run["env"]["server_host"]["java_version"]
    point = run["points"][0]
    session = run["sessions"][0]
    assert session["pid"] == paused.get("pid"), "the pid the lab recorded is the JVM inside srv"
    server = point["resources"]["server"]
    assert server["threads_max"] > 10 and server["rss_peak_mb"] > 100 and server["cpu_s"] > 0
    samples = list(csv.DictReader(open(out / "raw" / f"{point['id']}.samples.csv")))
    assert len(samples) >= 10 and all(row["server_threads"] for row in samples)
    # JFR recorded inside srv and came back: the window's GC figures are read from the copy here.
    assert point["jfr"]["available"] is True, point["jfr"]
    # The 1 s stop of the remote JVM is in the latency the load tool measured from each request's
    # intended start (vegeta, open model).
    assert point["load"]["latency_ms"]["max"] >= 900, point["load"]["latency_ms"]
    assert "Server host" in (out / "report.md").read_text()
    assert jvm_in(srv.netns) is None, "the server outlived the bench"
