"""./lab report DIR: rebuild a results folder's report.md, charts and tables from its results.json
(bench or capacity) or soak.json (soak); ./lab compare DIR_A DIR_B: per-point differences, non-zero
exit on a regression.

Both read only what a results folder commits (results.json with the per-window histograms), so
they work on docs/results/ as well as on a fresh results/ folder.
"""
import statistics
from dataclasses import dataclass
from pathlib import Path

from labkit.ground.arguments import percentage
from labkit.measure.histograms import latency_ms, merged
from labkit.measure.results import (
    BENCH_SCHEMA,
    CAPACITY_SCHEMA,
    RESULTS_JSON,
    SOAK_JSON,
    SOAK_SCHEMA,
    StoredRun,
    stored_file,
)
from labkit.ground.errors import LabError
from labkit.ground.machine import cpu_text
from labkit.measure.reference import at_speed_of, compare_line
from labkit.capacity.goals import latency_goals

_parsers = {}


def register(subparsers):
    p = subparsers.add_parser("report", help="rebuild report.md, charts and tables of a bench, capacity or soak results folder",
                              description="Rebuilds report.md, results.csv and the charts of DIR from its results.json "
                                          "(a soak folder: soak.json's resource figures and report.md from raw/ samples).")
    p.add_argument("dir", metavar="DIR", help="a results folder (holds results.json, or soak.json of ./lab soak)")
    p.add_argument("--slo", dest="goals", type=latency_goals, metavar="pNN=LIMIT[,LIMIT...]",
                   help="a capacity run: its capacity per goal recomputed for these goals from the windows it "
                        "measured (p99=+50ms,+5%%,+25%%; as ./lab capacity --slo)")
    p.set_defaults(run=run_report)
    _parsers["report"] = p

    c = subparsers.add_parser("compare", help="compare two results folders point by point",
                              description="Prints the per-point differences of DIR_B against DIR_A (throughput, "
                                          "latency, capacity, CPU per request) and exits 1 when one got worse by "
                                          "more than the threshold.")
    c.add_argument("dir_a", metavar="DIR_A", help="the reference results folder")
    c.add_argument("dir_b", metavar="DIR_B", help="the results folder compared with it")
    c.add_argument("--threshold", type=percentage(0, 100, "--threshold"), default=0.05, metavar="PCT",
                   help="a change worse than this is a regression (default 5%%)")
    c.set_defaults(run=run_compare)
    _parsers["compare"] = c


def load_run(parser, folder, names=(RESULTS_JSON,), schemas=(BENCH_SCHEMA, CAPACITY_SCHEMA)):
    """The folder's StoredRun, from the first of `names` it holds; a usage error when it holds none
    or its schema is not one of `schemas`."""
    path = stored_file(folder, *names)
    if path is None:
        parser.error(f"{folder} holds no " + " nor ".join(f"{name} (or {name}.gz)" for name in names))
    try:
        stored = StoredRun.read(path)
    except (ValueError, OSError, EOFError) as e:
        raise LabError(f"{path} is not valid JSON: {e}") from None
    if stored.schema not in schemas:
        parser.error(f"{path}: unknown schema '{stored.schema}' (expected {' or '.join(schemas)})")
    return stored


def _rebuild_bench(run, out_dir, goals=None):
    from labkit.bench.rebuild import write_all
    write_all(run, out_dir, record=False)
    return f"{len(run['points'])} windows, charts: {', '.join(run['charts']) or 'none'}"


def _rebuild_capacity(run, out_dir, goals=None):
    from labkit.capacity.report.rebuild import full_cpu_from_samples, write_all
    full_cpu_from_samples(run, out_dir)
    write_all(run, out_dir, goals, record=False)
    return f"{len(run['points'])} windows, charts: {', '.join(run['charts']) or 'none'}"


def _rebuild_soak(run, out_dir, goals=None):
    from labkit.soak.report import rebuild
    rebuild(run, out_dir)
    return f"{len(run['targets'])} soaked targets"


# Each schema's rebuild: writes the folder's derived files again from its record, which it leaves as
# it is, and says what it rebuilt. Imported when called: the charts load matplotlib.
REBUILDS = {BENCH_SCHEMA: _rebuild_bench, CAPACITY_SCHEMA: _rebuild_capacity, SOAK_SCHEMA: _rebuild_soak}


def rebuild(stored, out_dir, goals=None):
    """Writes the folder's derived files again from its record (a capacity run's table per goal for
    `goals` when given). The record is the input: never rewritten, compressed or not (issue 56: a
    rebuild that added a derived field changed committed records)."""
    return REBUILDS[stored.schema](stored.run, out_dir, goals)


