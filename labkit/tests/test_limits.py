"""The limit verdict of a window (labkit/measure/limits.py): each check names its limit when its
figures cross the line and not below it, reads young and old pauses apart, says "not recorded" where
the record lacks the figures, and "none found" for a healthy window. Records are built as the lab
writes them (field names of labkit/measure/session.py, jfr.py and capacity/points.py)."""
import pytest

from labkit.measure.gc_limits import tail_share
from labkit.measure.limits import NONE_FOUND, count_cpus, limit_words, window_limits


def window(**changes):
    """A healthy 30 s window at 1,000 req/s, 100 ms sleep, server pinned to one CPU."""
    record = {
        "rate": 1000, "max_concurrent": None, "flags": [], "window": {"wall_s": 30},
        "load": {"errors": {"connect": 0, "reset": 0, "timeout": 0, "non_2xx": 0, "other": 0, "total": 0},
                 "schedule_lag_max_ms": 2.0, "duration_s": 30, "latency_ms": {"p99": 120.0}},
        "resources": {"server": {"cpu_cores": 0.40}, "driver": {"cpu_cores": 0.20},
                      "machine": {"cpus": 2, "server_cpus_steal_share": 0.0}},
        "derived": {"ceiling_rps": None},
        "jfr": {"available": True, "gc_count": 2, "pinned_events": 0, "pinned_total_ms": 0.0,
                "gc_pauses": [[5.0, 20.0, "G1New"], [20.0, 22.0, "G1New"]]},
    }
    for key, value in changes.items():
        record[key] = value
    return record


def limits_of(record, **given):
    options = {"goal_ms": 150.0, "service_ms": 100.0, "server_cpus": 1}
    options.update(given)
    return window_limits(record, **options)


def test_a_healthy_window_has_none_found_said_plainly():
    limits = limits_of(window())
    assert limits["limit"] == NONE_FOUND and limits["also"] == []
    assert set(limits["checks"]) == {"load-tool", "pool", "sockets", "gc-old", "gc-young", "cpu", "pinning"}
    assert limits["not_recorded"] == ["gc-stall", "locks", "jit"]
    words = limit_words(limits)
    assert words.startswith("none found: no check crossed its threshold") and "not recorded: gc-stall, locks, jit" in words


def test_cpu_is_named_at_its_share_of_the_cores_the_server_may_use():
    busy = window(resources={"server": {"cpu_cores": 0.90}, "driver": {"cpu_cores": 0.2},
                             "machine": {"cpus": 2, "server_cpus_steal_share": 0.0}})
    assert limits_of(busy)["limit"] == "cpu"
    assert "0.90 of its 1 core" in limit_words(limits_of(busy))
    # The same 0.90 cores on a server that may use two is not its limit.
    assert limits_of(busy, server_cpus=2)["limit"] == NONE_FOUND
    # With the window's execution samples the verdict says where the time went.
    profiled = window(resources=busy["resources"], jfr={**busy["jfr"], "cpu_profile": {"samples": 1200, "top": [
        {"frame": "sun.security.provider.SHA2.implCompress0", "samples": 600, "share": 0.5},
        {"frame": "org.glassfish.grizzly.nio.SelectorRunner.run", "samples": 120, "share": 0.1}]}})
    assert ("0.90 of its 1 core; on top of its 1,200 JFR execution samples: sun.security.provider.SHA2.implCompress0 "
            "50 %, org.glassfish.grizzly.nio.SelectorRunner.run 10 %") in limit_words(limits_of(profiled))
    assert limits_of(profiled)["checks"]["cpu"]["evidence"]["profile_top"][0]["samples"] == 600
    # Steal is CPU the server had work for and did not get.
    stolen = window(resources={"server": {"cpu_cores": 0.70}, "driver": {"cpu_cores": 0.2},
                               "machine": {"cpus": 2, "server_cpus_steal_share": 0.20}})
    assert limits_of(stolen)["limit"] == "cpu"


