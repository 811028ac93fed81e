"""One load from several load hosts (--load-hosts): vegeta on each host, the rate split evenly, all
starting at one agreed instant, each host's results file pulled back and read here.

The split: rate R over N hosts gives each R // N requests a second, and the first R % N hosts one
more, so the rates add up to R exactly. Connections are split the same way.

The instant: the lab reads each host's clock first (`date +%s%N` over ssh, halfway through the round
trip) and refuses a host whose clock is off this machine's by more than CLOCK_BOUND_MS. Each host
then sleeps until the agreed instant on its own clock and starts vegeta; the wrapper that does it
also writes vegeta's CPU time (its rusage, from the shell's /proc/<pid>/stat) to a file.

The merge: each host's requests are read with that host's own schedule (request `seq` due `seq`
intervals after its request 0: the latency runs from each request's intended start on its host), a
window is moved onto the host's clock by its offset, and then counts are summed, histograms merged
(never percentiles averaged), per-second answers added, the worst lag and every host's notes kept.
A host whose vegeta failed or left no results makes the whole result incomplete and is named: the
lab never reports a smaller rate as if it were the one asked.
"""
import subprocess
import time
from dataclasses import dataclass, replace
from pathlib import Path

from labkit.ground.errors import LabError
from labkit.ground.proc import CLOCK_TICKS
from labkit.load.drivers.base import DriverOutputError
from labkit.load.drivers.record import (
    ErrorCounts,
    LoadResult,
    decode_histogram,
    encode_histogram,
    latency_from_histogram,
    new_histogram,
)

CLOCK_BOUND_MS = 50.0
START_SLACK_S = 0.5  # beyond the slowest round trip: time for every ssh to reach its host
LATE_MARGIN_S = 1   # how much longer each host's vegeta runs than planned (SpreadRun._move_window)
# $1: the instant (ns since the epoch), $2: where vegeta's CPU goes; then vegeta's command line.
START_AT = r"""
at=$1; cpu=$2; shift 2
wait_ns=$(( at - $(date +%s%N) ))
if [ "$wait_ns" -gt 0 ]; then sleep "$(( wait_ns / 1000000000 )).$(printf %09d $(( wait_ns % 1000000000 )))"; fi
"$@"
code=$?
cat /proc/$$/stat > "$cpu"
exit $code
"""


@dataclass(frozen=True)
class LoadHosts:
    """--load-hosts: the hosts the load runs on, and their clocks as read before the run."""
    hosts: tuple
    clocks: tuple

    def to_dict(self):
        return [{"host": c.host, "clock_offset_ms": c.offset_ms, "round_trip_ms": c.round_trip_ms} for c in self.clocks]


@dataclass(frozen=True)
class ClockReading:
    host: str
    offset_ms: float      # the host's clock minus this machine's
    round_trip_ms: float


def read_clock(host, exchanges=5):
    """The host's clock against this machine's, NTP-style over one ssh session: a line sent, the
    host's `date +%s%N` read back, several times; the exchange with the shortest round trip gives
    the offset (halfway through it). The session's set-up stays out of every round trip."""
    command = host.ssh_command(["sh", "-c", 'while read line; do date +%s%N; done'])
    session = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, bufsize=1)
    best = None
    try:
        for exchange in range(exchanges + 1):
            before = time.time_ns()
            session.stdin.write("\n")
            session.stdin.flush()
            text = session.stdout.readline().strip()
            after = time.time_ns()
            if not text.isdigit():
                raise LabError(f"{host}: reading its clock (`date +%s%N`) gave '{text}' "
                               f"{session.stderr.read().strip() if session.poll() is not None else ''}")
            reading = ClockReading(str(host), round((int(text) - (before + after) / 2) / 1e6, 3),
                                   round((after - before) / 1e6, 3))
            # The first answer also waited for the session to start: not counted.
            if exchange and (best is None or reading.round_trip_ms < best.round_trip_ms):
                best = reading
    finally:
        session.stdin.close()
        session.wait(timeout=20)
    return best


def check_clocks(hosts, bound_ms=CLOCK_BOUND_MS):
    """Every host's clock reading; a LabError naming each host beyond the bound."""
    readings = [read_clock(host) for host in hosts]
    off = [r for r in readings if abs(r.offset_ms) > bound_ms]
    if off:
        raise LabError("load hosts' clocks must agree with this machine's within "
                       f"{bound_ms:g} ms to start together: " + "; ".join(
                           f"{r.host} is {r.offset_ms:+,.1f} ms off" for r in off) + " (sync them: chrony or ntpd)")
    return readings


