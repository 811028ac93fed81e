"""The host's speed and ratios the host cannot move much: the host-speed reference (measured for real
on the JDK's server, its record, its drift in the report, ./lab compare setting run B at run A's
speed), and the ratios of each confirmation round's pair of targets, measured minutes apart."""
import json
import socket
import subprocess
import sys
import types

import pytest

from labkit import ROOT
from labkit.capacity.by_goal import by_goal
from labkit.capacity.goals import LatencyGoal
from labkit.capacity.report.goals_report import goal_section
from labkit.capacity.pairs import pair_lines, paired_ratios, reference_gaps, rounds_disagree
from labkit.capacity.report.markdown import report
from labkit.capacity.report.rebuild import write_all
from labkit.capacity.report.setup_report import setup_rows
from labkit.measure import reference
from labkit.measure.reference import (
    at_speed_of,
    compare_line,
    measure_reference,
    reference_record,
    speed_lines,
    speed_summary,
)

from labkit.tests.test_capacity_units import point, synthetic_run

PORT = 19761


def fake_run(ok_rps, cores, failure=None):
    load = None if ok_rps is None else types.SimpleNamespace(
        ok_rps=ok_rps, errors=types.SimpleNamespace(total=0), latency_ms=types.SimpleNamespace(p50=10.4))
    return {"load": load, "failure": failure,
            "resources": {"server": {"cpu_cores": cores}, "machine": {"server_cpus_steal_share": 0.001}}}


def test_a_reference_records_the_cpu_per_request_or_why_it_has_none():
    record = reference_record("virtual search", "2026-11-26T14:00:00Z", fake_run(1000.0, 0.05))
    assert record["cpu_ms_per_request"] == 0.05 and record["ok_rps"] == 1000.0 and record["before"] == "virtual search"
    failed = reference_record("virtual confirm 1", "t", fake_run(None, None, failure="vegeta exit 1: x"))
    assert failed == {"before": "virtual confirm 1", "at": "t", "error": "vegeta exit 1: x"}
    config = types.SimpleNamespace(modes=("url",))
    assert "--url" in measure_reference(config, "vegeta", "url search")["error"]


def env_with(*costs):
    return {"host_speed": [{"before": f"s{i}", "at": "t", "cpu_ms_per_request": c, "ok_rps": 1000.0,
                            "steal_share": 0.0} for i, c in enumerate(costs)]}


def test_the_drift_within_a_run_is_reported_and_judged_against_the_tolerance():
    summary = speed_summary(env_with(0.050, 0.052, 0.060)["host_speed"])
    assert summary["median"] == 0.052 and summary["n"] == 3 and abs(summary["drift"] - 0.2) < 1e-9
    text = "\n".join(speed_lines(env_with(0.050, 0.052, 0.060)))
    assert "20 % more than the fastest, beyond 10 %" in text and "| s2 | t | 0.0600 | 1,000 | 0.0 % |" in text
    assert "within 10 %." in "\n".join(speed_lines(env_with(0.050, 0.051)))
    assert speed_lines({}) == [] and speed_summary([{"before": "x", "error": "y"}]) is None


def test_compare_sets_run_b_at_run_a_speed():
    slow, fast = env_with(0.060, 0.060), env_with(0.045, 0.045)
    line = compare_line(slow, fast)
    assert "B's host faster by 25 %" in line and "scales by about that much" in line
    # 4,000 req/s on a host 25 % faster is about 3,000 at A's speed; a CPU cost the other way.
    assert at_speed_of(4000, slow, fast) == pytest.approx(3000)
    assert at_speed_of(0.045, slow, fast, higher_is_better=False) == pytest.approx(0.06)
    assert compare_line(slow, {}) is None and at_speed_of(4000, slow, {}) is None


