"""The echo connection sweep: for each connection count C and each client (nio, platform,
virtual), a fresh echo server JVM and a fresh client JVM on loopback; the client's throughput,
CPU time and peak RSS (the client reads its own /proc entries, this side samples /proc too) go
to a CSV and a chart.

Both ends run on this machine as separate processes, so each needs C file descriptors of its own
(plus what a JVM keeps open): C can reach the open-files limit (ulimit -n) minus a reserve.

The server listens on LISTEN_PORTS ports and the clients spread their connections over them. On
loopback every connection needs its own ephemeral port towards its destination, and the kernel's
search for a free one gets expensive as the ports towards one destination fill up (19,900
connections to a single port, with ~40,000 TIME_WAIT entries of earlier runs around, cost the NIO
client 16.6 s of system CPU in connect()): the kernel's cost, charged to whichever client runs.
"""
import csv
import json
import resource
import shlex
import time
from dataclasses import dataclass

from labkit.ground.errors import LabError, UsageError
from labkit.ground.process import ensure_port_free, spawn, stop, tail
from labkit.ground import proc

CLIENTS = ("nio", "platform", "virtual")
# File descriptors a JVM holds for itself (jars, epoll, pipes, /proc reads) on top of the sockets.
FD_RESERVE = 100
STANDARD_SWEEP = (100, 1000, 5000, 10000, 15000)
QUICK_SWEEP = (100, 1000)
# Same heap ceiling for every JVM of the sweep, so peak RSS compares like with like.
JVM_OPTIONS = ("-Xmx1g",)
SERVER_START_TIMEOUT_S = 30
CONNECT_TIMEOUT_S = 60
SAMPLE_PERIOD_S = 0.5
PORT_SPAN = 20
LISTEN_PORTS = 4
CSV_FIELDS = ("client", "connections", "status", "connections_opened", "threads_started", "echoes", "corrupted",
              "errors", "unfinished", "seconds", "throughput_per_s", "ideal_per_s", "cpu_s", "peak_rss_mb",
              "peak_platform_threads", "server_cpu_s", "server_peak_rss_mb", "client_nofile", "failure")