def run_report(args):
    out_dir = Path(args.dir)
    stored = load_run(_parsers["report"], out_dir, (RESULTS_JSON, SOAK_JSON), tuple(REBUILDS))
    goals = args.goals
    if goals and stored.schema != CAPACITY_SCHEMA:
        _parsers["report"].error(f"--slo recomputes a capacity run's capacity per goal; {out_dir} holds a "
                                 f"{stored.schema} run")
    done = rebuild(stored, out_dir, goals)
    print(f"rebuilt {out_dir / 'report.md'} ({done})")
    return 0


# -- compare ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Figure:
    value: float
    higher_is_better: bool
    below: bool = False  # an upper bound: a capacity median that fell on a round which held no rate


@dataclass(frozen=True)
class Difference:
    key: tuple
    name: str
    a: Figure
    b: Figure
    change: float
    regression: bool  # worse beyond the threshold, for certain
    possible: bool    # worse beyond the threshold as printed, but a bound leaves it open

    def line(self, width):
        mark = "  REGRESSION" if self.regression else "  possible regression (a bound)" if self.possible else ""
        return (f"{' '.join(self.key):<{width}}  {self.name:<22} {_shown(self.a):>13} -> {_shown(self.b):>13}"
                f"  {self.change * 100:+7.1f} %{mark}")


def _shown(figure):
    return ("<" if figure.below else "") + f"{figure.value:,.3f}"


def figures(run):
    """{point key: {figure name: Figure}} from a run's point records."""
    groups = {}
    for p in run["points"]:
        if not p.get("load"):
            continue
        if run["schema"] == CAPACITY_SCHEMA:
            key = (p["mode"], f"sleep {p['sleep_max_ms']} ms")
        else:
            key = (p["mode"], p["driver"], f"c={p['concurrency']}", f"sleep {p['sleep_min_ms']}-{p['sleep_max_ms']} ms")
        groups.setdefault(key, []).append(p)
    result = {}
    if run["schema"] == CAPACITY_SCHEMA:
        from labkit.capacity.summary import summarize
        for row in summarize(run):
            key = (row["mode"], f"sleep {row['sleep_max_ms']} ms")
            entry = {}
            capacity = row["capacity_rps"]
            if capacity:
                entry["capacity req/s"] = Figure(capacity["median"], True, bool(capacity.get("median_below")))
            latency = row["at_capacity"]["latency_ms"]
            if latency:
                entry["p99 ms at capacity"] = Figure(latency["p99"], False)
            cpu = row["at_capacity"]["cpu_ms_per_request"]
            if cpu:
                entry["CPU ms per request"] = Figure(cpu["median"], False)
            result[key] = entry
        return result
    for key, points in groups.items():
        ok = [p["load"]["ok_rps"] for p in points]
        histogram = merged(p["load"].get("latency_hdr") for p in points)
        entry = {"req/s": Figure(statistics.median(ok), True)}
        latency = latency_ms(histogram) if histogram is not None and all(p["load"].get("latency_hdr") for p in points) else None
        if latency:
            entry["p99 ms (merged)"] = Figure(latency["p99"], False)
        else:
            # The tool gave only its own percentiles: the worst window's, not an average.
            entry["p99 ms (worst window)"] = Figure(max(p["load"]["latency_ms"]["p99"] for p in points
                                                        if p["load"].get("latency_ms")), False)
        result[key] = entry
    return result


def compare(run_a, run_b, threshold):
    """[Difference] for every figure both runs have (compare_figures of their figures)."""
    return compare_figures(figures(run_a), figures(run_b), threshold)


def compare_figures(a, b, threshold):
    """[Difference] for every figure both `figures` dicts have. A figure that is an upper bound
    (Figure.below) moves the true change one way only: B's bound makes a drop at least as deep as
    printed (a regression for certain), A's makes it possibly shallower (a possible regression, not
    counted)."""
    rows = []
    for key in a:
        if key not in b:
            continue
        for name, fa in a[key].items():
            if name not in b[key] or not fa.value:
                continue
            fb = b[key][name]
            change = fb.value / fa.value - 1
            beyond = (-change if fa.higher_is_better else change) > threshold
            # For a higher-is-better figure, B's true value is at most its bound (worse still) and A's
            # at most its bound (so the drop may be smaller): only A's bound leaves a regression open.
            certain = not fa.below if fa.higher_is_better else not fb.below
            rows.append(Difference(key, name, fa, fb, change, beyond and certain, beyond and not certain))
    return rows