def test_a_run_of_short_windows_measures_a_short_reference_that_is_not_set_against_a_full_one():
    assert reference.reference_lengths(3) == (3, 3) and reference.reference_lengths(15) == (10, 10)
    record = reference_record("virtual search", "t", fake_run(1000.0, 0.08), *reference.reference_lengths(3))
    assert (record["warm_s"], record["window_s"]) == (3, 3)
    short = {"host_speed": [record]}
    assert "a 3 s window after 3 s of warm-up" in "\n".join(speed_lines(short))
    # Written before the lengths followed the run's window: the full ones, as measured then.
    assert "a 10 s window after 10 s of warm-up" in "\n".join(speed_lines(env_with(0.050)))
    # Less warm, the short one costs more on the same host: no speed ratio, and compare says why.
    full = env_with(0.060)
    assert at_speed_of(4000, full, short) is None
    assert compare_line(full, short) == ("host-speed references not compared: A's were 10 s windows after 10 s "
                                         "of warm-up, B's 3 s after 3 s")


def test_compare_prints_each_figure_at_a_speed_when_both_runs_have_references(tmp_path):
    for name, env in (("a", env_with(0.060)), ("b", env_with(0.045))):
        run = synthetic_run()
        run["env"].update(env)
        (tmp_path / name).mkdir()
        (tmp_path / name / "results.json").write_text(json.dumps(run))
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "compare", str(tmp_path / "a"), str(tmp_path / "b")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    assert "B's host faster by 25 %" in result.stdout
    line = next(l for l in result.stdout.splitlines() if l.startswith("virtual") and "capacity req/s" in l)
    assert "(at A's speed 2,250.000: -25.0 %)" in line


# -- paired ratios ----------------------------------------------------------------------------------
def paired_run(floors=()):
    """Two targets, three rounds each; round 2 of platform-4000 held no rate (an upper bound). Every
    round that held a rate missed 5 % above it, except those in `floors` ((mode, repeat), ...): their
    walk ended there."""
    run = synthetic_run()
    run["config"]["modes"] = ["virtual", "platform-4000"]
    run["config"]["confirm_walk_steps"] = 2
    points = []
    fast = [120] * 100
    for repeat, (virtual, platform) in enumerate(((3000, 2000), (3300, 2200), (2900, 2500)), start=1):
        for mode, rate, at in (("virtual", virtual, 1000 + repeat * 600), ("platform-4000", platform, 1240 + repeat * 600)):
            held = not (mode == "platform-4000" and repeat == 2)
            window = point(mode, "confirm", rate, held, fast, repeat=repeat)
            window["window"] = {"epoch_s": [at, at + 15]}
            points.append(window)
            if held and (mode, repeat) not in floors:
                above = point(mode, "confirm", round(rate * 1.05), False, [200] * 100, repeat=repeat)
                above["window"] = {"epoch_s": [at + 20, at + 35]}
                points.append(above)
    run["points"] = points
    return run


def test_a_round_whose_walk_ended_without_a_miss_above_is_a_floor_and_bounds_its_ratio():
    (pair,) = paired_ratios(paired_run(floors=[("virtual", 1)]))
    assert pair["per_round"][0]["bound"] == "at least"          # virtual held 3,000 and tried nothing higher
    (pair,) = paired_ratios(paired_run(floors=[("platform-4000", 3)]))
    assert pair["per_round"][2]["bound"] == "at most"
    (pair,) = paired_ratios(paired_run(floors=[("virtual", 2)]))
    assert pair["per_round"][1]["bound"] == "at least"          # a floor over an upper bound: still one way
    floors = [("virtual", 1), ("platform-4000", 1)]
    (pair,) = paired_ratios(paired_run(floors=floors))
    assert pair["per_round"][0]["bound"] == "unknown"           # two floors: either way
    assert "r1 ?1.50×, r2 ≥1.50×, r3 1.16×" in "\n".join(pair_lines(paired_run(floors=floors)))