def test_young_pauses_that_keep_the_tails_share_past_the_goal_name_gc_young():
    # Five pauses of 80 ms in an 8 s window (the 8-core probe of the issue), slack 50 ms, the server at
    # 0.40 of its core: each keeps past the goal the requests arriving in its first 30 ms and those due
    # to be answered then, each set for 30 / (1 - 0.40) = 50 ms: 100 ms a pause, 500 ms in all, 6.25 %.
    pauses = [[t, 80.0, "G1New"] for t in (1, 2, 3, 4, 5)]
    record = window(window={"wall_s": 8}, jfr={"available": True, "gc_count": 5, "pinned_events": 0,
                                               "pinned_total_ms": 0.0, "gc_pauses": pauses})
    limits = limits_of(record)
    assert limits["limit"] == "gc-young" and limits["checks"]["gc-old"]["crossed"] is False
    evidence = limits["checks"]["gc-young"]["evidence"]
    assert evidence["longer_than_slack"] == 5 and evidence["slack_ms"] == 50.0 and evidence["busy_share"] == 0.4
    assert evidence["late_ms"] == pytest.approx(500.0) and evidence["share_of_window"] == pytest.approx(500 / 8000, abs=1e-5)
    assert evidence["threshold_share"] == pytest.approx(0.01) and evidence["made_the_miss"] is False
    words = limit_words(limits)
    assert "the requests arriving, or due to be answered, in about 500 ms, 6.25 % of the window (the line: 1.00 %)" in words
    assert "they put p99 at the service time plus a pause and its backlog" in words
    # The same pauses under a looser goal fit in its slack: not the limit.
    assert limits_of(record, goal_ms=200.0)["limit"] == NONE_FOUND
    # Pauses that barely pass the slack (53 ms against 50) keep requests late for a few ms only (50 ms, 0.63 %) ...
    barely = window(window={"wall_s": 8}, jfr={**record["jfr"], "gc_pauses": [[t, 53.0, "G1New"] for t in (1, 2, 3, 4, 5)]})
    assert limits_of(barely)["limit"] == NONE_FOUND
    # ... A busier server drains a pause's backlog slower: one 70 ms pause at 0.80 of its core (under the
    # CPU line of 0.85) keeps requests late five times its excess.
    busy = {"server": {"cpu_cores": 0.80}, "driver": {"cpu_cores": 0.2}, "machine": {"cpus": 2, "server_cpus_steal_share": 0.0}}
    one_pause = window(window={"wall_s": 15}, resources=busy,
                       jfr={**record["jfr"], "gc_count": 1, "gc_pauses": [[7, 70.0, "G1New"]]})
    # (20 + 20) / (1 - 0.80) = 200 ms of 15 s: 1.33 %, over the line; the bare excess (40 ms) was 0.27 %.
    assert limits_of(one_pause)["limit"] == "gc-young"
    assert limits_of(one_pause, server_cpus=2)["limit"] == NONE_FOUND, "the same pause on a server half as busy"
    # Pauses over the slack on a 60 s window at 0.40 busy stay below the line (200 ms, 0.33 %; 1 % for p99) ...
    rare = window(window={"wall_s": 60}, jfr={"available": True, "gc_count": 2, "pinned_events": 0,
                                              "pinned_total_ms": 0.0, "gc_pauses": [[1, 80.0, "G1New"], [30, 80.0, "G1New"]]})
    assert limits_of(rare)["limit"] == NONE_FOUND
    # ... and above it for p99.9, whose tail is ten times thinner.
    assert limits_of(rare, percentile="p999")["limit"] == "gc-young"
    # On a server past the CPU line, pauses that cross only by their slow drain come after the CPU ...
    saturated = {"server": {"cpu_cores": 0.95}, "driver": {"cpu_cores": 0.2}, "machine": {"cpus": 2, "server_cpus_steal_share": 0.0}}
    drained = limits_of(window(window={"wall_s": 15}, resources=saturated, jfr=one_pause["jfr"]))
    assert (drained["limit"], drained["also"]) == ("cpu", ["gc-young"])
    assert drained["checks"]["gc-young"]["evidence"]["by_backlog"] is True
    # ... and pauses whose bare excess crosses the line lead it: 250 ms beyond the slack for the arrivals,
    # and the answers due in them, at most a service time's worth (100 ms): 350 ms of 15 s, 2.3 %.
    long_pauses = {**record["jfr"], "gc_pauses": [[7, 300.0, "G1New"]]}
    led = limits_of(window(window={"wall_s": 15}, resources=saturated, jfr=long_pauses))
    assert (led["limit"], led["also"]) == ("gc-young", ["cpu"])
    # Without the server's CPU the backlog counts as draining at once: the bare excess, twice per pause.
    unrecorded = window(window={"wall_s": 8}, resources={}, jfr=record["jfr"])
    assert limits_of(unrecorded)["checks"]["gc-young"]["evidence"]["late_ms"] == pytest.approx(300.0)


