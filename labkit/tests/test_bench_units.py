"""The bench's pieces without servers: options, plan, derived figures, medians, flags, /proc
sampling, JFR event reading, report and charts."""
import argparse
import os
from types import SimpleNamespace

import pytest

from labkit.bench import config as options
from labkit.commands.bench import outcome
from labkit.commands.common import RESULTS, recording_end, results_folder
from labkit.bench.config import BenchConfig
from labkit.load.levels import LoadLevel, SleepSpec, sleep_spec
from labkit.load.tools import DRIVERS, LoadSpec
from labkit.measure.jfr import (
    LOCK_EVENTS,
    blocking_site,
    epoch_seconds,
    iso_duration_s,
    settings_file,
    summarize_events,
    summarize_locks,
    summarize_profile,
)
from labkit.measure.plan import Estimator, build_plan, format_duration
from labkit.measure.results import derive, flags, little_ceiling, summarize, write_csv
from labkit.measure.session import measured_resources, phase_at, steady_window
from labkit.measure.sampler import (
    ProcessReading,
    Sample,
    cpu_full,
    process_running,
    read_process,
    read_samples_csv,
    summarize as summarize_samples,
    summarize_window,
    write_samples_csv,
)
from labkit.load.scenarios import expected_longest_ms
from labkit.catalog import scenario
from labkit.ground.errors import LabError, UsageError
from labkit.ground.proc import CLOCK_TICKS, cpus_times, parse_cpu_times

TARGETS = {"platform-4000": SimpleNamespace(max_concurrent=4000), "virtual": SimpleNamespace(max_concurrent=None)}


def args(**given):
    values = dict(quick=False, modes=None, scenario=None, concurrency=None, sleep=None, depth=None, duration=None,
                  warmup=None, repeats=None, restart=None, drivers=None, rate=None, timeout=None, port=None,
                  jvm_opt=None, name=None, out=None, steady=False, warmup_until_steady=False, warmup_cap=None, heap=None,
                  carriers=None, stall_after=None, jfr_locks=False, cpus=None, jvm_defaults=None)
    values.update(given)
    return SimpleNamespace(**values)


def build(**given):
    return BenchConfig.build(args(**given), TARGETS, DRIVERS, tuple(TARGETS))


# -- options -------------------------------------------------------------------------------
def test_sleep_is_fixed_or_a_uniform_range():
    assert sleep_spec("100") == SleepSpec(100, 100)
    assert sleep_spec("50-150").mean_ms == 100


@pytest.mark.parametrize("text", ["", "abc", "150-50", "70000", "-5", "1.5"])
def test_bad_sleep_is_rejected(text):
    with pytest.raises(argparse.ArgumentTypeError):
        sleep_spec(text)


def test_concurrency_levels_may_carry_their_own_sleep():
    assert options.concurrency_list("1000@100,6000@2000") == ((1000, SleepSpec(100, 100)), (6000, SleepSpec(2000, 2000)))
    config = build(concurrency=options.concurrency_list("10,20@50-70"), sleep=SleepSpec(30, 30))
    assert config.levels == (LoadLevel(10, SleepSpec(30, 30)), LoadLevel(20, SleepSpec(50, 70)))


@pytest.mark.parametrize("text", ["0", "20001", "10,x", "", "10@abc"])
def test_bad_concurrency_is_rejected(text):
    with pytest.raises(argparse.ArgumentTypeError):
        options.concurrency_list(text)


def test_default_timeout_is_always_well_above_the_sleep():
    for sleep in (SleepSpec(0, 0), SleepSpec(100, 100), SleepSpec(2000, 2000), SleepSpec(50, 30000)):
        assert options.default_timeout_s(sleep) >= 2 * sleep.max_ms / 1000
        assert options.default_timeout_s(sleep) >= options.MIN_DEFAULT_TIMEOUT_S


def test_given_timeout_must_be_above_every_sleep():
    with pytest.raises(UsageError, match="not above the sleep"):
        build(concurrency=options.concurrency_list("10@100,20@2000"), timeout=1.5)
    assert build(concurrency=options.concurrency_list("10@100,20@2000"), timeout=2.5).timeout_s == 2.5


def test_rate_is_refused_for_tools_without_a_fixed_rate_mode():
    with pytest.raises(UsageError, match="--rate"):
        build(drivers=("wrk",), rate=100)
    assert build(drivers=("bombardier",), rate=100).rate == 100


def test_jvm_defaults_are_on_unless_the_run_asks_for_a_plain_jvm():
    assert build().setup.jvm_defaults is True and build().to_dict()["jvm_defaults"] is True
    assert build(jvm_defaults=False).setup.jvm_defaults is False


def test_steady_needs_ab_and_a_warm_up():
    with pytest.raises(UsageError, match="use --driver ab"):
        build(steady=True)  # the default driver is bombardier
    with pytest.raises(UsageError, match="warm-up"):
        build(steady=True, drivers=("ab",), warmup=0)
    config = build(steady=True, drivers=("ab",))
    assert config.steady and config.to_dict()["steady"] is True
    assert build().to_dict()["steady"] is False


def test_unknown_mode_and_driver_are_named():
    with pytest.raises(UsageError, match="'nosuch'"):
        build(modes=("virtual", "nosuch"))
    with pytest.raises(UsageError, match="'jmeter'"):
        build(drivers=("jmeter",))


def test_quick_preset_fills_only_what_was_not_given():
    quick = build(quick=True)
    assert [l.concurrency for l in quick.levels] == [100, 1000] and quick.restart == "mode"
    assert quick.modes == tuple(TARGETS)
    assert build(quick=True, duration=2, modes=("virtual",)).duration_s == 2
    assert build(quick=True, modes=("virtual",)).modes == ("virtual",)


# -- plan ----------------------------------------------------------------------------------
def test_restart_per_repeat_interleaves_modes_rotating_their_order_and_warms_every_session():
    config = build(concurrency=options.concurrency_list("10,20"), repeats=2)
    sessions = build_plan(config, scenario("sleep"))
    assert [s.label for s in sessions] == ["platform-4000-r1", "virtual-r1", "virtual-r2", "platform-4000-r2"]
    assert all(p.warmup for s in sessions for p in s.points)
    assert [p.index for s in sessions for p in s.points] == list(range(1, 9))
    assert sessions[0].points[0].path == "/api/sleep?ms=100&depth=100"


def test_restart_per_mode_warms_each_level_once():
    config = build(concurrency=options.concurrency_list("10"), repeats=3, restart="mode", sleep=SleepSpec(5, 9), depth=7)
    sessions = build_plan(config, scenario("sleep"))
    assert len(sessions) == 2
    assert [p.warmup for p in sessions[0].points] == [True, False, False]
    assert sessions[0].points[0].path == "/api/sleep?min=5&max=9&depth=7"


