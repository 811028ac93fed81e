"""./lab capacity without servers: the rate search, the goal's option, the summary from point records
(merged histograms, spreads, ratios with ceilings), the report, compare, and the shared helpers
(steadiness, CPU pinning, portable paths). The rules that judge a window: test_capacity_verdicts.py."""
import argparse
import copy
import json
import random
import subprocess
import sys

import pytest

from labkit import ROOT
from labkit.measure.cpus import CpuPinning, cpu_pinning, server_jvm_options
from labkit.load.tools import new_histogram
from labkit.measure.histograms import encode, median_spread
from labkit.measure.results import portable
from labkit.measure.steadiness import not_steady, settled
from labkit.capacity.goals import LatencyGoal, latency_goal
from labkit.capacity.report.capacity_report import summary_line
from labkit.capacity.report.markdown import report
from labkit.capacity.between import time_wait_sockets
from labkit.capacity.recorder import CapacityRecorder
from labkit.measure.plan import rotated
from labkit.capacity.search import RateSearch
from labkit.capacity.summary import ratios, summarize
from labkit.commands.report import compare, cpu_at_equal_rates, host_difference, host_speed


# -- the search ---------------------------------------------------------------------------------
def run_search(true_capacity, start=250, max_rate=50_000, resolution=0.05):
    search = RateSearch(start_rate=start, max_rate=max_rate, resolution=resolution)
    while (rate := search.next_rate()) is not None:
        search.record(rate, rate <= true_capacity)
    return search


@pytest.mark.parametrize("true_capacity", [260, 999, 3_000, 7_777, 41_000])
def test_search_ends_within_the_resolution_below_the_true_capacity(true_capacity):
    search = run_search(true_capacity)
    assert search.capacity <= true_capacity < search.failed
    assert (search.failed - search.capacity) / search.capacity <= 0.05
    first_miss = next(i for i, (_, met) in enumerate(search.steps) if not met)
    ramp = [rate for rate, _ in search.steps[:first_miss + 1]]
    assert all(b == min(2 * a, 50_000) for a, b in zip(ramp, ramp[1:]))  # doubling (up to --max-rate) to the first miss


def test_search_halves_when_even_the_start_rate_misses():
    search = run_search(90, start=1000)
    assert [rate for rate, _ in search.steps][:4] == [1000, 500, 250, 125]
    assert search.capacity <= 90 < search.failed


def test_search_stops_at_the_max_rate_and_says_it_found_no_limit():
    search = run_search(10**9, start=1000, max_rate=5000)
    assert [rate for rate, _ in search.steps] == [1000, 2000, 4000, 5000]
    assert search.capacity == 5000 and search.reached_max and search.failed is None


def test_search_that_never_meets_the_goal_has_no_capacity():
    search = run_search(0, start=8)
    assert search.capacity is None and search.failed == 1


# -- options ------------------------------------------------------------------------------------
def test_time_wait_sockets_counts_closed_client_connections_to_the_server_port_only(tmp_path):
    table = tmp_path / "tcp"
    header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    rows = ["   0: 0100007F:9C40 0100007F:1F90 06 00000000:00000000 03:00000D2A 00000000     0        0 0",  # TIME_WAIT to 8080
            "   1: 0100007F:9C41 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 1",  # established
            "   2: 0100007F:9C42 0100007F:1F91 06 00000000:00000000 03:00000D2A 00000000     0        0 0"]  # other port
    table.write_text(header + "\n".join(rows) + "\n")
    assert time_wait_sockets(8080, tables=(str(table),)) == 1
    assert time_wait_sockets(8080, tables=(str(tmp_path / "missing"),)) is None


def test_goal_relative_to_the_sleep_and_absolute():
    assert latency_goal("p99=+50ms") == LatencyGoal("p99", 50.0, True)
    assert latency_goal("p99.9=250") == LatencyGoal("p999", 250.0, False)
    from labkit.load.levels import SleepSpec
    assert latency_goal("p99=+50ms").limit_ms(SleepSpec(2000, 2000)) == 2050


