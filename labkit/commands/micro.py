"""./lab micro jmh|ring|echo: the micro-benchmarks below the app server (module micro/).

Each run writes results/<timestamp>-micro-<kind>/ (logs, raw results, report.md); --publish also
updates its section of docs/results/micro-<experiment>.md, keeping the hand-written reading there.
"""
import dataclasses
import json
import shlex
import sys
from pathlib import Path

from labkit.ground.arguments import decimal_number, whole_number
from labkit.ground.build import ensure_benchmarks_jar
from labkit.ground.errors import LabError
from labkit.ground.jdk import find_java_home
from labkit.ground.machine import normalize_facts
from labkit.micro import common, echo, jmh, report, tables

JMH_DOC = ("micro-jmh", "Micro-benchmark: IO and CPU tasks on virtual vs platform threads (JMH)")
RING_DOC = ("micro-ring", "Micro-benchmark: the token ring on platform and virtual threads (JMH)")
ECHO_DOC = ("micro-echo", "Micro-benchmark: echo clients (NIO, platform, virtual threads) over a connection sweep")
RING_QUICK_PASSES = 100_000
RING_PRESET = jmh.Preset(forks=1, warmup_iterations=2, iterations=3, warmup_time="2s", time="2s")
MAX_RING_WORKERS = 10_000  # platform threads share the machine's pid_max with every other process


def register(subparsers):
    p = subparsers.add_parser("micro", help="micro-benchmarks: JMH IO vs CPU, token ring, echo connection sweep",
                              description="Micro-benchmarks below the app server, from micro/target/benchmarks.jar.")
    sub = p.add_subparsers(dest="experiment", metavar="EXPERIMENT")
    sub.required = True

    j = sub.add_parser("jmh", help="IO task (HTTP call to a local stub) and CPU task (key pair) on virtual vs platform threads",
                       description="JMH IoVsCpuBenchmark: throughput and average time, optionally with profilers.")
    _common_options(j)
    j.add_argument("--prof", action="append", default=[], metavar="NAME",
                   help="profiler, repeatable: gc (allocation, GC), threads (thread counts), stack (where threads are)")
    j.add_argument("--mode", choices=jmh.MODES, help="only this JMH mode (default: both thrpt and avgt)")
    j.add_argument("--param", action="append", default=[], metavar="NAME=V1[,V2]",
                   help="JMH parameter, repeatable, e.g. --param concurrency=1000 --param delayMs=50")
    j.set_defaults(run=run_jmh)

    r = sub.add_parser("ring", help="N workers in a ring pass a token M times (platform, virtual, virtual on 1 carrier)",
                       description="JMH RingBenchmark: time per ring.")
    _common_options(r)
    r.add_argument("--workers", type=whole_number(1, MAX_RING_WORKERS), default=503,
                   help="threads in the ring (default 503)")
    r.add_argument("--passes", type=whole_number(1, 1_000_000_000), default=None,
                   help=f"hand-offs per ring (default 1,000,000; {RING_QUICK_PASSES:,} with --quick)")
    r.set_defaults(run=run_ring)

    e = sub.add_parser("echo", help="echo clients (nio, platform, virtual) against a delaying NIO server, over C connections",
                       description="For each C and client: fresh server and client JVMs on 127.0.0.1; "
                                   "records throughput, CPU time and peak RSS; writes CSV and a chart.")
    _common_options(e)
    e.add_argument("--sweep", metavar="C1,C2,...",
                   help="connection counts (default 100,1000,5000,10000,15000 and the most ulimit -n allows; "
                        "100,1000 with --quick)")
    e.add_argument("--clients", default=",".join(echo.CLIENTS), help="clients to run (default nio,platform,virtual)")
    e.add_argument("--duration", type=decimal_number(0.5, 600), default=None,
                   help="seconds of echoing per run (default 10; 5 with --quick)")
    e.add_argument("--latency-ms", type=whole_number(0, 60_000), default=1000,
                   help="server delay before each echo (default 1000)")
    e.add_argument("--message-size", type=whole_number(1, 65536), default=32,
                   help="bytes per echo (default 32)")
    e.add_argument("--port", type=whole_number(1024, 65535 - echo.PORT_SPAN), default=common.ECHO_PORT,
                   help=f"first echo server port; each run listens on {echo.LISTEN_PORTS} ports, runs rotate over "
                        f"{echo.PORT_SPAN} (default {common.ECHO_PORT}-{common.ECHO_PORT + echo.PORT_SPAN - 1})")
    e.add_argument("--client-nofile", type=whole_number(32, 1 << 20), default=None, metavar="N",
                   help="lower the client's open-files limit to N, to watch it run out of sockets")
    e.add_argument("--from", dest="from_dir", metavar="DIR",
                   help="run nothing: redraw the chart and rewrite report.md (and with --publish the docs) "
                        "from the results of an earlier echo run in DIR")
    e.set_defaults(run=run_echo)


