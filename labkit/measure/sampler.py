"""Samples the server, the load driver and the whole machine from /proc during a measured window.

Per process: CPU time (user+sys, /proc/PID/stat), resident memory now and at its peak (VmRSS,
VmHWM), OS threads (Threads; virtual threads are not OS threads and do not show here), and the
bytes it has read (rchar, /proc/PID/io: the driver's reads give a live request rate). Machine:
busy, stolen and total CPU time from /proc/stat, so a point can say how much CPU *other* processes
took, and how much the hypervisor took from the machine and from the CPUs the server may run on
(steal: the server had work, the CPU ran another guest). labkit/ground/proc.py reads those files.
"""
import csv
import gzip
import os
import threading
import time
from dataclasses import dataclass

from labkit.ground import proc
from labkit.ground.machine import process_cpus
from labkit.ground.proc import cpus_times, read_cpu_times

CPU_COUNT = os.cpu_count() or 1
# A sample interval in which the server's process used this share of the CPUs it may run on (steal
# counted as used) had them full: a window's average hides stretches of seconds at full CPU, in which
# requests queue as behind a pause.
CPU_FULL_SHARE = 0.95


@dataclass(frozen=True)
class ProcessReading:
    cpu_s: float        # user + system, since the process started
    rss_kb: int
    hwm_kb: int
    threads: int
    read_bytes: int | None


def read_process(pid):
    """The process's counters now, or None when it is gone."""
    stat, status = proc.read_stat(pid), proc.read_status(pid)
    if stat is None or status is None:
        return None
    return ProcessReading(cpu_s=stat.cpu_s, rss_kb=status.rss_kb or 0, hwm_kb=status.hwm_kb or 0,
                          threads=status.threads or 0, read_bytes=proc.bytes_read(pid))


def process_running(pid, feed=None):
    """True while the process exists and has not exited (a zombie has exited). `feed`: the
    process's /proc as read on its own host (labkit.hosts.procfeed), for a server elsewhere."""
    if feed is not None:
        return feed.process_alive()
    if pid is None:
        return True  # a server the lab did not start, whose pid nobody gave: nothing to check
    stat = proc.read_stat(pid)
    return stat is not None and not stat.exited


def reading_of(reading):
    """A ProcessReading from a remote feed's latest reading, or None when the process is gone."""
    stat, status = (reading.process_stat, reading.process_status) if reading else (None, None)
    if stat is None or status is None:
        return None
    return ProcessReading(cpu_s=stat.cpu_s, rss_kb=status.rss_kb or 0, hwm_kb=status.hwm_kb or 0,
                          threads=status.threads or 0, read_bytes=reading.read_bytes)


def cpu_list(text):
    """frozenset of the CPU numbers in a Cpus_allowed_list ('0-1,4'), or None."""
    if not text:
        return None
    cpus = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        cpus.update(range(int(low), int(high or low) + 1))
    return frozenset(cpus)


@dataclass(frozen=True)
class Sample:
    t: float                       # seconds since the sampler started
    server: ProcessReading | None
    driver: ProcessReading | None
    machine_busy_s: float
    machine_total_s: float
    # None in samples written before steal was read (their CSV has no such columns).
    machine_steal_s: float | None = None
    server_cpus_steal_s: float | None = None  # the CPUs the server may run on, together
    server_cpus_total_s: float | None = None


