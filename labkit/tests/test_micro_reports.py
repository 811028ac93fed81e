"""The micro reports: JMH result tables, the stack profiler's text, publishing to docs/results, /proc readings."""
import os

import pytest

from labkit.cli import main
from labkit.micro import jmh, report, tables
from labkit.ground import proc


def jmh_record(benchmark, mode, score, error, unit, params, secondary=None):
    return {"benchmark": benchmark, "mode": mode, "params": params,
            "primaryMetric": {"score": score, "scoreError": error, "scoreUnit": unit},
            "secondaryMetrics": secondary or {}}


def test_ring_table_gives_time_per_ring_and_per_pass():
    results = [jmh_record("dev.loomlab.micro.ring.RingBenchmark.virtualThreads", "avgt", 250.0, 12.5, "ms/op",
                          {"workers": "503", "passes": "1000000"})]
    table = tables.ring_table(results)
    # 250 ms for a million hand-offs: 250 ns each.
    assert "| virtual threads | 503 | 1,000,000 | 250 ± 12 | 250 |" in table


def test_io_cpu_table_puts_both_modes_of_a_configuration_on_one_row():
    params = {"task": "io", "concurrency": "1000", "delayMs": "10", "threads": "virtual"}
    results = [jmh_record("x.IoVsCpuBenchmark.tasks", "thrpt", 40.0, "NaN", "ops/s", params),
               jmh_record("x.IoVsCpuBenchmark.tasks", "avgt", 0.025, 0.001, "s/op", params)]
    table = tables.io_cpu_table(results)
    assert "| io | 1000 | 10 | virtual | 40.0 | 25.0 ± 1.0 |" in table


def test_secondary_table_lists_profiler_metrics_without_gc_churn():
    secondary = {"threads.started": {"score": 3000.0, "scoreUnit": "threads"},
                 "gc.churn.G1_Eden_Space": {"score": 1.0, "scoreUnit": "MB/sec"}}
    results = [jmh_record("x.IoVsCpuBenchmark.tasks", "thrpt", 1.0, 0.1, "ops/s",
                          {"task": "cpu", "threads": "platform"}, secondary)]
    table = tables.secondary_table(results)
    assert "threads.started (threads)" in table and "3,000" in table and "churn" not in table


def test_stack_sections_are_found_in_jmh_output():
    log = "\n".join([
        "# Benchmark: dev.loomlab.micro.jmh.IoVsCpuBenchmark.tasks",
        "# Benchmark mode: Throughput, ops/time",
        "# Parameters: (concurrency = 1000, task = io, threads = virtual)",
        "Iteration   1: 2.0 ops/s",
        'Secondary result "dev.loomlab.micro.jmh.IoVsCpuBenchmark.tasks:stack":',
        "Stack profiler:",
        " 60.0%         WAITING",
        "",
        "# Run complete. Total time: 00:00:10",
    ])
    [(benchmark, mode, params, text)] = jmh.stack_sections(log)
    assert benchmark == "IoVsCpuBenchmark.tasks"
    assert mode.startswith("Throughput") and "threads = virtual" in params
    assert text.splitlines() == ["Stack profiler:", " 60.0%         WAITING"]


def test_publish_replaces_its_own_section_and_keeps_the_reading(tmp_path):
    picture = tmp_path / "chart.png"
    picture.write_bytes(b"png")
    docs = tmp_path / "docs"
    path = report.publish("micro-x", "Title", "run-a", "first numbers", files=[(picture, "micro-x.png")], docs_dir=docs)
    text = path.read_text()
    assert text.startswith("# Title") and "first numbers" in text and "## Reading" in text
    path.write_text(text.replace("_To be written after looking at the numbers above._", "My reading."))

    report.publish("micro-x", "Title", "run-a", "second numbers", docs_dir=docs)
    report.publish("micro-x", "Title", "run-b", "other run", docs_dir=docs)

    text = path.read_text()
    assert "second numbers" in text and "first numbers" not in text
    assert "My reading." in text
    assert text.index("second numbers") < text.index("other run") < text.index("## Reading")
    assert (docs / "micro-x.png").read_bytes() == b"png"