def test_steady_warms_every_point_because_each_is_a_run_with_its_own_ramp():
    config = build(concurrency=options.concurrency_list("10"), repeats=3, restart="mode", steady=True, drivers=("ab",))
    assert [p.warmup for s in build_plan(config, scenario("sleep")) for p in s.points] == [True] * 6


def test_steady_eta_counts_the_drain_of_one_timeout_after_each_window():
    config = build(concurrency=options.concurrency_list("10"), repeats=1, duration=10, warmup=5, timeout=2.5,
                   steady=True, drivers=("ab",))
    estimator = Estimator(config, build_plan(config, scenario("sleep")), start_guess_s=30, overhead_guess_s=0)
    assert estimator.total_s() == 2 * 30 + 2 * (5 + 10 + 3)
    # The same rounding as the load tool's own drain.
    assert estimator.drain_s(build_plan(config, scenario("sleep"))[0].points[0]) == LoadSpec(
        url="u", concurrency=10, duration_s=15, timeout_s=2.5, window=(1, 11)).drain_s


def test_steady_window_starts_on_the_first_whole_second_after_the_warm_up():
    assert steady_window(1000.2, 10, 30) == (1011, 1041)
    assert steady_window(1000.0, 10, 30) == (1010, 1040)


def test_live_line_names_the_phase_the_run_is_in():
    phases = [("warm-up", 10.4), ("measuring", 30), ("draining", 3)]
    assert phase_at(phases, 2.0) == ("warm-up", 2.0, 10.4)
    assert phase_at(phases, 12.4) == pytest.approx(("measuring", 2.0, 30))
    assert phase_at(phases, 41.0)[0] == "draining"
    assert phase_at(phases, 50.0)[0] == "draining"


def test_eta_shrinks_as_points_finish_and_learns_the_start_time():
    config = build(concurrency=options.concurrency_list("10,20"), repeats=1, duration=10, warmup=5)
    estimator = Estimator(config, build_plan(config, scenario("sleep")), start_guess_s=30, overhead_guess_s=0)
    assert estimator.total_s() == 2 * 30 + 4 * 15
    estimator.server_started(10)
    assert estimator.remaining_s(1, 1) == 10 + 3 * 15
    assert format_duration(125) == "2m05s" and format_duration(4000) == "1h06m"


# -- derived figures and flags ---------------------------------------------------------------
def test_little_ceiling_uses_the_smaller_of_connections_and_pool():
    assert little_ceiling(6000, 4000, 2.0) == 2000
    assert little_ceiling(1000, None, 0.1) == pytest.approx(10000)
    assert little_ceiling(1000, None, 0.1, rate=500) == 500
    assert little_ceiling(1000, None, None) is None


def test_fanout_ceiling_is_per_request_and_a_platform_task_pool_caps_it():
    fanout = scenario("fanout")
    level = LoadLevel(1000, SleepSpec(50, 100))
    # A request lasts as long as the longest of its ten tasks: 95.5 ms on average, not 75 ms.
    assert expected_longest_ms(SleepSpec(50, 100), 10) == pytest.approx(95.45, abs=0.01)
    assert expected_longest_ms(SleepSpec(80, 80), 10) == 80
    service = fanout.service_time_s(None, level)
    assert little_ceiling(1000, None, service) == pytest.approx(1000 / 0.09545, rel=1e-3)
    # On a pool of 4000 platform threads each request takes 10 x 75 ms of thread time: at most 5333 req/s.
    pool = (4000, fanout.pool_seconds(None, level))
    assert little_ceiling(1000, 4000, service, task_pool=pool) == pytest.approx(4000 / 0.75)
    assert little_ceiling(100, 4000, service, task_pool=pool) == pytest.approx(100 / 0.09545, rel=1e-3)


def test_fanout_posts_its_body_with_its_own_sleep_unless_sleep_is_given():
    fanout = scenario("fanout")
    assert fanout.method == "POST" and fanout.body_file.is_file() and scenario("sleep").method == "GET"
    own = BenchConfig.build(args(scenario="fanout"), TARGETS, DRIVERS, tuple(TARGETS), default_sleep=fanout.default_sleep)
    assert own.levels[0].sleep == SleepSpec(50, 100)
    assert fanout.path(own, own.levels[0]) == "/api/fanout?tasks=10&minMs=50&maxMs=100"
    given = BenchConfig.build(args(scenario="fanout", sleep=SleepSpec(20, 20)), TARGETS, DRIVERS, tuple(TARGETS),
                              default_sleep=fanout.default_sleep)
    assert given.levels[0].sleep == SleepSpec(20, 20)


def point(ok_rps=900.0, driver_cores=0.3, busy=1.0, other=0.0, errors=0, concurrency=100, **extra):
    record = {"mode": "virtual", "driver": "bombardier", "concurrency": concurrency, "sleep_min_ms": 100,
              "sleep_max_ms": 100, "rate": None,
              "load": {"ok": ok_rps * 10, "ok_rps": ok_rps, "complete": True, "errors": {"total": errors},
                       "latency_ms": {"p50": 101.0, "p99": 130.0}},
              "resources": {"server": {"cpu_s": 5.0, "cpu_cores": 0.5, "rss_peak_mb": 512.0},
                            "driver": {"cpu_cores": driver_cores},
                            "machine": {"cpus": 2, "busy_cores": busy, "other_cores": other}}}
    record.update(extra)
    record["derived"] = derive(record, None, 0.1)
    record["flags"] = flags(record)
    return record


def test_derived_figures_per_cpu_and_per_memory():
    derived = point(ok_rps=900.0)["derived"]
    assert derived["ceiling_rps"] == 1000
    assert derived["efficiency"] == pytest.approx(0.9)
    assert derived["requests_per_cpu_s"] == pytest.approx(9000 / 5.0)
    assert derived["rps_per_gb_rss"] == pytest.approx(900 / 0.5)


def test_flags_say_when_the_driver_or_the_machine_limited_the_point():
    assert point(driver_cores=0.95)["flags"] == ["client-bound"]
    assert point(driver_cores=0.5)["flags"] == []
    assert "cpu-saturated" in point(busy=1.96)["flags"]
    assert "other-load" in point(other=0.6)["flags"]
    assert "errors" in point(errors=3)["flags"]


def stolen_point(busy, steal_cores, server_share):
    record = point(busy=busy)
    record["resources"]["machine"].update(steal_cores=steal_cores, server_cpus_steal_share=server_share)
    record["flags"] = flags(record)
    return record


