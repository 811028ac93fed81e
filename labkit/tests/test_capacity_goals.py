"""Capacity as a function of the goal, without servers: several goals in --slo, a window judged against
a goal it was not measured for, the search that bisects once more per goal on the same server, the
confirmation round that walks up as well as down, and the table, the ranking's turn, the chart and
./lab report --slo that come from the windows."""
import argparse
import json
import subprocess
import sys
import types

import pytest

from labkit import ROOT
from labkit.load.levels import SleepSpec
from labkit.capacity.by_goal import by_goal, goal_orders
from labkit.capacity.goals import LatencyGoal, bracket, goal_limits, latency_goals, settled, verdict_at
from labkit.capacity.report.markdown import report
from labkit.capacity.report.rebuild import write_all
from labkit.capacity.session import ServerSession
from labkit.measure.measured_server import MeasuredServer

from labkit.tests.test_capacity_units import point, synthetic_run
from labkit.tests.test_capacity_window_rules import bare_runner, capacity_config

SLEEP = SleepSpec(100, 100)


# -- --slo --------------------------------------------------------------------------------------
def test_several_goals_share_one_percentile_and_may_be_absolute_above_the_sleep_or_a_share_of_it():
    goals = latency_goals("p99=+50ms,+5%,200ms")
    assert goals == (LatencyGoal("p99", 50.0, True), LatencyGoal("p99", 5.0, True, True),
                     LatencyGoal("p99", 200.0, False))
    assert [g.limit_ms(SLEEP) for g in goals] == [150, 105, 200]
    assert [g.limit_ms(SleepSpec(2000, 2000)) for g in goals] == [2050, 2100, 200]
    assert [str(g) for g in goals] == ["p99 <= sleep + 50 ms", "p99 <= sleep + 5 %", "p99 <= 200 ms"]
    assert [g.limit_text for g in goals] == ["+50ms", "+5%", "200ms"]
    assert all(LatencyGoal.from_dict(g.to_dict()) == g for g in goals)
    # +50ms and +50 % are one search at a 100 ms sleep, two at 2 s.
    pair = latency_goals("p99.9=+50ms,+50%")
    assert goal_limits(pair, SLEEP) == [150] and goal_limits(pair, SleepSpec(2000, 2000)) == [2050, 3000]


@pytest.mark.parametrize("text, message", [
    ("+50ms", "--slo takes"),                      # the first goal names its percentile
    ("p99=5%", "written above it"),                # a share is a share above the sleep
    ("p99=+50ms,p90=+5%", "one percentile"),
    ("p99=+50ms,+50ms", "twice"),
    ("p99=+0ms", "out of range"),
    ("p99=+50ms,,+5%", "--slo takes"),
])
def test_a_goal_list_that_cannot_be_meant_is_refused_with_the_reason(text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        latency_goals(text)


def test_the_capacity_command_refuses_an_absolute_goal_under_the_sleep_among_several():
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "capacity", "--sleep", "100", "--slo",
                             "p99=+50ms,90ms"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            timeout=60)
    assert result.returncode == 2 and "p99 <= 90 ms is not above the sleep" in result.stderr


def test_your_requests_take_a_goal_under_the_sleep_endpoints_default_sleep():
    """--request has no sleep: a goal of 50 ms is not held against the endpoint's default of 100 ms."""
    from labkit.capacity.config import CapacityConfig
    from labkit.catalog import all_targets
    from labkit.cli import build_parser
    args = build_parser().parse_args(["capacity", "--modes", "virtual", "--request", "GET /api/work?rounds=100",
                                      "--slo", "p99=50ms"])
    config = CapacityConfig.build(args, all_targets())
    assert config.sleeps == (SleepSpec(0, 0),) and config.goal.ms == 50


# -- one window, another goal ---------------------------------------------------------------------
def window(rate, p99, goal_ms=150, passed=None, young=3, window_s=15, verdict=None, errors=0):
    """A search window measured for `goal_ms` whose p99 was `p99` ms."""
    met = errors == 0 and p99 <= goal_ms
    return {"id": f"w{rate}-{goal_ms}", "rate": rate, "phase": "search", "mode": "virtual",
            "load": {"errors": {"total": errors}, "latency_ms": {"p50": 100, "p99": p99}},
            "jfr": {"available": True, "young_gc_count": young},
            "capacity": {"goal_ms": goal_ms, "percentile": "p99", "met_goal": met, "window_s": window_s,
                         "passed": met if passed is None else passed, "verdict": verdict or ("met" if met else "missed")}}


