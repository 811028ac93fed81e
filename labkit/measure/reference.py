"""The host's speed, measured: one fixed request at one fixed rate on one fixed server — the JDK's own
HTTP server on virtual threads (`jdk-virtual`: it starts in about a second, and its cost per request
is the JVM's and the kernel's, which is what drifts) — and its CPU time per request read from /proc.

Why: one VM of this lab ran 1.8x apart within a day with steal under 0.1 % (docs/results/capacity.md),
so a figure holds only for the speed the host had when it was measured. Measured before each target's
search and each of its rounds and recorded in env.json (`host_speed`), the reference lets a run say
how far the host drifted while it ran, and lets ./lab compare set two runs' figures against their
hosts' speeds.
"""
import math
import statistics
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from labkit.catalog import all_targets, scenario
from labkit.ground.errors import LabError
from labkit.load.levels import LoadLevel, SleepSpec
from labkit.load.tools import DRIVERS, LoadSpec
from labkit.measure.measured_server import MeasuredServer
from labkit.measure.session import drive, feed_of, probe, steady_window
from labkit.servers.external import TARGET_NAME as URL_TARGET

REFERENCE_MODE = "jdk-virtual"
# Far below what any target serves here (jdk-virtual held 11,000 req/s at a 100 ms sleep, pinned), so
# the reference never queues: its cost per request is the host's, not a saturated server's.
REFERENCE_RATE = 1000
REFERENCE_SLEEP = SleepSpec(10, 10)
# The first seconds warm the JIT (not measured); the window after them is measured. A run of shorter
# windows (a smoke run, the suite) measures its reference with a warm-up and a window each as long as
# its own windows: those references compare among themselves, not with a run's of another length.
REFERENCE_WARM_S = 10
REFERENCE_WINDOW_S = 10
# A change in the reference's cost beyond this within a run (or between two runs) is a host that ran
# at another speed: the same work repeated on one host agreed within 3 % (capacity.md, run 2 repeat).
DRIFT_TOLERANCE = 0.10


def reference_lengths(window_s):
    """(warm-up, window) seconds of the reference for a run whose windows last window_s."""
    return min(REFERENCE_WARM_S, window_s), min(REFERENCE_WINDOW_S, window_s)


def lengths_of(record):
    """(warm-up, window) seconds a reference record was measured with; records written before the
    lengths followed the run's window have the full ones."""
    return record.get("warm_s", REFERENCE_WARM_S), record.get("window_s", REFERENCE_WINDOW_S)


def reference_text(warm_s=REFERENCE_WARM_S, window_s=REFERENCE_WINDOW_S):
    return (f"{REFERENCE_MODE} at {REFERENCE_RATE:,} req/s, sleep {REFERENCE_SLEEP}, a {window_s:g} s window "
            f"after {warm_s:g} s of warm-up")


def can_measure(config):
    """None when the reference can run where the run's servers do, else why not."""
    if URL_TARGET in config.modes:
        return "the server is yours (--url): the lab starts no server of its own beside it"
    if config.setup.remote_host is not None and not all_targets()[REFERENCE_MODE].takes_host:
        return f"{REFERENCE_MODE} does not start on another host (--server-host)"
    return None


def measure_reference(config, executable, before, run_window_s=REFERENCE_WINDOW_S):
    """One reference measurement, on the server's CPUs (config.setup.cpus) and port, before the session
    `before` (e.g. 'virtual search'), as long as reference_lengths(run_window_s): {before, at,
    cpu_ms_per_request, ok_rps, warm_s, window_s, ...}, or {before, at, error} when it could not be
    measured (the run goes on: the reference describes the host, it does not judge a target). The load
    tool's files go to a scratch folder, removed after."""
    at = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    why = can_measure(config)
    if why:
        return {"before": before, "at": at, "error": why}
    with tempfile.TemporaryDirectory(prefix="loomlab-reference-") as scratch:
        try:
            measured = MeasuredServer.start(all_targets()[REFERENCE_MODE], config.setup)
        except LabError as e:
            return {"before": before, "at": at, "error": str(e)}
        with measured:
            server = measured.server
            try:
                path = scenario("sleep").path(config, LoadLevel(1, REFERENCE_SLEEP))
                response_bytes = probe(server, path, REFERENCE_MODE)
                now = time.time()
                warm_s, window_s = reference_lengths(run_window_s)
                window = steady_window(now, warm_s, window_s)
                spec = LoadSpec(url=server.base_url + path, concurrency=1, duration_s=math.ceil(window[1] - now),
                                rate=REFERENCE_RATE, timeout_s=5.0, window=window, max_connections=256,
                                side_file_prefix=Path(scratch) / "reference")
                run = drive(DRIVERS["vegeta"], executable, spec, server.pid, scratch, 0.5, response_bytes,
                            cpus=config.setup.cpus, feed=feed_of(server))
            except LabError as e:
                return {"before": before, "at": at, "error": str(e)}
    return reference_record(before, at, run, warm_s, window_s)