def test_a_pause_on_a_tail_already_near_the_goal_made_the_miss():
    # p99 <= 110 ms at 100 ms of sleep (10 ms of slack), the server at 0.45 of its core: one young pause
    # of 60 ms keeps late the requests of (50 + 50) / 0.55 = 182 ms, 0.61 % of a 30 s window. Alone
    # that is under p99's 1 %; the window's own tail holds the rest.
    near = window(resources={"server": {"cpu_cores": 0.45}, "driver": {"cpu_cores": 0.2},
                             "machine": {"cpus": 2, "server_cpus_steal_share": 0.0}},
                  jfr={"available": True, "gc_count": 1, "pinned_events": 0, "pinned_total_ms": 0.0,
                       "gc_pauses": [[12.0, 60.0, "G1New"]]})
    options = {"goal_ms": 110.0}
    assert limits_of(near, **options)["limit"] == NONE_FOUND, "without the window's histogram: under the line"
    # 1.30 % of the requests past the goal, about 0.69 % without the pause's: it made the miss.
    made = limits_of(near, past_goal_share=0.013, **options)
    assert made["limit"] == "gc-young"
    evidence = made["checks"]["gc-young"]["evidence"]
    assert evidence["made_the_miss"] is True and evidence["past_goal_share"] == 0.013
    assert evidence["share_of_window"] == pytest.approx(100 / 0.55 / 30_000, abs=1e-5)
    assert ("the window had 1.30 % of its requests past the goal, about 0.69 % without them, within the 1 % p99 "
            "allows: they made the miss") in limit_words(made)
    # A tail that misses the goal without the pause: the pause did not make the miss.
    assert limits_of(near, past_goal_share=0.018, **options)["limit"] == NONE_FOUND
    # A pause too short to be half the tail's share (20 ms: 0.12 %) is not named even on a narrow miss.
    short = window(resources=near["resources"], jfr={**near["jfr"], "gc_pauses": [[12.0, 20.0, "G1New"]]})
    assert limits_of(short, past_goal_share=0.0101, **options)["limit"] == NONE_FOUND


def test_the_share_past_the_goal_is_read_from_the_windows_histogram():
    from labkit.capacity.limits import past_goal_share
    from labkit.load.tools import new_histogram
    from labkit.measure.histograms import encode
    histogram = new_histogram()
    histogram.record_value(101_000, 985)   # µs
    histogram.record_value(112_000, 10)
    histogram.record_value(180_000, 5)
    point = {"load": {"latency_hdr": encode(histogram)}, "capacity": {"goal_ms": 110.0}}
    assert past_goal_share(point) == pytest.approx(0.015)
    assert past_goal_share({**point, "capacity": {"goal_ms": 150.0}}) == pytest.approx(0.005)
    assert past_goal_share({"load": {}, "capacity": {"goal_ms": 110.0}}) is None


def zgc_window(stalls_ms, responses=30_000):
    """The healthy window on ZGC: sub-millisecond pauses, and `stalls_ms` allocation stalls."""
    record = window(jfr={"available": True, "gc_count": 4, "pinned_events": 0, "pinned_total_ms": 0.0,
                         "gc_pauses": [[t, 0.02, "ZGC Minor"] for t in (3, 9, 15, 21)],
                         "allocation_stalls": {"count": len(stalls_ms), "total_ms": sum(stalls_ms),
                                               "longest_ms": sorted(stalls_ms, reverse=True)}})
    record["load"] = {**record["load"], "responses": responses}
    return record


def test_zgc_allocation_stalls_longer_than_the_slack_for_half_the_tail_of_requests_name_gc_stall():
    # 30,000 requests, p99: the line is 0.5 % of them, 150. 200 stalls of 80 ms against 50 ms of slack cross it.
    limits = limits_of(zgc_window([80.0] * 200))
    assert limits["limit"] == "gc-stall" and not limits["checks"]["gc-young"]["crossed"]
    evidence = limits["checks"]["gc-stall"]["evidence"]
    assert (evidence["longer_than_slack"], evidence["requests"], evidence["share_of_requests"]) == (200, 30_000, 0.00667)
    assert "200 allocation stalls" in limit_words(limits) and "put p99 at the service time plus a stall" in limit_words(limits)
    # 100 such stalls are 0.33 %: below the line; as many short ones fit in the slack.
    assert limits_of(zgc_window([80.0] * 100))["limit"] == NONE_FOUND
    assert limits_of(zgc_window([30.0] * 400))["limit"] == NONE_FOUND
    # No stall at all says so; a run before the lab recorded stalls has them "not recorded".
    assert limits_of(zgc_window([]))["checks"]["gc-stall"]["words"] == "no allocation stall"
    assert "gc-stall" in limits_of(window())["not_recorded"]


