"""The answer, generated from the committed capacity runs: for each question a user has (a workload,
a latency goal, the server's CPUs, its collector) and each pair of targets measured in the same rounds,
which to choose, with the per-round ratios that say so, each target's cost, its named limit and the
host. ./lab verdict writes it to docs/results/verdict.md and verdict.json.

Why generated: the results pages' sentences were typed after the numbers and claimed more than the
rounds showed ("in every round" with a round that was only a bound). Here the words follow rules:
- a target is named the choice only when every round puts it ahead, resolved: a round's ratio above 1
  that is not an upper bound (≤), or below 1 that is not a lower bound (≥);
- otherwise "not resolved", saying why: the rounds disagree, a bound allows either order, or a
  ratio of exactly 1;
- a round whose capacity is a floor (no window above the rate it held missed: its walk stopped at
  --max-rate or at its last step) or that held no rate says so;
- a round whose two host-speed references differ by more than pairs.REFERENCES_APART says so.

Only runs whose rounds walked both ways (the walk of capacity/runner.py, config.confirm_walk_steps)
give per-round ratios; older runs are listed as left out, with why.
"""
import gzip
import json
from pathlib import Path

from labkit.capacity.goals import percentile_name
from labkit.capacity.pairs import (BELOW, FLOOR, REFERENCES_APART, choice, named_rounds, paired_ratios, reference_gaps,
                                   round_texts)
from labkit.measure.results import CAPACITY_SCHEMA
from labkit.servers.collectors import COLLECTORS, GC_VARIANT, SELECTORS

CAPACITY_RESULTS = "results.json.gz"


# -- the runs -----------------------------------------------------------------------------------------
def capacity_runs(root):
    """[(folder relative to root, run)] of every committed capacity results folder under root, sorted."""
    runs = []
    for path in sorted(Path(root).rglob(CAPACITY_RESULTS)):
        with gzip.open(path, "rt") as handle:
            run = json.load(handle)
        if run.get("schema") == CAPACITY_SCHEMA:
            runs.append((path.parent.relative_to(root).as_posix(), run))
    return runs


def walked(run):
    return run["config"].get("confirm_walk_steps") is not None


# -- one row ------------------------------------------------------------------------------------------
def censoring_notes(pair, run):
    """What the per-round ratios cannot say: floors, rounds that held no rate, rounds at two speeds."""
    notes = []
    for r in pair["per_round"]:
        for mode, kind in zip((pair["a"], pair["b"]), r.get("kinds") or ()):
            if kind == FLOOR:
                notes.append(f"r{r['repeat']}: `{mode}` missed no rate above the one it held (a floor)")
            elif kind == BELOW:
                notes.append(f"r{r['repeat']}: `{mode}` held no rate (below the lowest tried)")
    notes += [f"r{gap['repeat']}: host-speed references {gap['apart'] * 100:.0f} % apart"
              for gap in reference_gaps(run, pair)]
    return notes


def collector(run, mode):
    """The target's collector, by name: its @suffix (servers/collectors.py), else the run's
    -XX:+Use…GC option, else the JVM's own choice."""
    variant = GC_VARIANT.fullmatch(mode)
    if variant:
        young = variant.group(3)
        return _collector_name(COLLECTORS[variant.group(2)]) + (f", young {young}" if young else "")
    chosen = [option for option in run["config"].get("jvm_options") or () if option.startswith(SELECTORS)]
    return _collector_name(chosen[-1]) if chosen else "JVM default"


def _collector_name(selector):
    """-XX:+UseG1GC → G1, -XX:+UseZGC → ZGC, -XX:+UseParallelGC → Parallel."""
    name = selector.removeprefix("-XX:+Use").removesuffix("GC")
    return "ZGC" if name == "Z" else name


def server_cpus(run):
    pinned = (run["config"].get("cpus") or {}).get("server")
    if pinned:
        count = sum(len(range(int(p.split("-")[0]), int(p.split("-")[-1]) + 1)) for p in str(pinned).split(","))
        return f"{count} pinned"
    return f"{(run['env'].get('host') or {}).get('cpus', '?')}, unpinned"


def target_figures(run, mode, pair):
    """{cpu_ms, threads, rss_mb, limit} of `mode` at the run's main goal (its summary row); None at
    another goal, where the run kept no such row."""
    for row in run.get("summary") or ():
        if row["mode"] == mode and (row["sleep_min_ms"], row["sleep_max_ms"]) == (pair["sleep_min_ms"], pair["sleep_max_ms"]):
            if row["goal_ms"] != pair["goal_ms"]:
                return None
            at = row.get("at_capacity") or {}
            counts = (row.get("limit") or {}).get("counts")
            return {"cpu_ms": _median(at.get("cpu_ms_per_request")), "threads": _median(at.get("threads_max")),
                    "rss_mb": _median(at.get("rss_peak_mb")),
                    "limit": ", ".join(f"{name} {n}" for name, n in counts.items()) if counts else "not recorded"}
    return None


