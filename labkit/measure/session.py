"""A measured server session, wherever a run needs one (./lab bench, capacity, soak): start a
target (pinned by --cpus, with its heap and carriers), probe it once, drive a load tool while
/proc is sampled and a watchdog probes, keep the server's log, and record each point as it
finishes (points.jsonl, env.json), so a crash keeps what was measured.

Every process started here is stopped in a `finally`, so Ctrl-C (a KeyboardInterrupt) leaves no
load tool and no server behind.
"""
import json
import math
import resource
import shlex
import shutil
import time
from datetime import datetime, timezone
from pathlib import Path

from labkit.servers.carriers import carrier_options
from labkit.ground.errors import LabError
from labkit.ground.process import spawn, stop
from labkit.hosts.local import LocalHost
from labkit.load.tools import DriverOutputError, redacted
from labkit.servers.heaps import heap_options
from labkit.load.spread import START_SLACK_S, SpreadRun
from labkit.measure.cpus import allowed_cpus
from labkit.measure.results import (
    portable,
    write_json,
)
from labkit.measure.sampler import WindowSampler, summarize, summarize_window
from labkit.load.requests_mix import send_once

# A load tool gets its duration plus its timeout plus this before it is stopped as hung.
DRIVER_GRACE_S = 30
LIVE_UPDATE_S = 1.0


def _now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _iso(epoch):
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="milliseconds")


def steady_window(now_epoch, warmup_s, duration_s):
    """(start, end) in whole epoch seconds for a run starting now: start is the first whole second
    after the warm-up, because ab records each request's start in whole seconds, so a window on
    second boundaries takes exactly the requests that started in it."""
    start = math.ceil(now_epoch + warmup_s)
    return start, start + duration_s


def window_record(kind, start_epoch, end_epoch, **extra):
    """The record's `window`: "fresh" (a run of its own) or "steady" (inside a longer run)."""
    return {"kind": kind, "start": _iso(start_epoch), "end": _iso(end_epoch),
            "wall_s": round(end_epoch - start_epoch, 3), **extra}


def phase_at(phases, elapsed_s):
    """(name, seconds into it, its length) of the phase a run is in after `elapsed_s`; `phases` is
    [(name, seconds), ...] in order. Past the end it stays in the last phase."""
    began = 0.0
    for name, length in phases:
        if elapsed_s < began + length:
            return name, elapsed_s - began, length
        began += length
    name, length = phases[-1]
    return name, elapsed_s - (began - length), length


def measured_resources(spec, samples, sampler, driver_cpu_s):
    """/proc figures of the measured window: the whole run, or with a steady window only the
    samples inside it (the driver's exact rusage CPU covers its whole run, so the sampled one)."""
    if spec.window is None:
        summary = summarize(samples, driver_cpu_s)
    else:
        start, end = spec.window
        summary = summarize_window(samples, sampler.seconds_since_start(start), sampler.seconds_since_start(end))
    if summary and summary.get("driver") and sampler.driver_quota_cores is not None:
        summary["driver"]["quota_cores"] = sampler.driver_quota_cores
    return summary


def probe(server, path, mode, method="GET", body_file=None, headers=()):
    """One request before the load: the scenario must answer 2xx (else the whole run would only
    measure errors), and its size turns the driver's read bytes into a live req/s."""
    body = body_file.read_bytes() if body_file else None
    headers = [*headers, "Content-Type: application/json"] if body_file else list(headers)
    try:
        status, _, answer, size = send_once(server.base_url, method, path, body, headers)
    except LabError as e:
        raise LabError(f"{mode}: {e}") from None
    if not 200 <= status < 300:
        raise LabError(f"{mode}: {method} {path} answered {status} before the load started: "
                       f"{answer[:200].decode(errors='replace')}")
    return size


def keep_log(server, out_dir, label):
    """Copies the server's console log to servers/<label>.log; its path inside out_dir, or None."""
    source = Path(server.log_path)
    if not source.is_file():
        return None
    target = Path(out_dir) / "servers" / f"{label}.log"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return str(target.relative_to(out_dir))