def test_a_concurrent_collectors_cycles_show_below_the_lines_and_a_pauses_cycle_does_not():
    record = zgc_window([])
    record["jfr"]["gc_cycles"] = [[3, 1800.0, "ZGC Minor"], [9, 600.0, "ZGC Minor"], [15, 2500.0, "ZGC Major"],
                                  [21, 0.5, "ZGC Minor"]]
    limits = limits_of(record)
    assert limits["limit"] == NONE_FOUND
    young = limits["checks"]["gc-young"]["evidence"]["concurrent"]
    # The cycle of 0.5 ms was all pause (within 10 ms of it): not concurrent work.
    assert young == {"cycles": 2, "seconds": 2.4, "longest": [3, 4.8]}
    assert limits["checks"]["gc-old"]["evidence"]["concurrent"] == {"cycles": 1, "seconds": 2.5, "longest": [15, 17.5]}
    words = limit_words(limits)
    assert words.endswith("; below the lines: young collections running concurrently for 2.4 s, the longest "
                          "3.0–4.8 s in; old collections running concurrently for 2.5 s, the longest 15.0–17.5 s in")
    assert "2 cycles ran concurrently for 2.4 s" in limits["checks"]["gc-young"]["words"]
    # G1's young collections are all pause: nothing concurrent to name; a record without cycles neither.
    g1 = window()
    g1["jfr"]["gc_cycles"] = [[5.0, 20.5, "G1New"], [20.0, 22.1, "G1New"]]
    assert "concurrent" not in limits_of(g1)["checks"]["gc-young"]["evidence"]
    assert "concurrent" not in limits_of(window())["checks"]["gc-young"]["evidence"]


def test_old_pauses_are_told_apart_from_young_ones():
    record = window(jfr={"available": True, "gc_count": 2, "pinned_events": 0, "pinned_total_ms": 0.0,
                         "gc_pauses": [[3.0, 400.0, "G1Full"], [9.0, 10.0, "G1New"]]})
    limits = limits_of(record)
    assert limits["limit"] == "gc-old" and limits["checks"]["gc-young"]["crossed"] is False
    assert limits["checks"]["gc-old"]["evidence"]["longest_ms"] == 400.0


def test_a_load_tool_short_of_cpu_is_named_first_whatever_else_crossed():
    record = window(flags=["client-bound", "driver-behind"],
                    resources={"server": {"cpu_cores": 0.95}, "driver": {"cpu_cores": 0.98},
                               "machine": {"cpus": 2, "server_cpus_steal_share": 0.0}})
    record["load"]["schedule_lag_max_ms"] = 240.0
    limits = limits_of(record)
    assert limits["limit"] == "load-tool" and limits["also"] == ["cpu"]
    assert "0.98 of a core" in limit_words(limits) and "240 ms late" in limit_words(limits)


def test_a_load_tool_at_its_cgroup_quota_is_client_bound_though_far_below_a_core():
    from labkit.measure.results import flags
    held = {"server": {"cpu_cores": 0.20}, "driver": {"cpu_cores": 0.098, "quota_cores": 0.1},
            "machine": {"cpus": 2, "server_cpus_steal_share": 0.0}}
    assert "client-bound" in flags({"resources": held})
    limits = limits_of(window(resources=held, flags=flags({"resources": held})))
    assert limits["limit"] == "load-tool" and limits["checks"]["load-tool"]["evidence"]["quota_cores"] == 0.1
    assert "0.10 of a core (its cgroup's CPU quota: 0.10 of a core)" in limit_words(limits)
    # The same CPU without a quota is a tenth of its core: not short of it. A quota above one core
    # leaves the one core the tool is pinned to as its line.
    assert "client-bound" not in flags({"resources": {**held, "driver": {"cpu_cores": 0.098}}})
    assert "client-bound" not in flags({"resources": {**held, "driver": {"cpu_cores": 0.5, "quota_cores": 2.0}}})


def test_a_bounded_pool_at_its_ceiling_is_the_limit():
    # platform-8 with 1 s sleeps: 8 threads serve at most 8 req/s.
    record = window(rate=10, max_concurrent=8, derived={"ceiling_rps": 8.0})
    limits = limits_of(record, goal_ms=1050.0, service_ms=1000.0)
    assert limits["limit"] == "pool" and limits["checks"]["pool"]["evidence"]["ceiling_rps"] == 8.0
    below = window(rate=5, max_concurrent=8, derived={"ceiling_rps": 8.0})
    assert limits_of(below, goal_ms=1050.0, service_ms=1000.0)["limit"] == NONE_FOUND


