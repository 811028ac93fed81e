"""./lab capacity for real against the `jdk-virtual` baseline (10 ms sleep), a small search whose
goal (p99 <= 2 s) every window meets on any machine, so the search runs to --max-rate, all of it on
its doubling ramp, where a window counts at once (met-ramp); no window can hold the 1000 young
collections asked for, so each confirmation window is measured again twice as long, up to the 6 s
cap, where it counts (few-gcs); then ./lab report rebuilds the report from the folder and ./lab
compare finds no regression against itself."""
import gzip
import json
import subprocess
import sys

import pytest

from labkit import ROOT
from labkit.measure.limits import NONE_FOUND, limit_words, window_limits


def lab(*arguments, timeout=600):
    return subprocess.run([sys.executable, "-m", "labkit.cli", *arguments], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout)


@pytest.mark.server
def test_small_capacity_search_confirms_and_rebuilds_from_its_folder(tmp_path):
    out = tmp_path / "capacity"
    result = lab("capacity", "--modes", "jdk-virtual", "--sleep", "10", "--slo", "p99=2000ms", "--duration", "3",
                 "--preroll", "1", "--repeats", "2", "--warmup-min", "0", "--warmup-max", "2",
                 "--warmup-iteration", "1", "--warmup-concurrency", "10", "--start-rate", "50", "--max-rate", "100",
                 "--cooldown", "0", "--min-young-gcs", "1000", "--max-window", "6", "--port", "19140",
                 "--no-reference", "--out", str(out))
    assert result.returncode == 0, result.stdout[-3000:]
    assert "step 1] 50 req/s for 3 s" in result.stdout and "ETA" in result.stdout
    assert "the same rate again for 6 s" in result.stdout

    run = json.loads((out / "results.json").read_text())
    assert run["schema"] == "loomlab.capacity/1" and run["state"] == "complete"
    # --no-reference: no host-speed reference (test_host_speed_and_pairs.py measures one for real).
    assert run["config"]["reference"] is None and "host_speed" not in run["env"]
    windows = [(p["phase"], p["rate"], p["capacity"]["window_s"], p["capacity"]["verdict"]) for p in run["points"]]
    assert windows == [("search", 50, 3, "met-ramp"), ("search", 100, 3, "met-ramp")] + [
        ("confirm", 100, window_s, verdict) for _ in range(2) for window_s, verdict in ((3, "rerun-longer"), (6, "met-few-gcs"))]
    assert all(p["capacity"]["passed"] and "few-gcs" not in p["flags"] for p in run["points"][:2])
    confirms = run["points"][2:]
    for short, long in zip(confirms[::2], confirms[1::2]):
        assert not short["capacity"]["passed"] and short["capacity"]["met_goal"] and "few-gcs" not in short["flags"]
        assert long["capacity"]["passed"] and "few-gcs" in long["flags"]
        assert long["extends"]["id"] == short["id"] and long["extends"]["young_gcs"] == short["capacity"]["young_gcs"]
        assert "-w6s-" in long["id"] and "-w" not in short["id"]
    for point in run["points"]:
        load = point["load"]
        assert load["errors"]["total"] == 0 and point["capacity"]["met_goal"]
        assert point["capacity"]["young_gcs"] == point["jfr"]["young_gc_count"] < 1000
        # Every request due in the window was answered, none faster than the server's sleep.
        assert load["ok"] >= point["rate"] * point["capacity"]["window_s"] * 0.98
        assert load["latency_ms"]["p50"] >= 10
        assert point["resources"]["server"]["cpu_cores"] > 0
        # The server's JFR recording was read for the window, and its dump not kept.
        assert point["jfr"]["available"] and point["jfr"]["gc_count"] >= 0, point["jfr"]
        # The JIT's running totals were read across the window: a reading a second, so a 3 s window has
        # at least 2 seconds of them, and a fresh JVM under load compiles something in the first.
        jit = point["jfr"]["jit"]
        assert jit["seconds"] >= 2 and len(jit["per_second"]) >= 2 and jit["compiles"] >= 0 and jit["compile_ms"] >= 0
        # A healthy window, asked what limited it, names nothing but, at most, the JIT (its servers are
        # not warm: each warm-up ends at its 2 s cap): every check had its figures, none other crossed.
        limits = window_limits(point, goal_ms=2000.0, service_ms=10.0, server_cpus=None)
        assert {limits["limit"], *limits["also"]} <= {NONE_FOUND, "jit"}, limit_words(limits)
        assert {"load-tool", "sockets", "gc-young", "cpu", "pinning", "jit"} <= set(limits["checks"]), limits
        assert not (out / "raw" / f"{point['id']}.jfr").exists()
        assert point["full_gc_after"] is True  # every window starts from the same heap
        assert point["client_sockets"]["time_wait_at_start"] is not None
        histogram = gzip.decompress((out / point["files"]["hgrm"]).read_bytes()).decode()
        assert "Percentile" in histogram and "#[Max" in histogram
    row = run["summary"][0]
    assert sum(p["jfr"]["jit"]["compiles"] for p in run["points"]) > 0
    assert row["search"]["found_rps"] == 100 and row["search"]["missed_rps"] is None
    assert row["capacity_rps"]["median"] == 100 and row["capacity_rps"]["n"] == 2
    assert row["at_capacity"]["latency_ms"]["count"] == sum(p["load"]["responses"] for p in confirms
                                                            if p["capacity"]["passed"])
    assert row["rerun_longer"] == 2 and [s["window_s"] for s in row["search"]["steps"]] == [3, 3]
    assert [o["modes"] for o in run["orders"]] == [["jdk-virtual"], ["jdk-virtual"]]
    assert [s["warmup"]["iterations_ok_rps"][0] > 0 for s in run["sessions"]] == [True] * 3
    assert [s["warmup"]["full_gc"] for s in run["sessions"]] == [True] * 3  # the warm-up's garbage collected
    for session in run["sessions"]:
        # Iterations of 1 s cannot settle within the 2 s cap (it takes three); a fresh JVM under its first
        # load compiles methods, counted through jcmd between iterations.
        warmup = session["warmup"]
        assert warmup["ended"] == "cap" and warmup["jit"]["error"] is None, warmup
        assert warmup["iterations"][0]["compiles"] > 0
    # Committed results must not name this machine's paths.
    assert str(tmp_path) not in (out / "results.json").read_text()
    assert str(ROOT) not in (out / "results.json").read_text()
    assert (out / "latency-vs-load.png").stat().st_size > 0 and (out / "percentile-spectrum.png").is_file()

    report = (out / "report.md").read_text()
    (out / "report.md").unlink()
    rebuilt = lab("report", str(out))
    assert rebuilt.returncode == 0, rebuilt.stdout
    assert (out / "report.md").read_text() == report

    same = lab("compare", str(out), str(out))
    assert same.returncode == 0 and "no regression" in same.stdout, same.stdout


def test_bad_capacity_options_get_the_usage_line_and_exit_2():
    for arguments, message in ((["--slo", "p99=fast"], "--slo takes PERCENTILE=LIMIT"),
                               (["--modes", "nope"], "unknown mode 'nope'"),
                               (["--start-rate", "500", "--max-rate", "100"], "is above --max-rate"),
                               (["--slo", "p99=50ms", "--sleep", "100"], "is not above the sleep"),
                               (["--cpus", "server=0,driver=0"], "share CPU"),
                               (["--duration", "15", "--max-window", "10"], "--max-window 10 is below --duration 15"),
                               (["--warmup-jit-rate", "-1"], "--warmup-jit-rate must be in 0..100000")):
        result = lab("capacity", *arguments, timeout=60)
        assert result.returncode == 2, (arguments, result.stdout)
        assert "usage: ./lab capacity" in result.stdout and message in result.stdout, result.stdout