def test_each_rounds_pair_gives_a_ratio_and_a_round_that_held_nothing_gives_a_bound():
    (pair,) = paired_ratios(paired_run())
    assert (pair["a"], pair["b"], pair["n"]) == ("virtual", "platform-4000", 3)
    assert [(r["repeat"], round(r["ratio"], 3), r["bound"]) for r in pair["per_round"]] == \
        [(1, 1.5, None), (2, 1.5, "at least"), (3, 1.16, None)]
    assert pair["median"] == 1.5 and pair["min"] == 1.16 and pair["apart_min"] == 4.0
    text = "\n".join(pair_lines(paired_run()))
    assert "| 100 ms | virtual ÷ platform-4000 | r1 1.50×, r2 ≥1.50×, r3 1.16× | 1.50× [1.16–1.50] n=3 | 4 |" in text


def test_a_round_whose_two_references_differ_by_more_than_a_fifth_is_named_under_the_table():
    run = paired_run()
    run["env"]["host_speed"] = [{"before": f"{mode} confirm {repeat}", "cpu_ms_per_request": cost}
                                for mode, costs in (("virtual", (0.200, 0.200, 0.210)),
                                                    ("platform-4000", (0.300, 0.239, 0.200)))
                                for repeat, cost in enumerate(costs, start=1)]
    (pair,) = paired_ratios(run)
    assert [gap["repeat"] for gap in reference_gaps(run, pair)] == [1]      # 50 % apart; 19.5 % and 5 % are not
    text = "\n".join(pair_lines(run))
    assert ("- **Not at one host speed:** round 1 of virtual ÷ platform-4000: its references cost 0.2000 and 0.3000 "
            "ms per request (50 % apart)") in text
    assert "differ by more than 20 % is named under the table" in text
    assert "Not at one host speed" not in "\n".join(pair_lines(paired_run()))


def rounds_of(*ratios):
    return {"a": "platform-10000", "b": "virtual-4000", "goal_ms": 110,
            "per_round": [{"repeat": i, "ratio": r, "bound": b} for i, (r, b) in enumerate(ratios, start=1)]}


def test_rounds_disagree_only_when_one_round_puts_each_target_ahead_beyond_its_bound():
    assert rounds_disagree(rounds_of((0.99, None), (1.04, "at least"), (0.85, None)))
    assert not rounds_disagree(rounds_of((0.73, None), (0.81, "at least"), (0.66, None)))
    # A lower bound under 1 and an upper bound over 1 say nothing about the order.
    assert not rounds_disagree(rounds_of((1.2, None), (0.9, "at least")))
    assert not rounds_disagree(rounds_of((1.2, "at most"), (0.9, None)))
    assert not rounds_disagree(rounds_of((1.0, None), (0.9, None)))


def two_goal_paired_run():
    """paired_run with a second goal, 110 ms, whose rounds disagree: virtual ahead in round 1,
    platform-4000 in rounds 2 and 3."""
    run = paired_run()
    run["config"]["sleeps"][0]["goals_ms"] = [150, 110]
    run["config"]["goals"] = [{"percentile": "p99", "ms": 50.0, "relative_to_sleep": True},
                              {"percentile": "p99", "ms": 10.0, "relative_to_sleep": True, "percent_of_sleep": True}]
    fast = [105] * 100
    for repeat, (virtual, platform) in enumerate(((2000, 1800), (1700, 1900), (1600, 2000)), start=1):
        for mode, rate, at in (("virtual", virtual, 1100 + repeat * 600), ("platform-4000", platform, 1400 + repeat * 600)):
            window = point(mode, "confirm", rate, True, fast, repeat=repeat)
            window["capacity"]["goal_ms"] = 110
            window["window"] = {"epoch_s": [at, at + 15]}
            above = point(mode, "confirm", round(rate * 1.05), False, [130] * 100, repeat=repeat)
            above["capacity"]["goal_ms"] = 110
            above["window"] = {"epoch_s": [at + 20, at + 35]}
            run["points"] += [window, above]
    return run


