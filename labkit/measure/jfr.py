"""JDK Flight Recorder on the server, with nothing to install: the JDK's own jcmd and jfr tools.

The recording is started with `jcmd PID JFR.start` once the server is ready (before any warm-up)
and copied with `jcmd PID JFR.dump` after each measured window, so no JVM tool starts while a
window is measured. `jfr print --json` reads the copy; only events that started inside the
window count. The settings (loomlab.jfc) enable just the events read here, keeping the
recording's own cost out of the comparison (no allocation profiling; execution sampling only with
`profile`, below).

With `locks` (./lab bench --jfr-locks) the recording also holds contended monitor enters and
thread parks of 10 ms or more with their stacks, summarised per window as counts, blocked time,
the top monitor / parked-on classes and the top code sites: where threads queue for each other.

With `profile` (./lab capacity) it also samples the threads running Java every PROFILE_PERIOD
(jdk.ExecutionSample, JFR's own default period, which its designers hold under 1 % of a CPU), so a
window whose limit is the CPU says where the time went: the methods on top of the sampled stacks.
"""
import json
import re
import time
import xml.etree.ElementTree as ET
from collections import Counter
from datetime import datetime
from pathlib import Path

from labkit.ground.command import last_lines, run_command
from labkit.ground.errors import LabError
from labkit.hosts.local import LocalHost
from labkit.hosts.jvm import fetch, jcmd, remote_path

SETTINGS = Path(__file__).resolve().parent / "loomlab.jfc"
RECORDING = "loomlab-bench"
EVENTS = ("jdk.GarbageCollection", "jdk.GCHeapSummary", "jdk.GCHeapMemoryUsage", "jdk.VirtualThreadPinned",
          "jdk.ExecuteVMOperation", "jdk.ZAllocationStall", "jdk.CompilerStatistics")
JIT_EVENT = "jdk.CompilerStatistics"
# A window keeps at most this many allocation stalls, the longest: the limit counts those longer than
# the goal's slack, and 2,000 are 0.5 % (p99's line) of 400,000 requests, more than a window here holds.
STALLS_KEPT = 2000
TOOL_TIMEOUT_S = 120
# jdk.GarbageCollection's `name` of the collections of the young generation (G1's mixed collections
# are G1New too: they collect it as well). G1Old (a concurrent cycle), G1Full, SerialOld, ParallelOld
# and "ZGC Major" are not.
YOUNG_COLLECTIONS = ("G1New", "ParallelScavenge", "DefNew", "ZGC Minor")
# Collectors without a young generation: a window on them has no young-collection count.
SINGLE_GENERATION = ("Z", "Shenandoah")
# --jfr-locks: JFR's own "profile" settings use 10 ms for both (its default settings 20 ms).
LOCK_EVENTS = {"jdk.JavaMonitorEnter": ("monitor_enter", "monitorClass"), "jdk.ThreadPark": ("park", "parkedClass")}
LOCK_THRESHOLD = "10 ms"
TOP = 5
# Frames that say how a thread blocks, not who made it block: a site is the first frame outside them.
# (The JDK's queues and pools too: a worker parked in LinkedTransferQueue is waiting in its pool's loop.)
BLOCKING_MACHINERY = ("java.util.concurrent.", "jdk.internal.misc.", "java.lang.VirtualThread",
                      "java.lang.Object.wait", "sun.misc.Unsafe")
PROFILE_EVENT = "jdk.ExecutionSample"
PROFILE_PERIOD = "20 ms"


def settings_file(locks, directory, profile=False):
    """loomlab.jfc, or a copy of it written into `directory` with the lock events (locks) and the
    execution sampler (profile) added."""
    if not locks and not profile:
        return SETTINGS
    tree = ET.parse(SETTINGS)
    root = tree.getroot()
    added = {name: (("enabled", "true"), ("stackTrace", "true"), ("threshold", LOCK_THRESHOLD))
             for name in (LOCK_EVENTS if locks else ())}
    if profile:
        added[PROFILE_EVENT] = (("enabled", "true"), ("period", PROFILE_PERIOD))
    for name, settings in added.items():
        event = ET.SubElement(root, "event", name=name)
        for setting, value in settings:
            ET.SubElement(event, "setting", name=setting).text = value
    path = Path(directory) / ("loomlab" + ("-locks" if locks else "") + ("-profile" if profile else "") + ".jfc")
    path.parent.mkdir(parents=True, exist_ok=True)
    tree.write(path, encoding="UTF-8", xml_declaration=True)
    return path