def _common_options(parser):
    parser.add_argument("--quick", action="store_true", help="short preset (a few minutes at most)")
    parser.add_argument("--out", metavar="DIR", help="result folder (default results/<timestamp>-micro-<kind>/)")
    parser.add_argument("--publish", action="store_true",
                        help="also update this run's section of the report in docs/results/")
    parser.add_argument("--rebuild", action="store_true", help="rebuild micro/target/benchmarks.jar first")


def _command_line():
    return "./lab " + shlex.join(sys.argv[1:])


def _java():
    java_home = find_java_home()
    return java_home, java_home / "bin" / "java"


def _run_jmh(cmd, run_dir):
    (run_dir / "command.txt").write_text(shlex.join(map(str, cmd)) + "\n")
    print("$", shlex.join(map(str, cmd)), flush=True)
    code = jmh.run(cmd, run_dir / "jmh.log")
    results = jmh.load_results(run_dir / "jmh.json")
    if code != 0 or not results:
        raise LabError(f"JMH failed (exit {code}); see {run_dir / 'jmh.log'}")
    return results


def _header(command_line, jmh_cmd, machine, cpu, settings):
    """cpu: a CpuMeter (read now) or an earlier reading (dict)."""
    lines = [f"Command: `{command_line}`", ""]
    if jmh_cmd:
        lines += [f"JMH: `{shlex.join(map(str, jmh_cmd))}`", ""]
    reading = cpu.read() if isinstance(cpu, common.CpuMeter) else cpu
    lines += ["Machine:", *common.machine_lines(machine, reading), "", f"Settings: {settings}", ""]
    return "\n".join(lines)


def _finish(run_dir, title, body, doc, section, files=(), publish=False):
    path = report.write_report(run_dir, title, body)
    print(f"\nreport: {path}")
    if publish:
        published = report.publish(doc[0], doc[1], section, f"## Run: {section}\n\n{body}", files)
        print(f"published: {published}")


def run_jmh(args):
    profilers = [jmh.profiler_spec(name) for name in args.prof]
    extra = jmh.param_args(args.param) + (["-bm", args.mode] if args.mode else [])
    for spec in profilers:
        extra += ["-prof", spec]
    java_home, java = _java()
    jar = ensure_benchmarks_jar(args.rebuild)
    preset = jmh.QUICK if args.quick else jmh.STANDARD
    kind = "-".join(["jmh", *args.prof]) + ("-" + args.mode if args.mode else "")
    run_dir = common.new_run_dir(kind, args.out)
    machine = common.describe_machine(java_home)
    cpu = common.CpuMeter()
    cmd = jmh.command(java, jar.relative_to(common.ROOT), "IoVsCpuBenchmark", preset, run_dir / "jmh.json", extra)
    results = _run_jmh(cmd, run_dir)
    body = _header(_command_line(), cmd, machine, cpu, preset.describe())
    body += "\n" + tables.io_cpu_table(results) + "\n"
    secondary = tables.secondary_table(results, args.mode or "thrpt")
    if secondary:
        body += f"\nProfiler metrics ({args.mode or 'thrpt'} runs):\n\n{secondary}\n"
    for benchmark, mode, params, text in jmh.stack_sections((run_dir / "jmh.log").read_text(errors="replace")):
        body += f"\nStack profiler, {benchmark} ({mode}) {params}:\n\n```\n{text}\n```\n"
    _finish(run_dir, "IO and CPU tasks on virtual vs platform threads", body, JMH_DOC, kind, publish=args.publish)


def run_ring(args):
    passes = args.passes or (RING_QUICK_PASSES if args.quick else 1_000_000)
    java_home, java = _java()
    jar = ensure_benchmarks_jar(args.rebuild)
    preset = jmh.QUICK if args.quick else RING_PRESET
    kind = "ring" + ("-quick" if args.quick else "")
    run_dir = common.new_run_dir(kind, args.out)
    machine = common.describe_machine(java_home)
    cpu = common.CpuMeter()
    extra = ["-p", f"workers={args.workers}", "-p", f"passes={passes}"]
    cmd = jmh.command(java, jar.relative_to(common.ROOT), "RingBenchmark", preset, run_dir / "jmh.json", extra)
    results = _run_jmh(cmd, run_dir)
    body = _header(_command_line(), cmd, machine, cpu, f"{args.workers} workers, {passes:,} passes; {preset.describe()}")
    body += "\n" + tables.ring_table(results) + "\n"
    _finish(run_dir, "Token ring: time per ring", body, RING_DOC, kind, publish=args.publish)