def shares(total, parts):
    """`total` split into `parts` whole shares that add up to it, the larger ones first."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def host_specs(spec, hosts, local_prefix):
    """One LoadSpec per host: its share of the rate (or of the connections), its own files."""
    rates = shares(spec.rate, len(hosts)) if spec.rate else [None] * len(hosts)
    connections = shares(spec.max_connections, len(hosts)) if spec.max_connections else [None] * len(hosts)
    concurrency = shares(spec.concurrency, len(hosts))
    return [replace(spec, rate=rate, max_connections=bound, concurrency=max(1, count),
                    side_file_prefix=Path(f"{local_prefix}.{i + 1}"))
            for i, (rate, bound, count) in enumerate(zip(rates, connections, concurrency))]


class SpreadRun:
    """vegeta on every load host at once, for one LoadSpec: start(), poll() until every host is done
    (or stop()), then results()."""

    def __init__(self, driver, executable, spec, hosts, clocks):
        if spec.rate and spec.rate < len(hosts):
            raise LabError(f"{spec.rate} req/s cannot be split over {len(hosts)} load hosts: each needs 1 req/s or more")
        self.driver = driver
        self.hosts = hosts
        self.clocks = {c.host: c for c in clocks}
        self.spec = spec
        # Each host's vegeta runs a second longer than planned: when the agreed start comes later than
        # the window was planned for, the window moves with it (start()), and still ends inside the run.
        self.specs = [replace(s, duration_s=s.duration_s + LATE_MARGIN_S) if spec.window else s
                      for s in host_specs(spec, hosts, spec.side_file_prefix)]
        self.shift_s = 0.0
        self.executable = executable
        self.processes = []
        self.outputs = []  # (results file, cpu file) on each host, where its vegeta writes them
        self.started_at_ns = None

    def start(self):
        # Everything is copied first; the agreed instant is then only the spawns away.
        staged = []
        for host, spec in zip(self.hosts, self.specs):
            vegeta = host.put(self.executable, "tools")
            command = self.driver.command(spec, vegeta)  # writes the targets file here
            targets = stage_targets(host, self.driver.targets_file(spec), body_files(spec))
            results = f"{host.workdir}/load/{self.driver.results_file(spec).name}"
            cpu = f"{host.workdir}/load/{Path(spec.side_file_prefix).name}.cpu"
            command = [targets if part == str(self.driver.targets_file(spec)) else
                       results if part == str(self.driver.results_file(spec)) else part for part in command]
            staged.append((host, spec, command, results, cpu))
        slowest = max((c.round_trip_ms for c in self.clocks.values()), default=0.0)
        self.started_at_ns = time.time_ns() + int((START_SLACK_S + 3 * slowest / 1000) * 1e9)
        self._move_window(self.started_at_ns / 1e9)
        for host, spec, command, results, cpu in staged:
            offset_ns = int(self.clocks[str(host)].offset_ms * 1e6) if str(host) in self.clocks else 0
            wrapped = ["sh", "-c", START_AT, "start-at", str(self.started_at_ns + offset_ns), cpu, *command]
            self.processes.append(host.spawn(wrapped, Path(f"{spec.side_file_prefix}.out")))
            self.outputs.append((results, cpu))
        return self

    def _move_window(self, agreed_start_s):
        """The window was planned for a run starting when the spec was made (its end less the run's
        length; up to a second early, as that length is rounded up). Copying the tool and the targets
        to every host, each copy an ssh connection, took seconds on a loaded machine, and the hosts
        then started after the window had begun: every window lost its first seconds and missed as
        incomplete. The window moves by the delay, so it keeps the pre-roll it was planned with."""
        if not self.spec.window:
            return
        planned_start = self.spec.window[1] - self.spec.duration_s
        late = agreed_start_s - planned_start
        if late <= 0:
            return
        self.shift_s = late
        self.spec = replace(self.spec, window=(self.spec.window[0] + late, self.spec.window[1] + late))
        self.specs = [replace(s, window=self.spec.window) for s in self.specs]

    def poll(self):
        """None while any host's vegeta runs."""
        codes = [p.poll() for p in self.processes]
        return None if None in codes else codes

    def stop(self):
        for host, process in zip(self.hosts, self.processes):
            host.stop(process, grace_s=5)

    def results(self):
        """(merged LoadResult, per-host records, CPU seconds of all hosts' vegeta, failure or None)."""
        per_host, loads, failures = [], [], []
        cpu_total = 0.0
        for host, spec, process, (results, cpu) in zip(self.hosts, self.specs, self.processes, self.outputs):
            record = {"host": str(host), "rate": spec.rate, "exit": process.returncode,
                      "clock_offset_ms": self.clocks[str(host)].offset_ms if str(host) in self.clocks else None}
            try:
                host.get(results, self.driver.results_file(spec))
                load = self.driver.parse("", self._on_host_clock(spec, record["clock_offset_ms"]))
                record["requests"] = load.responses + load.errors.total
                record["ok"], record["schedule_lag_max_ms"] = load.ok, load.schedule_lag_max_ms
                loads.append(load)
                if process.returncode != 0:
                    # What it sent before it died counts; what it did not send is missing, and said so.
                    record["lost"] = f"vegeta ended with exit code {process.returncode} before its run was over"
            except (LabError, DriverOutputError) as e:
                record["lost"] = str(e).splitlines()[0]
            if record.get("lost"):
                failures.append(f"load host {host}: {record['lost']}")
            record["cpu_s"] = self._cpu_seconds(host, cpu)
            cpu_total += record["cpu_s"] or 0.0
            per_host.append(record)
        if not loads:
            return None, per_host, cpu_total, "; ".join(failures)
        merged = merge(loads, self.driver.name)
        if failures:
            merged.complete = False
            merged.notes += failures
        return merged, per_host, cpu_total, ("; ".join(failures) or None)

    def _on_host_clock(self, spec, offset_ms):
        """The spec with its window moved onto the host's clock (vegeta stamps requests with it)."""
        if not spec.window or not offset_ms:
            return spec
        shift = offset_ms / 1000
        return replace(spec, window=(spec.window[0] + shift, spec.window[1] + shift))

    @staticmethod
    def _cpu_seconds(host, cpu_file):
        text = host.run(["cat", cpu_file], check=False).stdout
        fields = text[text.rfind(")") + 2:].split() if ")" in text else []
        # cutime and cstime (fields 16 and 17): the CPU of the shell's reaped child, vegeta.
        return round((int(fields[13]) + int(fields[14])) / CLOCK_TICKS, 2) if len(fields) > 14 else None