class JfrRecorder:
    """One JFR recording in the server process `pid`."""

    def __init__(self, pid, java_home, locks=False, settings_dir=None, host=None, server_java_home=None,
                 profile=False, refused=None):
        """`java_home`: the lab's JDK, whose `jfr` reads the copies here; `host` and `server_java_home`:
        where the server runs and its JDK there, whose jcmd records (this machine and `java_home`
        when not given); `settings_dir`: where a settings file with `locks` or `profile` is written;
        `refused`: why this JVM must not be recorded (its owner said so), or None."""
        self.pid = pid
        self.refused = refused
        self.host = host or LocalHost()
        self.server_java_home = server_java_home or java_home
        self.jfr = str(Path(java_home) / "bin" / "jfr")
        self.error = None
        self.locks, self.profile = locks, profile
        self.settings = settings_file(locks, settings_dir, profile) if locks or profile else SETTINGS
        self.events = EVENTS + (tuple(LOCK_EVENTS) if locks else ()) + ((PROFILE_EVENT,) if profile else ())

    @property
    def running(self):
        return self.error is None

    def start(self):
        if self.refused:
            self.error = self.refused
            return False
        if self.pid is None:
            self.error = "no JVM to record: a server the lab did not start (--server-ssh HOST --server-pid PID name one)"
            return False
        settings = self.settings
        settings = str(self.host.put(settings, "jfr"))  # there, or where it is for a JVM here
        output = self._jcmd("JFR.start", f"name={RECORDING}", f"settings={settings}", "maxage=2h")
        if output is not None and "Started recording" not in output:
            self.error = "jcmd JFR.start: " + last_lines(output)
        return self.running

    def stop(self):
        """Ends the recording, its data discarded: for a JVM the lab leaves running (a server it did
        not start), which would otherwise record until it exits."""
        if self.running:
            self._jcmd("JFR.stop", f"name={RECORDING}")

    def dump(self, path, window_start):
        """Copies the recording since shortly before `window_start` (epoch seconds) to `path`."""
        if not self.running:
            return False
        since = max(int(time.time() - window_start) + 5, 10)
        target = remote_path(self.host, Path(path), "jfr")
        output = self._jcmd("JFR.dump", f"name={RECORDING}", f"filename={target}", f"begin=-{since}s")
        if output is None:
            return False
        try:
            fetch(self.host, target, path)
        except LabError as e:
            self.error = f"copying the recording from {self.host}: {e}"
            return False
        if not Path(path).is_file():
            self.error = "jcmd JFR.dump: " + last_lines(output)
            return False
        return True

    def read_window(self, path, window_start, window_end):
        """The window's GC, heap and pinning figures from a dumped recording."""
        try:
            result = run_command([self.jfr, "print", "--json", "--events", ",".join(self.events), path],
                                 timeout=TOOL_TIMEOUT_S)
        except LabError as e:
            return {"available": False, "error": f"jfr print: {e}"}
        if result.returncode != 0:
            return {"available": False, "error": "jfr print: " + last_lines(result.stderr or result.stdout)}
        events = json.loads(result.stdout)["recording"]["events"]
        summary = summarize_events(events, window_start, window_end)
        if self.locks:
            summary["locks"] = summarize_locks(events, window_start, window_end)
        if self.profile:
            summary["cpu_profile"] = summarize_profile(events, window_start, window_end)
        return summary

    def _jcmd(self, *arguments):
        try:
            returncode, output = jcmd(self.host, self.server_java_home, self.pid, arguments, TOOL_TIMEOUT_S)
        except OSError as e:
            self.error = f"jcmd {arguments[0]}: {e}"
            return None
        if returncode != 0:
            self.error = f"jcmd {arguments[0]}: " + last_lines(output)
            return None
        return output