def host_difference(run_a, run_b):
    """A warning when the two runs' CPUs differ (model name, or family/model/stepping where both
    recorded them), else None: every capacity and CPU figure measures the host too."""
    def cpu(run):
        host = (run.get("env") or {}).get("host") or {}
        return host.get("cpu_model"), host.get("cpu_id")
    (model_a, id_a), (model_b, id_b) = cpu(run_a), cpu(run_b)
    key = ("vendor", "family", "model", "stepping")
    same = model_a == model_b and (not id_a or not id_b or [id_a.get(k) for k in key] == [id_b.get(k) for k in key])
    if same:
        return None
    return (f"the runs' CPUs differ: A {cpu_text(model_a, id_a)}, B {cpu_text(model_b, id_b)}; "
            f"the differences below measure the hosts too")


# The same target at the same offered rate should cost the same CPU per request on one host. Beyond
# this, the host ran at another speed: measured on one VM without a reboot and with steal under 0.1 %,
# `virtual` at 2,000 req/s cost 0.161 ms per request in one run and 0.123 ms twelve hours later.
HOST_SPEED_TOLERANCE = 0.10


def cpu_at_equal_rates(run_a, run_b):
    """B's CPU per request ÷ A's over the (target, sleep, offered rate) windows that met the goal in
    both capacity runs (the median where a run has several): {"median", "min", "max", "n"}, or None
    without such a pair. Windows that met the goal were not saturated, so their cost per request is
    the host's speed on the same work."""
    def costs(run):
        by_window = {}
        for p in run["points"]:
            cost = (p.get("derived") or {}).get("cpu_ms_per_request")
            if cost and (p.get("capacity") or {}).get("passed"):
                by_window.setdefault((p["mode"], p["sleep_max_ms"], p["rate"]), []).append(cost)
        return {key: statistics.median(values) for key, values in by_window.items()}
    a, b = costs(run_a), costs(run_b)
    ratios = sorted(b[key] / a[key] for key in a.keys() & b.keys())
    if not ratios:
        return None
    return {"median": statistics.median(ratios), "min": ratios[0], "max": ratios[-1], "n": len(ratios)}


def host_speed(run_a, run_b):
    """One line on how the two runs' hosts compare at equal rates (cpu_at_equal_rates), or None."""
    speed = cpu_at_equal_rates(run_a, run_b)
    if speed is None:
        return None
    change = speed["median"] - 1
    text = (f"host speed: at the same offered rates B spent {change * 100:+.0f} % CPU per request against A "
            f"(median over {speed['n']} target-and-rate pairs that met the goal in both, "
            f"range {(speed['min'] - 1) * 100:+.0f} to {(speed['max'] - 1) * 100:+.0f} %)")
    if abs(change) > HOST_SPEED_TOLERANCE:
        return text + ": the host ran at another speed, so a capacity that CPU limits moved with it"
    return text


# The figures a host's speed scales (CPU-bound capacities, CPU cost): compare shows them at A's speed
# too when both runs measured the host-speed reference.
SCALED = ("capacity req/s", "CPU ms per request")


def run_compare(args):
    parser = _parsers["compare"]
    run_a, run_b = load_run(parser, args.dir_a).run, load_run(parser, args.dir_b).run
    if run_a["schema"] != run_b["schema"]:
        parser.error(f"cannot compare a {run_a['schema']} run with a {run_b['schema']} run")
    figures_a, figures_b = figures(run_a), figures(run_b)  # each summarizes the whole run once
    rows = compare_figures(figures_a, figures_b, args.threshold)
    hosts = host_difference(run_a, run_b)
    if hosts:
        print(hosts)
    speed = host_speed(run_a, run_b) if run_a["schema"] == CAPACITY_SCHEMA else None
    if speed:
        print(speed)
    reference = compare_line(run_a.get("env"), run_b.get("env"))
    if reference:
        print(reference)
    if not rows:
        print("no point is in both runs")
        return 1
    width = max(len(" ".join(row.key)) for row in rows)
    for row in rows:
        at_a = at_speed_of(row.b.value, run_a.get("env"), run_b.get("env"), row.b.higher_is_better)
        scaled = f"  (at A's speed {at_a:,.3f}: {(at_a / row.a.value - 1) * 100:+.1f} %)" if at_a and row.name in SCALED else ""
        print(row.line(width) + scaled)
    if any(row.a.below or row.b.below for row in rows):
        print("<: a median that fell on a confirmation round which held no rate, so an upper bound")
    regressions = sum(1 for row in rows if row.regression)
    only_a = set(figures_a) - set(figures_b)
    if only_a:
        print(f"only in {args.dir_a}: {', '.join(' '.join(k) for k in sorted(only_a))}")
    print(f"{regressions} regression(s) beyond {args.threshold * 100:g} %" if regressions
          else f"no regression beyond {args.threshold * 100:g} %")
    possible = sum(1 for row in rows if row.possible)
    if possible:
        print(f"{possible} possible regression(s): run A's figure is only a bound, so not counted")
    return 1 if regressions else 0