def body_files(spec):
    """The request bodies a spec's targets name (@FILE lines), resolved as the targets file names them."""
    requests = spec.requests.requests if spec.requests is not None else ()
    files = [spec.body_file, *(getattr(request, "body_file", None) for request in requests)]
    return list(dict.fromkeys(str(Path(f).resolve()) for f in files if f))


def stage_targets(host, targets_file, bodies):
    """The targets file on `host`, with the request bodies it names copied there too: vegeta reads a
    body from the file an @FILE line names, so each line is rewritten to the body's path there (each
    body in a folder of its own: two bodies may share a file name). Returns the targets' path there."""
    there = {body: host.put(body, f"load/bodies/{i}") for i, body in enumerate(bodies)}
    if there:
        lines = Path(targets_file).read_text().split("\n")
        Path(targets_file).write_text("\n".join(f"@{there[line[1:]]}" if line.startswith("@") and line[1:] in there
                                                else line for line in lines))
    return host.put(targets_file, "load")


def merge(loads, tool):
    """One LoadResult of several hosts' results (same window)."""
    histogram = new_histogram()
    errors = ErrorCounts()
    for load in loads:
        if load.latency_hdr:
            histogram.add(decode_histogram(load.latency_hdr))
        for kind, count in load.errors.__dict__.items():
            errors.add(kind, count)
    seconds = max((len(load.per_second_ok or []) for load in loads), default=0)
    per_second = [sum((load.per_second_ok or [])[s] if s < len(load.per_second_ok or []) else 0 for load in loads)
                  for s in range(seconds)]
    lags = [load.schedule_lag_max_ms for load in loads if load.schedule_lag_max_ms is not None]
    merged = LoadResult(tool=tool, responses=sum(load.responses for load in loads), ok=sum(load.ok for load in loads),
                        duration_s=max(load.duration_s for load in loads), errors=errors,
                        latency_ms=latency_from_histogram(histogram) if histogram.get_total_count() else None,
                        latency_hdr=encode_histogram(histogram), complete=all(load.complete for load in loads),
                        per_second_ok=per_second or None, schedule_lag_max_ms=max(lags) if lags else None,
                        unsent=sum(load.unsent for load in loads))
    merged.latency_source = f"{loads[0].latency_source}; {len(loads)} load hosts' histograms merged"
    merged.notes = [f"host {i + 1}: {note}" for i, load in enumerate(loads) for note in load.notes]
    return merged
