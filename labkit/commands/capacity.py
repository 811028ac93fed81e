"""./lab capacity: per target, the highest arrival rate it serves within a latency goal."""
import argparse
import sys

from labkit.load.levels import MAX_CONCURRENCY, MAX_DEPTH
from labkit.servers.registry import DEFAULT_MODES
from labkit import ROOT
from labkit.ground.arguments import decimal_number, name_list, percentage, positive_seconds, whole_number
from labkit.measure.plan import MAX_REPEATS, MAX_WARMUP_S
from labkit.commands.common import add_jfr_locks_argument, add_run_options, prepare_run, recording_end
from labkit.catalog import all_targets
from labkit.load.requests_mix import add_request_arguments
from labkit.servers.userapp import add_war_argument
from labkit.capacity import config as options
from labkit.capacity.config import CapacityConfig
from labkit.capacity.goals import latency_goals
from labkit.capacity.recorder import CapacityRecorder
from labkit.capacity.runner import CapacityRunner

_parser = None

EPILOG = """\
examples:
  ./lab capacity --modes virtual,platform-4000 --sleep 100
  ./lab capacity --modes platform-4000,platform-10000,virtual,virtual-4000,virtual-reusing,jdk-virtual,helidon \\
      --sleep 100,2000 --repeats 3 --cpus server=1,driver=0
  ./lab capacity --modes jdk-virtual --sleep 100 --slo p99=120ms --duration 10

Every window is an open-model run of vegeta at a fixed rate: requests are due on a schedule whatever
the server does, and latency runs from each request's intended start. Results go to
results/<timestamp>-<name>/ (report.md, results.json, results.csv, charts, histograms/*.hgrm.gz);
./lab report DIR rebuilds the report from them."""