def _median(spread):
    return (spread or {}).get("median")


def host_text(run):
    host = run["env"].get("host") or {}
    speeds = [r["cpu_ms_per_request"] for r in run["env"].get("host_speed") or () if r.get("cpu_ms_per_request")]
    speed = f", reference {min(speeds):.2f}–{max(speeds):.2f} ms" if speeds else ""
    return f"{host.get('cpu_model', '?')}{speed}, {run['started'][:10]}"


def rows(runs):
    """One row per (walked run, goal, pair)."""
    found = []
    for folder, run in runs:
        if not walked(run):
            continue
        percentile = percentile_name(run["config"]["goal"]["percentile"])
        for pair in paired_ratios(run):
            chosen, words = choice(pair)
            low, high = pair["sleep_min_ms"], pair["sleep_max_ms"]
            found.append({
                "run": folder, "workload": _workload(run, low, high), "sleep_ms": [low, high],
                "goal": f"{percentile} ≤ {pair['goal_ms']:g} ms", "goal_ms": pair["goal_ms"],
                "server_cpus": server_cpus(run), "collectors": [collector(run, pair["a"]), collector(run, pair["b"])],
                "a": pair["a"], "b": pair["b"], "choose": chosen, "words": words,
                "per_round": round_texts(pair), "median": round(pair["median"], 4), "min": round(pair["min"], 4),
                "max": round(pair["max"], 4), "n": pair["n"], "apart_min": pair["apart_min"],
                "notes": censoring_notes(pair, run),
                "figures": [target_figures(run, pair["a"], pair), target_figures(run, pair["b"], pair)],
                "host": host_text(run), "date": run["started"][:10]})
    return found


def _workload(run, low, high):
    scenario = run["config"].get("scenario") or "sleep"
    if run["config"].get("requests") or run["config"].get("wars"):
        return "your requests"
    if scenario != "sleep":
        return scenario
    return f"{low} ms blocking" if low == high else f"{low}–{high} ms blocking"


def left_out(runs):
    """[(folder, why)] of the runs without per-round ratios."""
    return [(folder, "its rounds did not walk both ways (made before the walk), so no per-round ratio")
            for folder, run in runs if not walked(run)]


# -- the page -----------------------------------------------------------------------------------------
def _figure_pair(row, key, form):
    values = [(f or {}).get(key) for f in row["figures"]]
    return " / ".join("–" if v is None else form(v) for v in values)