def start_server(target, setup, heap=None):
    """Starts the target as the run's ServerSetup says (measure/server_setup.py): on its port and host, on
    the server's CPUs when --cpus pins it; `heap` (a --heap size) adds its -Xms/-Xmx, --carriers its
    virtual-thread scheduler's parallelism."""
    options = list(setup.jvm_options) + heap_options(heap) + carrier_options(setup.carriers)
    # Your own WARs (--war) only to targets that deploy them: the host-speed reference (jdk-virtual)
    # serves its own fixed request beside your Payara, and cannot deploy a WAR.
    apps = {"apps": setup.wars} if setup.wars and target.takes_wars else {}
    # The host pins the server to its CPUs (--cpus server=...): here the JVM inherits the lab's
    # affinity while it starts, there its command runs under taskset. A target that cannot start on
    # another host (where.py refuses it there) takes no host.
    cpus = setup.cpus.server if setup.cpus else None
    host = setup.host
    where = {"on": host, "remote_java": setup.remote_java, "cpus": cpus} if target.takes_host else {}
    with host.pinning(cpus):
        return target.start(setup.port, options, jvm_defaults=setup.jvm_defaults, **apps, **where)


def host_of(server):
    """The host the server runs on (labkit.hosts): a LocalHost for this machine, which runs, reads and
    copies here what an SshHost does there, so no caller asks which one it has."""
    return getattr(server, "on", None) or LocalHost()


def feed_of(server):
    """The server's /proc as read on its own host, or None for a server on this machine."""
    return getattr(server, "proc_feed", None)


def server_jdk(server, lab_java_home):
    """The JDK whose jcmd reaches the server's JVM: the lab's own here, the one found on the server's
    host for a server elsewhere."""
    return host_of(server).jcmd_java_home(server, lab_java_home)


def cpus_allowed(server):
    """The CPUs the server's JVM may run on (Cpus_allowed_list), read where it runs."""
    feed = feed_of(server)
    if feed is None:
        return allowed_cpus(server.pid)
    reading = feed.latest()
    status = reading.process_status if reading else None
    return status.fields.get("Cpus_allowed_list") if status else None


class ServerStalled(Exception):
    """A run of the load tool during which the watchdog found the server stalled: the run's result
    (with the watchdog's record and dump), its start and end (epoch seconds) and the phase it was in."""

    def __init__(self, run, start, end, phase):
        super().__init__(f"the server stalled during {phase}")
        self.run, self.start, self.end, self.phase = run, start, end, phase


def stall_failure(watchdog_record, phase):
    """The point's `failure` text for a stall: what the probe saw, and the dump's likely cause."""
    stall = watchdog_record["stall"]
    dump = stall.get("dump") or {}
    cause = (dump.get("summary") or {}).get("cause") or {}
    why = f"{cause['kind']}: {cause['text']}" if cause else dump.get("error") or "no thread dump"
    return (f"the server stalled during {phase}: the watchdog's probe got no answer within "
            f"{stall['waited_s']:g} s ({stall['probe_sent_s']:g} s into the run); {why}")