def test_time_the_hypervisor_took_counts_towards_saturation_and_is_flagged_as_host_steal():
    # 1.6 cores of work plus 0.35 stolen: the CPUs were full, though the guest saw them 80 % busy.
    assert "cpu-saturated" not in point(busy=1.6)["flags"]
    assert {"cpu-saturated", "host-steal"} <= set(stolen_point(1.6, 0.35, 0.2)["flags"])
    # A server pinned to one CPU that lost 25 % of it: flagged though the machine-wide steal is small.
    assert stolen_point(1.0, 0.08, 0.25)["flags"] == ["host-steal"]
    assert stolen_point(1.0, 0.05, 0.05)["flags"] == []


PROC_STAT = """cpu  1000 50 300 5000 20 0 30 200 0 0
cpu0 600 50 200 2000 10 0 20 150 0 0
cpu1 400 0 100 3000 10 0 10 50 0 0
intr 12345 0 0
ctxt 999
"""


def test_proc_stat_is_read_as_busy_steal_and_total_per_cpu_and_for_a_set_of_cpus():
    table = parse_cpu_times(PROC_STAT)
    assert set(table) == {"cpu", "cpu0", "cpu1"}
    cpu0 = table["cpu0"]
    # busy is user + nice + system + irq + softirq: not idle, iowait or the stolen time.
    assert cpu0.busy_s == pytest.approx(870 / CLOCK_TICKS)
    assert cpu0.steal_s == pytest.approx(150 / CLOCK_TICKS)
    assert cpu0.total_s == pytest.approx(3030 / CLOCK_TICKS)
    both = cpus_times(table, {0, 1})
    assert both.steal_s == pytest.approx(200 / CLOCK_TICKS) and both.total_s == pytest.approx(table["cpu"].total_s)
    assert cpus_times(table, None) == table["cpu"]
    assert cpus_times(table, {1, 5}) is None, "a CPU the table lacks gives no figure, not a partial one"


def stolen_samples():
    def reading(cpu):
        return ProcessReading(cpu_s=cpu, rss_kb=400 * 1024, hwm_kb=400 * 1024, threads=10, read_bytes=None)
    # Two seconds; the machine's 2 CPUs lose 0.4 CPU-s to the host, the server's one CPU 0.3 of its 2 s.
    return [Sample(0.0, reading(10.0), None, 100.0, 200.0, 5.0, 2.0, 100.0),
            Sample(1.0, reading(10.5), None, 101.0, 202.0, 5.2, 2.15, 101.0),
            Sample(2.0, reading(11.0), None, 102.0, 204.0, 5.4, 2.3, 102.0)]


def test_a_window_says_how_many_cores_the_host_stole_and_what_share_of_the_servers_cpus():
    machine = summarize_samples(stolen_samples())["machine"]
    assert machine["steal_cores"] == pytest.approx(0.4 / 4 * CPUS)
    assert machine["server_cpus_steal_share"] == pytest.approx(0.15)
    # Samples from before steal was read give neither figure (and no host-steal flag).
    old = [Sample(s.t, s.server, s.driver, s.machine_busy_s, s.machine_total_s) for s in stolen_samples()]
    assert {"steal_cores", "server_cpus_steal_share"}.isdisjoint(summarize_samples(old)["machine"])


def test_samples_keep_their_steal_through_the_csv_and_old_csvs_still_read(tmp_path):
    path = tmp_path / "samples.csv"
    write_samples_csv(path, stolen_samples())
    back = read_samples_csv(path)
    assert [(s.machine_steal_s, s.server_cpus_steal_s, s.server_cpus_total_s) for s in back] == \
        [(5.0, 2.0, 100.0), (5.2, 2.15, 101.0), (5.4, 2.3, 102.0)]
    old = tmp_path / "old.csv"
    old.write_text("t_s,server_cpu_s,server_rss_kb,server_hwm_kb,server_threads,driver_cpu_s,driver_rss_kb,"
                   "driver_read_bytes,machine_busy_s,machine_total_s\n0.000,1.00,100,100,5,,,,10.00,20.00\n")
    (sample,) = read_samples_csv(old)
    assert sample.machine_busy_s == 10.0 and sample.machine_steal_s is None and sample.server_cpus_total_s is None


def test_repeats_are_summarized_as_median_with_min_and_max():
    rows = summarize([point(ok_rps=100.0), point(ok_rps=300.0, driver_cores=0.95), point(ok_rps=200.0),
                      point(ok_rps=50.0, concurrency=10)])
    row = next(r for r in rows if r["concurrency"] == 100)
    metric = row["metrics"]["ok_rps"]
    assert {k: metric[k] for k in ("median", "min", "max", "n")} == {"median": 200.0, "min": 100.0, "max": 300.0, "n": 3}
    low, high = metric["ci95"]  # the t-interval of the mean, beside the median
    assert low < 200 < high
    assert row["flags"] == {"client-bound": 1}
    assert row["repeats"] == 3
    assert next(r for r in rows if r["concurrency"] == 10)["metrics"]["ok_rps"]["n"] == 1


def test_latency_over_repeats_merges_histograms_and_never_averages_percentiles():
    from labkit.load.tools import new_histogram
    from labkit.measure.histograms import encode

    def window(values_ms):
        histogram = new_histogram()
        for value in values_ms:
            histogram.record_value(int(value * 1000))
        return encode(histogram)
    # Two windows: one fast (1000 requests at 100 ms), one with a slow tail (1000 at 100 ms + 30 at 900 ms).
    fast = point(ok_rps=100.0)
    slow = point(ok_rps=100.0)
    fast["load"]["latency_hdr"] = window([100] * 1000)
    slow["load"]["latency_hdr"] = window([100] * 1000 + [900] * 30)
    fast["load"]["latency_ms"] = {"p50": 100.0, "p99": 100.0, "max": 100.0}
    slow["load"]["latency_ms"] = {"p50": 100.0, "p99": 900.0, "max": 900.0}
    row = summarize([fast, slow])[0]
    # 30 of 2030 requests (1.5 %) are slow: the merged p99 is 900 ms; an average of p99s would say 500.
    assert row["metrics"]["latency_p99_ms"]["value"] == pytest.approx(900, rel=0.01)
    assert row["metrics"]["latency_max_ms"]["value"] == pytest.approx(900, rel=0.01)
    assert row["latency_how"] == "merged" and "median" not in row["metrics"]["latency_p99_ms"]
    # Without raw latencies (a tool's own percentiles) the worst window stands, not a median.
    fast["load"]["latency_hdr"] = None
    row = summarize([fast, slow])[0]
    assert row["latency_how"] == "worst-window" and row["metrics"]["latency_p99_ms"]["value"] == 900.0