class WindowSampler:
    """Samples every `interval` seconds on a background thread between start() and stop(). With a
    `feed` (a server on another host) the server's figures and the machine's CPU come from that
    host's /proc, as the feed last read it; the load tool's stay this machine's."""

    def __init__(self, server_pid, interval=0.5, feed=None):
        self.server_pid = server_pid
        self.feed = feed
        self.driver_pid = None
        # The tightest cgroup CPU quota the driver ran under (cores), or None: a load tool in a
        # container may have a tenth of a core while its CPUs say one (ground/proc.cpu_quota_cores).
        self.driver_quota_cores = None
        self.interval = interval
        self.samples = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None
        self._t0 = None
        self.started_epoch = None
        if feed is None:
            self.server_cpus = process_cpus(server_pid) if server_pid is not None else None
        else:
            reading = feed.latest()
            status = reading.process_status if reading else None
            self.server_cpus = cpu_list(status.fields.get("Cpus_allowed_list")) if status else None

    def start(self):
        self._t0 = time.monotonic()
        self.started_epoch = time.time()
        self._take()
        self._thread = threading.Thread(target=self._loop, name="bench-sampler", daemon=True)
        self._thread.start()
        return self

    def seconds_since_start(self, epoch):
        """An epoch time on the samples' clock (Sample.t)."""
        return epoch - self.started_epoch

    def attach_driver(self, pid):
        self.driver_pid = pid

    def stop(self):
        """Stops sampling after one last sample; returns the samples."""
        self._stop.set()
        if self._thread:
            self._thread.join()
        self._take()
        return self.samples

    def _loop(self):
        while not self._stop.wait(self.interval):
            self._take()

    def _take(self):
        if self.feed is None:
            table = read_cpu_times()
            server = read_process(self.server_pid) if self.server_pid is not None else None
        else:
            reading = self.feed.latest()
            table, server = (reading.cpu_table, reading_of(reading)) if reading else (read_cpu_times(), None)
        machine, server_cpus = table["cpu"], cpus_times(table, self.server_cpus)
        if self.driver_pid:
            quota = proc.cpu_quota_cores(self.driver_pid)
            if quota is not None:
                self.driver_quota_cores = min(quota, self.driver_quota_cores or quota)
        sample = Sample(t=time.monotonic() - self._t0, server=server,
                        driver=read_process(self.driver_pid) if self.driver_pid else None,
                        machine_busy_s=machine.busy_s, machine_total_s=machine.total_s,
                        machine_steal_s=machine.steal_s,
                        server_cpus_steal_s=server_cpus.steal_s if server_cpus else None,
                        server_cpus_total_s=server_cpus.total_s if server_cpus else None)
        with self._lock:
            self.samples.append(sample)

    def driver_read_rate(self, span_s=2.0):
        """Bytes per second the driver read over the last `span_s`, or None."""
        with self._lock:
            readings = [(s.t, s.driver.read_bytes) for s in self.samples if s.driver and s.driver.read_bytes is not None]
        if len(readings) < 2:
            return None
        last_t, last_bytes = readings[-1]
        first_t, first_bytes = next(((t, b) for t, b in readings if t >= last_t - span_s), readings[0])
        if last_t - first_t <= 0:
            return None
        return (last_bytes - first_bytes) / (last_t - first_t)


def summarize(samples, driver_cpu_s=None):
    """The window's figures from its samples. `driver_cpu_s` (from the driver's rusage, exact even
    for its last moments) replaces the sampled driver CPU when given."""
    if len(samples) < 2:
        return None
    first, last = samples[0], samples[-1]
    elapsed = last.t - first.t
    servers = [s.server for s in samples if s.server]
    drivers = [s.driver for s in samples if s.driver]
    summary = {"elapsed_s": round(elapsed, 3), "samples": len(samples)}
    if servers:
        cpu = servers[-1].cpu_s - servers[0].cpu_s
        summary["server"] = {
            "cpu_s": round(cpu, 3),
            "cpu_cores": round(cpu / elapsed, 3) if elapsed > 0 else None,
            "rss_avg_mb": round(sum(r.rss_kb for r in servers) / len(servers) / 1024, 1),
            "rss_peak_mb": round(max(r.rss_kb for r in servers) / 1024, 1),
            "vm_hwm_mb": round(servers[-1].hwm_kb / 1024, 1),
            "threads_avg": round(sum(r.threads for r in servers) / len(servers), 1),
            "threads_max": max(r.threads for r in servers),
        }
        full = cpu_full(samples)
        if full is not None:
            summary["server"]["cpu_full"] = full
    if driver_cpu_s is None and len(drivers) >= 2:
        driver_cpu_s = drivers[-1].cpu_s - drivers[0].cpu_s
    if driver_cpu_s is not None:
        summary["driver"] = {
            "cpu_s": round(driver_cpu_s, 3),
            "cpu_cores": round(driver_cpu_s / elapsed, 3) if elapsed > 0 else None,
            "rss_peak_mb": round(max(r.rss_kb for r in drivers) / 1024, 1) if drivers else None,
        }
    total = last.machine_total_s - first.machine_total_s
    if total > 0:
        busy_cores = (last.machine_busy_s - first.machine_busy_s) / total * CPU_COUNT
        ours = summary.get("server", {}).get("cpu_cores") or 0
        ours += summary.get("driver", {}).get("cpu_cores") or 0
        summary["machine"] = {
            "cpus": CPU_COUNT,
            "busy_cores": round(busy_cores, 3),
            # What neither the server nor the driver used: other programs, the kernel, this harness.
            "other_cores": round(max(busy_cores - ours, 0.0), 3),
        }
        if first.machine_steal_s is not None and last.machine_steal_s is not None:
            stolen = (last.machine_steal_s - first.machine_steal_s) / total * CPU_COUNT
            summary["machine"]["steal_cores"] = round(stolen, 3)
        server_total = _delta(first.server_cpus_total_s, last.server_cpus_total_s)
        if server_total:
            stolen = _delta(first.server_cpus_steal_s, last.server_cpus_steal_s)
            summary["machine"]["server_cpus_steal_share"] = round(stolen / server_total, 3)
    return summary


