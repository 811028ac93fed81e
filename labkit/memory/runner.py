"""The thread-memory experiment, run as separate JVMs: one run, or a sweep with a table and a chart.

Each point is a fresh `java -cp benchmarks.jar dev.loomlab.micro.memory.ThreadMemoryExperiment ... --json` so no run inherits another's heap
or stacks. Counts are bounded so a sweep cannot starve the machine: platform threads share the
kernel's pid_max with every process, and parked virtual threads hold their stacks on a capped heap.
"""
import json
import re
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from labkit.ground.build import BENCHMARKS_JAR, ensure_benchmarks_jar
from labkit.ground.errors import LabError, UsageError
from labkit.ground.jdk import find_java_home, java_env
from labkit.ground.machine import facts, jdk_release
from labkit.ground.process import spawn, stop, tail

# The experiment's main class in micro/'s jar.
EXPERIMENT = "dev.loomlab.micro.memory.ThreadMemoryExperiment"
# Every run gets the same heap ceiling, whatever the machine's RAM: comparable and bounded.
HEAP = "-Xmx4g"
POINT_TIMEOUT_SECONDS = 300
DEPTHS = (100, 1000)
PLATFORM_COUNTS = (1000, 5000, 10000)
VIRTUAL_COUNTS = (1000, 10000, 100000)
# Platform threads with the JVM's default stack size and with a small one; -Xss does not size virtual threads.
PLATFORM_XSS = (None, "256k")
QUICK_PLATFORM_COUNTS = (200, 500)
QUICK_VIRTUAL_COUNTS = (1000, 5000)
XSS_PATTERN = re.compile(r"^\d+[kKmMgG]?$")
# Exit codes of the Java experiment that still carry a report (see `memory --help`).
REPORTED_EXIT_CODES = {0: "complete", 3: "refused", 4: "stack-too-small", 5: "timeout"}


@dataclass(frozen=True)
class Point:
    virtual: bool
    threads: int
    depth: int
    xss: str | None = None

    @property
    def kind(self):
        return "virtual" if self.virtual else "platform"

    @property
    def label(self):
        return f"{self.kind}-n{self.threads}-d{self.depth}" + (f"-xss{self.xss}" if self.xss else "")


def sweep_points(quick=False):
    platform_counts = QUICK_PLATFORM_COUNTS if quick else PLATFORM_COUNTS
    virtual_counts = QUICK_VIRTUAL_COUNTS if quick else VIRTUAL_COUNTS
    points = []
    for depth in DEPTHS:
        for xss in PLATFORM_XSS:
            points += [Point(False, n, depth, xss) for n in platform_counts]
        points += [Point(True, n, depth) for n in virtual_counts]
    return points


def check_xss(xss):
    if xss is not None and not XSS_PATTERN.match(xss):
        raise UsageError(f"--xss must be a size like 256k or 1m, was '{xss}'")
    return xss


def command(point, java_home, json_output=True, hold_seconds=0):
    cmd = [str(Path(java_home) / "bin" / "java"), HEAP]
    if point.xss:
        cmd.append(f"-Xss{point.xss}")
    cmd += ["-cp", str(BENCHMARKS_JAR), EXPERIMENT, "-n", str(point.threads), "--depth", str(point.depth)]
    if point.virtual:
        cmd.append("-v")
    if hold_seconds:
        cmd += ["--hold-seconds", str(hold_seconds)]
    if json_output:
        cmd.append("--json")
    return cmd


def run_java(cmd, log_path, java_home, timeout=POINT_TIMEOUT_SECONDS, on_start=None):
    """Runs one experiment JVM to its end (bounded); returns (exit code, output)."""
    process = spawn(cmd, log_path, env=java_env(java_home))
    try:
        if on_start:
            on_start(process)
        code = process.wait(timeout=timeout)
    finally:
        # Timeout, Ctrl-C or any error: the JVM never outlives the lab (and its leash goes either way).
        stop(process, grace_seconds=5)
    return code, Path(log_path).read_text(errors="replace")


def run_point(point, java_home, log_dir):
    """One point of the sweep: the experiment's JSON report plus the point that produced it."""
    log_path = Path(log_dir) / f"{point.label}.log"
    cmd = command(point, java_home)
    try:
        code, output = run_java(cmd, log_path, java_home)
    except subprocess.TimeoutExpired:
        raise LabError(f"{point.label} did not finish within {POINT_TIMEOUT_SECONDS} s; see {log_path}") from None
    if code not in REPORTED_EXIT_CODES:
        raise LabError(f"{point.label} failed (exit {code}); last lines of {log_path}:\n{tail(log_path)}")
    # The report is the last line: the JVM's own warnings (a refused pthread_create) also go to stdout.
    report = json.loads(output.strip().splitlines()[-1])
    report["point"] = asdict(point)
    report["command"] = " ".join(cmd)
    return report