def test_proc_reads_cpu_and_peak_memory_of_a_live_process():
    assert proc.cpu_seconds(os.getpid()) > 0
    assert proc.peak_rss_kb(os.getpid()) > 1000
    assert proc.cpu_seconds(2 ** 22 + 1) is None  # above pid_max: no such process
    watch = proc.Watch(os.getpid())
    watch.sample()
    assert watch.cpu_s > 0 and watch.peak_rss_kb > 1000


@pytest.mark.parametrize("argv", [
    ["micro", "echo", "--sweep", "100,lots"],
    ["micro", "echo", "--sweep", "999999"],
    ["micro", "echo", "--clients", "fibers"],
    ["micro", "jmh", "--prof", "nonsense"],
    ["micro", "jmh", "--param", "concurrency"],
])
def test_bad_input_is_a_one_line_usage_error(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("lab micro:") and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [
    ["micro", "ring", "--workers", "0"],
    ["micro", "echo", "--duration", "soon"],
    ["micro", "echo", "--latency-ms", "-5"],
])
def test_out_of_range_options_are_argparse_errors(argv):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2


def test_cpu_meter_separates_the_runs_own_cpu_from_the_machines():
    import subprocess
    import sys

    from labkit.micro import common

    meter = common.CpuMeter()
    subprocess.run([sys.executable, "-c", "sum(i * i for i in range(3_000_000))"], check=True)
    reading = meter.read()

    assert reading["own_cores"] > 0  # the child's CPU counts as this run's
    assert reading["busy_cores"] >= 0 and reading["other_cores"] >= 0
    lines = common.machine_lines(common.describe_machine(sys.prefix), dict(reading, other_cores=1.5))
    assert any("The machine was shared" in line for line in lines)


def _write_echo_folder(folder, machine):
    """The files an echo run leaves for `--from`: run.json and one CSV row."""
    import csv
    import json

    from labkit.micro import echo
    settings = {"connections": [100], "clients": ["virtual"], "duration_s": 5.0, "latency_ms": 1000,
                "message_size": 32, "port": 18320, "port_span": 20, "listen_ports": 4, "client_nofile": None}
    (folder / "run.json").write_text(json.dumps({"command": "./lab micro echo --quick", "settings": settings,
                                                 "machine": machine, "cpu": None}))
    row = dict.fromkeys(echo.CSV_FIELDS, "")
    row.update(client="virtual", connections=100, status="ok", throughput_per_s=99.5, ideal_per_s=100, unfinished=0,
               cpu_s=1.25, peak_rss_mb=80.5, peak_platform_threads=20, server_cpu_s=0.5, server_peak_rss_mb=60.0)
    with open(folder / "echo-sweep.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=echo.CSV_FIELDS)
        writer.writeheader()
        writer.writerow(row)


def test_an_echo_report_redrawn_from_an_old_run_json_reads_its_machine_as_before(tmp_path, monkeypatch):
    from labkit.micro import chart
    monkeypatch.setattr(chart, "echo_chart", lambda rows, path, title: path)  # no matplotlib here
    old = {"cpu": "Test CPU 3000", "cpus": 7, "memory_gib": 24.0, "os": "Test OS 1", "kernel": "6.1.0-test",
           "jdk": "25.0.1+8-LTS", "ulimit_nofile": 1024, "loadavg_start": [0.5, 0.25, 0.125]}
    new = {"cpu_model": "Test CPU 3000", "cpu_id": None, "cpus": 7, "memory_kib": 25_165_824, "memory_gib": 24.0,
           "os": "Test OS 1", "kernel": "6.1.0-test", "ulimit_nofile": [1024, 4096],
           "loadavg": [0.5, 0.25, 0.125], "python": "3.99.0", "jdk": "25.0.1+8-LTS"}
    reports = []
    for name, machine in (("old", old), ("new", new)):
        folder = tmp_path / name
        folder.mkdir()
        _write_echo_folder(folder, machine)
        assert main(["micro", "echo", "--from", str(folder)]) == 0
        reports.append((folder / "report.md").read_text())
    assert reports[0] == reports[1]
    assert ("- CPU: Test CPU 3000, 7 cores; memory 24.0 GiB\n"
            "- OS: Test OS 1, kernel 6.1.0-test; JDK 25.0.1+8-LTS; ulimit -n 1024\n"
            "- load average (1/5/15 min) before the run: 0.50 / 0.25 / 0.12\n") in reports[0]
