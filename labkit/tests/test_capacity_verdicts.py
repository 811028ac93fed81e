"""The rules that judge a ./lab capacity window (capacity/verdicts.py), called directly on records:
the goal, the young-collection rule, when a window is measured again, a lost server, vegeta's
connection bound; and the window value the loop measures (capacity/window.py)."""
import dataclasses

import pytest

from labkit.load.levels import SleepSpec
from labkit.load.tools import MAX_CONNECTIONS_OPEN_MODEL
from labkit.capacity.verdicts import (
    HOST_STEAL,
    LOAD_TOOL,
    STEAL_AGAIN_SHARE,
    VERDICT_FLAGS,
    VERDICT_TEXT,
    connection_cap,
    judge,
    load_tool_failed,
    longer_window,
    measure_again,
    meets_goal,
    server_lost,
    stolen_share,
    window_verdict,
    young_gcs,
)
from labkit.capacity.window import Window


# -- the goal -----------------------------------------------------------------------------------
def window_record(p99_ms, errors=0, complete=True):
    return {"load": {"errors": {"total": errors}, "complete": complete, "latency_ms": {"p99": p99_ms}}}


def test_a_window_meets_the_goal_only_complete_without_errors_and_within_the_latency():
    assert meets_goal(window_record(140.0), "p99", 150)
    assert not meets_goal(window_record(151.0), "p99", 150)
    assert not meets_goal(window_record(140.0, errors=1), "p99", 150)
    assert not meets_goal(window_record(140.0, complete=False), "p99", 150)  # part of the window had no load


def test_the_goal_is_at_most_the_latency_and_a_window_without_figures_misses_it():
    assert meets_goal(window_record(150.0), "p99", 150)          # exactly at the goal: met
    assert not meets_goal(window_record(150.001), "p99", 150)
    assert not meets_goal({"load": None}, "p99", 150)             # the load tool failed
    assert not meets_goal({}, "p99", 150)
    assert not meets_goal({"load": {"errors": {"total": 0}, "latency_ms": None}}, "p99", 150)  # no answer at all
    # Records written before `complete` existed count as complete.
    assert meets_goal({"load": {"errors": {"total": 0}, "latency_ms": {"p99": 10.0}}}, "p99", 150)


# -- young collections ---------------------------------------------------------------------------
def test_a_window_counts_only_with_enough_young_collections_and_failing_is_final():
    assert window_verdict(True, 2, 2, 15, 120) == (True, "met")
    assert window_verdict(True, 1, 2, 15, 120) == (False, "rerun-longer")
    assert window_verdict(True, 0, 2, 60, 120) == (False, "rerun-longer")
    assert window_verdict(True, 1, 2, 120, 120) == (True, "met-few-gcs")     # at the cap: counts, flagged
    assert window_verdict(False, 0, 2, 15, 120) == (False, "missed")         # a miss is never re-run
    assert window_verdict(False, 9, 2, 15, 120) == (False, "missed")
    assert window_verdict(True, None, 2, 15, 120) == (True, "met-gcs-unknown")  # no JFR: the goal alone
    assert window_verdict(True, 0, 0, 15, 120) == (True, "met")              # --min-young-gcs 0: rule off
    assert [longer_window(w, 120) for w in (15, 30, 60, 100)] == [30, 60, 120, 120]


def test_a_window_past_the_cap_counts_and_one_just_below_it_is_re_run():
    assert window_verdict(True, 1, 2, 119, 120) == (False, "rerun-longer")
    assert window_verdict(True, 1, 2, 121, 120) == (True, "met-few-gcs")     # --duration above the cap
    assert longer_window(120, 120) == 120 and longer_window(7, 120) == 14


def test_young_collections_are_known_only_from_an_available_recording():
    assert young_gcs({"available": True, "young_gc_count": 3}) == 3
    assert young_gcs({"available": True, "young_gc_count": 0}) == 0      # none in the window: known, zero
    assert young_gcs({"available": True}) is None                         # a run made before the count
    assert young_gcs({"available": False, "young_gc_count": 3}) is None   # JFR failed: its figures say nothing
    assert young_gcs(None) is None and young_gcs({}) is None


def judged(met_goal, young, window_s=15, ramp=False, flags=()):
    record = {"flags": list(flags), "capacity": {"met_goal": met_goal, "goal_ms": 150},
              "jfr": {"available": young is not None, "young_gc_count": young}}
    judge(record, window_s, min_young_gcs=2, max_window_s=60, ramp=ramp)
    return record


def test_judging_a_window_writes_its_verdict_into_the_record_and_flags_the_ones_that_need_it():
    record = judged(True, 1, window_s=60, flags=["not-steady"])
    assert record["capacity"] == {"met_goal": True, "goal_ms": 150, "young_gcs": 1, "min_young_gcs": 2,
                                  "window_s": 60, "verdict": "met-few-gcs", "passed": True}
    assert record["flags"] == ["not-steady", "few-gcs"]
    record = judged(True, None)
    assert record["capacity"]["verdict"] == "met-gcs-unknown" and record["flags"] == ["gcs-unknown"]
    for record in (judged(True, 1), judged(True, 3), judged(False, 0), judged(True, 0, ramp=True)):
        assert record["flags"] == []
    assert judged(True, 1)["capacity"]["passed"] is False and judged(True, 0, ramp=True)["capacity"]["passed"]


def test_every_verdict_reads_as_text_from_its_record():
    capacity = {"young_gcs": 1, "min_young_gcs": 2, "window_s": 120}
    for verdict in ("met", "missed", "rerun-longer", "met-few-gcs", "met-gcs-unknown", "met-ramp"):
        assert VERDICT_TEXT[verdict].format(**capacity)
    assert VERDICT_TEXT["met-few-gcs"].format(**capacity) == ("meets the goal with 1 young collection(s) at the "
                                                              "120 s cap: counts (few-gcs)")
    assert set(VERDICT_FLAGS) <= set(VERDICT_TEXT)