def test_an_open_model_tool_late_on_its_schedule_is_flagged():
    late, on_time = point(), point()
    late["load"]["schedule_lag_max_ms"] = 120.0
    on_time["load"]["schedule_lag_max_ms"] = 3.0
    assert "driver-behind" in flags(late) and "driver-behind" not in flags(on_time)


def test_a_window_whose_throughput_climbs_is_flagged_not_steady():
    assert "not-steady" in point(steadiness={"per_second_rps": [500, 600, 700, 800, 900, 1000]})["flags"]
    assert "not-steady" not in point(steadiness={"per_second_rps": [1000, 990, 1010, 1000, 995]})["flags"]


def test_csv_has_one_row_per_point_with_flat_columns(tmp_path):
    write_csv(tmp_path / "r.csv", [point(ok_rps=100.0, driver_cores=0.95, id="x", index=1)])
    header, row = (tmp_path / "r.csv").read_text().splitlines()
    values = dict(zip(header.split(","), row.split(",")))
    assert values["ok_rps"] == "100.0" and values["flags"] == "client-bound" and values["efficiency"] == "0.1"


# -- sampling ------------------------------------------------------------------------------
def test_read_process_sees_this_process():
    reading = read_process(os.getpid())
    assert reading.rss_kb > 0 and reading.hwm_kb >= reading.rss_kb and reading.threads >= 1 and reading.cpu_s > 0
    assert read_process(2 ** 22 + 12345) is None


def test_an_exited_child_is_not_running_even_before_it_is_reaped():
    import subprocess
    import time
    child = subprocess.Popen(["sleep", "30"])
    try:
        assert process_running(child.pid)
        child.kill()
        time.sleep(0.3)  # exited, not yet waited for: a zombie
        assert not process_running(child.pid)
    finally:
        child.kill()
        child.wait()
    assert not process_running(child.pid)


def test_window_summary_turns_counters_into_cores_and_megabytes():
    def reading(cpu, rss_mb, threads):
        return ProcessReading(cpu_s=cpu, rss_kb=rss_mb * 1024, hwm_kb=600 * 1024, threads=threads, read_bytes=None)
    samples = [Sample(0.0, reading(10.0, 400, 50), reading(1.0, 10, 2), 100.0, 200.0),
               Sample(1.0, reading(10.8, 500, 60), reading(1.2, 10, 2), 101.5, 202.0),
               Sample(2.0, reading(11.6, 450, 55), reading(1.5, 12, 2), 103.0, 204.0)]
    summary = summarize_samples(samples)
    assert summary["server"]["cpu_cores"] == pytest.approx(0.8)
    assert summary["server"]["rss_peak_mb"] == 500 and summary["server"]["rss_avg_mb"] == 450
    assert summary["server"]["threads_max"] == 60
    assert summary["driver"]["cpu_cores"] == pytest.approx(0.25)
    cpus = os.cpu_count()
    assert summary["machine"]["busy_cores"] == pytest.approx(0.75 * cpus)
    # An exact driver CPU time (from rusage) wins over the sampled one.
    assert summarize_samples(samples, driver_cpu_s=1.9)["driver"]["cpu_cores"] == pytest.approx(0.95)


CPUS = os.cpu_count()


def ramp_then_steady_samples():
    """One sample a second for 12 s: a ramp (t < 4: server CPU 1.5 cores, 900 threads, driver busy),
    then a steady state (0.5 cores, 200 threads, driver 0.1 cores)."""
    samples, server_cpu, driver_cpu, busy = [], 0.0, 0.0, 0.0
    for t in range(13):
        ramp = t <= 4
        samples.append(Sample(float(t), ProcessReading(server_cpu, (800 if ramp else 400) * 1024, 900 * 1024,
                                                       900 if ramp else 200, None),
                              ProcessReading(driver_cpu, 20 * 1024, 20 * 1024, 1, None), busy, 1000.0 + t * CPUS))
        server_cpu += 1.5 if t < 4 else 0.5
        driver_cpu += 0.9 if t < 4 else 0.1
        busy += 2.4 if t < 4 else 0.6
    return samples


def test_steady_window_resources_come_from_the_samples_inside_it_only():
    summary = summarize_window(ramp_then_steady_samples(), 5.0, 10.0)
    assert summary["samples"] == 6 and summary["elapsed_s"] == 5.0
    assert summary["server"]["cpu_cores"] == pytest.approx(0.5)
    assert summary["server"]["threads_max"] == 200 and summary["server"]["rss_peak_mb"] == 400
    assert summary["driver"]["cpu_cores"] == pytest.approx(0.1)
    assert summary["machine"]["busy_cores"] == pytest.approx(0.6)
    assert summary["machine"]["other_cores"] == pytest.approx(0.0)
    assert summary["window_t_s"] == [5.0, 10.0]
    # The whole run's figures would carry the ramp.
    assert summarize_samples(ramp_then_steady_samples())["server"]["threads_max"] == 900


def test_stretches_of_full_cpu_are_the_half_seconds_at_95_percent_of_the_servers_cpus_with_steal():
    # A server on one CPU at 0.6 of it, full from 1.0 to 2.5 s (0.5 s of it by steal) and at 2.0–3.0 s
    # of a 4 s window; the window's average hides it.
    used = [0.3, 0.3, 0.5, 0.4, 0.3, 0.5, 0.3, 0.3]          # CPU s per 0.5 s interval
    stolen = [0.0, 0.0, 0.0, 0.1, 0.2, 0.0, 0.0, 0.0]
    samples, cpu, steal = [], 0.0, 0.0
    for i in range(len(used) + 1):
        samples.append(Sample(t=i * 0.5, server=ProcessReading(cpu, 1, 1, 1, None), driver=None, machine_busy_s=0,
                              machine_total_s=0, machine_steal_s=None, server_cpus_steal_s=steal,
                              server_cpus_total_s=i * 0.5))
        if i < len(used):
            cpu, steal = cpu + used[i], steal + stolen[i]
    assert cpu_full(samples) == {"seconds": 2.0, "longest": [1.0, 3.0]}
    assert summarize_samples(samples)["server"]["cpu_full"] == {"seconds": 2.0, "longest": [1.0, 3.0]}
    # Without the CPUs' own time (a remote server's samples, or older CSVs) it is not recorded.
    bare = [Sample(t=s.t, server=s.server, driver=None, machine_busy_s=0, machine_total_s=0) for s in samples]
    assert cpu_full(bare) is None and "cpu_full" not in summarize_samples(bare)["server"]