def test_each_goal_gets_its_own_round_pairs_and_a_goal_where_the_rounds_disagree_is_said(tmp_path):
    pairs = {pair["goal_ms"]: pair for pair in paired_ratios(two_goal_paired_run())}
    assert sorted(pairs) == [110, 150]
    assert [round(r["ratio"], 3) for r in pairs[150]["per_round"]] == [1.5, 1.5, 1.16]
    assert [round(r["ratio"], 3) for r in pairs[110]["per_round"]] == [1.111, 0.895, 0.8]
    assert pairs[110]["apart_min"] == 5.0
    assert not rounds_disagree(pairs[150]) and rounds_disagree(pairs[110])
    text = "\n".join(pair_lines(two_goal_paired_run()))
    assert "| 100 ms | p99 ≤ 110 ms | virtual ÷ platform-4000 | r1 1.11×, r2 0.89×, r3 0.80× | 0.89× [0.80–1.11] n=3 | 5 |" \
        in text
    assert "**The rounds do not order** virtual and platform-4000 at p99 ≤ 110 ms" in text
    assert "at p99 ≤ 150 ms" not in text
    # Across goals the report claims an order only where every round gives it.
    goal_text = report(write_all(two_goal_paired_run(), tmp_path)).split("## Capacity per goal")[1]
    assert ("- **The rounds do not say** whether the order of virtual and platform-4000 turns with the goal: "
            "virtual ahead in every round at +50ms (150 ms); not resolved at +10% (110 ms)") in goal_text
    # Rebuilt with --slo goals that leave 110 ms out of the table, that goal is named by its limit.
    run = two_goal_paired_run()
    run["by_goal"] = by_goal(run, [LatencyGoal("p99", 50.0, True)])
    assert "not resolved at 110 ms (ratios above)" in "\n".join(goal_section(run))


def test_a_run_made_before_the_walk_keeps_its_report_without_paired_ratios(tmp_path):
    old = paired_run()
    del old["config"]["confirm_walk_steps"]
    assert pair_lines(old) == []
    assert "Ratios from rounds minutes apart" not in report(write_all(old, tmp_path))
    assert "Ratios from rounds minutes apart" in report(write_all(paired_run(), tmp_path))


def _setup(run, row):
    """One row of the report's setup table, as run's config describes its method."""
    return dict(setup_rows(run))[row]


def test_the_report_says_how_far_a_round_walked_up_in_the_run_it_shows():
    capped, open_upward = paired_run(), paired_run()   # runs before and after the walk up lost its cap
    open_upward["config"]["confirm_walk_up"] = "until a miss"
    max_rate = f"{open_upward['config']['max_rate']:,}"
    assert "until the verdict turns, 2 steps at most (" in _setup(capped, "Confirmation")
    assert (f"until the verdict turns, up until a window misses (at most {max_rate} req/s), down 2 steps at most ("
            in _setup(open_upward, "Confirmation"))


def test_the_report_says_which_warm_up_iterations_had_to_be_jit_quiet_in_the_run_it_shows():
    before, now = paired_run(), paired_run()   # runs before and after every settled iteration had to be quiet
    for run in (before, now):
        run["config"]["warmup_jit_rate"] = 5.0
    now["config"]["warmup_jit_iterations"] = 3
    assert "and the last compiled at most 5 methods per second" in _setup(before, "Warm-up")
    assert "and each of the last 3 compiled at most 5 methods per second" in _setup(now, "Warm-up")


# -- the reference, for real -------------------------------------------------------------------------
@pytest.mark.server
def test_the_reference_runs_the_jdk_server_at_its_rate_and_leaves_nothing_behind():
    from labkit.load.tools import ensure_tools
    vegeta = ensure_tools(["vegeta"])["vegeta"]
    from labkit.measure.server_setup import ServerSetup
    config = types.SimpleNamespace(modes=("virtual",), depth=10, setup=ServerSetup(port=PORT, jvm_options=("-Xmx256m",)))
    record = measure_reference(config, vegeta, "virtual search", run_window_s=3)
    assert "error" not in record, record
    assert (record["warm_s"], record["window_s"]) == (3, 3)
    assert record["ok_rps"] == pytest.approx(reference.REFERENCE_RATE, rel=0.05)
    assert 0 < record["cpu_ms_per_request"] < 5 and record["errors"] == 0 and 10 <= record["p50_ms"] < 100
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", PORT)) != 0, "the reference server still listens"