def reference_record(before, at, run, warm_s=REFERENCE_WARM_S, window_s=REFERENCE_WINDOW_S):
    """The record of one reference run (measure.session.drive's result)."""
    load = run["load"]
    if load is None or not load.ok_rps:
        return {"before": before, "at": at, "error": run["failure"] or "no request answered"}
    server = (run["resources"] or {}).get("server") or {}
    machine = (run["resources"] or {}).get("machine") or {}
    cores = server.get("cpu_cores")
    return {"before": before, "at": at, "mode": REFERENCE_MODE, "rate": REFERENCE_RATE,
            "ok_rps": round(load.ok_rps, 1), "errors": load.errors.total,
            "p50_ms": load.latency_ms.p50 if load.latency_ms else None,
            "server_cpu_cores": cores,
            "cpu_ms_per_request": round(cores / load.ok_rps * 1000, 4) if cores is not None else None,
            "steal_share": machine.get("server_cpus_steal_share"), "warm_s": warm_s, "window_s": window_s}


def speed_summary(references):
    """{median, min, max, n, drift} of the references' CPU ms per request (drift: (max − min) ÷ min),
    or None without one."""
    costs = [r["cpu_ms_per_request"] for r in references or () if r.get("cpu_ms_per_request")]
    if not costs:
        return None
    low, high = min(costs), max(costs)
    return {"median": statistics.median(costs), "min": low, "max": high, "n": len(costs),
            "drift": (high - low) / low}


def run_lengths(env):
    """The (warm-up, window) lengths of a run's measured references, or None without one."""
    lengths = {lengths_of(r) for r in (env or {}).get("host_speed") or () if r.get("cpu_ms_per_request")}
    return min(lengths) if lengths else None


def speed_ratio(env_a, env_b):
    """B's reference cost ÷ A's (medians): below 1, B's host was faster. None without both, or when
    they were measured with windows of different lengths (a shorter one ends less warm: it costs more
    on the same host)."""
    a, b = speed_summary((env_a or {}).get("host_speed")), speed_summary((env_b or {}).get("host_speed"))
    if not a or not b or run_lengths(env_a) != run_lengths(env_b):
        return None
    return b["median"] / a["median"]


def speed_lines(env):
    """report.md's lines on the host's speed during a run: every reference and the drift between them;
    [] for a run without references."""
    references = (env or {}).get("host_speed")
    if not references:
        return []
    summary = speed_summary(references)
    lines = ["## The host's speed during the run", "",
             f"Before each server session the lab measured a reference: {reference_text(*run_lengths(env) or ())}, "
             f"on the server's "
             f"CPUs. Its CPU time per request is the host's speed at that moment (lower is faster).", ""]
    if summary:
        verdict = ("beyond" if summary["drift"] > DRIFT_TOLERANCE else "within")
        lines += [f"Median {summary['median']:.4f} ms [{summary['min']:.4f}–{summary['max']:.4f}] n={summary['n']}: "
                  f"the slowest reference cost {summary['drift'] * 100:.0f} % more than the fastest, {verdict} "
                  f"{DRIFT_TOLERANCE * 100:g} %"
                  + (": figures measured at different moments of this run measure the host's drift too."
                     if summary["drift"] > DRIFT_TOLERANCE else "."), ""]
    lines += ["| before | at (UTC) | CPU ms per request | 2xx req/s | steal |", "|---|---|---:|---:|---:|"]
    for r in references:
        if r.get("error"):
            lines.append(f"| {r['before']} | {r['at']} | not measured: {r['error']} | – | – |")
        else:
            steal = r.get("steal_share")
            lines.append(f"| {r['before']} | {r['at']} | {r['cpu_ms_per_request']:.4f} | {r['ok_rps']:,.0f} | "
                         f"{'–' if steal is None else f'{steal * 100:.1f} %'} |")
    return lines + [""]


def compare_line(env_a, env_b):
    """./lab compare's line on the two runs' host speeds from their references, or None without both."""
    ratio = speed_ratio(env_a, env_b)
    lengths = run_lengths(env_a), run_lengths(env_b)
    if ratio is None and None not in lengths:
        return (f"host-speed references not compared: A's were {lengths[0][1]:g} s windows after {lengths[0][0]:g} s "
                f"of warm-up, B's {lengths[1][1]:g} s after {lengths[1][0]:g} s")
    if ratio is None:
        return None
    a, b = speed_summary(env_a["host_speed"]), speed_summary(env_b["host_speed"])
    text = (f"host-speed reference ({REFERENCE_MODE} at {REFERENCE_RATE:,} req/s): A {a['median']:.4f} ms CPU per "
            f"request (n={a['n']}, drift {a['drift'] * 100:.0f} %), B {b['median']:.4f} ms (n={b['n']}, drift "
            f"{b['drift'] * 100:.0f} %): B's host {'faster' if ratio < 1 else 'slower'} by {abs(1 - ratio) * 100:.0f} %")
    if abs(ratio - 1) > DRIFT_TOLERANCE:
        text += "; a capacity that CPU limits scales by about that much (the 'at A's speed' column)"
    return text


def at_speed_of(value_b, env_a, env_b, higher_is_better=True):
    """B's figure as it would be at A's host speed, for a figure CPU limits (a capacity, or a CPU cost
    per request), or None without references in both runs. A capacity scales with the inverse of the
    reference's cost, a CPU cost with the cost itself."""
    ratio = speed_ratio(env_a, env_b)
    if ratio is None or value_b is None:
        return None
    return value_b * ratio if higher_is_better else value_b / ratio