# -- measured again -----------------------------------------------------------------------------
def test_a_window_is_measured_again_only_when_the_load_tool_was_both_saturated_and_late():
    assert load_tool_failed({"flags": ["client-bound", "driver-behind", "errors"]})
    assert not load_tool_failed({"flags": ["driver-behind", "errors"]})  # late, but the tool had CPU left
    assert not load_tool_failed({"flags": ["client-bound"]})


def test_the_stolen_share_is_the_server_cpus_one_or_none_when_not_measured():
    assert stolen_share({"resources": {"machine": {"server_cpus_steal_share": 0.25}}}) == 0.25
    assert stolen_share({"resources": {"machine": {}}}) is None
    assert stolen_share({"resources": None}) is None and stolen_share({}) is None


def missed(flags=(), share=None, met_goal=False, **extra):
    return {"flags": list(flags), "capacity": {"met_goal": met_goal},
            "resources": {"machine": {"server_cpus_steal_share": share}}, **extra}


def test_a_missed_window_is_measured_again_for_the_load_tool_first_then_for_a_host_that_stole_more_than_the_share():
    saturated = ["client-bound", "driver-behind"]
    assert measure_again(missed(saturated)) == LOAD_TOOL
    assert measure_again(missed(saturated, share=0.5)) == LOAD_TOOL          # the load tool is asked first
    assert measure_again(missed(share=STEAL_AGAIN_SHARE + 0.001)) == HOST_STEAL
    assert measure_again(missed(share=STEAL_AGAIN_SHARE)) is None            # at the share: the window stands
    assert measure_again(missed(share=None)) is None and measure_again(missed()) is None
    # A window that met the goal, or whose server is gone, is never measured again.
    assert measure_again(missed(saturated, share=0.5, met_goal=True)) is None
    assert measure_again(missed(saturated, server_exited=True)) is None
    assert measure_again(missed(share=0.5, server_unresponsive={"outcome": "timeout"})) is None


def test_a_server_is_lost_when_it_exited_or_stopped_answering():
    assert server_lost({"server_exited": True})
    assert server_lost({"server_unresponsive": {"probe": "GET /api/info", "outcome": "failed"}})
    assert not server_lost({"server_exited": False}) and not server_lost({"flags": ["errors"]})


# -- connections --------------------------------------------------------------------------------
def test_a_window_may_open_twice_the_connections_its_goal_allows_in_flight():
    assert connection_cap(4000, 150) == 1200
    assert connection_cap(10, 150) == 64  # never fewer than a small pool
    # A 2 s sleep at 8,000 req/s would want 32,800: held at the bound `ulimit -n` was raised for.
    assert connection_cap(8000, 2050) == MAX_CONNECTIONS_OPEN_MODEL < 32_800


def test_the_connection_bound_rounds_up_and_meets_its_floor_and_ceiling_exactly():
    assert connection_cap(213, 150) == 64 and connection_cap(214, 150) == 65   # 63.9 -> 64, 64.2 -> 65
    assert connection_cap(1001, 100) == 201                                   # 200.2 rounds up
    at_bound = MAX_CONNECTIONS_OPEN_MODEL * 1000 // (2 * 100)
    assert connection_cap(at_bound, 100) == MAX_CONNECTIONS_OPEN_MODEL
    assert connection_cap(at_bound + 1, 100) == MAX_CONNECTIONS_OPEN_MODEL


# -- the window value ---------------------------------------------------------------------------
def window(**changes):
    values = dict(mode="virtual", sleep=SleepSpec(100, 100), phase="confirm", step=1, repeat=2, rate=4000,
                  window_s=15, goal_ms=150.0)
    values.update(changes)
    return Window(**values)


def test_a_window_is_a_value_its_next_windows_are_copies():
    first = window()
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.rate = 1
    assert first.connections == connection_cap(4000, 150) == 1200
    assert first.heading == "virtual 100 ms confirm r2 step 1"
    assert window(phase="search", repeat=None, step=4).heading == "virtual 100 ms search step 4"
    assert first.point_id(7) == "007-virtual-100ms-confirm2-s1-4000rps"
    again = first.again("007-virtual-100ms-confirm2-s1-4000rps")
    assert again.point_id(8) == "008-virtual-100ms-confirm2-s1-again-4000rps" and first.again_of is None
    assert window(phase="search", repeat=None, step=3).point_id(12) == "012-virtual-100ms-search-s3-4000rps"


def test_a_longer_window_doubles_up_to_the_cap_and_says_which_window_it_extends():
    capacity = {"young_gcs": 1, "min_young_gcs": 2}
    longer = window().again("w1").longer(capacity, "w1-again", max_window_s=20)
    assert (longer.window_s, longer.rate, longer.again_of) == (20, 4000, None)
    assert longer.extends == {"id": "w1-again", "window_s": 15, "young_gcs": 1,
                              "why": "met the goal with 1 young collection(s) in 15 s, 2 needed"}
    assert longer.point_id(9) == "009-virtual-100ms-confirm2-s1-w20s-4000rps"
    assert longer.longer(capacity, "w2", max_window_s=20).extends["window_s"] == 20


def test_a_confirmation_retry_is_the_resolution_lower_never_below_one_request_per_second():
    lower = window().lower(0.05)
    assert (lower.rate, lower.step, lower.window_s) == (3800, 2, 15)
    assert lower.lower(0.05).rate == 3610                      # floor(3800 x 0.95)
    assert window(rate=3).lower(0.05).rate == 2                # floor(2.85)
    assert window(rate=1).lower(0.05).rate == 1