def test_a_window_decides_another_goal_by_the_same_rules_or_says_it_cannot():
    judged = lambda w, goal: verdict_at(w, "p99", goal, 2, 120)
    assert judged(window(2000, 140), 200) is True and judged(window(2000, 140), 120) is False
    assert judged(window(2000, 180), 200) is True       # missed its own goal, met a looser one
    assert judged(window(2000, 140, errors=3), 1000) is False   # a failed request fails every goal
    # Met on the ramp with one young collection: it counted for its own goal, but says nothing of another.
    ramp = window(1000, 120, young=1, verdict="met-ramp", passed=True)
    assert judged(ramp, 150) is True and judged(ramp, 200) is None
    # At the longest window few collections count (few-gcs), whichever goal.
    assert judged(window(500, 120, young=1, window_s=120), 200) is True
    # A window that was to be re-run longer decides nothing, not even its own goal.
    assert judged(window(2000, 140, young=1, verdict="rerun-longer", passed=False), 150) is None


def test_the_bracket_of_a_goal_comes_from_every_window_and_says_whether_it_is_settled():
    windows = [window(1000, 110), window(2000, 140), window(4000, 400), window(3000, 180), window(2500, 160),
               window(2600, 165)]
    assert bracket(windows, "p99", 150, 2, 120) == (2000, 2500)
    assert bracket(windows, "p99", 200, 2, 120) == (3000, 4000)
    assert bracket(windows, "p99", 105, 2, 120) == (None, 1000)
    assert bracket(windows, "p99", 500, 2, 120) == (4000, None)
    assert not settled(2000, 2500, 0.05) and settled(2000, 2100, 0.05) and not settled(None, 1000, 0.05)
    # A window measured again (the load tool could not keep the rate) is left out for its successor.
    lost = dict(window(3500, 900), id="first")
    again = dict(window(3500, 190), id="second", again_of="first")
    assert bracket(windows + [lost, again], "p99", 200, 2, 120) == (3500, 4000)


# -- the search and the rounds -------------------------------------------------------------------
def model_runner(tmp_path, goals, p99_of_rate):
    """A runner whose windows' p99 follows p99_of_rate(rate), three young collections each; returns the
    runner and the list of (rate, goal_ms) measured."""
    config = capacity_config(goal=goals[0], other_goals=tuple(goals[1:]), start_rate=1000)
    runner = bare_runner(tmp_path, config)
    measured = []

    def measure(session, w):
        p99 = p99_of_rate(w.rate)
        record = window(w.rate, p99, goal_ms=w.goal_ms)
        record["flags"] = []
        runner.windows.judge(record, w)
        measured.append((w.rate, w.goal_ms))
        return record
    runner.windows.measure_once = measure
    runner.sessions.run = lambda mode, sleep, phase, repeat, work: work(
        ServerSession(MeasuredServer(types.SimpleNamespace(port=1), {}), "url", 1))
    return runner, measured


def test_the_search_bisects_again_on_the_same_server_only_for_goals_its_windows_do_not_settle(tmp_path):
    # p99 = 100 ms + 1 ms per 50 req/s: 150 ms at 2,500 req/s, 200 ms at 5,000.
    goals = latency_goals("p99=+50ms,200ms,+1000ms")
    runner, measured = model_runner(tmp_path, goals, lambda rate: 100 + rate / 50)
    found = runner._search("virtual", SLEEP)
    assert list(found) == [150, 200, 1100]
    assert 2500 * 0.95 <= found[150] <= 2500 and 5000 * 0.95 <= found[200] <= 5000
    assert found[1100] == 50_000   # the ramp reached --max-rate: p99 1,100 ms there
    main_windows = [rate for rate, goal in measured if goal == 150]
    assert main_windows[:3] == [1000, 2000, 4000]
    # The 200 ms search starts from what the 150 ms windows told it: 4,000 req/s already met 200 ms and
    # none missed it, so its ramp goes on from there, and nothing at or below 4,000 is measured again.
    second = [rate for rate, goal in measured if goal == 200]
    assert second[0] == 8000 and all(4000 < rate <= 8000 for rate in second)
    assert all(verdict_at(window(r, 100 + r / 50, goal_ms=g), "p99", 200, 2, 120) is not None for r, g in measured)