def test_refused_connections_name_sockets():
    record = window()
    record["load"]["errors"].update(connect=120, total=120)
    limits = limits_of(record)
    assert limits["limit"] == "sockets" and "120 connections refused" in limit_words(limits)


def test_pinning_and_locks_name_themselves():
    pinned = window(jfr={"available": True, "gc_count": 0, "gc_pauses": [], "pinned_events": 40,
                         "pinned_total_ms": 900.0})
    assert limits_of(pinned)["limit"] == "pinning"
    locked = window(jfr={"available": True, "gc_count": 0, "gc_pauses": [], "pinned_events": 0, "pinned_total_ms": 0.0,
                         "locks": {"monitor_enter": {"count": 5000, "total_ms": 60000.0, "top_sites": [
                             {"site": "app.Ledger.post", "count": 4000, "total_ms": 50000.0}]}}})
    limits = limits_of(locked)
    assert limits["limit"] == "locks" and limits["checks"]["locks"]["evidence"]["threads_waiting"] == 2.0
    assert limit_words(limits).endswith("2.00 threads waiting for a monitor at any moment on average, "
                                        "most of the wait at app.Ledger.post")
    # Under one thread waiting on average the monitors serialised nothing that limits.
    locked["jfr"]["locks"]["monitor_enter"]["total_ms"] = 20000.0
    assert limits_of(locked)["limit"] == NONE_FOUND


def test_a_window_on_an_unsettled_server_names_the_jit():
    assert limits_of(window(), warm=False)["limit"] == "jit"
    assert limits_of(window(), warm=True)["limit"] == NONE_FOUND


def compiling(compiles, compile_ms, per_second=()):
    record = window()
    record["jfr"] = {**record["jfr"], "jit": {"compiles": compiles, "compile_ms": compile_ms, "seconds": 30.0,
                                              "per_second": [list(s) for s in per_second]}}
    return record


def test_a_window_with_no_limit_found_says_what_it_showed_below_the_lines():
    record = compiling(120, 300)
    record["resources"]["server"]["cpu_full"] = {"seconds": 2.5, "longest": [1.0, 3.0]}
    limits = limits_of(record)
    assert limits["limit"] == NONE_FOUND
    assert limit_words(limits).endswith("; below the lines: the CPU full for 2.5 s, the longest stretch 1.0–3.0 s "
                                        "in; the JIT compiling 120 methods, 300 ms")
    assert "full for 2.5 s of the window, the longest stretch 1.0–3.0 s in" in limits["checks"]["cpu"]["words"]
    # A window that never had its CPU full says nothing of it.
    assert "below the lines" not in limit_words(limits_of(window()))


def test_a_window_whose_server_still_compiles_faster_than_a_settled_warm_up_names_the_jit():
    # 6/s, above the warm-up's quiet line of 5/s; 2.4 s of compile time, 1.9 s of it in one second.
    limits = limits_of(compiling(180, 2400, [(2.0, 150, 1900), (3.0, 30, 500)]))
    assert limits["limit"] == "jit"
    check = limits["checks"]["jit"]
    assert check["evidence"]["compiles_per_s"] == 6.0 and check["evidence"]["share_of_cores"] == 0.08
    assert check["evidence"]["busiest_second"] == [2.0, 150, 1900]
    assert ("the JIT compiled 180 methods in the window (6.0/s; a settled warm-up compiles at most 5/s), "
            "2,400 ms compiling by the compiler's clock (8.0 % of the window on its 1 core; elapsed time, which a "
            "full CPU stretches), 1,900 ms of it in the second ending 2 s in") in check["words"]
    # 4/s is the tail of a warm server: recorded, not crossed; and it leaves "none found" standing.
    quiet = limits_of(compiling(120, 300))
    assert quiet["limit"] == NONE_FOUND and quiet["checks"]["jit"]["crossed"] is False
    assert "jit" not in quiet["not_recorded"]
    # Fast but cheap (7.3/s in 0.9 % of the CPU time, a fresh small server): a trickle, not a limit.
    trickle = limits_of(compiling(220, 270))
    assert trickle["checks"]["jit"]["evidence"]["compiles_per_s"] > 5 and trickle["limit"] == NONE_FOUND
    # A later check never hides an earlier one: a full CPU leads, the JIT is named beside it.
    busy = compiling(600, 9000)
    busy["resources"]["server"]["cpu_cores"] = 0.95
    assert limits_of(busy)["limit"] == "cpu" and limits_of(busy)["also"] == ["jit"]