def summarize_events(events, window_start, window_end):
    """GC pauses, heap use and pinned virtual threads among `events` (jfr print --json) that
    started in [window_start, window_end] (epoch seconds)."""
    gc_count, pause_total, pause_max = 0, 0.0, 0.0
    gc_names = Counter()
    pauses = []  # [seconds into the window, longest pause ms, collector's name] per collection
    cycles = []  # [seconds into the window, the whole cycle's ms, collector's name]: concurrent work too
    heap_used, heap_after_gc = [], []
    pinned, pinned_total = 0, 0.0
    vm_operations, vm_longest = 0, (0.0, None)
    stalls = []
    jit = summarize_jit(events, window_start, window_end)
    for event in events:
        values = event["values"]
        started = epoch_seconds(values["startTime"])
        if not window_start <= started <= window_end:
            continue
        kind = event["type"]
        if kind == "jdk.GarbageCollection":
            gc_count += 1
            gc_names[values.get("name") or "?"] += 1
            pause_total += iso_duration_s(values.get("sumOfPauses"))
            pause_max = max(pause_max, iso_duration_s(values.get("longestPause")))
            pauses.append([round(started - window_start, 3), round(iso_duration_s(values.get("longestPause")) * 1000, 3),
                           values.get("name") or "?"])
            cycles.append([round(started - window_start, 3), round(iso_duration_s(values.get("duration")) * 1000, 1),
                           values.get("name") or "?"])
        elif kind == "jdk.GCHeapSummary":
            heap_used.append(values["heapUsed"])
            if values.get("when") == "After GC":
                heap_after_gc.append(values["heapUsed"])
        elif kind == "jdk.GCHeapMemoryUsage":
            heap_used.append(values["used"])
        elif kind == "jdk.VirtualThreadPinned":
            pinned += 1
            pinned_total += iso_duration_s(values.get("duration"))
        elif kind == "jdk.ZAllocationStall":
            # ZGC: a thread that allocated faster than the concurrent collector freed memory waits
            # here, inside its request, though no pause stopped the others.
            stalls.append(round(iso_duration_s(values.get("duration")) * 1000, 2))
        elif kind == "jdk.ExecuteVMOperation":
            vm_operations += 1
            seconds = iso_duration_s(values.get("duration"))
            if seconds > vm_longest[0]:
                vm_longest = (seconds, values.get("operation"))
    mb = 1024 * 1024
    return {
        "available": True,
        "gc_count": gc_count,
        "young_gc_count": young_collections(gc_names),
        "gc_names": dict(sorted(gc_names.items())),
        "gc_pause_total_ms": round(pause_total * 1000, 3),
        "gc_pause_max_ms": round(pause_max * 1000, 3),
        "gc_pauses": sorted(pauses),
        "gc_cycles": sorted(cycles),
        "heap_used_max_mb": round(max(heap_used) / mb, 1) if heap_used else None,
        "heap_after_gc_avg_mb": round(sum(heap_after_gc) / len(heap_after_gc) / mb, 1) if heap_after_gc else None,
        "pinned_events": pinned,
        "pinned_total_ms": round(pinned_total * 1000, 3),
        # VM operations of 10 ms or more (GC pauses among them): the longest and what it was.
        "vm_operations": vm_operations,
        "vm_operation_max_ms": round(vm_longest[0] * 1000, 3),
        "vm_operation_max": vm_longest[1],
        # ZGC's allocation stalls (each a thread waiting for memory), longest first, at most STALLS_KEPT.
        "allocation_stalls": {"count": len(stalls), "total_ms": round(sum(stalls), 3),
                              "longest_ms": sorted(stalls, reverse=True)[:STALLS_KEPT]},
        **({"jit": jit} if jit else {}),
    }


def summarize_jit(events, window_start, window_end):
    """{compiles, compile_ms, seconds, per_second: [[s into the window, compiles, ms]]} of the JIT in
    [window_start, window_end], from jdk.CompilerStatistics' running totals: the last reading at or
    before the window's start (else its first inside) against the last inside; None without two
    readings (a recording made before the event was enabled)."""
    readings = sorted((epoch_seconds(e["values"]["startTime"]), e["values"]) for e in events if e["type"] == JIT_EVENT)
    before = [r for r in readings if r[0] <= window_start]
    inside = [r for r in readings if window_start < r[0] <= window_end]
    series = before[-1:] + inside
    if len(series) < 2:
        return None
    per_second = []
    for (_, earlier), (at, later) in zip(series, series[1:]):
        per_second.append([round(at - window_start, 1), later["compileCount"] - earlier["compileCount"],
                           round((iso_duration_s(later["totalTimeSpent"]) - iso_duration_s(earlier["totalTimeSpent"])) * 1000)])
    first, last = series[0], series[-1]
    return {"compiles": last[1]["compileCount"] - first[1]["compileCount"],
            "compile_ms": round((iso_duration_s(last[1]["totalTimeSpent"]) - iso_duration_s(first[1]["totalTimeSpent"])) * 1000),
            "seconds": round(last[0] - first[0], 1), "per_second": per_second}


def young_collections(gc_names):
    """Young collections among {collection name: count}; None when a single-generation collector ran."""
    if any(name in SINGLE_GENERATION for name in gc_names):
        return None
    return sum(count for name, count in gc_names.items() if name in YOUNG_COLLECTIONS)


