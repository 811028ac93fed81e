"""What a soak leaves behind: soak.json (every figure), report.md (over the rounds, then each
round) and report.html, written after every round; and `./lab report DIR`'s rebuild of both from the raw samples."""
from pathlib import Path

from labkit.load.tools import MAX_CONNECTIONS_OPEN_MODEL
from labkit.measure.histograms import latency_ms, median_spread, merged
from labkit.measure.report_files import links_that_resolve
from labkit.measure.results import SOAK_JSON, portable, stored_file, write_json
from labkit.measure.sampler import read_samples_csv
from labkit.soak.checks import NEAR_IDLE_RSS_MB, NEAR_IDLE_SHARE, NEAR_IDLE_THREADS, recheck
from labkit.soak.config import SETTLE_S
from labkit.soak.html_report import write_html


def write_files(run, out_dir, record=True):
    """soak.json (unless `record` is False: ./lab report reads it and leaves it as it is) and report.md
    of the run so far."""
    # Paths relative to the folder or the repository: a committed soak names none of this machine's.
    run = portable(run, Path(out_dir).resolve())
    if record:
        write_json(Path(out_dir) / SOAK_JSON, run)
    (Path(out_dir) / "report.md").write_text(links_that_resolve(report(run), Path(out_dir)))
    write_html(run, Path(out_dir))


def rebuild(run, out_dir):
    """Derives each round's resource figures and checks again from its raw samples (when raw/ holds
    them, plain or .gz), in memory, and writes report.md from them (./lab report DIR); soak.json, its
    input, stays as it is."""
    out_dir = Path(out_dir)
    for record in run["targets"]:
        # Rounds are named <target>.r<round>; the first soaks, of one round each, <target>.
        names = (f"{record['mode']}.r{record.get('repeat', 1)}.samples.csv", f"{record['mode']}.samples.csv")
        found = [path for path in (stored_file(out_dir / "raw", name) for name in names) if path]
        if found:
            recheck(record, read_samples_csv(found[0]))
    write_files(run, out_dir, record=False)
    return run


def _number(value):
    return f"{value:,.1f}" if isinstance(value, (int, float)) else "n/a"


def _problem(check_passed):
    """A crash/OOM column: "no" when the check passed, "**YES**" when it failed."""
    return {True: "no", False: "**YES**", None: "n/a"}[check_passed]


def summarize(run):
    """Per target, over its rounds: medians with their range, latency from the rounds' merged
    histogram (never averaged percentiles), and how many rounds failed each check."""
    rows = []
    for mode in run["config"]["modes"]:
        rounds = [t for t in run["targets"] if t["mode"] == mode]
        if not rounds:
            continue
        loads = [t.get("load") or {} for t in rounds]
        resources = [t.get("resources") or {} for t in rounds]

        def back_after(kind):
            return [(r.get(kind) or {}).get("back_after_s") for r in resources if r.get(kind)]
        fresh = [t.get("fresh_request") or {} for t in rounds]
        rows.append({
            "mode": mode, "rounds": len(rounds), "rate": rounds[0]["rate"],
            "sent_rps": median_spread([l.get("sent_rps") for l in loads]),
            "ok_rps": median_spread([l.get("ok_rps") for l in loads]),
            "failed": median_spread([(l.get("errors") or {}).get("total") for l in loads if l.get("errors")]),
            "server_cores": median_spread([(r.get("cpu_cores") or {}).get("server") for r in resources]),
            "load_tool_cores": median_spread([(r.get("cpu_cores") or {}).get("load_tool") for r in resources]),
            "latency_ms": latency_ms(merged(l.get("latency_hdr") for l in loads)),
            "threads_back_after_s": median_spread([b for b in back_after("threads") if b is not None]),
            "threads_not_back": sum(b is None for b in back_after("threads")),
            "rss_back_after_s": median_spread([b for b in back_after("rss_mb") if b is not None]),
            "rss_not_back": sum(b is None for b in back_after("rss_mb")),
            "fresh_worst_s": max((f["seconds"] for f in fresh if f.get("status") == 200), default=None),
            "fresh_failed": sum(f.get("status") != 200 for f in fresh),
            "crashed": sum((t.get("checks") or {}).get("no_crash") is False for t in rounds),
            "oom": sum((t.get("checks") or {}).get("no_oom") is False for t in rounds),
        })
    return rows


