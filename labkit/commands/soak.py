"""./lab soak: each target at FACTOR x its capacity for a while, then idle; did it survive?"""

from labkit.commands.common import (
    add_run_options,
    lab_command_line,
    raise_open_files_limit,
    results_folder,
)
from labkit.commands.where import check_port, on_server_host, record_where, use_url, with_load_hosts
from labkit.load.tools import MAX_CONNECTIONS_OPEN_MODEL, ensure_tools
from labkit.measure.env import collect
from labkit.ground.build import ensure_built
from labkit.ground.errors import UsageError
from labkit.ground.jdk import find_java_home
from labkit.servers.modes import find_mode
from labkit.soak.config import DEFAULT_PORT, DRIVER, SoakConfig, parse_capacity
from labkit.soak.runner import run_soak
from labkit.catalog import all_targets
from labkit.servers.registry import PAYARA7_PREFIX, choices
from labkit.ground.arguments import positive_number, positive_seconds, whole_number
from labkit.measure.cpus import server_jvm_options

_parser = None


def register(subparsers):
    global _parser
    p = subparsers.add_parser(
        "soak", help="overload each target at 2x its capacity, then idle: crash, OOM, errors, recovery",
        description="Load each target at FACTOR x its capacity for --load seconds, then leave it idle for "
                    "--idle seconds; report errors by kind, threads and RSS against their idle values, and "
                    "whether a fresh request is answered within 1 s afterwards.")
    p.add_argument("--modes", help="comma-separated targets (as ./lab bench --modes); required unless --url")
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
    url = use_url(args)
    known = all_targets()
    names = ",".join(args.modes) if url else (args.modes or "")
    modes = tuple(m.strip() for m in names.split(",") if m.strip())
    unknown = [m for m in modes if m not in known]
    if not modes or unknown:
        raise UsageError(f"--modes: unknown target(s) {', '.join(unknown) or '(none given)'}; choose from: "
                         + choices(known))
    return SoakConfig(modes=modes, capacity=parse_capacity(args.capacity, modes, args.sleep), factor=args.factor,
                      load_s=args.load, idle_s=args.idle, warmup_s=args.warmup, sleep_ms=args.sleep,
                      timeout_s=args.timeout, port=args.port or DEFAULT_PORT,
                      jvm_options=server_jvm_options(args.jvm_opt, args.cpus, modes),
                      jvm_defaults=args.jvm_defaults is not False, cpus=args.cpus,
                      max_connections=args.max_connections, repeats=args.repeats), all_targets()


def run(args):
    try:
        config, targets = _config(args)
        config = with_load_hosts(on_server_host(config, args, {name: targets[name] for name in config.modes}), args)
        out_dir = results_folder(args.out, args.name or "soak")
    except UsageError as e:
        _parser.error(str(e))  # the usage line and exit 2, as for argparse's own errors
    check_port(config)
    executable = ensure_tools([DRIVER])[DRIVER]
    java_home = find_java_home()
    if any(find_mode(m.removeprefix(PAYARA7_PREFIX)) for m in config.modes):
        ensure_built()
    raise_open_files_limit(MAX_CONNECTIONS_OPEN_MODEL)
    out_dir.mkdir(parents=True, exist_ok=True)
    env = record_where(collect(java_home, {DRIVER: executable}, lab_command_line("soak"), config.cpus, config.modes), config, args)
    result = run_soak(config, targets, executable, out_dir, env)
    print((out_dir / "report.md").read_text())
    print(f"report: {out_dir / 'report.md'}")
    failed = [t["mode"] for t in result["targets"] if t["checks"].get("no_crash") is False or t["checks"].get("no_oom") is False]
    return 1 if failed else 0