def register(subparsers):
    global _parser
    p = subparsers.add_parser(
        "capacity", help="highest request rate each target serves within a latency goal (open model)",
        description="For each target and sleep: a fresh server warmed up until steady, fixed-rate windows "
                    "(vegeta, open model) ramping up then bisecting to the highest rate whose latency meets the "
                    "goal with no failed request, then confirmation windows at that rate on fresh servers.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--modes", type=name_list, metavar="LIST",
                   help="comma-separated targets (default: " + ",".join(DEFAULT_MODES) + ")")
    p.add_argument("--sleep", dest="sleeps", type=options.sleep_list, metavar="MS[,MS...]",
                   help="sleep per request in ms, one search per value (default 100)")
    p.add_argument("--slo", dest="goals", type=latency_goals, metavar="pNN=LIMIT[,LIMIT...]",
                   help="latency goal: p99=+50ms (sleep + 50 ms, the default), p99=150ms (absolute), p99=+5%% "
                        "(sleep + 5 %%); p50, p90, p99, p99.9. Several (p99=+50ms,+5%%,+25%%): a capacity per goal, "
                        "the first one the main goal")
    p.add_argument("--depth", type=whole_number(0, MAX_DEPTH, "--depth"), metavar="N",
                   help="call depth at which the request sleeps (default 100)")
    p.add_argument("--duration", type=whole_number(3, 600, "--duration"), metavar="S",
                   help="measured window of each step, seconds (default 15)")
    p.add_argument("--preroll", type=whole_number(0, 60, "--preroll"), metavar="S",
                   help="load at the step's rate before its window, same run, not measured "
                        "(default: two sleeps, at least 2 s)")
    p.add_argument("--repeats", type=whole_number(1, MAX_REPEATS, "--repeats"), metavar="N",
                   help="confirmation rounds at the found rate, each on fresh servers (default 3)")
    p.add_argument("--start-rate", type=whole_number(1, options.MAX_RATE, "--start-rate"), metavar="REQ_PER_S",
                   help="first rate of the ramp (default 250)")
    p.add_argument("--max-rate", type=whole_number(1, options.MAX_RATE, "--max-rate"), metavar="REQ_PER_S",
                   help="highest rate tried (default 50000)")
    p.add_argument("--resolution", type=percentage(0.5, 50, "--resolution"), metavar="PCT",
                   help="bisection stops when the gap between met and missed is at most this (default 5%%)")
    p.add_argument("--warmup-concurrency", type=whole_number(1, MAX_CONCURRENCY,
                                                                         "--warmup-concurrency"), metavar="N",
                   help="connections of the closed-model warm-up iterations (default 1000)")
    p.add_argument("--warmup-iteration", type=whole_number(1, 60, "--warmup-iteration"), metavar="S",
                   help="length of one warm-up iteration (default 5)")
    p.add_argument("--warmup-min", type=whole_number(0, MAX_WARMUP_S, "--warmup-min"),
                   metavar="S", help="warm up at least this long before the stability rule may end it (default 30)")
    p.add_argument("--warmup-max", type=whole_number(0, MAX_WARMUP_S, "--warmup-max"),
                   metavar="S", help="cap of the warm-up; 0 = no warm-up (default 180)")
    p.add_argument("--warmup-jit-rate", type=decimal_number(0, 100_000, "--warmup-jit-rate"), metavar="PER_S",
                   help="the warm-up ends only when in each of its settled iterations the JIT compiled at most "
                        "this many methods per second (sun.ci.totalCompiles, read with jcmd), besides a steady "
                        "throughput (default 5)")
    p.add_argument("--min-young-gcs", type=whole_number(0, 1000, "--min-young-gcs"), metavar="N",
                   help="a window counts as meeting the goal only with at least N young collections in it (JFR); "
                        "one that met it with fewer is measured again twice as long, up to --max-window; "
                        "0 turns the rule off (default 2)")
    p.add_argument("--max-window", type=whole_number(3, 600, "--max-window"), metavar="S",
                   help="longest window of that re-run; a window this long that met the goal with fewer young "
                        "collections counts, flagged few-gcs (default 120, or --duration when longer)")
    p.add_argument("--cooldown", type=whole_number(0, 120, "--cooldown"), metavar="S",
                   help="rest between windows, before waiting for a quiet server (default 3)")
    p.add_argument("--timeout", type=positive_seconds, metavar="S",
                   help="request timeout; must be above the goal (default: the larger of 5 s and 4 x the goal)")
    p.add_argument("--no-reference", action="store_true",
                   help="no host-speed reference before each server session (default: jdk-virtual at 1,000 req/s "
                        "for 20 s, its CPU per request recorded in env.json)")
    add_run_options(p, default_name="'capacity'")
    add_jfr_locks_argument(p)
    add_war_argument(p)
    add_request_arguments(p)
    p.set_defaults(run=run)
    _parser = p


def run(args):
    prepared = prepare_run("capacity", args, lambda given: CapacityConfig.build(given, known_targets=all_targets()),
                           _parser.error)
    config, out_dir = prepared.config, prepared.out_dir
    recorder = CapacityRecorder(out_dir, config, prepared.env)
    runner = CapacityRunner(config, prepared.targets, prepared.executables["vegeta"], recorder,
                            java_home=prepared.java_home)
    print(f"capacity: {len(config.modes)} target(s) x {len(config.sleeps)} sleep(s), goal {', '.join(str(g) for g in config.goals)}, "
          f"{config.repeats} confirmation round(s), about {_duration(runner)}; results in {_shown(out_dir)}", flush=True)
    with recording_end(lambda state, error: _finish(recorder, state, error, out_dir)):
        runner.run()
    return 0


def _finish(recorder, state, error, out_dir):
    try:
        _print_summary(recorder.finish(state, error))
    except Exception as e:  # the report must not hide the run's own outcome
        print(f"lab capacity: writing the report failed: {e}", file=sys.stderr)
    print(f"\nreport: {_shown(out_dir / 'report.md')}", flush=True)


def _duration(runner):
    from labkit.measure.plan import format_duration
    config = runner.config
    searches = len(config.modes) * len(config.sleeps)
    return format_duration(runner.remaining_s(searches, searches * config.repeats))


def _shown(path):
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def _print_summary(run):
    from labkit.capacity.report.capacity_report import summary_line
    print("")
    for row in run["summary"]:
        print(summary_line(row), flush=True)