@dataclass(frozen=True)
class SweepSettings:
    connections: tuple
    clients: tuple = CLIENTS
    duration_s: float = 10.0
    latency_ms: int = 1000
    message_size: int = 32
    # Run k listens on the k-th block of listen_ports ports within port..port+port_span-1 (round
    # robin): new server ports give new connection 4-tuples, so connections of the previous runs
    # still in TIME_WAIT do not crowd the ephemeral ports of the next run.
    port: int = 18320
    port_span: int = PORT_SPAN
    listen_ports: int = LISTEN_PORTS
    # Lower the client's open-files limit (ulimit -n) to watch it run out of sockets; None keeps it.
    client_nofile: int | None = None

    def first_port(self, run_index):
        blocks = max(1, self.port_span // self.listen_ports)
        return self.port + (run_index % blocks) * self.listen_ports

    @property
    def drain_timeout_s(self):
        # Answers still in flight at the end come back after one latency; leave room for a slow machine.
        return max(10.0, 5 * self.latency_ms / 1000)


def fd_limit():
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def max_connections(limit=None):
    """The largest C both processes can hold: each end needs C sockets plus its JVM's own files."""
    return (limit or fd_limit()) - FD_RESERVE


def default_sweep(quick=False, limit=None):
    top = max_connections(limit)
    if quick:
        return tuple(c for c in QUICK_SWEEP if c <= top)
    points = [c for c in STANDARD_SWEEP if c < top]
    # Round the top down to a readable number.
    highest = top // 100 * 100 if top >= 100 else top
    if not points or highest > points[-1]:
        points.append(highest)
    return tuple(points)


def parse_sweep(text, limit=None, client_nofile=None):
    """'100,1000,5000' -> (100, 1000, 5000); sorted and checked against the open-files limit."""
    try:
        points = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise UsageError(f"--sweep must be connection counts separated by commas, e.g. 100,1000,5000; was '{text}'") from None
    if not points:
        raise UsageError("--sweep needs at least one connection count")
    if points[0] < 1:
        raise UsageError(f"--sweep counts must be at least 1, was {points[0]}")
    top = max_connections(limit)
    if points[-1] > top and client_nofile is None:
        raise UsageError(f"--sweep {points[-1]} is above what ulimit -n {limit or fd_limit()} allows with both ends on "
                         f"this machine (at most {top}); raise ulimit -n, or use --client-nofile to watch a client "
                         f"run out of sockets on purpose")
    return tuple(points)


def parse_clients(text):
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [n for n in names if n not in CLIENTS]
    if not names or unknown:
        raise UsageError(f"--clients must be some of {','.join(CLIENTS)}, was '{text}'")
    return tuple(dict.fromkeys(names))


def server_command(java, jar, settings, port, max_connections_needed):
    return [str(java), *JVM_OPTIONS, "-cp", str(jar), "dev.loomlab.micro.echo.EchoServerMain",
            "--host", "127.0.0.1", "--port", str(port), "--ports", str(settings.listen_ports),
            "--latency-ms", str(settings.latency_ms),
            "--buffer", str(settings.message_size), "--backlog", str(min(65535, max(128, max_connections_needed)))]


def client_command(java, jar, settings, port, client, connections):
    command = [str(java), *JVM_OPTIONS, "-cp", str(jar), "dev.loomlab.micro.echo.EchoClientMain",
               "--client", client, "--host", "127.0.0.1", "--port", str(port), "--ports", str(settings.listen_ports),
               "--connections", str(connections), "--message-size", str(settings.message_size),
               "--duration-ms", str(int(settings.duration_s * 1000)),
               "--connect-timeout-ms", str(CONNECT_TIMEOUT_S * 1000),
               "--drain-timeout-ms", str(int(settings.drain_timeout_s * 1000))]
    if settings.client_nofile:
        # The shell lowers the limit, then becomes the JVM (exec), so the limit is the JVM's own.
        command = ["/bin/sh", "-c", 'ulimit -n "$0" && exec "$@"', str(settings.client_nofile), *command]
    return command


class EchoServerProcess:
    """One echo server JVM, started and ready on enter, stopped on exit (also on Ctrl-C)."""

    def __init__(self, command, log_path):
        self.command = command
        self.log_path = log_path
        self.process = None
        self.watch = None

    def __enter__(self):
        self.process = spawn(self.command, self.log_path)
        try:
            self.watch = proc.Watch(self.process.pid)
            if self._wait_until_listening():
                return self
        except BaseException:
            stop(self.process)  # Ctrl-C while starting: the server goes too
            raise
        stop(self.process)
        raise LabError(f"the echo server did not start; its log ({self.log_path}):\n{tail(self.log_path)}")

    def _wait_until_listening(self):
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if "LISTENING" in self.log_path.read_text(errors="replace"):
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.1)
        return False

    def __exit__(self, *exc):
        self.watch.sample()
        stop(self.process)


def run_point(java, jar, settings, client, connections, run_dir, port):
    """One client run against a fresh server on `port` (and the listen_ports - 1 after it); returns the CSV row."""
    label = f"{client}-c{connections}"
    for listen_port in range(port, port + settings.listen_ports):
        ensure_port_free(listen_port)
    server_log = run_dir / f"server-{label}.log"
    client_log = run_dir / f"client-{label}.log"
    command = client_command(java, jar, settings, port, client, connections)
    with EchoServerProcess(server_command(java, jar, settings, port, connections), server_log) as server:
        (run_dir / f"client-{label}.cmd").write_text(shlex.join(command) + "\n")
        process = spawn(command, client_log)
        watch = proc.Watch(process.pid)
        limit_s = CONNECT_TIMEOUT_S + settings.duration_s + settings.drain_timeout_s + 60
        deadline = time.monotonic() + limit_s
        try:
            while process.poll() is None and time.monotonic() < deadline:
                watch.sample()
                server.watch.sample()
                time.sleep(SAMPLE_PERIOD_S)
            timed_out = process.poll() is None
        finally:
            stop(process)
    return _row(client, connections, settings, process.returncode, timed_out, limit_s, client_log, watch, server.watch)


