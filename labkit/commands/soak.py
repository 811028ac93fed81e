"""./lab soak: each target at FACTOR x its capacity for a while, then idle; did it survive?"""

from pathlib import Path

from labkit.commands.common import add_run_options, prepare_run
from labkit.load.tools import MAX_CONNECTIONS_OPEN_MODEL
from labkit.ground.errors import UsageError
from labkit.measure.server_setup import ServerSetup
from labkit.soak.config import DRIVER, SoakConfig, parse_capacity
from labkit.soak.runner import run_soak
from labkit.catalog import all_targets
from labkit.servers.registry import choices
from labkit.ground.arguments import name_list, positive_number, positive_seconds, whole_number

_parser = None


def register(subparsers):
    global _parser
    p = subparsers.add_parser(
        "soak", help="overload each target at 2x its capacity, then idle: crash, OOM, errors, recovery",
        description="Load each target at FACTOR x its capacity for --load seconds, then leave it idle for "
                    "--idle seconds; report errors by kind, threads and RSS against their idle values, and "
                    "whether a fresh request is answered within 1 s afterwards.")
    p.add_argument("--modes", type=name_list,
                   help="comma-separated targets (as ./lab bench --modes); required unless --url")
    p.add_argument("--capacity", required=True, metavar="RPS|MODE=RPS,...|results.json",
                   help="what each target sustained: one rate for all, one per mode, or a results.json(.gz) "
                        "of ./lab bench (highest 2xx rate) or ./lab capacity (capacity found)")
    p.add_argument("--factor", type=positive_number("--factor"), default=2.0, help="load = factor x capacity (default 2)")
    p.add_argument("--load", type=whole_number(1, 3600, "--load", unit="whole seconds"), default="60", metavar="S", help="overload seconds (60)")
    p.add_argument("--idle", type=whole_number(1, 3600, "--idle", unit="whole seconds"), default="60", metavar="S", help="idle seconds after (60)")
    p.add_argument("--warmup", type=whole_number(0, 600, "--warmup", unit="whole seconds"), default="20", metavar="S",
                   help="warm-up at a quarter of the rate before the idle values are taken (20)")
    p.add_argument("--sleep", type=whole_number(0, 60000, "--sleep", unit="whole milliseconds"), default="100", metavar="MS",
                   help="the request: /api/sleep?ms=MS (100)")
    p.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="S", help="request timeout of the load tool (10)")
    p.add_argument("--repeats", type=whole_number(1, 20, "--repeats"), default="3", metavar="N",
                   help="rounds, each target on a fresh server, order rotated per round (default 3)")
    p.add_argument("--max-connections", type=whole_number(1, MAX_CONNECTIONS_OPEN_MODEL, "--max-connections"),
                   metavar="N", help=f"the load tool's connection bound (default {MAX_CONNECTIONS_OPEN_MODEL:,}); "
                                     "requests due while all are busy wait in the load tool and count as late or unsent")
    add_run_options(p, "soak")
    p.set_defaults(run=run)
    _parser = p


def _config(args):
    known = all_targets()
    modes = args.modes or ()
    unknown = [m for m in modes if m not in known]
    if not modes or unknown:
        raise UsageError(f"--modes: unknown target(s) {', '.join(unknown) or '(none given)'}; choose from: "
                         + choices(known))
    return SoakConfig(modes=modes, capacity=parse_capacity(args.capacity, modes, args.sleep), factor=args.factor,
                      load_s=args.load, idle_s=args.idle, warmup_s=args.warmup, sleep_ms=args.sleep,
                      timeout_s=args.timeout, setup=ServerSetup.from_args(args, modes),
                      max_connections=args.max_connections, repeats=args.repeats, name=args.name or "soak",
                      out_dir=Path(args.out) if args.out else None)


def run(args):
    prepared = prepare_run("soak", args, _config, _parser.error)
    config, out_dir = prepared.config, prepared.out_dir
    result = run_soak(config, prepared.targets, prepared.executables[DRIVER], out_dir, prepared.env)
    print((out_dir / "report.md").read_text())
    print(f"report: {out_dir / 'report.md'}")
    failed = [t["mode"] for t in result["targets"] if t["checks"].get("no_crash") is False or t["checks"].get("no_oom") is False]
    return 1 if failed else 0