def test_a_steady_spec_maps_its_epoch_window_onto_the_sampler_clock_and_ignores_the_runs_rusage():
    sampler = SimpleNamespace(seconds_since_start=lambda epoch: epoch - 1_800_000_000.0, driver_quota_cores=None)
    steady = LoadSpec(url="u", concurrency=10, duration_s=10, timeout_s=2, window=(1_800_000_005, 1_800_000_010))
    summary = measured_resources(steady, ramp_then_steady_samples(), sampler, driver_cpu_s=4.0)
    assert summary["server"]["threads_max"] == 200
    assert summary["driver"]["cpu_s"] == pytest.approx(0.5)  # sampled in the window, not the run's 4.0 s
    fresh = LoadSpec(url="u", concurrency=10, duration_s=12, timeout_s=2)
    assert measured_resources(fresh, ramp_then_steady_samples(), sampler, driver_cpu_s=4.0)["driver"]["cpu_s"] == 4.0


# -- JFR ---------------------------------------------------------------------------------
def test_jfr_events_count_only_inside_the_window():
    start = epoch_seconds("2026-01-01T10:00:00.000000000Z")

    def event(kind, at, **values):
        return {"type": kind, "values": {"startTime": f"2026-01-01T10:00:{at:09.6f}Z", **values}}
    events = [
        event("jdk.GarbageCollection", 1.5, sumOfPauses="PT0.012S", longestPause="PT0.010S"),
        event("jdk.GarbageCollection", 3.0, sumOfPauses="PT0.003S", longestPause="PT0.003S"),
        event("jdk.GarbageCollection", 12.0, sumOfPauses="PT1S", longestPause="PT1S"),  # after the window
        event("jdk.GCHeapSummary", 1.5, when="Before GC", heapUsed=300 * 1024 * 1024),
        event("jdk.GCHeapSummary", 1.6, when="After GC", heapUsed=100 * 1024 * 1024),
        event("jdk.VirtualThreadPinned", 2.0, duration="PT0.025S"),
        event("jdk.GCHeapMemoryUsage", 4.0, used=200 * 1024 * 1024),
        event("jdk.GCHeapMemoryUsage", 0.5, used=900 * 1024 * 1024),  # before the window
        event("jdk.ExecuteVMOperation", 1.5, operation="G1CollectForAllocation", duration="PT0.011S"),
        event("jdk.ExecuteVMOperation", 5.0, operation="HandshakeAllThreads", duration="PT0.040S"),
        event("jdk.ZAllocationStall", 6.0, duration="PT0.0125S"),
        event("jdk.ZAllocationStall", 7.0, duration="PT0.0625S"),
        event("jdk.ZAllocationStall", 11.0, duration="PT0.5S"),  # after the window
    ]
    summary = summarize_events(events, start + 1, start + 10)
    assert summary["allocation_stalls"] == {"count": 2, "total_ms": 75.0, "longest_ms": [62.5, 12.5]}
    assert summary["gc_count"] == 2
    assert summary["gc_pause_total_ms"] == pytest.approx(15.0)
    assert summary["gc_pause_max_ms"] == pytest.approx(10.0)
    assert summary["heap_used_max_mb"] == 300 and summary["heap_after_gc_avg_mb"] == 100
    assert summary["pinned_events"] == 1
    assert summary["vm_operations"] == 2
    assert (summary["vm_operation_max"], summary["vm_operation_max_ms"]) == ("HandshakeAllThreads", pytest.approx(40.0))
    assert "jit" not in summary   # no compiler readings: not recorded


def test_each_collection_keeps_its_whole_cycle_beside_its_pause():
    """A concurrent collector's cycle lasts far longer than its pause: both are kept, where each fell."""
    start = epoch_seconds("2026-01-01T10:00:00.000000000Z")
    events = [{"type": "jdk.GarbageCollection", "values": {
        "startTime": "2026-01-01T10:00:03.250000000Z", "name": "ZGC Minor", "duration": "PT1.8S",
        "sumOfPauses": "PT0.00004S", "longestPause": "PT0.00002S"}},
        {"type": "jdk.GarbageCollection", "values": {
            "startTime": "2026-01-01T10:00:06.000000000Z", "name": "G1New", "duration": "PT0.0204S",
            "sumOfPauses": "PT0.02S", "longestPause": "PT0.02S"}}]
    summary = summarize_events(events, start + 1, start + 10)
    assert summary["gc_cycles"] == [[2.25, 1800.0, "ZGC Minor"], [5.0, 20.4, "G1New"]]
    assert summary["gc_pauses"] == [[2.25, 0.02, "ZGC Minor"], [5.0, 20.0, "G1New"]]


def test_the_jits_work_in_a_window_is_the_difference_of_its_running_totals_across_it():
    start = epoch_seconds("2026-01-01T10:00:00.000000000Z")

    def reading(at, compiles, total_s):
        return {"type": "jdk.CompilerStatistics", "values": {"startTime": f"2026-01-01T10:00:{at:09.6f}Z",
                                                              "compileCount": compiles, "totalTimeSpent": f"PT{total_s}S"}}
    # Readings once a second; the window is [1.2, 4.2]: the reading at 1.0 opens it, 5.0 is after it.
    events = [reading(0.0, 900, 9.0), reading(1.0, 1000, 10.0), reading(2.0, 1100, 10.9), reading(3.0, 1110, 11.0),
              reading(4.0, 1112, 11.02), reading(5.0, 5000, 99.0)]
    jit = summarize_events(events, start + 1.2, start + 4.2)["jit"]
    assert (jit["compiles"], jit["compile_ms"], jit["seconds"]) == (112, 1020, 3.0)
    assert jit["per_second"] == [[0.8, 100, 900], [1.8, 10, 100], [2.8, 2, 20]]
    # One reading is not a difference: not recorded.
    assert "jit" not in summarize_events(events[:1], start - 1, start + 0.5)


def _frame(owner, method, line):
    return {"method": {"type": {"name": owner}, "name": method}, "lineNumber": line}