def markdown(runs):
    table = rows(runs)
    chosen = sum(1 for row in table if row["choose"])
    lines = ["# The verdict, generated from the committed capacity runs", "",
             "**Question:** At each workload, latency goal, server size and collector the lab measured, which "
             "thread mode serves the higher arrival rate, by rounds measured minutes apart?\\",
             "**Command:** `./lab verdict`, from every committed `./lab capacity` run under docs/results/\\",
             f"**Verdict:** {chosen} of {len(table)} pairs name a target ahead in every round; the rounds of the "
             f"other {len(table) - chosen} do not resolve an order\\",
             "**Status:** current", "",
             "<!-- generated by ./lab verdict from docs/results/**/results.json.gz: do not edit by hand -->", "",
             "Each row: one pair of targets measured in the same confirmation rounds, minutes apart on fresh "
             "servers, at one workload and goal. **Choose** names a target only when every round puts it ahead "
             "and no round's ratio is a bound on the wrong side; otherwise it says why the rounds cannot tell. "
             "*Per round*: each round's capacity ratio a ÷ b (≤ / ≥: that round's ratio is a bound, ? both ways). "
             "CPU per request, OS threads and RSS are each target's medians at its capacity (a / b), at the run's "
             "main goal only; *limits*: what stopped each target's rounds (labkit/measure/limits.py), counted over "
             "rounds. Notes name floors (a round with no miss above the rate it held: its walk stopped first), rounds that held no "
             f"rate, and rounds whose host-speed references differ by more than {REFERENCES_APART * 100:.0f} %.", "",
             "| workload | goal | server CPUs | collector | a ÷ b | choose | per round | median [range] | "
             "CPU ms per request | OS threads | RSS MB | limits | notes | host, date | run |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in table:
        collectors = row["collectors"][0] if row["collectors"][0] == row["collectors"][1] else " / ".join(row["collectors"])
        lines.append(
            f"| {row['workload']} | {row['goal']} | {row['server_cpus']} | {collectors} | `{row['a']}` ÷ `{row['b']}` | "
            f"{row['words']} | {row['per_round']} | {row['median']:.2f}× [{row['min']:.2f}–{row['max']:.2f}] n={row['n']} | "
            f"{_figure_pair(row, 'cpu_ms', lambda v: f'{v:.3f}')} | {_figure_pair(row, 'threads', lambda v: f'{v:,.0f}')} | "
            f"{_figure_pair(row, 'rss_mb', lambda v: f'{v:,.0f}')} | {_figure_pair(row, 'limit', str)} | "
            f"{'; '.join(row['notes']) or '–'} | {row['host']} | [{row['run']}]({row['run']}/report.md) |")
    skipped = left_out(runs)
    if skipped:
        lines += ["", "Left out:", ""] + [f"- [{folder}]({folder}/report.md): {why}" for folder, why in skipped]
    return "\n".join(lines) + "\n", table


# -- README's first screen ----------------------------------------------------------------------------
README_START = "<!-- decision table: generated by ./lab verdict from docs/results/verdict.json -->"
README_END = "<!-- end of decision table -->"
README_ROWS = 8


def _base(mode):
    return mode.split("@", 1)[0]


def answers_the_question(row):
    """A pair that answers README's question: one of Payara's virtual-thread pools against one of its
    platform pools, under one collector."""
    kinds = sorted(_base(m).split("-")[0] for m in (row["a"], row["b"]))
    return kinds == ["platform", "virtual"] and row["collectors"][0] == row["collectors"][1]


def readme_block(rows, verdict_link="docs/results/verdict.md"):
    """README's decision table: one line per question (workload, goal, server CPUs, collector), each
    with the latest run's verdict for every virtual ÷ platform pair measured at it, in order of
    workload and goal; at most README_ROWS lines (verdict.md has every row)."""
    latest = {}
    for row in rows:
        if answers_the_question(row):
            key = (row["workload"], row["goal"], row["server_cpus"], row["collectors"][0],
                   frozenset(_base(m) for m in (row["a"], row["b"])))
            if key not in latest or (row["date"], row["run"]) > (latest[key]["date"], latest[key]["run"]):
                latest[key] = row
    questions = {}
    for (workload, goal, cpus, gc, _), row in latest.items():
        questions.setdefault((workload, goal, cpus, gc), []).append(row)
    ordered = sorted(questions.items(), key=lambda item: (item[1][0]["sleep_ms"], item[0][0], item[1][0]["goal_ms"],
                                                          item[0][1:]))
    lines = [README_START,
             "| workload | goal | server CPUs | collector | what the rounds say (per-round ratio median [range]) | run |",
             "|---|---|---|---|---|---|"]
    for (workload, goal, cpus, gc), pairs in ordered[:README_ROWS]:
        said = "; ".join(f"`{row['a']}` ÷ `{row['b']}` {row['median']:.2f}× [{row['min']:.2f}–{row['max']:.2f}]: "
                         + _short(row) for row in pairs)
        runs = ", ".join(f"[{row['run']}](docs/results/{row['run']}/report.md)" for row in pairs)
        lines.append(f"| {workload} | {goal} | {cpus} | {gc} | {said} | {runs} |")
    lines += ["", f"Every pair, with each target's CPU, threads, RSS and limit: [verdict.md]({verdict_link}).",
              README_END]
    return "\n".join(lines)


def _short(row):
    """A row's words in a table cell: "`x` ahead in every round", "not resolved (the rounds disagree)"."""
    words = row["words"]
    if words.startswith("not resolved: "):
        return f"not resolved ({words.removeprefix('not resolved: ')})"
    return words.replace(f"`{row['choose']}`: ", f"`{row['choose']}` ")


def with_readme_block(readme, block):
    """README's text with its decision table replaced by `block`; a LookupError without the markers."""
    start, end = readme.index(README_START), readme.index(README_END) + len(README_END)
    return readme[:start] + block + readme[end:]


def generated(root, readme=None):
    """{path: its text} of root's verdict.md and verdict.json as the runs under root give them, and of
    `readme` (a README.md with the decision table's markers) with its table regenerated."""
    root = Path(root)
    runs = capacity_runs(root)
    text, table = markdown(runs)
    data = {"rows": table, "left_out": [{"run": folder, "why": why} for folder, why in left_out(runs)]}
    files = {root / "verdict.md": text, root / "verdict.json": json.dumps(data, indent=1, ensure_ascii=False) + "\n"}
    if readme is not None:
        files[Path(readme)] = with_readme_block(Path(readme).read_text(), readme_block(table))
    return files


def write(root, readme=None):
    """Writes what generated() gives; returns the paths."""
    files = generated(root, readme)
    for path, text in files.items():
        path.write_text(text)
    return list(files)


def stale(root, readme=None):
    """The generated files that differ from what the runs give (or are missing)."""
    return [path for path, text in generated(root, readme).items()
            if not path.is_file() or path.read_text() != text]
