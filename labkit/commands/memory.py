"""./lab memory: what a parked platform or virtual thread costs (micro/'s thread-memory experiment)."""
import time

from labkit import ROOT
from labkit.ground.errors import LabError, UsageError
from labkit.ground.jdk import find_java_home
from labkit.memory import runner as memory
from labkit.ground.arguments import whole_number

# argparse type of the one-run counts: a whole number >= 0.
NON_NEGATIVE = whole_number(0)


def register(subparsers):
    p = subparsers.add_parser(
        "memory", help="thread-memory experiment: N parked platform or virtual threads, VmPeak/VmHWM/VmRSS",
        description="Start N threads parked at a call depth in a fresh JVM and report what the process holds "
                    "(from /proc/self/status). --sweep runs both kinds at two depths and writes a table and a chart.")
    p.add_argument("--sweep", action="store_true",
                   help=f"platform {memory.PLATFORM_COUNTS} (default stack and -Xss256k) and virtual "
                        f"{memory.VIRTUAL_COUNTS} threads at depths {memory.DEPTHS}, one JVM each")
    p.add_argument("--quick", action="store_true", help="with --sweep: small counts, for a check in seconds")
    p.add_argument("--out", default=None, help="with --sweep: folder for thread-memory.{json,png} and the table "
                                               "(default .lab/memory/<time>)")
    p.add_argument("-v", "--virtual", action="store_true", help="one run: virtual threads (default platform)")
    p.add_argument("-n", "--threads", type=NON_NEGATIVE, default=1000, help="one run: how many threads (default 1000)")
    p.add_argument("--depth", type=NON_NEGATIVE, default=100, help="one run: call depth each thread parks at (default 100)")
    p.add_argument("--xss", default=None, help="one run: platform thread stack size, e.g. 256k (default: the JVM's)")
    p.add_argument("--hold-seconds", type=NON_NEGATIVE, default=0,
                   help="one run: keep the threads parked this long (look with grep ^Vm /proc/PID/status)")
    p.set_defaults(run=run)


def run(args):
    if not args.sweep and (args.quick or args.out):
        raise UsageError("--quick and --out go with --sweep")
    if args.sweep and (args.virtual or args.xss or args.hold_seconds):
        raise UsageError("--sweep chooses kinds, stack sizes and counts itself; -v, --xss and --hold-seconds are for one run")
    java_home = find_java_home()
    if args.sweep:
        return run_sweep(args, java_home)
    point = memory.Point(args.virtual, args.threads, args.depth, memory.check_xss(args.xss))
    memory.ensure_benchmarks_jar()
    cmd = memory.command(point, java_home, json_output=False, hold_seconds=args.hold_seconds)
    log_dir = ROOT / ".lab" / "memory"
    log_dir.mkdir(parents=True, exist_ok=True)
    print("command:", " ".join(cmd), flush=True)
    code, output = memory.run_java(cmd, log_dir / f"{point.label}.log", java_home,
                                   timeout=memory.POINT_TIMEOUT_SECONDS + args.hold_seconds,
                                   on_start=lambda process: print(f"java pid {process.pid}", flush=True))
    if code == 2:
        raise UsageError(output.strip().splitlines()[-1].removeprefix("memory: ") if output.strip() else "bad arguments")
    print(output, end="")
    if code not in memory.REPORTED_EXIT_CODES:
        raise LabError(f"the experiment failed (exit {code})")
    return code


def run_sweep(args, java_home):
    out = args.out or str(ROOT / ".lab" / "memory" / time.strftime("sweep-%Y%m%d-%H%M%S"))
    points = memory.sweep_points(quick=args.quick)
    print(f"{len(points)} runs, one JVM each ({memory.HEAP}); results in {out}", flush=True)
    document = memory.sweep(points, out, java_home=java_home)
    print()
    print(memory.markdown_table(document["results"]))
    print(f"\nchart: {out}/thread-memory.png\ntable: {out}/thread-memory-table.md\ndata:  {out}/thread-memory.json")
    incomplete = [r for r in document["results"] if r["outcome"] != "complete"]
    if incomplete:
        print(f"note: {len(incomplete)} runs stopped early (see the outcome column)")
    return 0