def test_lock_summary_counts_window_events_by_class_and_by_the_site_that_blocked():
    def event(kind, at, seconds, class_field, blocked_on, frames):
        return {"type": kind, "values": {"startTime": f"2026-01-01T10:00:{at:09.6f}Z", "duration": f"PT{seconds}S",
                                         class_field: {"name": blocked_on}, "stackTrace": {"frames": frames}}}
    start = epoch_seconds("2026-01-01T10:00:00.000000000Z")
    credentials = [_frame("javax.security.auth.Subject$SecureSet", "add", 1300),
                   _frame("com.example.Login", "login", 42)]
    pool = [_frame("jdk.internal.misc.Unsafe", "park", -1),
            _frame("java.util.concurrent.locks.LockSupport", "park", 371),
            _frame("java.util.concurrent.LinkedTransferQueue$DualNode", "await", 452),
            _frame("com.example.Pool", "borrow", 88)]
    events = [
        event("jdk.JavaMonitorEnter", 1.0, 0.030, "monitorClass", "java.util.Collections$SynchronizedSet", credentials),
        event("jdk.JavaMonitorEnter", 2.0, 0.050, "monitorClass", "java.util.Collections$SynchronizedSet", credentials),
        event("jdk.JavaMonitorEnter", 3.0, 0.015, "monitorClass", "java/security/SecureRandom", []),  # JFR's form
        event("jdk.JavaMonitorEnter", 11.0, 9.0, "monitorClass", "java.lang.Object", credentials),  # after the window
        event("jdk.ThreadPark", 4.0, 0.200, "parkedClass", "java.util.concurrent.locks.ReentrantLock$NonfairSync", pool),
    ]
    locks = summarize_locks(events, start + 0.5, start + 10)
    monitors = locks["monitor_enter"]
    assert (monitors["count"], monitors["total_ms"], monitors["max_ms"]) == (3, pytest.approx(95.0), pytest.approx(50.0))
    assert monitors["top_classes"][0] == {"name": "java.util.Collections$SynchronizedSet", "count": 2,
                                          "total_ms": pytest.approx(80.0)}
    assert monitors["top_sites"][0]["site"] == "javax.security.auth.Subject$SecureSet.add:1300"
    assert monitors["top_sites"][1]["site"] == "(no stack)"
    assert monitors["top_classes"][1]["name"] == "java.security.SecureRandom"
    # A park's site is the code that asked for the lock, not LockSupport or Unsafe.
    assert locks["park"]["top_sites"] == [{"site": "com.example.Pool.borrow:88", "count": 1,
                                          "total_ms": pytest.approx(200.0)}]


def test_lock_summary_of_a_window_without_lock_events_is_zero_not_missing():
    assert summarize_locks([], 0, 10) == {kind: {"count": 0, "total_ms": 0.0, "max_ms": 0.0, "top_classes": [],
                                                  "top_sites": []} for kind, _ in LOCK_EVENTS.values()}
    assert blocking_site({"frames": [_frame("java/lang/Object", "wait", 12)]}) == "java.lang.Object.wait:12"


def test_lock_settings_add_both_lock_events_with_stacks_to_the_bench_settings(tmp_path):
    import xml.etree.ElementTree as ET
    events = {e.get("name"): {s.get("name"): s.text for s in e} for e in ET.parse(settings_file(True, tmp_path)).getroot()}
    assert events["jdk.GarbageCollection"]["enabled"] == "true"  # the bench's own events are kept
    for name in LOCK_EVENTS:
        assert events[name] == {"enabled": "true", "stackTrace": "true", "threshold": "10 ms"}
    assert "jdk.JavaMonitorEnter" not in {e.get("name") for e in ET.parse(settings_file(False, tmp_path)).getroot()}


def test_the_profile_counts_the_methods_on_top_of_the_window_samples_and_its_settings_add_the_sampler(tmp_path):
    import xml.etree.ElementTree as ET

    def sample(at, *frames):
        return {"type": "jdk.ExecutionSample", "values": {"startTime": f"2026-01-01T10:00:{at:09.6f}Z",
                                                           "stackTrace": {"frames": list(frames)}}}
    start = epoch_seconds("2026-01-01T10:00:00.000000000Z")
    sha = _frame("sun/security/provider/SHA2", "implCompress0", 180)
    events = [sample(1.0, sha, _frame("dev.loomlab.app.work.WorkResource", "hashChain", 70)),
              sample(2.0, dict(sha, lineNumber=181)), sample(3.0, sha),        # one method, whatever its line
              sample(4.0, _frame("org.glassfish.grizzly.nio.SelectorRunner", "run", 9)),
              sample(5.0), sample(12.0, sha),                                   # no stack; after the window
              {"type": "jdk.GarbageCollection", "values": {"startTime": "2026-01-01T10:00:02.000000Z"}}]
    profile = summarize_profile(events, start + 0.5, start + 10)
    assert profile["samples"] == 5
    assert profile["top"][0] == {"frame": "sun.security.provider.SHA2.implCompress0", "samples": 3, "share": 0.6}
    assert {entry["frame"] for entry in profile["top"][1:]} == {"org.glassfish.grizzly.nio.SelectorRunner.run",
                                                                 "(no stack)"}
    assert summarize_profile([], 0, 10) == {"samples": 0, "top": []}
    settings = {e.get("name"): {s.get("name"): s.text for s in e}
                for e in ET.parse(settings_file(False, tmp_path, profile=True)).getroot()}
    assert settings["jdk.ExecutionSample"] == {"enabled": "true", "period": "20 ms"}
    assert "jdk.JavaMonitorEnter" not in settings and settings["jdk.GarbageCollection"]["enabled"] == "true"


def test_iso_durations_and_timestamps():
    assert iso_duration_s("PT0.009566112S") == pytest.approx(0.009566112)
    assert iso_duration_s("PT1M2.5S") == pytest.approx(62.5)
    assert iso_duration_s(None) == 0
    assert epoch_seconds("1970-01-01T00:00:01.5Z") == pytest.approx(1.5)
    assert epoch_seconds("1970-01-01T01:00:01+01:00") == pytest.approx(1.0)


# -- report and charts -----------------------------------------------------------------------
ENV = {"command": "./lab bench", "host": {"cpu_model": "cpu", "cpus": 2, "memory_gb": 24, "os": "Debian", "kernel": "6",
                                          "ulimit_nofile": [20000, 20000], "loadavg_at_start": [0.1, 0.2, 0.3]},
       "jdk": {"vendor": "v", "runtime_version": "25", "version": "25", "home": "/jdk"},
       "payara_micro": "6.2025.10", "git": {"commit": "abc", "dirty": False}, "tools": {"bombardier": {"version": "b 1.2.6"}}}


def windows_line(tmp_path, config):
    from labkit.bench.report import write_report
    points = [dict(point(), id="p1", index=1, repeat=1)]
    run = {"state": "complete", "planned_points": 1, "started": "t0", "finished": "t1", "wall_s": 20,
           "config": config.to_dict(), "env": ENV, "points": points, "summary": summarize(points), "charts": {}}
    write_report(tmp_path / "report.md", run)
    return next(l for l in (tmp_path / "report.md").read_text().splitlines() if l.startswith("| Windows |"))


