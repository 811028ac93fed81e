"""./lab verdict's words follow rules, not a writer: a target is the choice only when every round puts
it ahead and no round is a bound on the wrong side; floors, rounds that held no rate and rounds at two
host speeds are named; and the committed verdict.md is what the committed runs give."""
from labkit import ROOT
from labkit.capacity import decision_table as verdict
from labkit.capacity.decision_table import censoring_notes, collector, server_cpus
from labkit.capacity.pairs import BELOW, FLOOR, choice


def pair(*rounds, a="virtual", b="platform-4000"):
    """rounds: (ratio, bound, kinds)."""
    return {"a": a, "b": b, "sleep_min_ms": 100, "sleep_max_ms": 100, "goal_ms": 150.0,
            "per_round": [{"repeat": i, "ratio": ratio, "bound": bound, "kinds": kinds}
                          for i, (ratio, bound, kinds) in enumerate(rounds, start=1)]}


RESOLVED = (None, None)


def test_a_target_is_the_choice_only_when_every_round_puts_it_ahead_resolved():
    assert choice(pair((1.2, None, RESOLVED), (1.05, None, RESOLVED), (1.3, "at least", (FLOOR, None)))) == (
        "virtual", "`virtual`: ahead in every round")
    assert choice(pair((0.8, None, RESOLVED), (0.9, "at most", (BELOW, None)))) == (
        "platform-4000", "`platform-4000`: ahead in every round")
    # One round is only an upper bound above 1: it allows either order.
    assert choice(pair((1.2, None, RESOLVED), (1.1, "at most", (BELOW, None)))) == (
        None, "not resolved: the bound of r2 allows either order")
    assert choice(pair((1.17, None, RESOLVED), (1.16, "at most", (BELOW, None)), (1.11, "at most", (BELOW, None))))[1] == \
        "not resolved: the bounds of r2 and r3 allow either order"
    assert choice(pair((1.2, None, RESOLVED), (0.9, None, RESOLVED))) == (None, "not resolved: the rounds disagree")
    assert choice(pair((1.2, None, RESOLVED), (1.0, "at least", (FLOOR, None)))) == (
        None, "not resolved: r2 measured both the same")


def test_floors_rounds_without_a_rate_and_two_host_speeds_are_named():
    run = {"env": {"host_speed": [
        {"before": "virtual confirm 2", "cpu_ms_per_request": 0.20},
        {"before": "platform-4000 confirm 2", "cpu_ms_per_request": 0.30}]}}
    notes = censoring_notes(pair((1.3, "at least", (FLOOR, None)), (0.9, "at most", (BELOW, None))), run)
    assert notes == ["r1: `virtual` missed no rate above the one it held (a floor)",
                     "r2: `virtual` held no rate (below the lowest tried)",
                     "r2: host-speed references 50 % apart"]


def test_the_collector_and_the_servers_cpus_are_read_from_the_run():
    run = {"config": {"jvm_options": ["-Xmx4g", "-XX:+UseG1GC"], "cpus": {"server": "1", "driver": "0"}},
           "env": {"host": {"cpus": 2}}}
    assert collector(run, "virtual") == "G1" and collector(run, "virtual@zgc") == "ZGC"
    assert collector(run, "platform-4000@g1") == "G1" and collector(run, "virtual@g1-young512m") == "G1, young 512m"
    assert collector({"config": {"jvm_options": []}}, "virtual") == "JVM default"
    assert server_cpus(run) == "1 pinned"
    assert server_cpus({"config": {"cpus": {"server": "2-3,5"}}, "env": {}}) == "3 pinned"
    assert server_cpus({"config": {"cpus": None}, "env": {"host": {"cpus": 2}}}) == "2, unpinned"


def test_the_committed_verdict_is_what_the_committed_runs_give():
    results = ROOT / "docs" / "results"
    assert verdict.stale(results, ROOT / "README.md") == []
    text = (results / "verdict.md").read_text()
    rows = verdict.rows(verdict.capacity_runs(results))
    assert rows and all(f"[{row['run']}]({row['run']}/report.md)" in text for row in rows)
    # A choice is only ever named where every round made it.
    for row in rows:
        assert (row["choose"] is None) == row["words"].startswith("not resolved"), row


def row(a, b, goal="p99 ≤ 150 ms", date="2026-11-28", run="capacity/x", workload="100 ms blocking", gcs=("G1", "G1"),
        words=None):
    return {"a": a, "b": b, "goal": goal, "goal_ms": float(goal.split()[2]), "date": date, "run": run,
            "workload": workload, "sleep_ms": [100, 100], "server_cpus": "1 pinned",
            "collectors": list(gcs), "median": 1.1, "min": 1.0, "max": 1.2, "words": words or "not resolved: x",
            "choose": words.split("`")[1] if words else None}


def test_readme_answers_virtual_against_platform_from_the_latest_run_of_each_question():
    rows = [row("platform-4000", "virtual", run="capacity/old", date="2026-11-27"),
            row("virtual@g1", "platform-4000@g1", run="limits", date="2026-11-29",
                words="`virtual@g1`: ahead in every round"),
            row("virtual", "payara7-virtual"), row("virtual", "jdk-virtual"),         # not the question
            row("virtual@zgc", "platform-4000@g1", gcs=("zgc", "G1")),                # two collectors
            row("platform-4000", "virtual", goal="p99 ≤ 110 ms", words="`platform-4000`: ahead in every round")]
    block = verdict.readme_block(rows).splitlines()
    body = [line for line in block if line.startswith("| ") and not line.startswith("| workload")]
    assert len(body) == 2, block
    assert body[0].startswith("| 100 ms blocking | p99 ≤ 110 ms |") and "`platform-4000` ahead in every round" in body[0]
    assert verdict._short({"words": "not resolved: the rounds disagree", "choose": None}) == \
        "not resolved (the rounds disagree)"
    assert "`virtual@g1` ÷ `platform-4000@g1` 1.10× [1.00–1.20]: `virtual@g1` ahead in every round" in body[1]
    assert "capacity/old" not in body[1] and "[limits](docs/results/limits/report.md)" in body[1]
    many = [row("virtual", "platform-4000", goal=f"p99 ≤ {g} ms") for g in range(101, 121)]
    assert sum(line.startswith("| 100 ms") for line in verdict.readme_block(many).splitlines()) == verdict.README_ROWS
    readme = f"intro\n{verdict.README_START}\nold\n{verdict.README_END}\nrest\n"
    assert verdict.with_readme_block(readme, "NEW") == "intro\nNEW\nrest\n"