def test_each_session_measures_the_reference_first_and_records_it(monkeypatch, tmp_path):
    from labkit.capacity import session as session_module
    from labkit.load.levels import SleepSpec
    from labkit.tests.test_capacity_window_rules import bare_runner, capacity_config
    happened = []
    server = types.SimpleNamespace(pid=4242, base_url="http://127.0.0.1:19700", printable_command=lambda: "java",
                                   stop=lambda: None)
    monkeypatch.setattr(session_module, "measure_reference", lambda config, executable, before, window_s:
                        happened.append(("reference", before)) or {"before": before, "at": "t", "error": "fake"})
    from labkit.measure import measured_server
    monkeypatch.setattr(measured_server, "start_server",
                        lambda target, setup, heap=None: happened.append(("start",)) or server)
    monkeypatch.setattr(session_module, "probe", lambda server, path, mode: 120)
    monkeypatch.setattr(measured_server, "cpus_allowed", lambda server: [1])
    monkeypatch.setattr(measured_server, "keep_log", lambda server, out_dir, label: None)
    monkeypatch.setattr(session_module, "warm_up", lambda context, server, path, label, response_bytes: {})
    monkeypatch.setattr(session_module, "full_gc_of", lambda server, context: None)
    monkeypatch.setattr(session_module, "cool_down", lambda pid, cooldown_s, feed=None: None)
    monkeypatch.setattr(session_module, "idle_latency", lambda server, path, timeout_s: None)
    references = []
    for reference_on in (True, False):
        happened.clear()
        runner = bare_runner(tmp_path, capacity_config(reference=reference_on),
                             targets={"virtual": types.SimpleNamespace(description="a fake server")})
        runner.context.recorder.add_session = lambda session: None
        runner.context.recorder.add_reference = references.append
        runner.sessions.run("virtual", SleepSpec(100, 100), "confirm", 2, lambda session: None)
        expected = ([("reference", "virtual confirm 2")] if reference_on else []) + [("start",)]
        assert happened == expected
    assert references == [{"before": "virtual confirm 2", "at": "t", "error": "fake"}]


# -- a target with its own carriers, for a pair measured in one run -------------------------------------
def test_a_target_with_its_own_carrier_count_starts_the_same_server_with_that_parallelism():
    from labkit.catalog import all_targets, target
    from labkit.ground.errors import UsageError
    started = []
    base = all_targets()["jdk-virtual"]
    variant = all_targets()["jdk-virtual+2carriers"]
    assert variant.virtual is True and variant.max_concurrent == base.max_concurrent
    assert variant.description.endswith(", 2 carrier thread(s)")
    import dataclasses
    spy = dataclasses.replace(base, start=lambda port, jvm_options=(), **kw: started.append((port, jvm_options)))
    from labkit.servers.carriers import carrier_variant
    carrier_variant("jdk-virtual+3carriers", spy).start(8080, ["-Xmx1g"])
    assert started == [(8080, ["-Xmx1g", "-Djdk.virtualThreadScheduler.parallelism=3"])]
    with pytest.raises(UsageError, match="both set the carriers"):
        carrier_variant("jdk-virtual+3carriers", spy).start(8080, ["-Djdk.virtualThreadScheduler.parallelism=2"])
    with pytest.raises(UsageError, match="platform threads; it has no carriers"):
        target("platform-4000+2carriers")
    with pytest.raises(UsageError, match=r"must be in 1\.\.10000, was 0"):
        target("virtual+0carriers")