def _spread(figure, digits=1):
    if not figure:
        return "n/a"
    return f"{figure['median']:,.{digits}f} [{figure['min']:,.{digits}f}–{figure['max']:,.{digits}f}]"


def _rounds_text(failed, rounds):
    return "every round" if failed == rounds else f"{failed} of {rounds} round{'s' if rounds != 1 else ''}"


def answer_lines(run):
    """report.md's opening (issue 56): what each target kept under the overload, then what it did not,
    counted in rounds, from the same figures as the table over the rounds."""
    rows = summarize(run)
    if not rows:
        return []
    config = run["config"]
    lines = ["## Answer", "",
             f"- 2xx req/s under {config['factor']:g} x capacity for {config['load_s']} s (median [min–max] over the "
             "rounds): " + "; ".join(f"`{row['mode']}` {_spread(row['ok_rps'], 0)}" for row in rows) + "."]
    problems = []
    for row in rows:
        failed = [(what, row[key]) for what, key in (("crashed", "crashed"), ("ran out of memory", "oom"),
                                                       ("failed the fresh request", "fresh_failed"),
                                                       ("kept its threads above idle", "threads_not_back"),
                                                       ("kept its RSS above idle", "rss_not_back")) if row[key]]
        problems += [f"`{row['mode']}` {what} in {_rounds_text(n, row['rounds'])}" for what, n in failed]
    lines.append("- " + ("; ".join(problems) if problems else
                         "Every target survived every round: no crash, no OOM, the fresh request answered, threads "
                         "and RSS back near idle") + ".")
    return lines + [""]


def summary_table(run):
    rows = summarize(run)
    if not rows:
        return []
    lines = ["## Over the rounds", "",
             "Median [min–max] over the rounds; latency from the rounds' merged histogram; a check's count is the "
             "rounds that failed it.", "",
             "| target | rounds | asked req/s | sent req/s | 2xx req/s | failed requests | latency p50 / p99 / max ms "
             "| server cores | load tool cores | threads back after s (not back) | RSS back after s (not back) "
             "| fresh request: slowest ms (failed) | crashed | OOM |",
             "|---|---:|---:|---:|---:|---:|---|---|---|---|---|---|---:|---:|"]
    for row in rows:
        latency = row["latency_ms"]
        latency_text = " / ".join(_number(latency.get(k)) for k in ("p50", "p99", "max")) if latency else "n/a"
        fresh = f"{row['fresh_worst_s'] * 1000:.0f}" if row["fresh_worst_s"] is not None else "n/a"
        lines.append(f"| {row['mode']} | {row['rounds']} | {row['rate']:,} | {_spread(row['sent_rps'])} "
                     f"| {_spread(row['ok_rps'])} | {_spread(row['failed'], 0)} | {latency_text} "
                     f"| {_spread(row['server_cores'], 2)} | {_spread(row['load_tool_cores'], 2)} "
                     f"| {_spread(row['threads_back_after_s'])} ({row['threads_not_back']}) "
                     f"| {_spread(row['rss_back_after_s'])} ({row['rss_not_back']}) | {fresh} ({row['fresh_failed']}) "
                     f"| {row['crashed']} | {row['oom']} |")
    return lines + [""]


def _cpus_text(cpus):
    if not cpus or not any(cpus.values()):
        return "server and load tool share every CPU (no --cpus)"
    return f"server on {cpus.get('server') or 'any'}, load tool on {cpus.get('driver') or 'any'} (--cpus)"


def _cores_text(cores):
    if not cores:
        return "n/a"
    return " / ".join("n/a" if cores.get(k) is None else f"{cores[k]:.2f}" for k in ("server", "load_tool"))


