"""./lab bench: the thread modes side by side under load, sampled, with a report and charts."""
import argparse
import sys

from labkit.load.levels import MAX_DEPTH, sleep_spec
from labkit.servers.registry import DEFAULT_MODES
from labkit.ground.arguments import positive_seconds, whole_number
from labkit.servers.carriers import add_carriers_argument
from labkit.ground.errors import LabError
from labkit.catalog import all_targets
from labkit.bench import config as options
from labkit.bench.config import BenchConfig
from labkit.load.tools import DRIVERS, MAX_CONNECTIONS_OPEN_MODEL
from labkit.servers.heaps import heap_list
from labkit.measure.plan import MAX_DURATION_S, MAX_REPEATS, MAX_WARMUP_S
from labkit.measure.progress import Progress
from labkit.bench.runner import BenchRunner, RunRecorder
from labkit.commands.common import add_jfr_locks_argument, add_run_options, prepare_run, recording_end
from labkit.ground.arguments import name_list
from labkit.load.scenarios import requests_scenario
from labkit.catalog import scenario
from labkit.load.requests_mix import add_request_arguments
from labkit.servers.userapp import add_war_argument


_parser = None

EPILOG = """\
examples:
  ./lab bench --quick                                  the four modes, c=100 and c=1000 at 100 ms, minutes
  ./lab bench --modes virtual,platform-4000 --concurrency 1000,6000 --sleep 100
  ./lab bench --concurrency 1000@100,6000@2000         a sleep per level: CONCURRENCY@SLEEP
  ./lab bench --driver bombardier,ab,wrk --sleep 50-150   the same points under three tools
  ./lab bench --modes virtual --concurrency 2000 --rate 5000   open model: 5000 req/s (vegeta), latency from
                                                       each request's intended start
  ./lab bench --cpus server=1,driver=0                 server and load tool on different cores
  ./lab bench --driver ab --steady --concurrency 6000@2000     windows inside one ab run, ramp excluded
  ./lab bench --scenario fanout --modes virtual,platform-4000,vertx-eventloop --heap 512m,1g
                                                       a JSON POST fanning out to 10 blocking calls, at two heaps
  ./lab bench --war shop.war --request 'GET /shop/catalog' --modes virtual,platform-4000
                                                       your own WAR (docs/bring-your-own-app.md)
  ./lab bench --scenario contend --carriers 2 --concurrency 3 --repeats 1
                                                       spinning requests: virtual stalls (the watchdog's thread
                                                       dump names the spinning frame), platform-4000 does not

Results go to results/<timestamp>-<name>/ (report.md, results.json, results.csv, charts, raw/).
Ctrl-C stops the server and the load tool and writes the report for the points already measured."""


def register(subparsers):
    global _parser
    p = subparsers.add_parser(
        "bench", help="run thread modes side by side under load and write a report",
        description="Start each mode on a fresh server, load it with bombardier, ab or wrk, sample CPU, memory, "
                    "threads (/proc) and GC, heap, pinning (JFR), and write a report with charts.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="preset: the four modes, c=100 and c=1000 at 100 ms, 5 s warm-up, 6 s windows, 2 repeats "
                        "on one server per mode (a few minutes); other options override it")
    p.add_argument("--modes", type=name_list, metavar="LIST",
                   help="comma-separated targets (default: " + ",".join(DEFAULT_MODES) + "); any target "
                        "registered in labkit/servers/registry.py, or any size of a mode template: platform-8, "
                        "virtual-200, server-platform-32 (a wrong name lists them)")
    p.add_argument("--scenario", metavar="NAME",
                   help="what is requested: sleep (default), fanout (a JSON POST fanning out to 10 blocking calls), "
                        "contend (requests spin for one lock whose holder sleeps: the carrier-starvation "
                        "reproduction), or a scenario registered in labkit/load/scenarios.py")
    p.add_argument("--concurrency", type=options.concurrency_list, metavar="LIST",
                   help="connections, comma-separated; CONCURRENCY@SLEEP gives a level its own sleep (default 1000)")
    p.add_argument("--sleep", type=sleep_spec, metavar="MS|MIN-MAX",
                   help="sleep per request in ms, fixed (100) or uniform (50-150) (default 100)")
    p.add_argument("--depth", type=whole_number(0, MAX_DEPTH, "--depth"), metavar="N",
                   help="call depth at which the request sleeps (default 100)")
    p.add_argument("--duration", type=whole_number(1, MAX_DURATION_S, "--duration"), metavar="S",
                   help="measured window per point, whole seconds (default 30)")
    p.add_argument("--warmup", type=whole_number(0, MAX_WARMUP_S, "--warmup"), metavar="S",
                   help="unmeasured load before each level, whole seconds (default 10)")
    p.add_argument("--warmup-until-steady", action="store_true",
                   help="repeat the warm-up run (--warmup seconds each) until the last three runs' throughput "
                        "agree within ±5 %% (it stopped rising), at most --warmup-cap seconds; the time is recorded")
    p.add_argument("--warmup-cap", type=whole_number(1, MAX_WARMUP_S, "--warmup-cap"), metavar="S",
                   help="the most --warmup-until-steady may take (default 180)")
    p.add_argument("--repeats", type=whole_number(1, MAX_REPEATS, "--repeats"), metavar="N",
                   help="measured windows per point, reported as median [min-max] (default 3)")
    p.add_argument("--restart", choices=("repeat", "mode"),
                   help="'repeat': each repeat starts every server afresh, modes interleaved (default); "
                        "'mode': one server per mode, repeats back to back")
    p.add_argument("--driver", dest="drivers", type=name_list, metavar="LIST",
                   help="load tool(s): " + ", ".join(DRIVERS) + " (default bombardier, vegeta with --rate); "
                        "several run every point under each")
    p.add_argument("--rate", type=whole_number(1, 10_000_000, "--rate"), metavar="REQ_PER_S",
                   help="a fixed request rate. With vegeta (the default then) an open model: requests leave on "
                        "schedule whatever the server does and latency runs from each request's intended start. "
                        "With --driver bombardier only a rate limit over --concurrency connections: a stalled "
                        "server still receives fewer requests and latency runs from the actual send")
    p.add_argument("--steady", action="store_true",
                   help="measure each window inside one continuous run of the load tool (warm-up, window, then "
                        "a drain of one timeout), counting only requests that start in the window, so the "
                        "connection ramp stays out of it (ab and vegeta, which record each request's start)")
    p.add_argument("--timeout", type=positive_seconds, metavar="S",
                   help="request timeout of the load tool; must be above the sleep "
                        f"(default: the larger of {options.MIN_DEFAULT_TIMEOUT_S:g} s and "
                        f"{options.TIMEOUT_SLEEP_FACTOR} x the longest sleep)")
    p.add_argument("--heap", type=heap_list, metavar="LIST",
                   help="run every mode once per heap size, e.g. 512m,1g,2g,4g (-Xms = -Xmx; on Payara Micro it "
                        "replaces the heap lines of domain-config/jvm.options); the report adds req per CPU-s and "
                        "per GB of peak RSS per size and the smallest heap within 5 %% of each mode's best")
    add_carriers_argument(p)
    add_jfr_locks_argument(p)
    p.add_argument("--stall-after", type=positive_seconds, metavar="S",
                   help="the watchdog's probe (GET /api/info on a connection of its own, every second) unanswered "
                        "this long marks the point stalled: its thread dump is saved and summarised, the server "
                        "stopped, the next session started (default: the longest of 10 s, 3 x the sleep and "
                        "connections / 200 s)")
    add_war_argument(p)
    add_request_arguments(p)
    add_run_options(p, default_name="'bench', 'quick' with --quick")
    p.set_defaults(run=run)
    _parser = p


