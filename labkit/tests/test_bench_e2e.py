"""./lab bench for real: Payara Micro in the `virtual` mode on 127.0.0.1, a few seconds of load.

Needs the built WAR (./lab test builds it first) and the three load tools (bombardier is built
by the bench itself when Go is there; ab and wrk: apt-get install apache2-utils wrk).
"""
import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from labkit import ROOT
from labkit.servers.payara_micro import lab_jvm_options

pytestmark = pytest.mark.server


def bench_command(out, port, *extra):
    return [sys.executable, "-m", "labkit.cli", "bench", "--modes", "virtual", "--sleep", "50", "--warmup", "1",
            "--repeats", "1", "--port", str(port), "--out", str(out), *extra]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for every purpose but the process table.
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_short_bench_under_three_tools_writes_plausible_results(tmp_path):
    out = tmp_path / "run"
    result = subprocess.run(bench_command(out, 18110, "--concurrency", "20", "--duration", "3",
                                          "--driver", "bombardier,ab,wrk"),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=400)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "[3/3] virtual c=20 r1" in result.stdout and f"report: {out / 'report.md'}" in result.stdout
    assert "req/s median [min-max]" in result.stdout  # the summary table

    rows = list(csv.DictReader(open(out / "results.csv")))
    assert [r["driver"] for r in rows] == ["bombardier", "ab", "wrk"]
    for row in rows:
        assert float(row["ok_rps"]) > 0, row
        assert 0 < float(row["efficiency"]) <= 1.1, row
        assert float(row["server_rss_peak_mb"]) > 0 and int(row["server_threads_max"]) > 0
        assert float(row["server_cpu_s"]) > 0 and float(row["requests_per_cpu_s"]) > 0
        # No answer is faster than the server's 50 ms sleep.
        assert float(row["lat_p50_ms"]) >= 50
        assert row["err_total"] == "0" and row["failure"] == ""

    run = json.loads((out / "results.json").read_text())
    assert run["state"] == "complete" and len(run["points"]) == run["planned_points"] == 3
    point = run["points"][0]
    assert point["server"]["request_virtual"] is True
    assert point["jfr"]["available"] and point["jfr"]["heap_used_max_mb"] > 0
    # The server ran with the lab's JVM defaults, and the recorded command says so.
    assert run["config"]["jvm_defaults"] is True
    assert all(option in run["sessions"][0]["command"] for option in lab_jvm_options())
    assert point["resources"]["driver"]["cpu_s"] > 0
    assert run["summary"][0]["metrics"]["ok_rps"]["n"] == 1
    env = json.loads((out / "env.json").read_text())
    assert env["jdk"]["feature"] >= 21 and env["payara_micro"] and set(env["tools"]) == {"bombardier", "ab", "wrk"}

    report = (out / "report.md").read_text()
    assert "Complete: 3 of 3 points measured." in report and "| virtual | bombardier | 20 | 50 |" in report
    for name in ("throughput.png", "latency.png", "memory-threads.png", "cpu.png"):
        assert (out / name).stat().st_size > 1000
    assert (out / "raw" / f"{point['id']}.out").is_file() and (out / "servers").iterdir()
    assert not alive(point["server"]["pid"])


def test_steady_window_inside_one_ab_run_counts_the_requests_that_started_in_it(tmp_path):
    # The plain-JDK virtual-thread server: the cheapest target to start; 20 connections, 100 ms sleep.
    out, concurrency, sleep_ms, duration_s = tmp_path / "run", 20, 100, 3
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "bench", "--modes", "jdk-virtual", "--driver", "ab",
                             "--steady", "--concurrency", str(concurrency), "--sleep", str(sleep_ms), "--warmup", "2",
                             "--duration", str(duration_s), "--timeout", "2", "--repeats", "1", "--port", "18113",
                             "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "in one ab run (steady)" in result.stdout

    run = json.loads((out / "results.json").read_text())
    assert run["state"] == "complete" and run["config"]["steady"] is True
    point = run["points"][0]
    window, load = point["window"], point["load"]
    assert window["kind"] == "steady" and window["wall_s"] == duration_s and window["drain_s"] == 2
    assert point["warmup"]["same_run"] and point["warmup"]["seconds"] >= 2
    assert point["failure"] is None and load["complete"] and "steady window" in load["latency_source"]
    # Little's law: 20 connections, each request at least 100 ms, so at most 200 req/s; on a shared
    # 2-core machine well above half of it.
    ceiling = concurrency / (sleep_ms / 1000) * duration_s
    assert 0.5 * ceiling <= load["ok"] <= 1.05 * ceiling + concurrency, load
    assert load["duration_s"] == duration_s

    start, end = window["epoch_s"]
    lines = [l.split("\t") for l in (out / "raw" / f"{point['id']}.ab-requests.tsv").read_text().splitlines()[1:]]
    in_window = [int(c[4]) for c in lines if start <= int(c[1]) < end]
    assert len(in_window) == load["responses"] and len(lines) > len(in_window)  # warm-up and drain left out
    assert min(in_window) >= sleep_ms

    resources = point["resources"]
    assert resources["window_t_s"][1] - resources["window_t_s"][0] == pytest.approx(duration_s)
    samples_rows = len((out / "raw" / f"{point['id']}.samples.csv").read_text().splitlines()) - 1
    assert 2 <= resources["samples"] < samples_rows and resources["server"]["cpu_s"] > 0
    assert "steady" in (out / "report.md").read_text()

    assert not alive(point["server"]["pid"])
    leftovers = subprocess.run(["pgrep", "-f", "127.0.0.1:18113"], stdout=subprocess.PIPE, text=True).stdout
    assert leftovers.strip() == "", "a load tool or server outlived the bench"


def test_ctrl_c_stops_everything_and_reports_the_finished_points(tmp_path):
    out = tmp_path / "run"
    process = subprocess.Popen(bench_command(out, 18111, "--concurrency", "10,20", "--duration", "4"),
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 300
        while not (out / "points.jsonl").is_file() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.2)
        assert (out / "points.jsonl").is_file(), "no point finished in time"
        time.sleep(2.5)  # into the second point's measured window
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, output[-3000:]
    assert "interrupted" in output

    run = json.loads((out / "results.json").read_text())
    assert run["state"] == "interrupted" and len(run["points"]) == 1 and run["planned_points"] == 2
    assert "**Interrupted** (Ctrl-C) after 1 of 2 points" in (out / "report.md").read_text()
    assert not alive(run["points"][0]["server"]["pid"])
    drivers = subprocess.run(["pgrep", "-f", "127.0.0.1:18111"], stdout=subprocess.PIPE, text=True).stdout
    assert drivers.strip() == "", "a load tool outlived the bench"


def test_server_that_does_not_start_stops_the_run_with_its_log_tail(tmp_path):
    out = tmp_path / "run"
    result = subprocess.run(bench_command(out, 18112, "--concurrency", "10", "--duration", "1", "--jvm-opt=-Xmx1k"),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    assert result.returncode == 1
    assert "Payara Micro (virtual) exited" in result.stderr
    assert "Too small maximum heap" in result.stderr  # the JVM's own words, from the log tail
    assert "Traceback" not in result.stderr
    run = json.loads((out / "results.json").read_text())
    assert run["state"] == "failed" and run["points"] == [] and "exited" in run["error"]
    assert "Stopped by an error" in (out / "report.md").read_text()