def cpu_full(samples):
    """{seconds, longest: [from, to] s after the first sample} of the intervals in which the server
    had the CPUs it may run on full (CPU_FULL_SHARE), or None when the samples lack those CPUs' time
    (samples of a remote server, or written before it was read)."""
    seconds, longest, run_start = 0.0, None, None
    for before, after in zip(samples, samples[1:]):
        total = _delta(before.server_cpus_total_s, after.server_cpus_total_s)
        if not total or before.server is None or after.server is None:
            return None
        used = after.server.cpu_s - before.server.cpu_s + (_delta(before.server_cpus_steal_s, after.server_cpus_steal_s) or 0)
        if used / total >= CPU_FULL_SHARE:
            seconds += after.t - before.t
            run_start = before.t if run_start is None else run_start
            if longest is None or after.t - run_start > longest[1] - longest[0]:
                longest = (run_start, after.t)
        else:
            run_start = None
    origin = samples[0].t
    return {"seconds": round(seconds, 2),
            "longest": [round(longest[0] - origin, 2), round(longest[1] - origin, 2)] if longest else None}


def _delta(first, last):
    return last - first if first is not None and last is not None else None


def summarize_window(samples, start_t, end_t):
    """The figures of the samples taken in [start_t, end_t] (Sample.t seconds) only: a window inside
    a longer run, its warm-up and drain left out. The driver's CPU is the sampled one, as its rusage
    covers the whole run."""
    inside = [s for s in samples if start_t <= s.t <= end_t]
    summary = summarize(inside)
    if summary is not None:
        summary["window_t_s"] = [round(start_t, 3), round(end_t, 3)]
    return summary


def read_samples_csv(path):
    """The samples write_samples_csv wrote: a results folder's raw/ data read back for a rebuild."""
    def reading(row, who):
        if not row[f"{who}_cpu_s"]:
            return None
        read_bytes = row.get(f"{who}_read_bytes")
        return ProcessReading(cpu_s=float(row[f"{who}_cpu_s"]), rss_kb=int(row[f"{who}_rss_kb"]),
                              hwm_kb=int(row.get(f"{who}_hwm_kb") or row[f"{who}_rss_kb"]),
                              threads=int(row.get(f"{who}_threads") or 0),
                              read_bytes=int(read_bytes) if read_bytes else None)
    def optional(row, column):
        return float(row[column]) if row.get(column) else None

    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        return [Sample(t=float(row["t_s"]), server=reading(row, "server"), driver=reading(row, "driver"),
                       machine_busy_s=float(row["machine_busy_s"]), machine_total_s=float(row["machine_total_s"]),
                       machine_steal_s=optional(row, "machine_steal_s"),
                       server_cpus_steal_s=optional(row, "server_cpus_steal_s"),
                       server_cpus_total_s=optional(row, "server_cpus_total_s"))
                for row in csv.DictReader(f)]


def write_samples_csv(path, samples):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["t_s", "server_cpu_s", "server_rss_kb", "server_hwm_kb", "server_threads",
                         "driver_cpu_s", "driver_rss_kb", "driver_read_bytes", "machine_busy_s", "machine_total_s",
                         "machine_steal_s", "server_cpus_steal_s", "server_cpus_total_s"])
        for s in samples:
            server, driver = s.server, s.driver
            writer.writerow([f"{s.t:.3f}",
                             f"{server.cpu_s:.2f}" if server else "", server.rss_kb if server else "",
                             server.hwm_kb if server else "", server.threads if server else "",
                             f"{driver.cpu_s:.2f}" if driver else "", driver.rss_kb if driver else "",
                             driver.read_bytes if driver and driver.read_bytes is not None else "",
                             f"{s.machine_busy_s:.2f}", f"{s.machine_total_s:.2f}",
                             *("" if v is None else f"{v:.2f}"
                               for v in (s.machine_steal_s, s.server_cpus_steal_s, s.server_cpus_total_s))])