def report(run):
    config = run["config"]
    lines = [f"# Overload soak ({run['state']})", "",
             f"Command: `{run['env'].get('command', './lab soak')}`", "",
             *answer_lines(run),
             "## Setup", "",
             f"Each target: warm-up {config['warmup_s']} s at a quarter of the rate, {SETTLE_S} s quiet (its idle "
             f"threads and RSS: the medians there), then `GET {'/api/sleep?ms=' + str(config['sleep_ms'])}` at "
             f"{config['factor']:g} x its capacity for {config['load_s']} s with {config['driver']} (open model: requests "
             f"due at that rate whatever the answers, latency from each one's intended start; timeout "
             f"{config['timeout_s']:g} s, at most {config.get('max_connections', MAX_CONNECTIONS_OPEN_MODEL):,} "
             f"connections: requests due while all are busy wait in the load tool), then {config['idle_s']} s idle, "
             f"then one fresh request. CPUs: {_cpus_text(config.get('cpus'))}. "
             f"\"Back\" is the time after the load from which threads or RSS stayed within "
             f"max({NEAR_IDLE_SHARE:.0%}, {NEAR_IDLE_THREADS} threads / {NEAR_IDLE_RSS_MB} MB) of idle.", "",
             "Rounds: " + "; ".join(f"{i}: {', '.join(order)}" for i, order in enumerate(run.get("order") or [], 1))
             + " (each target on a fresh server, order rotated per round).", "",
             *summary_table(run),
             "## Each round", "",
             "| target | round | capacity | asked → sent req/s | 2xx req/s | failed (timeout/connect/reset/non-2xx/other) "
             "| listen-queue overflows "
             "| latency p50 / p99 / max ms "
             "| CPU cores server / load tool | threads idle → peak → end (back after) "
             "| RSS MB idle → peak → end (back after) | fresh request | crash | OOM |",
             "|---|---:|---:|---:|---:|---|---:|---|---|---|---|---|---|---|"]
    for t in run["targets"]:
        load = t.get("load") or {}
        errors = load.get("errors") or {}
        failed = (f"{errors.get('total', 0)} ({errors.get('timeout', 0)}/{errors.get('connect', 0)}/"
                  f"{errors.get('reset', 0)}/{errors.get('non_2xx', 0)}/{errors.get('other', 0)})"
                  if errors else load.get("failure", "n/a"))
        r = t.get("resources") or {}
        threads, rss = r.get("threads") or {}, r.get("rss_mb") or {}

        def span(d):
            if not d:
                return "n/a"
            back = f"{d['back_after_s']:g} s" if d.get("back_after_s") is not None else "**not back**"
            return f"{d['idle']} → {d['peak']} → {d['end']} ({back})"
        latency = load.get("latency_ms") or {}
        latency_text = (" / ".join(_number(latency.get(k)) for k in ("p50", "p99", "max")) if latency else "n/a")
        fresh = t.get("fresh_request") or {}
        fresh_text = (f"{fresh.get('status')} in {fresh['seconds'] * 1000:.0f} ms" if fresh else "n/a")
        checks_ = t.get("checks") or {}
        lines.append(f"| {t['mode']} | {t.get('repeat', 1)} | {t['capacity_rps']:g} | {t['rate']} → {_number(load.get('sent_rps'))} "
                     f"| {_number(load.get('ok_rps'))} | {failed} "
                     f"| {'n/a' if load.get('listen_overflows') is None else format(load['listen_overflows'], ',')} "
                     f"| {latency_text} | {_cores_text(r.get('cpu_cores'))} "
                     f"| {span(threads)} | {span(rss)} | {fresh_text} "
                     f"| {_problem(checks_.get('no_crash'))} | {_problem(checks_.get('no_oom'))} |")
    lines += ["", "Files: `soak.json` (every figure, each round's latency histogram), `raw/<target>.r<round>.samples.csv` "
                  "(/proc every 0.5 s over quiet, load and idle), `raw/<target>.r<round>.load.out` (the load tool), "
                  "`servers/<target>.r<round>.log`."]
    return "\n".join(lines) + "\n"