@pytest.mark.parametrize("text", ["p99", "p98=100", "p99=-5ms", "p99=0", "p99=fast"])
def test_bad_goal_is_rejected(text):
    with pytest.raises(argparse.ArgumentTypeError):
        latency_goal(text)


def test_cpu_pinning_parses_roles_and_rejects_overlap_and_unknown_cpus():
    assert cpu_pinning("server=1,driver=0", cpu_count=2) == CpuPinning(server=(1,), driver=(0,))
    assert cpu_pinning("server=1-3,driver=0+4", cpu_count=8).to_dict() == {"server": "1,2,3", "driver": "0,4"}
    assert cpu_pinning("driver=0", cpu_count=2).driver_prefix() == ["taskset", "-c", "0"]
    for bad in ("server=0,driver=0", "server=2,driver=0", "client=1", "server=a"):
        with pytest.raises(argparse.ArgumentTypeError):
            cpu_pinning(bad, cpu_count=2)


def test_a_server_pinned_to_one_cpu_keeps_g1_unless_a_collector_was_chosen():
    one, two = CpuPinning(server=(1,), driver=(0,)), CpuPinning(server=(0, 1))
    assert server_jvm_options(["-Xmx1g"], one) == ("-Xmx1g", "-XX:+UseG1GC")
    assert server_jvm_options(["-XX:+UseParallelGC"], one) == ("-XX:+UseParallelGC",)
    assert server_jvm_options(["-Xmx1g"], two) == ("-Xmx1g",)   # two CPUs: ergonomics pick G1 already
    assert server_jvm_options(None, None) == ()


def test_confirmation_rounds_rotate_the_target_order():
    modes = ("a", "b", "c")
    orders = [rotated(modes, r) for r in range(3)]
    assert orders == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert all(sorted(o) == list(modes) for o in orders)


# -- steadiness and spreads ---------------------------------------------------------------------
def test_a_rising_or_jumpy_throughput_is_not_steady_a_flat_one_is():
    assert not not_steady([1000, 1010, 995, 1003, 998, 1001])
    assert not_steady([600, 700, 800, 900, 1000, 1100])
    assert not_steady([1000, 200, 1000, 1000, 1000, 1000])


def test_warmup_settles_when_the_last_three_iterations_agree():
    assert not settled([1000, 2000, 3000])
    assert not settled([3000, 3100])
    assert settled([1000, 2900, 3000, 3050])


def test_spread_gives_median_range_n_and_a_t_interval():
    spread = median_spread([100, 110, 120])
    assert (spread["median"], spread["min"], spread["max"], spread["n"]) == (110, 100, 120, 3)
    low, high = spread["ci95"]
    assert low < 110 < high and high - low == pytest.approx(2 * 4.303 * 10 / 3 ** 0.5, rel=1e-3)
    assert median_spread([5, 7])["ci95"] is None


# -- summary, ratios and report from point records -----------------------------------------------
def histogram_of(values_ms):
    histogram = new_histogram()
    for value in values_ms:
        histogram.record_value(int(value * 1000))
    return encode(histogram)


