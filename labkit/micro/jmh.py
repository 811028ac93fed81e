"""Runs JMH from micro/target/benchmarks.jar, shows its output live, and reads its JSON results."""
import json
import re
import time
from dataclasses import dataclass

from labkit import ROOT
from labkit.ground.errors import UsageError
from labkit.ground.process import spawn, stop


@dataclass(frozen=True)
class Preset:
    """How long JMH measures: forks, warm-up and measurement iterations and their length."""
    forks: int
    warmup_iterations: int
    iterations: int
    warmup_time: str
    time: str

    def args(self):
        return ["-f", str(self.forks), "-wi", str(self.warmup_iterations), "-i", str(self.iterations),
                "-w", self.warmup_time, "-r", self.time]

    def describe(self):
        return (f"{self.forks} fork(s), {self.warmup_iterations} warm-up × {self.warmup_time}, "
                f"{self.iterations} measurement × {self.time}")


# Short on purpose: the lab's machine has 2 cores shared with builds; enough to see differences
# of the size these benchmarks show, not to resolve a few percent.
QUICK = Preset(forks=1, warmup_iterations=1, iterations=3, warmup_time="1s", time="1s")
STANDARD = Preset(forks=2, warmup_iterations=2, iterations=5, warmup_time="2s", time="2s")

# Short names for the profilers the reports explain; anything else JMH knows can be given as is.
PROFILERS = {
    "gc": "gc",
    "stack": "stack:lines=2;top=8",
    "threads": "dev.loomlab.micro.jmh.ThreadCountProfiler",
}
MODES = ("thrpt", "avgt")
PARAM_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9]*=[^=\s]+$")


def profiler_spec(name):
    try:
        return PROFILERS[name]
    except KeyError:
        raise UsageError(f"--prof must be one of {', '.join(PROFILERS)}, was '{name}'") from None


def param_args(params):
    """--param name=v1,v2 (repeatable) as JMH -p arguments, checked for shape."""
    args = []
    for param in params:
        if not PARAM_PATTERN.match(param):
            raise UsageError(f"--param must look like name=value[,value...], was '{param}'")
        args += ["-p", param]
    return args


def command(java, jar, benchmark_regex, preset, result_json, extra=()):
    return [str(java), "-jar", str(jar), benchmark_regex, *preset.args(),
            "-rf", "json", "-rff", str(result_json), *extra]


def run(cmd, log_path, echo=print, timeout_s=3600):
    """Runs JMH with its output in log_path and on the console; stopped on Ctrl-C. Returns the exit code."""
    process = spawn(cmd, log_path, cwd=ROOT)
    try:
        with open(log_path, "rb") as log:
            deadline = time.monotonic() + timeout_s
            while True:
                chunk = log.read()
                if chunk:
                    echo(chunk.decode(errors="replace"), end="", flush=True)
                if process.poll() is not None:
                    rest = log.read()
                    if rest:
                        echo(rest.decode(errors="replace"), end="", flush=True)
                    return process.returncode
                if time.monotonic() > deadline:
                    echo(f"\nJMH ran longer than {timeout_s} s: stopped", flush=True)
                    stop(process)
                    return 124
                time.sleep(0.2)
    finally:
        stop(process)


def load_results(path):
    """JMH's JSON result file as a list of benchmark records ([] when JMH wrote none)."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return []
    return json.loads(text) if text.strip() else []


def short_name(benchmark):
    """dev.loomlab.micro.ring.RingBenchmark.virtualThreads -> RingBenchmark.virtualThreads"""
    parts = benchmark.split(".")
    return ".".join(parts[-2:])


def stack_sections(log_text):
    """The stack profiler's reports from JMH's console output: (benchmark, mode, parameters, text), in order."""
    sections = []
    benchmark = mode = params = None
    lines = log_text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("# Benchmark:"):
            benchmark = short_name(line.split(":", 1)[1].strip())
        elif line.startswith("# Benchmark mode:"):
            mode = line.split(":", 1)[1].strip()
        elif line.startswith("# Parameters:"):
            params = line.split(":", 1)[1].strip()
        elif line.startswith("Secondary result") and ":stack" in line:
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith(("Secondary result", "# Run complete", "# JMH version")):
                body.append(lines[i])
                i += 1
            sections.append((benchmark, mode, params, "\n".join(body).strip()))
            continue
        i += 1
    return sections