def machine():
    """What the numbers were measured on, and how busy it was: labkit/ground/machine.py's FACTS."""
    return facts()


def _say(message):
    print(message, flush=True)


def sweep(points, out_dir, java_home=None, log=_say):
    """Runs every point, one JVM at a time; writes results JSON, a Markdown table and a chart to out_dir."""
    java_home = java_home or find_java_home()
    ensure_benchmarks_jar(log=log)
    out_dir = Path(out_dir)
    log_dir = out_dir / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    started = machine()
    results = []
    for i, point in enumerate(points, 1):
        log(f"[{i}/{len(points)}] {point.label}")
        results.append(run_point(point, java_home, log_dir))
    document = {
        "java": str(java_home),
        "javaVersion": jdk_release(java_home).get("JAVA_RUNTIME_VERSION"),
        "heap": HEAP,
        "machineAtStart": started,
        "machineAtEnd": machine(),
        "finished": time.strftime("%Y-%m-%d %H:%M:%S"),
        "results": results,
    }
    (out_dir / "thread-memory.json").write_text(json.dumps(document, indent=1))
    (out_dir / "thread-memory-table.md").write_text(markdown_table(results) + "\n")
    chart(results, out_dir / "thread-memory.png")
    return document


def _kib(value):
    return f"{value / 1024:.1f}"


def _mib(kib):
    return f"{kib / 1024:.0f}"


def markdown_table(results):
    """Absolute VmPeak/VmHWM with the threads parked, and growth per parked thread."""
    rows = ["| kind | -Xss | depth | threads | reached | start ms | all parked ms | VmPeak MiB | VmHWM MiB "
            "| VmRSS/thread KiB | VmSize/thread KiB | heap/thread KiB | outcome |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        per = r["perThreadBytes"]
        xss = r["point"]["xss"] or (f"default ({r['stackSizeKb']}k)" if r["kind"] == "platform" else "n/a")
        rows.append(f"| {r['kind']} | {xss} | {r['depth']} | {r['requested']} | {r['parked']} | {r['startMs']} "
                    f"| {r['parkedMs']} | {_mib(r['after']['vmPeakKb'])} | {_mib(r['after']['vmHwmKb'])} "
                    f"| {_kib(per['vmRss'])} | {_kib(per['vmSize'])} | {_kib(per['heap'])} | {r['outcome']} |")
    return "\n".join(rows)


def _series(results):
    series = {}
    for r in results:
        p = r["point"]
        key = (r["kind"], p["xss"], r["depth"])
        series.setdefault(key, []).append(r)
    for rows in series.values():
        rows.sort(key=lambda r: r["requested"])
    return series


def chart(results, path):
    """Memory per thread against thread count: resident (what it costs) and reserved (what it claims)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (resident, reserved) = plt.subplots(1, 2, figsize=(11, 4.3))
    colours = {"platform": ("#c0392b", "#e67e22"), "virtual": ("#2471a3", "#17a589")}
    ordered = sorted(_series(results).items(), key=lambda item: (item[0][0], item[0][2], item[0][1] or ""))
    for (kind, xss, depth), rows in ordered:
        colour = colours[kind][0 if depth == min(DEPTHS) else 1]
        style = "--" if xss else "-"
        label = f"{kind}, depth {depth}" + (f", -Xss{xss}" if xss else "")
        xs = [r["parked"] for r in rows]
        resident.plot(xs, [r["perThreadBytes"]["vmRss"] / 1024 for r in rows], style, marker="o", color=colour, label=label)
        reserved.plot(xs, [r["perThreadBytes"]["vmSize"] / 1024 for r in rows], style, marker="o", color=colour, label=label)
    resident.set_title("resident memory per parked thread (VmRSS growth)", fontsize=10)
    reserved.set_title("address space reserved per thread (VmSize growth)", fontsize=10)
    for axis in (resident, reserved):
        axis.set_xscale("log")
        axis.set_xlabel("threads parked")
        axis.set_ylabel("KiB per thread")
        axis.set_ylim(bottom=0)
        axis.grid(True, which="both", alpha=0.3)
    resident.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