def test_a_round_walks_up_until_a_window_misses_and_down_two_steps_at_most(tmp_path):
    goals = latency_goals("p99=+50ms")
    for capacity, found, walked in [
            (2500, 2000, [2000, 2100, 2205, 2316, 2432, 2554]),  # holds four steps up: no cap, the miss ends it
            (2050, 2000, [2000, 2100]),                          # holds, then misses one step up
            (1850, 2000, [2000, 1900, 1805]),                    # misses twice, holds lower
            (1000, 2000, [2000, 1900, 1805]),                    # misses three times: two steps down
            (60_000, 47_000, [47_000, 49_350, 50_000])]:         # holds up to --max-rate (50,000), no further
        runner, measured = model_runner(tmp_path, goals, lambda rate: 140 if rate <= capacity else 400)
        runner._confirm("virtual", SLEEP, 1, {150: found})
        assert [rate for rate, _ in measured] == walked, capacity


def test_each_round_walks_once_per_goal_from_that_goals_rate(tmp_path):
    goals = latency_goals("p99=+50ms,200ms")
    runner, measured = model_runner(tmp_path, goals, lambda rate: 100 + rate / 50)
    runner._confirm("virtual", SLEEP, 1, {150: 2400, 200: 4800})
    assert [goal for _, goal in measured][:1] == [150] and measured[-1][1] == 200
    assert {rate for rate, goal in measured if goal == 200} >= {4800}


# -- the table, the turn and the report ---------------------------------------------------------------
def two_goal_run(rates=None, walked=False):
    """virtual holds more at 150 ms (its p99 is flat), platform-4000 at 300 ms (its p99 stays lower
    under a looser goal): rounds per goal, confirmed. `rates` {(mode, goal_ms): [per round]} replaces
    the rates; `walked`: each round also missed one step above what it held, as rounds walk today."""
    run = synthetic_run()
    run["config"]["modes"] = ["virtual", "platform-4000"]
    run["config"]["sleeps"][0]["goals_ms"] = [150, 300]
    run["config"]["goals"] = [g.to_dict() for g in latency_goals("p99=+50ms,300ms")]
    run["config"].update(min_young_gcs=0, max_window_s=120, confirm_walk_steps=2 if walked else None)
    rates = rates or {("virtual", 150): [3000] * 3, ("virtual", 300): [3200] * 3,
                      ("platform-4000", 150): [2000] * 3, ("platform-4000", 300): [4000] * 3}
    points = []
    fast = [120] * 200
    for (mode, goal_ms), held in rates.items():
        search = point(mode, "search", held[0], True, fast)
        search["capacity"]["goal_ms"] = goal_ms
        points.append(search)
        for repeat, rate in enumerate(held, start=1):
            confirm = point(mode, "confirm", rate, True, fast, repeat=repeat)
            confirm["capacity"]["goal_ms"] = goal_ms
            points.append(confirm)
            if walked:
                above = point(mode, "confirm", round(rate * 1.05), False, [900] * 200, repeat=repeat)
                above["capacity"]["goal_ms"] = goal_ms
                points.append(above)
    run["points"] = points
    return run