def drive(driver, executable, spec, server_pid, cwd, sample_interval_s, response_bytes=None, on_live=None,
          cpus=None, watchdog=None, sampler=None, feed=None, load_hosts=None):
    """One run of a load tool against a running server, sampled from /proc: returns {load (the
    LoadResult or None), failure, stopped (why the harness stopped the tool, else None), command,
    samples, resources, side_files, watchdog}. `on_live(elapsed_s, rps)` is called about every second
    (rps from the tool's read bytes ÷ `response_bytes`); `cpus` (CpuPinning) runs the tool under
    taskset. A tool that does not end on time is stopped. `watchdog` (a Watchdog, not started)
    probes the server during the run; when it finds the server stalled the tool is stopped at once,
    and its record is the result's `watchdog`. `sampler` (a WindowSampler already running, as ./lab
    soak keeps one over quiet, load and idle) samples the run instead of one of its own: the tool is
    attached to it for the run only, it is not stopped, and samples and resources are None. `feed`:
    the server's /proc read on its own host, for a server on another host (labkit.hosts.procfeed).
    `load_hosts` (a LoadHosts: hosts and their clock readings): the load runs there, split evenly
    (labkit/load/spread.py), instead of here."""
    if load_hosts:
        return _drive_spread(driver, executable, spec, server_pid, sample_interval_s, watchdog, sampler, feed,
                             load_hosts)
    command = (cpus.driver_prefix() if cpus else []) + driver.command(spec, executable)
    output_path = Path(f"{spec.side_file_prefix}.out")
    own_sampler = sampler is None
    if own_sampler:
        sampler = WindowSampler(server_pid, sample_interval_s, feed=feed)
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    if own_sampler:
        sampler.start()
    began = time.monotonic()
    process = spawn(command, output_path, cwd=cwd)
    # A stall's thread dump runs jcmd, a child of the lab too: its CPU then counts as the driver's
    # below, on a point that failed anyway.
    if watchdog:
        watchdog.start()
    killed = None
    try:
        sampler.attach_driver(process.pid)
        limit = spec.run_seconds + spec.timeout_s + DRIVER_GRACE_S
        last_live = 0.0
        while process.poll() is None:
            elapsed = time.monotonic() - began
            if elapsed > limit:
                killed = "the tool did not end on time"
                break
            if watchdog and watchdog.stalled.is_set():
                killed = "the watchdog found the server stalled"
                break
            if on_live and elapsed - last_live >= LIVE_UPDATE_S:
                last_live = elapsed
                rate = sampler.driver_read_rate()
                on_live(elapsed, rate / response_bytes if rate is not None and response_bytes else None)
            time.sleep(0.1)
    finally:
        stop(process, grace_seconds=5)  # a no-op on a tool that ended, but for its leash
        if watchdog:
            watchdog.stop()
        if own_sampler:
            samples = sampler.stop()
        else:
            sampler.attach_driver(None)
            samples = None
    wall_s = time.monotonic() - began
    children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The driver is the only child reaped in this window (with its leash's shell: a few ms), so the
    # children's rusage delta is its CPU.
    driver_cpu_s = ((children_after.ru_utime + children_after.ru_stime)
                    - (children_before.ru_utime + children_before.ru_stime))
    output = output_path.read_text(errors="replace") if output_path.is_file() else ""
    load, failure = None, None
    try:
        load = driver.parse(output, spec, wall_s=wall_s)
        if killed:
            load.complete = False
            load.notes.append(f"stopped by the harness after {wall_s:.0f} s: {killed}")
    except (DriverOutputError, ValueError, KeyError) as e:
        failure = f"{driver.name} exit {process.returncode}: {e}"
    return {"load": load, "failure": failure, "stopped": killed,
            "command": " ".join(shlex.quote(c) for c in redacted(command)), "samples": samples,
            "resources": measured_resources(spec, samples, sampler, driver_cpu_s) if own_sampler else None,
            "side_files": [p for p in driver.side_files(spec) if Path(p).is_file()],
            "watchdog": watchdog.record() if watchdog else None}


def _drive_spread(driver, executable, spec, server_pid, sample_interval_s, watchdog, sampler, feed, load_hosts):
    """drive() with the load on the load hosts: the same record, plus `load_hosts` (each host's share,
    requests, lag, CPU and clock offset); the load tool's CPU is the sum of the hosts' vegeta."""
    run = SpreadRun(driver, executable, spec, load_hosts.hosts, load_hosts.clocks)
    own_sampler = sampler is None
    if own_sampler:
        sampler = WindowSampler(server_pid, sample_interval_s, feed=feed).start()
    began = time.monotonic()
    killed = None
    try:
        run.start()
        if watchdog:
            watchdog.start()
        limit = spec.run_seconds + spec.timeout_s + DRIVER_GRACE_S + START_SLACK_S
        while run.poll() is None:
            if time.monotonic() - began > limit:
                killed = "a load host's vegeta did not end on time"
                break
            if watchdog and watchdog.stalled.is_set():
                killed = "the watchdog found the server stalled"
                break
            time.sleep(0.1)
    finally:
        run.stop()
        if watchdog:
            watchdog.stop()
        samples = sampler.stop() if own_sampler else None
    wall_s = time.monotonic() - began
    load, per_host, cpu_s, failure = run.results()
    if own_sampler:
        resources = measured_resources(run.spec, samples, sampler, cpu_s)
        count_load_hosts_beside(resources, run.hosts, per_host, feed.host if feed is not None else LocalHost(), wall_s)
    else:
        resources = None
    if load is not None and killed:
        load.complete = False
        load.notes.append(f"stopped by the harness after {time.monotonic() - began:.0f} s: {killed}")
    return {"load": load, "failure": None if load is not None else f"{driver.name} on the load hosts: {failure}",
            "stopped": killed, "command": f"{len(per_host)} load hosts: " + ", ".join(
                f"{h['host']} {h['rate'] or spec.concurrency} {'req/s' if h['rate'] else 'connections'}" for h in per_host),
            "samples": samples, "resources": resources,
            "side_files": [p for s in run.specs for p in driver.side_files(s) if Path(p).is_file()],
            "watchdog": watchdog.record() if watchdog else None, "load_hosts": per_host,
            # The window the hosts measured: moved when they started later than it was planned for.
            **({"window": run.spec.window, "window_moved_s": round(run.shift_s, 3)} if run.shift_s else {})}


def count_load_hosts_beside(resources, hosts, per_host, machine, wall_s):
    """The machine's `other_cores` without the load hosts' vegeta, where the server's machine runs
    it too: load hosts that are network namespaces of one box share its kernel (same boot id), and
    their vegeta is then the load tool, not other load. Load hosts on machines of their own are
    no part of it. Their CPU is each host's over its whole run, spread over the run's wall time."""
    figures = (resources or {}).get("machine")
    if not figures or wall_s <= 0:
        return
    kernel = machine.kernel()
    beside = sum(record.get("cpu_s") or 0.0 for host, record in zip(hosts, per_host)
                 if kernel is not None and host.kernel() == kernel) / wall_s
    server = (resources.get("server") or {}).get("cpu_cores") or 0.0
    figures["load_hosts_cores"] = round(beside, 3)
    figures["other_cores"] = round(max(figures["busy_cores"] - server - beside, 0.0), 3)


class PointLog:
    """What every load run records alike (./lab bench, ./lab capacity): env.json at the start, each
    point appended to points.jsonl as it finishes (so a crash keeps them), the sessions, and the
    state and wall time at the end. Subclasses write their results from `run` in finish()."""

    def __init__(self, out_dir, schema, config, env, **fields):
        self.out_dir = Path(out_dir)
        self.started = time.monotonic()
        env = portable(env, self.out_dir)
        self.run = {"schema": schema, "state": "running", "started": _now_iso(), "config": config.to_dict(),
                    "env": env, **fields, "sessions": [], "points": []}
        (self.out_dir / "raw").mkdir(parents=True, exist_ok=True)
        write_json(self.out_dir / "env.json", env)

    @property
    def points(self):
        return self.run["points"]

    def add_session(self, session):
        self.run["sessions"].append(portable(session, self.out_dir))

    def add_point(self, record):
        record = portable(record, self.out_dir)
        self.run["points"].append(record)
        with open(self.out_dir / "points.jsonl", "a") as f:
            f.write(json.dumps(record) + "\n")

    def _close(self, state, error):
        self.run["state"] = state
        if error:
            self.run["error"] = error
        self.run["finished"] = _now_iso()
        self.run["wall_s"] = round(time.monotonic() - self.started, 1)