def _row(client, connections, settings, exit_code, timed_out, limit_s, client_log, watch, server_watch):
    result = _result_line(client_log)
    ideal = connections / (settings.latency_ms / 1000) if settings.latency_ms else None
    row = {field: "" for field in CSV_FIELDS}
    row.update(client=client, connections=connections, ideal_per_s=_round(ideal, 1),
               server_cpu_s=_round(server_watch.cpu_s, 2),
               server_peak_rss_mb=_round(server_watch.peak_rss_kb / 1024 if server_watch.peak_rss_kb else None, 1),
               client_nofile=settings.client_nofile or "")
    if result is None:
        why = (f"no result within {limit_s:.0f} s" if timed_out
               else f"client exited with code {exit_code} without a result: {tail(client_log, 3)}")
        row.update(status="crashed", failure=why, cpu_s=_round(watch.cpu_s, 2),
                   peak_rss_mb=_round(watch.peak_rss_kb / 1024 if watch.peak_rss_kb else None, 1))
        return row
    row.update(status="ok" if result["complete"] else "incomplete",
               connections_opened=result["connectionsOpened"], threads_started=result["threadsStarted"],
               echoes=result["echoes"], corrupted=result["corrupted"], errors=result["errors"],
               unfinished=result["unfinished"], seconds=result["seconds"], throughput_per_s=result["throughput"],
               cpu_s=result["cpuSeconds"],
               peak_rss_mb=_round(result["peakRssKb"] / 1024, 1) if result["peakRssKb"] > 0 else "",
               peak_platform_threads=result["peakPlatformThreads"], failure=result["failure"] or "")
    return row


def _result_line(log_path):
    try:
        for line in log_path.read_text(errors="replace").splitlines():
            if line.startswith("RESULT "):
                return json.loads(line[len("RESULT "):])
    except (OSError, ValueError):
        pass
    return None


def _round(value, digits):
    return "" if value is None else round(value, digits)


def run_sweep(java, jar, settings, run_dir, log=print):
    """Every (C, client) point in order of C; the CSV is rewritten after each point."""
    rows = []
    csv_path = run_dir / "echo-sweep.csv"
    total = len(settings.connections) * len(settings.clients)
    for connections in settings.connections:
        for client in settings.clients:
            log(f"[{len(rows) + 1}/{total}] {client} client, {connections} connections, "
                f"{settings.duration_s:g} s ...", end=" ", flush=True)
            row = run_point(java, jar, settings, client, connections, run_dir, settings.first_port(len(rows)))
            rows.append(row)
            write_csv(rows, csv_path)
            log(summary(row), flush=True)
    return rows


def summary(row):
    if row["status"] == "ok":
        return (f"{row['throughput_per_s']:.0f} echoes/s, CPU {row['cpu_s']} s, peak RSS {row['peak_rss_mb']} MB"
                + (f", {row['unfinished']} unfinished" if row["unfinished"] else ""))
    return f"{row['status']}: {row['failure']}"


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def markdown_table(rows):
    lines = ["| C | client | status | echoes/s | ideal/s | unfinished | client CPU (s) | client peak RSS (MB) | "
             "platform threads (peak) | server CPU (s) | server peak RSS (MB) |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['connections']} | {r['client']} | {r['status']} | {_cell(r['throughput_per_s'], 0)} | "
                     f"{_cell(r['ideal_per_s'], 0)} | {_cell(r['unfinished'], 0)} | {_cell(r['cpu_s'], 2)} | "
                     f"{_cell(r['peak_rss_mb'], 1)} | {r['peak_platform_threads']} | {_cell(r['server_cpu_s'], 2)} | "
                     f"{_cell(r['server_peak_rss_mb'], 1)} |")
    failures = [r for r in rows if r["status"] != "ok"]
    if failures:
        lines.append("")
    for r in failures:
        lines.append(f"- {r['client']} at C={r['connections']}: {r['status']} — {r['failure']}"
                     + (f" (connections opened: {r['connections_opened']})" if r["connections_opened"] != "" else ""))
    return "\n".join(lines)


def _cell(value, digits):
    if value in ("", None):
        return "–"
    number = float(value)
    return f"{number:,.{digits}f}"