def test_figures_the_record_lacks_are_not_recorded_never_not_crossed():
    bare = {"rate": 100, "max_concurrent": 4000, "flags": [], "window": {"wall_s": 10}}
    limits = window_limits(bare, goal_ms=150.0, service_ms=100.0)
    assert limits["limit"] == NONE_FOUND and limits["checks"] == {}
    assert limits["not_recorded"] == ["load-tool", "pool", "sockets", "gc-old", "gc-young", "gc-stall", "cpu", "pinning",
                                      "locks", "jit"]
    # Without a goal there is no slack to hold the pauses against.
    assert "gc-young" in window_limits(window(), server_cpus=1)["not_recorded"]


def test_the_small_helpers():
    assert tail_share("p99") == pytest.approx(0.01) and tail_share("p999") == pytest.approx(0.001)
    assert tail_share("p50") == pytest.approx(0.5)
    assert count_cpus("1") == 1 and count_cpus("0-1") == 2 and count_cpus("0,2-3") == 3 and count_cpus(None) is None


# ---- a capacity's limit: what stopped each round just above the rate it held ----------------------

def _committed(name):
    import gzip
    import json
    from labkit import ROOT
    return json.loads(gzip.decompress((ROOT / "docs" / "results" / "capacity" / name / "results.json.gz").read_bytes()))


def test_each_capacity_of_a_committed_sweep_names_what_stopped_its_rounds():
    """The 2 s sweep of platform-10000 and virtual-4000 (Zen 5): at 2,050 ms young pauses stopped every
    round of both (as its page found by hand), at 2,200 ms virtual-4000 stood at its pool's ceiling."""
    from labkit.capacity.limits import round_limits
    from labkit.capacity.report.markdown import report
    from labkit.capacity.summary import measured_for, rounds, summarize
    run = _committed("s2000-goal-sweep-p10000-v4000")
    rows = {row["mode"]: row for row in summarize(run)}
    assert rows["platform-10000"]["limit"]["counts"] == {"gc-young": 3}
    assert rows["virtual-4000"]["limit"]["counts"] == {"gc-young": 3}
    first = rows["virtual-4000"]["limit"]["rounds"][0]
    assert (first["held_rps"], first["missed_rps"]) == (1157, 1218) and "longer than it" in first["words"]
    at_2200 = rounds([p for p in run["points"] if p["mode"] == "virtual-4000" and p["phase"] == "confirm"
                      and measured_for(p, 2200.0)])
    assert round_limits(run, at_2200)["counts"] == {"pool": 3}
    text = report({**run, "summary": list(rows.values())})
    assert "## What limited each capacity" in text and "| gc-young (3 of 3 rounds) |" in text
    assert "- `virtual-4000` at 2000 ms, p99 ≤ 2,050 ms: gc-young (3 of 3 rounds)" in text


def test_a_round_at_max_rate_or_without_a_miss_above_is_no_limit_of_the_server():
    from labkit.capacity.limits import AT_MAX_RATE, NO_MISS_ABOVE, round_limits

    def confirm(index, rate, passed, verdict=None):
        return {"index": index, "id": f"w{index}", "mode": "virtual", "session": 1, "phase": "confirm", "repeat": 1,
                "rate": rate, "load": {"errors": {}}, "capacity": {"passed": passed, "goal_ms": 150.0,
                                                                    "verdict": verdict or ("met" if passed else "missed")}}
    run = {"config": {"max_rate": 400, "scenario": "sleep"}, "sessions": [], "points": []}
    assert round_limits(run, {1: [confirm(1, 400, True)]})["rounds"][0]["limit"] == AT_MAX_RATE
    assert round_limits(run, {1: [confirm(1, 300, True)]})["rounds"][0]["limit"] == NO_MISS_ABOVE
    # A window to be measured again (too few young collections) is not the miss above.
    again = round_limits(run, {1: [confirm(1, 300, True), confirm(2, 350, False, "rerun-longer")]})
    assert again["rounds"][0]["limit"] == NO_MISS_ABOVE
    missed = round_limits(run, {1: [confirm(1, 300, True), confirm(2, 350, False)]})["rounds"][0]
    assert (missed["held_rps"], missed["missed_rps"], missed["point"]) == (300, 350, "w2")