def point(mode, phase, rate, passed, latencies, repeat=None, max_concurrent=None, cpu=0.5, sleep=100):
    values = sorted(latencies)
    return {
        "index": 0, "id": f"{mode}-{phase}-{rate}", "mode": mode, "driver": "vegeta", "phase": phase, "step": 1,
        "repeat": repeat, "rate": rate, "sleep_min_ms": sleep, "sleep_max_ms": sleep, "max_concurrent": max_concurrent,
        "load": {"ok_rps": rate, "errors": {"total": 0}, "latency_hdr": histogram_of(values),
                 "latency_ms": {"p50": values[len(values) // 2], "p99": values[int(len(values) * 0.99)],
                                "max": values[-1]}},
        "resources": {"server": {"cpu_cores": cpu, "rss_peak_mb": 300, "threads_max": 40}},
        "derived": {"cpu_ms_per_request": cpu / rate * 1000,
                    "ceiling_rps": max_concurrent / (sleep / 1000) if max_concurrent else None},
        "capacity": {"goal_ms": 150, "percentile": "p99", "passed": passed}, "flags": [], "files": {},
    }


def synthetic_run():
    rng = random.Random(7)
    fast = lambda n=2000: [100 + rng.random() * 20 for _ in range(n)]
    points = []
    for mode, capacity, pool in (("virtual", 3000, None), ("platform-4000", 2000, 4000), ("platform-10000", 2800, 10000)):
        points += [point(mode, "search", capacity // 2, True, fast(), max_concurrent=pool),
                   point(mode, "search", capacity, True, fast(), max_concurrent=pool),
                   point(mode, "search", capacity * 2, False, fast() + [900] * 100, max_concurrent=pool)]
        for repeat in (1, 2, 3):
            points.append(point(mode, "confirm", capacity, True, fast(), repeat=repeat, max_concurrent=pool))
    # platform-4000's second round held only a lower rate; one of its windows holds the slowest request.
    next(p for p in points if p["mode"] == "platform-4000" and p["repeat"] == 2)["capacity"]["passed"] = False
    points.append(point("platform-4000", "confirm", 1900, True, fast() + [149], repeat=2, max_concurrent=4000))
    return {"schema": "loomlab.capacity/1", "state": "complete", "started": "t0", "finished": "t1", "wall_s": 60,
            "config": {"name": "t", "modes": ["virtual", "platform-4000", "platform-10000"], "repeats": 3,
                       "sleeps": [{"sleep_min_ms": 100, "sleep_max_ms": 100, "goal_ms": 150, "timeout_s": 5}],
                       "goal": {"percentile": "p99"}, "goal_text": "p99 <= sleep + 50 ms", "duration_s": 10,
                       "preroll_s": 2, "cooldown_s": 3, "warmup_iteration_s": 5, "warmup_concurrency": 1000,
                       "warmup_max_s": 180, "start_rate": 250, "resolution": 0.05, "max_rate": 50000, "cpus": None},
            "env": {"command": "./lab capacity", "host": {"cpu_model": "x", "cpus": 2, "memory_gb": 24, "os": "d",
                                                          "kernel": "k", "loadavg_at_start": [0, 0, 0]},
                    "jdk": {"vendor": "v", "runtime_version": "25", "version": "25"}, "tools": {"vegeta": {"version": "v12"}},
                    "git": {"commit": "abc", "dirty": False}},
            "orders": [{"sleep_min_ms": 100, "sleep_max_ms": 100, "repeat": 1, "modes": ["virtual"]}],
            "sessions": [], "points": points}


def test_summary_takes_capacity_from_the_confirmations_with_spread_and_merges_histograms():
    run = synthetic_run()
    rows = {r["mode"]: r for r in summarize(run)}
    virtual, p4000 = rows["virtual"], rows["platform-4000"]
    assert virtual["search"]["found_rps"] == 3000 and virtual["search"]["missed_rps"] == 6000
    assert virtual["capacity_rps"]["median"] == 3000 and virtual["capacity_rps"]["n"] == 3
    assert p4000["capacity_rps"]["min"] == 1900 and p4000["confirm"]["held_at_found"] == 2
    # The max at capacity is the slowest request of any held window (149 ms), not an average of maxima.
    assert p4000["at_capacity"]["latency_ms"]["max"] == pytest.approx(149, abs=0.2)
    assert p4000["at_capacity"]["latency_ms"]["count"] == 3 * 2000 + 1
    assert virtual["ceiling_rps"] is None and p4000["ceiling_rps"] == 40000


def test_ratios_mark_different_ceilings_and_the_report_compares_like_for_like():
    run = synthetic_run()
    run["summary"] = summarize(run)
    table = ratios(run["summary"])[(100, 100)]
    assert table[("virtual", "platform-10000")]["ratio"] == pytest.approx(3000 / 2800)
    assert not table[("virtual", "platform-4000")]["same_ceiling"]
    # 3,000 req/s is far below platform-4000's 40,000: different ceilings, but neither pool ran short
    # of threads, so the ratio is not marked.
    assert not table[("virtual", "platform-4000")]["ceiling_in_reach"]
    text = report(run)
    assert "†" not in text.split("capacity ratios (row ÷ column)")[1].split("† the two")[0]
    assert "same ceiling: no other target" in text
    # At a 2 s sleep platform-4000's ceiling is 2,000 req/s: within reach, the ratio is marked.
    for row in run["summary"]:
        if row["ceiling_rps"]:
            row["ceiling_rps"] = row["max_concurrent"] / 2.0
    assert ratios(run["summary"])[(100, 100)][("virtual", "platform-4000")]["ceiling_in_reach"]
    marked = report(run).split("capacity ratios (row ÷ column)")[1].split("† the two")[0]
    assert "×" in marked and " †" in marked
    assert "3,000 [3,000–3,000] n=3" in text


def test_a_round_that_held_no_rate_counts_as_below_its_lowest_try_not_as_missing():
    run = synthetic_run()
    # virtual's third round misses at 3,000 and at both retries below: its capacity is below 2,707.
    third = [p for p in run["points"] if p["mode"] == "virtual" and p["repeat"] == 3]
    third[0]["capacity"]["passed"] = False
    fast = [100.0] * 2000
    for rate in (2850, 2707):
        run["points"].append(point("virtual", "confirm", rate, False, fast, repeat=3))
    rows = {r["mode"]: r for r in summarize(run)}
    virtual = rows["virtual"]["capacity_rps"]
    # Left out, the round would leave a median of 3,000 from two rounds; counted, it is one of three.
    assert (virtual["median"], virtual["n"], virtual["censored"]) == (3000, 3, 1)
    assert virtual["min"] == 2707 and virtual["min_below"] and not virtual["median_below"]
    assert virtual["ci95"] is None and rows["virtual"]["confirm"]["none_held_below"] == [2707]
    # With a second such round the median itself is below a bound, and so is every ratio over it.
    second = next(p for p in run["points"] if p["mode"] == "virtual" and p["repeat"] == 2)
    second["capacity"]["passed"] = False
    rows = summarize(run)
    virtual = next(r for r in rows if r["mode"] == "virtual")
    assert virtual["capacity_rps"]["median"] == 3000 and virtual["capacity_rps"]["median_below"]
    table = ratios(rows)[(100, 100)]
    assert table[("virtual", "platform-10000")]["bound"] == "at most"
    assert table[("platform-10000", "virtual")]["bound"] == "at least"
    assert table[("platform-4000", "platform-10000")]["bound"] is None
    run["summary"] = rows
    text = report(run)
    assert "<3,000 [<2,707–3,000] n=3 (2 of 3 rounds held no rate" in text
    assert "≤1.07× [<0.97–1.07]" in text and "≥0.93× [0.93–>1.03]" in text


def test_console_summary_of_a_target_that_held_no_rate_shows_dashes_not_nan():
    run = synthetic_run()
    for p in run["points"]:
        if p["mode"] == "virtual" and p["phase"] == "confirm":
            p["capacity"]["passed"] = False
    rows = {r["mode"]: r for r in summarize(run)}
    line = summary_line(rows["virtual"])
    assert line.startswith("virtual ") and "capacity <3,000 [" in line and "(3 of 3 rounds held no rate" in line
    assert "p99 – ms" in line and "CPU/req – ms" in line and "nan" not in line
    held = summary_line(rows["platform-10000"])
    assert "p99 1" in held and "CPU/req 0.179 [" in held


def test_compare_flags_a_capacity_drop_beyond_the_threshold_only():
    run_a = synthetic_run()
    run_b = copy.deepcopy(run_a)
    for p in run_b["points"]:
        if p["mode"] == "virtual":
            p["rate"] = int(p["rate"] * 0.9)
    regressions = {(row.key[0], row.name) for row in compare(run_a, run_b, 0.05) if row.regression}
    assert ("virtual", "capacity req/s") in regressions
    assert not any(mode == "platform-4000" for mode, _ in regressions)
    assert not any(row.regression for row in compare(run_a, run_b, 0.15)
                   if row.key[0] == "virtual" and row.name == "capacity req/s")


def _virtual_capacity(rows):
    return next(row for row in rows if row.key[0] == "virtual" and row.name == "capacity req/s")


def _virtual_rounds(run, scale=1.0, failed=()):
    run = copy.deepcopy(run)
    for p in run["points"]:
        if p["mode"] == "virtual":
            p["rate"] = int(p["rate"] * scale)
            if p["repeat"] in failed:
                p["capacity"]["passed"] = False
    return run


def test_compare_counts_a_drop_to_a_bound_but_only_calls_a_drop_from_a_bound_possible():
    held = synthetic_run()
    # Two of virtual's three rounds hold no rate: its median is "below the lowest rate tried".
    to_bound = _virtual_capacity(compare(held, _virtual_rounds(held, 0.5, failed=(1, 2)), 0.05))
    assert to_bound.b.below and to_bound.change == pytest.approx(-0.5)
    assert to_bound.regression and not to_bound.possible
    from_bound = _virtual_capacity(compare(_virtual_rounds(held, failed=(1, 2)), _virtual_rounds(held, 0.5), 0.05))
    assert from_bound.a.below and from_bound.change == pytest.approx(-0.5)
    assert from_bound.possible and not from_bound.regression
    assert "<3,000.000 ->" in from_bound.line(20) and "possible regression" in from_bound.line(20)


def test_compare_warns_when_the_runs_cpus_differ_even_under_one_model_name():
    run_a = synthetic_run()
    run_b = copy.deepcopy(run_a)
    assert host_difference(run_a, run_b) is None
    zen4 = {"vendor": "AuthenticAMD", "family": "25", "model": "17", "stepping": "1", "mhz": "2400.0"}
    run_a["env"]["host"].update(cpu_model="AMD EPYC", cpu_id=zen4)
    run_b["env"]["host"].update(cpu_model="AMD EPYC", cpu_id=dict(zen4, mhz="2600.0"))
    assert host_difference(run_a, run_b) is None  # the clock a hypervisor reports varies
    run_b["env"]["host"]["cpu_id"].update(family="26", model="2")
    warning = host_difference(run_a, run_b)
    assert "family 25 model 17" in warning and "family 26 model 2" in warning
    del run_a["env"]["host"]["cpu_id"]
    assert host_difference(run_a, run_b) is None  # a run from before the identity: the name alone
    run_a["env"]["host"]["cpu_model"] = "Intel(R) Xeon(R) Processor"
    assert "A Intel(R) Xeon(R) Processor, B AMD EPYC" in host_difference(run_a, run_b)


def test_compare_measures_the_hosts_speed_on_windows_both_runs_passed_at_the_same_rate():
    run_a = synthetic_run()
    run_b = copy.deepcopy(run_a)
    assert cpu_at_equal_rates(run_a, run_b)["median"] == pytest.approx(1.0)
    assert "+0 % CPU per request" in host_speed(run_a, run_b) and "another speed" not in host_speed(run_a, run_b)
    for p in run_b["points"]:
        p["derived"]["cpu_ms_per_request"] *= 0.8
    # A window that missed the goal in B ran saturated: its cost says nothing about the host.
    missed = next(p for p in run_b["points"] if p["mode"] == "virtual" and p["phase"] == "search")
    missed["capacity"]["passed"] = False
    missed["derived"]["cpu_ms_per_request"] *= 10
    speed = cpu_at_equal_rates(run_a, run_b)
    assert speed["median"] == pytest.approx(0.8) and speed["max"] == pytest.approx(0.8)
    passed_in_both = {(p["mode"], p["rate"]) for p in run_b["points"] if p["capacity"]["passed"]} & \
        {(p["mode"], p["rate"]) for p in run_a["points"] if p["capacity"]["passed"]}
    assert speed["n"] == len(passed_in_both)
    assert "-20 % CPU per request" in host_speed(run_a, run_b) and "another speed" in host_speed(run_a, run_b)
    for p in run_b["points"]:
        p["rate"] += 1
    assert cpu_at_equal_rates(run_a, run_b) is None and host_speed(run_a, run_b) is None


def test_compare_into_a_reader_that_went_away_stops_without_a_traceback(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "results.json").write_text(json.dumps(synthetic_run()))
    process = subprocess.Popen([sys.executable, "-m", "labkit.cli", "compare", str(tmp_path / "a"), str(tmp_path / "b")],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # like `| head` that has read enough, before the first line is written
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141 and "Traceback" not in stderr, stderr


def test_portable_makes_folder_and_repository_paths_relative():
    from labkit import ROOT
    record = {"command": f"vegeta attack -targets /r/out/raw/x.targets -output {ROOT}/results/y.bin",
              "files": [f"{ROOT}/app/target/loomlab.war"], "n": 3}
    assert portable(record, "/r/out") == {"command": "vegeta attack -targets raw/x.targets -output results/y.bin",
                                          "files": ["app/target/loomlab.war"], "n": 3}


# -- the command line ---------------------------------------------------------------------------
@pytest.mark.parametrize("arguments, message", [
    (["--jvm-opt=-Xmx1g\ndeploy /tmp/x.war"], "argument --jvm-opt: must be a single line"),
    (["--port", "70000"], "--port must be in 1..65535"),
    (["--name", "../x"], "name may hold"),
])
def test_bad_run_option_gets_the_capacity_usage_line_and_exit_2(arguments, message):
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "capacity", *arguments], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: ./lab capacity")
    assert message in result.stderr


# -- the record -----------------------------------------------------------------------------------
class _Config:
    def to_dict(self):
        return {"modes": ["virtual"]}


def test_recorder_keeps_each_point_on_disk_with_paths_inside_the_results_folder_made_relative(tmp_path):
    recorder = CapacityRecorder(tmp_path, _Config(), {"java": {"home": str(tmp_path / "jdk")}})
    recorder.add_point({"mode": "virtual", "log": str(tmp_path / "raw" / "virtual.log")})
    recorder.add_point({"mode": "virtual", "log": str(tmp_path / "raw" / "virtual-2.log")})
    assert json.loads((tmp_path / "env.json").read_text()) == {"java": {"home": "jdk"}}
    lines = [json.loads(line) for line in (tmp_path / "points.jsonl").read_text().splitlines()]
    assert [p["log"] for p in lines] == ["raw/virtual.log", "raw/virtual-2.log"]
    assert recorder.points == lines
    assert list(recorder.run) == ["schema", "state", "started", "config", "env", "orders", "sessions", "points"]
    assert recorder.run["schema"] == "loomlab.capacity/1" and (tmp_path / "raw").is_dir()


def test_a_bounded_pool_serving_your_requests_has_no_ceiling_it_cannot_know():
    """Your requests (--request) have no service time the lab set: a bounded pool's Little's-law
    ceiling is unknown, not a division by zero (README's own capacity line crashed on it)."""
    from labkit.capacity.points import derived
    record = {"max_concurrent": 4000, "service_time_s": 0.0, "load": {"ok_rps": 50.0},
              "resources": {"server": {"cpu_cores": 0.1}}}
    assert derived(record) == {"cpu_ms_per_request": 2.0, "ceiling_rps": None}
    assert derived({**record, "service_time_s": 0.1})["ceiling_rps"] == 40000.0