def run_echo(args):
    if args.from_dir:
        return redraw_echo(args)
    limit = echo.fd_limit()
    connections = (echo.parse_sweep(args.sweep, limit, args.client_nofile) if args.sweep
                   else echo.default_sweep(args.quick, limit))
    settings = echo.SweepSettings(
        connections=connections, clients=echo.parse_clients(args.clients),
        duration_s=args.duration or (5.0 if args.quick else 10.0), latency_ms=args.latency_ms,
        message_size=args.message_size, port=args.port, client_nofile=args.client_nofile)
    java_home, java = _java()
    jar = ensure_benchmarks_jar(args.rebuild)
    run_dir = common.new_run_dir("echo" + ("-quick" if args.quick else ""), args.out)
    machine = common.describe_machine(java_home)
    cpu = common.CpuMeter()
    print(f"echo sweep: C = {', '.join(map(str, connections))}; clients {', '.join(settings.clients)}; "
          f"{settings.duration_s:g} s each, latency {settings.latency_ms} ms; results in {run_dir}", flush=True)
    rows = echo.run_sweep(java, jar, settings, run_dir)
    reading = cpu.read()
    # What --from needs to write the report again without rerunning.
    (run_dir / "run.json").write_text(json.dumps(
        {"command": _command_line(), "settings": dataclasses.asdict(settings), "machine": machine, "cpu": reading},
        indent=2) + "\n")
    echo_report(rows, settings, run_dir, _command_line(), machine, reading, publish=args.publish)
    stopped = [r for r in rows if r["status"] != "ok"]
    if stopped:
        print(f"{len(stopped)} of {len(rows)} runs stopped early; see the failure column of {run_dir / 'echo-sweep.csv'}")
    return 0


def redraw_echo(args):
    run_dir = Path(args.from_dir)
    try:
        run = json.loads((run_dir / "run.json").read_text())
        rows = echo.read_csv(run_dir / "echo-sweep.csv")
    except (OSError, ValueError) as e:
        raise LabError(f"--from {run_dir}: not the result folder of an echo run ({e})") from None
    fields = run["settings"]
    settings = echo.SweepSettings(**dict(fields, connections=tuple(fields["connections"]),
                                         clients=tuple(fields["clients"])))
    # A run.json written before the machine's facts had one vocabulary names some of them otherwise.
    machine = normalize_facts(run["machine"])
    echo_report(rows, settings, run_dir, run["command"], machine, run["cpu"], publish=args.publish)
    return 0


def echo_report(rows, settings, run_dir, command_line, machine, cpu=None, publish=False):
    """CSV is written already; adds the chart and report.md (and the docs/results section)."""
    from labkit.micro import chart  # matplotlib loads only when a chart is drawn
    title = (f"Echo clients, latency {settings.latency_ms} ms, {settings.duration_s:g} s per run, "
             f"{settings.message_size}-byte messages")
    png = chart.echo_chart(rows, run_dir / "echo-sweep.png", title)
    described = (f"clients {', '.join(settings.clients)}; C = {', '.join(map(str, settings.connections))}; "
                 f"{settings.duration_s:g} s of echoing per run, server latency {settings.latency_ms} ms, "
                 f"{settings.message_size}-byte messages; JVM options {' '.join(echo.JVM_OPTIONS)} on both ends; "
                 f"a fresh server and client JVM per run; the server listens on {settings.listen_ports} ports of "
                 "127.0.0.1 and each client spreads its connections over them"
                 + (f"; client ulimit -n lowered to {settings.client_nofile}" if settings.client_nofile else ""))
    body = _header(command_line, None, machine, cpu, described)
    local_body = body + f"\n{echo.markdown_table(rows)}\n\n![echo sweep](echo-sweep.png)\n\nRaw data: `echo-sweep.csv`.\n"
    report.write_report(run_dir, "Echo clients over a connection sweep", local_body)
    print(f"\nreport: {run_dir / 'report.md'}\nchart: {png}")
    if publish:
        section = "echo" + (f"-nofile{settings.client_nofile}" if settings.client_nofile else "")
        image = f"micro-{section}.png"
        published_body = body + f"\n{echo.markdown_table(rows)}\n\n![echo sweep]({image})\n"
        path = report.publish(ECHO_DOC[0], ECHO_DOC[1], section, f"## Run: {section}\n\n{published_body}",
                              files=[(png, image)])
        print(f"published: {path}")