def test_report_says_when_windows_are_steady(tmp_path):
    steady = windows_line(tmp_path, build(steady=True, drivers=("ab",), warmup=8, duration=20))
    assert "steady" in steady and "one continuous run" in steady and "ramp stays outside" in steady
    assert "warm-up 8 s" in steady and "measured 20 s" in steady
    assert "steady" not in windows_line(tmp_path, build(warmup=8, duration=20))


def test_report_and_charts_from_a_run_record(tmp_path):
    from labkit.bench.charts import write_charts
    from labkit.bench.report import write_report
    points = [dict(point(ok_rps=r, driver_cores=d), id=f"p{i}", index=i, repeat=i, mode=m)
              for i, (m, r, d) in enumerate([("virtual", 950.0, 0.4), ("virtual", 900.0, 0.95),
                                             ("platform-4000", 700.0, 0.4), ("platform-4000", 720.0, 0.4)], 1)]
    summary = summarize(points)
    charts = write_charts(summary, tmp_path)
    assert set(charts) == {"throughput", "latency", "memory", "cpu"}
    for name in charts.values():
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    config = build(modes=("virtual", "platform-4000"), repeats=2).to_dict()
    run = {"state": "interrupted", "planned_points": 8, "started": "t0", "finished": "t1", "wall_s": 75,
           "config": config, "env": ENV, "points": points, "summary": summary, "charts": charts}
    write_report(tmp_path / "report.md", run)
    report = (tmp_path / "report.md").read_text()
    assert "**Interrupted** (Ctrl-C) after 4 of 8 points" in report
    assert "**virtual** led with 925 req/s" in report
    assert "| virtual | 100 | 100 | 925 [900–950] |" in report
    assert "client-bound 1/2" in report
    assert "![throughput](throughput.png)" in report


def locked_point(mode, repeat, count, total_ms, classes, sites):
    monitors = {"count": count, "total_ms": total_ms, "max_ms": 0.0,
                "top_classes": [{"name": n, "count": 1, "total_ms": ms} for n, ms in classes],
                "top_sites": [{"site": n, "count": 1, "total_ms": ms} for n, ms in sites]}
    return dict(point(), id=f"{mode}-{repeat}", index=repeat, repeat=repeat, mode=mode,
                jfr={"locks": {"monitor_enter": monitors, "park": {"count": 0, "total_ms": 0.0, "max_ms": 0.0,
                                                                    "top_classes": [], "top_sites": []}}})


def test_report_sums_each_modes_lock_contention_over_its_windows(tmp_path):
    from labkit.bench.report import write_report
    points = [locked_point("platform-4000", 1, 4000, 2_000_000.0, [("Weld", 1_500_000.0), ("SecureRandom", 300_000.0)],
                           [("Weld.getManager:109", 1_500_000.0)]),
              locked_point("platform-4000", 2, 5000, 3_000_000.0, [("SecureRandom", 1_400_000.0), ("Weld", 1_000_000.0)],
                           [("SecureRandom.next:222", 1_400_000.0), ("Weld.getManager:109", 1_000_000.0)]),
              locked_point("platform-4000", 3, 3000, 1_000_000.0, [("Weld", 600_000.0)], [("Weld.getManager:109", 600_000.0)]),
              locked_point("virtual", 1, 0, 0.0, [], [])]
    config = dict(build(modes=("virtual", "platform-4000"), repeats=3).to_dict(), jfr_locks=True)
    run = {"state": "complete", "planned_points": 4, "started": "t0", "finished": "t1", "wall_s": 75, "config": config,
           "env": ENV, "points": points, "summary": summarize(points), "charts": {}}
    write_report(tmp_path / "report.md", run)
    report = (tmp_path / "report.md").read_text()
    # Median [min-max] of the windows' counts and blocked seconds; classes and sites summed over the windows.
    assert ("| platform-4000 | 100 | 3 | 4,000 [3,000–5,000] | 2,000.0 [1,000.0–3,000.0] | Weld (3,100.0); "
            "SecureRandom (1,700.0) | `Weld.getManager:109` (3,100.0); `SecureRandom.next:222` (1,400.0) |") in report
    assert "| virtual | 100 | 1 | 0 | 0.0 | – | – |" in report
    assert report.index("monitor enters | blocked s") < report.index("| mode | c | repeat | monitor enters: count")


def test_lab_report_rebuilds_a_committed_folder_from_its_compressed_results(tmp_path, capsys):
    import gzip
    import json
    from labkit.cli import main
    points = [dict(point(ok_rps=r), id=f"p{i}", index=i, repeat=i) for i, r in enumerate([900.0, 950.0, 1000.0], 1)]
    run = {"schema": "loomlab.bench/1", "state": "complete", "planned_points": 3, "started": "t0", "finished": "t1",
           "wall_s": 75, "config": build(modes=("virtual",), repeats=3).to_dict(), "env": ENV, "points": points}
    stored = gzip.compress(json.dumps(run).encode())
    (tmp_path / "results.json.gz").write_bytes(stored)
    assert main(["report", str(tmp_path)]) == 0
    assert "| virtual | 100 | 100 | 950 [900–1,000] |" in (tmp_path / "report.md").read_text()
    assert not (tmp_path / "results.json").exists(), "a committed folder gains no uncompressed copy"
    assert (tmp_path / "results.json.gz").read_bytes() == stored, "the record is the rebuild's input, left as it is"
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SystemExit):
        main(["report", str(empty)])
    assert "holds no results.json (or results.json.gz)" in capsys.readouterr().err