def test_the_goal_table_takes_each_goal_from_its_own_rounds_and_says_where_the_ranking_turns(tmp_path):
    run = two_goal_run(walked=True)
    out = write_all(run, tmp_path)
    rows = {(r["mode"], r["goal_ms"]): r for r in out["by_goal"]["rows"]}
    assert rows[("virtual", 150)]["capacity_rps"]["median"] == 3000
    assert rows[("platform-4000", 300)]["capacity_rps"]["median"] == 4000
    assert rows[("virtual", 300)]["how"] == "confirmed"
    orders = goal_orders(run)
    assert [(o["a"], o["b"], o["kind"], o["leaders"]) for o in orders] == \
        [("virtual", "platform-4000", "turns", [(150, "virtual"), (300, "platform-4000")])]
    text = (tmp_path / "report.md").read_text()
    assert "## Capacity per goal" in text
    assert ("The ranking turns** between virtual and platform-4000: virtual ahead in every round at +50ms (150 ms); "
            "platform-4000 ahead in every round at 300ms (300 ms).") in text
    assert "capacity-vs-goal.png" in out["charts"].values() and (tmp_path / "capacity-vs-goal.png").stat().st_size
    # The main goal's table is the rounds measured for the main goal only.
    main = {r["mode"]: r for r in out["summary"]}
    assert main["platform-4000"]["capacity_rps"]["median"] == 2000


def test_medians_that_swap_with_a_round_against_them_claim_no_turn_and_a_steady_lead_holds(tmp_path):
    # At 150 ms the medians put virtual ahead (3,000 vs 2,000), but round 3 puts platform-4000 ahead.
    rates = {("virtual", 150): [3000, 3000, 1800], ("virtual", 300): [3200] * 3,
             ("platform-4000", 150): [2000] * 3, ("platform-4000", 300): [4000] * 3}
    run = two_goal_run(rates, walked=True)
    [order] = goal_orders(run)
    assert order["kind"] == "open" and order["leaders"] == [(300, "platform-4000")] and order["open"] == [150]
    text = report(write_all(run, tmp_path))
    assert "The ranking turns" not in text and "The ranking holds" not in text
    assert ("The rounds do not say** whether the order of virtual and platform-4000 turns with the goal: "
            "platform-4000 ahead in every round at 300ms (300 ms); not resolved at +50ms (150 ms)") in text
    # platform-4000 ahead in every round at both goals: the ranking holds.
    steady = {("virtual", 150): [1500] * 3, ("virtual", 300): [3200] * 3,
              ("platform-4000", 150): [2000] * 3, ("platform-4000", 300): [4000] * 3}
    (tmp_path / "steady").mkdir()
    text = report(write_all(two_goal_run(steady, walked=True), tmp_path / "steady"))
    assert ("The ranking holds** between virtual and platform-4000: platform-4000 ahead in every round at "
            "every goal here.") in text
    # Rounds not walked in pairs (a run from before the walk) order nothing across goals.
    (tmp_path / "old").mkdir()
    text = report(write_all(two_goal_run(steady), tmp_path / "old"))
    assert "No order across goals** is drawn" in text and "The ranking" not in text


def test_a_bracket_above_a_looser_goals_rounds_is_capped_by_them():
    run = synthetic_run()
    # A search window at 3,150 req/s met 110 ms (p99 105 ms) although virtual's rounds held 3,000 at 150 ms.
    lucky = point("virtual", "search", 3150, False, [105] * 200)
    lucky["capacity"]["passed"] = False
    run["points"].append(lucky)
    run["config"].update(min_young_gcs=0, max_window_s=120)
    rows = {(r["mode"], r["goal_ms"]): r for r in by_goal(run, latency_goals("p99=+50ms,110ms"))["rows"]}
    tight = rows[("virtual", 110)]
    assert tight["how"] == "windows" and tight["found_rps"] == 3150
    assert tight["bound"] == {"goal": "+50ms", "goal_ms": 150, "rps": 3000, "below": False}
    from labkit.capacity.report.goals_report import goal_cell
    assert goal_cell(tight) == "≤ 3,000 (the rounds at +50ms; a window met it at 3,150)"
    # Without the lucky window the bracket (below 1,500, the lowest rate that missed) lies below the
    # rounds and stands as it is; a confirmed row is never capped.
    run["points"].remove(lucky)
    rows = {(r["mode"], r["goal_ms"]): r for r in by_goal(run, latency_goals("p99=+50ms,110ms"))["rows"]}
    assert rows[("virtual", 110)]["missed_rps"] == 1500 and rows[("virtual", 110)]["bound"] is None
    assert goal_cell(rows[("virtual", 110)]) == "< 1,500 (windows)"
    assert rows[("virtual", 150)]["bound"] is None