def summarize_locks(events, window_start, window_end):
    """Per kind (monitor_enter, park): count, blocked ms (total, longest), and the top classes and
    sites by blocked time, of the lock events that started in [window_start, window_end]."""
    kinds = {}
    for event in events:
        if event["type"] not in LOCK_EVENTS:
            continue
        values = event["values"]
        if not window_start <= epoch_seconds(values["startTime"]) <= window_end:
            continue
        kind, class_field = LOCK_EVENTS[event["type"]]
        seconds = iso_duration_s(values.get("duration"))
        entry = kinds.setdefault(kind, {"count": 0, "total_s": 0.0, "max_s": 0.0, "classes": Counter(),
                                        "class_counts": Counter(), "sites": Counter(), "site_counts": Counter()})
        entry["count"] += 1
        entry["total_s"] += seconds
        entry["max_s"] = max(entry["max_s"], seconds)
        blocked_on = ((values.get(class_field) or {}).get("name") or "(unknown)").replace("/", ".")
        site = blocking_site(values.get("stackTrace"))
        entry["classes"][blocked_on] += seconds
        entry["class_counts"][blocked_on] += 1
        entry["sites"][site] += seconds
        entry["site_counts"][site] += 1
    result = {}
    for kind, _ in LOCK_EVENTS.values():
        entry = kinds.get(kind)
        if not entry:
            result[kind] = {"count": 0, "total_ms": 0.0, "max_ms": 0.0, "top_classes": [], "top_sites": []}
            continue
        result[kind] = {
            "count": entry["count"], "total_ms": round(entry["total_s"] * 1000, 3),
            "max_ms": round(entry["max_s"] * 1000, 3),
            "top_classes": [{"name": name, "count": entry["class_counts"][name], "total_ms": round(s * 1000, 3)}
                            for name, s in entry["classes"].most_common(TOP)],
            "top_sites": [{"site": site, "count": entry["site_counts"][site], "total_ms": round(s * 1000, 3)}
                          for site, s in entry["sites"].most_common(TOP)],
        }
    return result


def summarize_profile(events, window_start, window_end):
    """{samples, top [{frame, samples, share}]} of the execution samples taken in [window_start,
    window_end]: the TOP methods on top of the sampled stacks (where the CPU time went), each with its
    share of the samples."""
    leaves = Counter()
    for event in events:
        if event["type"] != PROFILE_EVENT:
            continue
        values = event["values"]
        if not window_start <= epoch_seconds(values["startTime"]) <= window_end:
            continue
        frames = (values.get("stackTrace") or {}).get("frames") or []
        leaves[_method_text(frames[0]) if frames else "(no stack)"] += 1
    total = sum(leaves.values())
    return {"samples": total, "top": [{"frame": frame, "samples": n, "share": round(n / total, 4)}
                                      for frame, n in leaves.most_common(TOP)]}


def blocking_site(stack_trace):
    """'Class.method:line' of the first frame that is not blocking machinery (the code that blocked)."""
    named = [_frame_text(f) for f in (stack_trace or {}).get("frames") or []]
    for text in named:
        if not text.startswith(BLOCKING_MACHINERY):
            return text
    return named[0] if named else "(no stack)"


def _frame_text(frame):
    line = frame.get("lineNumber")
    return _method_text(frame) + (f":{line}" if line not in (None, -1) else "")


def _method_text(frame):
    """'Class.method' of a frame (a sampled method is counted whatever line it was at)."""
    method = frame.get("method") or {}
    owner = ((method.get("type") or {}).get("name") or "?").replace("/", ".")
    return f"{owner}.{method.get('name', '?')}"


_FRACTION = re.compile(r"\.(\d+)")


def epoch_seconds(timestamp):
    """'2026-11-21T22:55:04.160226867Z' (or with +01:00) → epoch seconds; nanoseconds cut to µs."""
    text = _FRACTION.sub(lambda m: "." + m.group(1)[:6].ljust(6, "0"), timestamp, count=1).replace("Z", "+00:00")
    return datetime.fromisoformat(text).timestamp()


_DURATION = re.compile(r"^PT(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?$")


def iso_duration_s(text):
    """'PT0.009566112S', 'PT1M2.5S' → seconds; None or unknown → 0."""
    match = _DURATION.match(text or "")
    if not match:
        return 0.0
    hours, minutes, seconds = (float(g) if g else 0.0 for g in match.groups())
    return hours * 3600 + minutes * 60 + seconds


