"""Every report opens with its answer, and links only files that are in its folder (issue 56): the
capacity report's first section names each capacity with its limit and what each pair's rounds choose
(the rule ./lab verdict applies), the soak's says what every target kept and what it did not, the
bench's leads with who led; a link to a file the folder lacks becomes plain text and one line says
what is missing and why; every committed report.md links only committed files."""
import copy
import gzip
import json
import re
import subprocess

import pytest

from labkit import ROOT
from labkit.capacity.pairs import choice, round_texts, walked_pairs
from labkit.capacity.report.answer_report import answer_section
from labkit.capacity.report.markdown import report as capacity_report
from labkit.capacity.summary import summarize
from labkit.measure.report_files import links_that_resolve
from labkit.soak.report import answer_lines, report as soak_report

RESULTS = ROOT / "docs" / "results"


def _record(folder, name="results.json.gz"):
    return json.loads(gzip.decompress((RESULTS / folder / name).read_bytes()))


# -- links ------------------------------------------------------------------------------------------
def test_a_link_to_a_file_the_folder_lacks_becomes_its_label_and_the_closing_line_counts_it(tmp_path):
    (tmp_path / "histograms").mkdir()
    (tmp_path / "histograms" / "w1.hgrm.gz").write_bytes(b"")
    (tmp_path / "chart.png").write_bytes(b"")
    text = ("| [log](servers/01-virtual.log) | [log](servers/02-virtual.log) | [hgrm](histograms/w1.hgrm.gz) |\n"
            "| [out](raw/w1.out) | [docs](https://example.org/x) | [below](#answer) |\n\n"
            "![chart](chart.png) ![gone](gone.png)\n")
    fixed = links_that_resolve(text, tmp_path)
    assert "[hgrm](histograms/w1.hgrm.gz)" in fixed and "![chart](chart.png)" in fixed
    assert "[docs](https://example.org/x)" in fixed and "[below](#answer)" in fixed
    tables, closing = fixed.split("## Files not in this folder", 1)
    assert "(servers/" not in tables and "(raw/" not in tables and "(gone.png)" not in tables
    assert "| log | log | [hgrm]" in tables and "| out |" in tables and "![chart](chart.png) gone" in tables
    assert "`raw/`: 1 file(s)" in closing and "`servers/`: 2 file(s), server logs" in closing
    assert "gone.png" in closing
    # Once the files are there, the report is left as it was.
    for name in ("servers/01-virtual.log", "servers/02-virtual.log", "raw/w1.out", "gone.png"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    assert links_that_resolve(text, tmp_path) == text


def _committed_reports():
    listed = subprocess.run(["git", "ls-files", "docs/results"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    return set(listed), [name for name in listed if name.endswith("report.md")]


def test_every_committed_report_links_only_files_that_are_committed():
    committed, reports = _committed_reports()
    assert reports, "git lists the committed results"
    dead = []
    for name in reports:
        folder = (ROOT / name).parent
        for target in re.findall(r"\]\(([^)\s#]+)\)", (ROOT / name).read_text()):
            if re.match(r"^[a-z]+:", target):
                continue
            path = (folder / target).resolve().relative_to(ROOT).as_posix()
            if path not in committed and not (ROOT / path).is_dir():
                dead.append(f"{name} → {target}")
    assert not dead, f"{len(dead)} links to files not committed, e.g. {dead[:5]}"


# -- capacity ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("folder", ["capacity/s100-goal-sweep", "upstream-executor"])
def test_the_capacity_report_opens_with_each_capacity_and_what_each_pairs_rounds_choose(folder):
    run = _record(folder)
    run["summary"] = summarize(run)
    text = capacity_report(run)
    assert text.index("## Answer") < text.index("## Setup")
    answer = "\n".join(answer_section(run))
    for mode in run["config"]["modes"]:
        assert f"`{mode}` " in answer
    pairs = walked_pairs(run)
    assert pairs
    for pair in pairs:
        line = next(line for line in answer.splitlines() if line.startswith(f"- `{pair['a']}` ÷ `{pair['b']}` at ")
                    and f"≤ {pair['goal_ms']:g} ms" in line)
        assert round_texts(pair) in line and line.endswith(choice(pair)[1] + ".")


def test_the_capacity_answer_marks_a_round_that_held_no_rate_and_names_the_limit():
    run = _record("capacity/s100-goal-sweep")
    run["summary"] = summarize(run)
    row = copy.deepcopy(run["summary"][0])
    row["capacity_rps"] = {"median": 1000, "min": 900, "max": 1100, "n": 3, "censored": 1,
                           "median_below": False, "min_below": True}
    row["limit"] = {"rounds": [{}, {}, {}], "counts": {"cpu": 2, "gc-young": 1}}
    run["summary"] = [row]
    line = answer_section(run)[2]
    assert f"`{row['mode']}` 1,000 [<900–1,100] req/s, n=3; limit: cpu (2 of 3 rounds), gc-young (1 of 3 rounds)" in line


# -- soak -------------------------------------------------------------------------------------------
def test_the_soak_report_opens_with_what_every_target_kept_and_counts_the_rounds_that_did_not():
    run = _record("overload/run1-shared-cpus", "soak.json.gz")
    text = soak_report(run)
    assert text.index("## Answer") < text.index("## Setup") < text.index("## Over the rounds")
    modes = list(dict.fromkeys(t["mode"] for t in run["targets"]))
    first = answer_lines(run)[2]
    assert all(f"`{mode}` " in first for mode in modes)
    broken = copy.deepcopy(run)
    victim = broken["targets"][0]
    victim.setdefault("checks", {})["no_crash"] = False
    rounds = sum(t["mode"] == victim["mode"] for t in broken["targets"])
    second = answer_lines(broken)[3]
    assert f"`{victim['mode']}` crashed in {'every round' if rounds == 1 else f'1 of {rounds} rounds'}" in second
    assert "Every target survived" not in second


# -- bench ------------------------------------------------------------------------------------------
def test_the_bench_report_leads_with_its_observations(tmp_path):
    from labkit.bench.report import write_report
    run = _record("cargotracker-explained/tail")
    write_report(tmp_path / "report.md", run)
    text = (tmp_path / "report.md").read_text()
    assert text.index("## Observations") < text.index("## Setup")
    assert "led with" in text.split("## Setup", 1)[0]