def test_a_goal_whose_rounds_held_the_max_rate_is_reported_as_a_floor(tmp_path):
    run = two_goal_run()
    run["config"]["max_rate"] = 4000       # platform-4000's rounds at 300 ms held 4,000: the walk stops there
    out = write_all(run, tmp_path)
    rows = {(r["mode"], r["goal_ms"]): r for r in out["by_goal"]["rows"]}
    assert rows[("platform-4000", 300)]["rounds_at_max_rate"] == 3
    assert rows[("virtual", 300)]["rounds_at_max_rate"] == 0
    text = (tmp_path / "report.md").read_text()
    assert ("platform-4000 held 4,000 req/s at 300ms (300 ms) in 3 of 3 rounds, and no round went higher: "
            "its capacity there is at least that") in text
    assert text.count("At the run's --max-rate") == 1
    # Under a higher limit the same rounds are capacities like any other.
    run = two_goal_run()
    (tmp_path / "roomy").mkdir()
    write_all(run, tmp_path / "roomy")
    assert "--max-rate" not in (tmp_path / "roomy" / "report.md").read_text().split("## Capacity per goal")[1]


def test_a_capacity_whose_rounds_held_the_max_rate_says_it_is_a_floor(tmp_path):
    run = synthetic_run()
    run["config"]["max_rate"] = 3000       # virtual's three rounds held 3,000; platform-10000's 2,800
    out = write_all(run, tmp_path)
    rows = {r["mode"]: r for r in out["summary"]}
    assert rows["virtual"]["confirm"]["at_max_rate"] == 3 and rows["platform-10000"]["confirm"]["at_max_rate"] == 0
    lines = {line.split("|")[1].strip(): line for line in (tmp_path / "report.md").read_text().splitlines()
             if line.startswith(("| virtual | 100 ms |", "| platform-10000 | 100 ms |"))}   # the capacity table
    assert "3 of 3 rounds held --max-rate, where the walk stops: a floor" in lines["virtual"]
    assert "--max-rate" not in lines["platform-10000"]


def test_a_run_with_one_goal_has_no_goal_table_and_its_report_is_unchanged(tmp_path):
    run = synthetic_run()
    before = report(write_all(json.loads(json.dumps(run)), tmp_path))
    assert "by_goal" not in json.loads((tmp_path / "results.json").read_text())
    assert "Capacity per goal" not in before
    assert "capacity-vs-goal.png" not in before


def test_report_slo_recomputes_other_goals_from_the_windows_and_refuses_a_bench_folder(tmp_path):
    run = synthetic_run()
    folder = tmp_path / "cap"
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps(run))
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "report", str(folder), "--slo", "p99=+50ms,+900%"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    # The table per goal is the report's; the record it was computed from stays as it was.
    assert (folder / "results.json").read_text() == json.dumps(run)
    rows = {(r["mode"], r["goal_ms"]): r for r in by_goal(run, latency_goals("p99=+50ms,+900%"))["rows"]}
    # synthetic_run's windows: the doubled rate missed 150 ms (p99 900 ms) but meets 1,000 ms.
    assert rows[("virtual", 1000)]["how"] == "windows" and rows[("virtual", 1000)]["found_rps"] == 6000
    assert rows[("virtual", 150)]["how"] == "confirmed"
    assert "| virtual | 3,000 [3,000–3,000] n=3 | ≥ 6,000 (windows) |" in (folder / "report.md").read_text()
    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "results.json").write_text(json.dumps({"schema": "loomlab.bench/1", "points": []}))
    refused = subprocess.run([sys.executable, "-m", "labkit.cli", "report", str(bench), "--slo", "p99=+50ms"],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    assert refused.returncode == 2 and "--slo recomputes a capacity run's" in refused.stderr


def test_the_table_of_goals_a_run_did_not_search_gives_brackets():
    run = synthetic_run()
    table = by_goal(run, list(latency_goals("p99=+50ms,+900%")))
    row = next(r for r in table["rows"] if r["mode"] == "platform-4000" and r["goal_ms"] == 1000)
    assert row["capacity_rps"] is None and row["found_rps"] == 4000 and row["missed_rps"] is None