# -- --heap ----------------------------------------------------------------------------------
def test_heap_sizes_are_parsed_smallest_first_and_bad_ones_refused():
    from labkit.servers.heaps import heap_list
    assert heap_list("4g,512m, 1G,2g") == ("512m", "1g", "2g", "4g")
    for bad in ("512", "1.5g", "1t", "32m", "1g,1024m", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            heap_list(bad)


def test_heap_and_a_heap_sizing_jvm_option_together_are_a_usage_error():
    with pytest.raises(UsageError, match="drop -Xmx2g"):
        build(heap=("512m", "1g"), jvm_opt=["-Xmx2g"])
    assert build(heap=("512m",), jvm_opt=["-XX:+UseG1GC"]).heaps == ("512m",)


def test_every_mode_runs_once_per_heap_as_a_series_of_its_own():
    from labkit.servers.heaps import heap_options
    config = build(heap=("512m", "1g"), repeats=1)
    sessions = build_plan(config, scenario("sleep"))
    assert [(s.mode, s.target, s.heap) for s in sessions] == [
        ("platform-4000@512m", "platform-4000", "512m"), ("platform-4000@1g", "platform-4000", "1g"),
        ("virtual@512m", "virtual", "512m"), ("virtual@1g", "virtual", "1g")]
    assert sessions[1].points[0].mode == "platform-4000@1g" and sessions[1].points[0].target == "platform-4000"
    assert heap_options("1g") == ["-Xms1g", "-Xmx1g"] and heap_options(None) == []
    assert [(s.mode, s.target, s.heap) for s in build_plan(build(repeats=1), scenario("sleep"))] == [
        ("platform-4000", "platform-4000", None), ("virtual", "virtual", None)]


def heap_point(target, heap, ok_rps, repeat=1, rss=512.0):
    record = point(ok_rps=ok_rps, repeat=repeat, mode=f"{target}@{heap}", target=target, heap=heap)
    record["resources"]["server"]["rss_peak_mb"] = rss
    record["derived"] = derive(record, None, 0.1)
    return record


def test_smallest_heap_that_holds_a_modes_throughput_within_five_percent():
    from labkit.servers.heaps import smallest_holding_heaps
    points = [heap_point("virtual", "512m", 800.0), heap_point("virtual", "512m", 820.0, repeat=2),
              heap_point("virtual", "1g", 960.0), heap_point("virtual", "2g", 1000.0), heap_point("virtual", "4g", 990.0),
              heap_point("platform-4000", "512m", 700.0), heap_point("platform-4000", "1g", 690.0)]
    verdicts = {v["target"]: v for v in smallest_holding_heaps(points)}
    assert verdicts["virtual"]["best_heap"] == "2g" and verdicts["virtual"]["best_rps"] == 1000.0
    assert verdicts["virtual"]["heaps"]["512m"] == 810.0  # the median of its repeats
    assert verdicts["virtual"]["smallest_holding_heap"] == "1g"  # 960 >= 95 % of 1000; 810 is not
    assert verdicts["platform-4000"]["smallest_holding_heap"] == "512m"


def test_report_gives_per_cpu_and_per_gb_figures_per_heap_and_the_smallest_holding_heap(tmp_path):
    from labkit.bench.report import write_report
    points = [dict(p, id=f"p{i}", index=i) for i, p in enumerate(
        [heap_point("virtual", "512m", 800.0, rss=700.0), heap_point("virtual", "1g", 980.0, rss=1200.0),
         heap_point("virtual", "2g", 1000.0, rss=2100.0)], 1)]
    config = build(heap=("512m", "1g", "2g"), repeats=1).to_dict()
    run = {"state": "complete", "planned_points": 3, "started": "t0", "finished": "t1", "wall_s": 60,
           "config": config, "env": ENV, "points": points, "summary": summarize(points)}
    write_report(tmp_path / "report.md", run)
    report = (tmp_path / "report.md").read_text()
    assert "## Heap sizes: 512m, 1g, 2g" in report
    # 980 req/s from 9800 answers in 5 CPU-s; 980 / (1200/1024 GB) per GB of peak RSS.
    assert "| virtual | 100 | 100 | 512m | 800 | 1,600 | 1,170 | 700 | – | no |" in report
    assert "| virtual | 100 | 100 | 1g | 980 | 1,960 | 836 | 1,200 | – | yes |" in report
    assert "**virtual** c=100: best 1,000 req/s at 2g; the smallest heap within 5 % of it: **1g**." in report


def test_only_platform_targets_with_a_bounded_pool_share_a_task_pool():
    from labkit.bench.runner import BenchRunner
    runner = object.__new__(BenchRunner)  # only _task_pool is used: no plan, no servers
    runner.config, runner.scenario = build(), scenario("fanout")
    level = LoadLevel(1000, SleepSpec(50, 100))
    platform = SimpleNamespace(virtual=False, max_concurrent=4000)
    assert runner._task_pool(platform, level) == {"threads": 4000, "seconds_per_request": pytest.approx(0.75)}
    for unshared in (SimpleNamespace(virtual=True, max_concurrent=4000),      # virtual-4000: a virtual thread per task
                     SimpleNamespace(virtual=False, max_concurrent=None),     # thread per request, event loop
                     SimpleNamespace(virtual=None, max_concurrent=4000)):     # unknown kind: no claim
        assert runner._task_pool(unshared, level) is None
    runner.scenario = scenario("sleep")
    assert runner._task_pool(platform, level) is None


def test_a_run_is_complete_only_when_every_point_has_a_result():
    measured = [{"id": "01-virtual-c100", "failure": None}, {"id": "02-virtual-c1000", "failure": None}]
    assert outcome(measured) == ("complete", None)
    one_failed = [measured[0], {"id": "02-virtual-c1000", "failure": "wrk exit 1: no result line"}]
    state, error = outcome(one_failed)
    assert state == "failed"
    assert "1 of 2 points failed" in error and "02-virtual-c1000" in error and "01-virtual-c100" not in error


def test_results_folder_takes_a_new_or_empty_out_and_refuses_one_with_files(tmp_path):
    assert results_folder(tmp_path / "new", "soak") == (tmp_path / "new").resolve()
    assert results_folder(tmp_path, "soak") == tmp_path.resolve()
    (tmp_path / "old.txt").write_text("keep me")
    with pytest.raises(UsageError, match="exists and is not an empty folder"):
        results_folder(tmp_path, "soak")
    default = results_folder(None, "capacity")
    assert default.parent == RESULTS and default.name.endswith("-capacity")


@pytest.mark.parametrize("raised, state, error", [
    (None, "complete", None),
    (LabError("the server died\nlog tail ..."), "failed", "the server died"),
    (KeyboardInterrupt(), "interrupted", None),
])
def test_recording_end_records_how_the_run_ended_and_lets_the_error_through(raised, state, error):
    ended = []
    try:
        with recording_end(lambda *end: ended.append(end)):
            if raised:
                raise raised
    except (LabError, KeyboardInterrupt) as e:
        assert e is raised
    else:
        assert raised is None
    assert ended == [(state, error)]


def test_recording_end_keeps_a_state_the_block_set():
    ended = []
    with recording_end(lambda *end: ended.append(end)) as end:
        end.state, end.error = "failed", "1 of 2 points failed"
    assert ended == [("failed", "1 of 2 points failed")]


def test_the_settings_enable_every_event_the_summary_reads():
    """jfr print reads EVENTS from the recording; an event loomlab.jfc leaves off would read as zero (no
    stall, no pause) instead of not recorded."""
    import xml.etree.ElementTree as ET
    from labkit.measure.jfr import EVENTS, SETTINGS
    enabled = {event.get("name") for event in ET.parse(SETTINGS).getroot().iter("event")
               if event.findtext("setting[@name='enabled']") == "true"}
    assert set(EVENTS) <= enabled, set(EVENTS) - enabled