def usage_error(message):
    """Exit 2 with the bench usage line, as argparse does for a bad option value."""
    _parser.error(message)


def run(args):
    prepared = prepare_run("bench", args, _config, usage_error, drivers=lambda config: config.drivers,
                           connections=_connections)
    config, out_dir = prepared.config, prepared.out_dir
    chosen_scenario = requests_scenario(config.requests) if config.requests is not None else scenario(config.scenario)
    planned = len(config.modes) * max(1, len(config.heaps)) * len(config.drivers) * len(config.levels) * config.repeats
    progress = Progress(planned)
    recorder = RunRecorder(out_dir, config, prepared.env, planned)
    runner = BenchRunner(config, chosen_scenario, prepared.targets, prepared.executables, prepared.java_home, out_dir,
                         recorder, progress)

    with recording_end(lambda state, error: _finish(recorder, progress, state, error, out_dir,
                                                    len(config.drivers) > 1)) as end:
        runner.run()
        end.state, end.error = outcome(recorder.points, runner.skipped_points)
    if end.error:
        # Every point ran but not every one was measured: a script or CI must not take this as a result.
        raise LabError(end.error)
    return 0


def _connections(config):
    """The most connections one point opens: its concurrency, or an open model's bound (as many as the
    requests in flight need)."""
    connections = max(level.concurrency for level in config.levels)
    if config.rate and any(DRIVERS[d].open_model for d in config.drivers):
        connections = max(connections, MAX_CONNECTIONS_OPEN_MODEL)
    return connections


def outcome(points, skipped=0):
    """The state of a run that went through its plan: complete only when every point has a result
    and none was skipped (`skipped`: points left out because their server stalled before them)."""
    failed = [p["id"] for p in points if p.get("failure")]
    if not failed and not skipped:
        return "complete", None
    error = f"{len(failed)} of {len(points)} points failed (no result; see report.md): {', '.join(failed)}"
    stalled = [p["id"] for p in points if "stalled" in (p.get("flags") or ())]
    if stalled:
        error += f"; the server stalled at {', '.join(stalled)}"
    if skipped:
        error += f"; {skipped} later points of stalled servers were not run"
    return "failed", error


def _config(args):
    # A scenario may name the targets that serve it (e.g. a CargoTracker page); else the Payara modes.
    chosen = scenario(args.scenario or options.DEFAULTS["scenario"])
    default_modes = chosen.targets or DEFAULT_MODES
    return BenchConfig.build(args, known_targets=all_targets(), known_drivers=DRIVERS, default_modes=default_modes,
                             default_sleep=chosen.default_sleep)


def _finish(recorder, progress, state, error, out_dir, several_drivers):
    try:
        run = recorder.finish(state, error)
    except Exception as e:  # the report must not hide the run's own outcome
        print(f"lab bench: writing the report failed: {e}", file=sys.stderr)
        return
    if run["summary"]:
        progress.summary_table(run["summary"], several_drivers)
    print(f"\nreport: {out_dir / 'report.md'}", flush=True)
