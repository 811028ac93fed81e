"""JDK Flight Recorder on the server, with nothing to install: the JDK's own jcmd and jfr tools.

The recording is started with `jcmd PID JFR.start` once the server is ready (before any warm-up)
and copied with `jcmd PID JFR.dump` after each measured window, so no JVM tool starts while a
window is measured. `jfr print --json` reads the copy; only events that started inside the
window count. The settings (loomlab.jfc) enable just the events read here, keeping the
recording's own cost out of the comparison (no execution sampling, no allocation profiling).
"""
import json
import re
import subprocess
import time
from datetime import datetime
from pathlib import Path

SETTINGS = Path(__file__).resolve().parent / "loomlab.jfc"
RECORDING = "loomlab-bench"
EVENTS = ("jdk.GarbageCollection", "jdk.GCHeapSummary", "jdk.GCHeapMemoryUsage", "jdk.VirtualThreadPinned")
TOOL_TIMEOUT_S = 120


class JfrRecorder:
    """One JFR recording in the server process `pid`."""

    def __init__(self, pid, java_home):
        self.pid = pid
        self.jcmd = str(Path(java_home) / "bin" / "jcmd")
        self.jfr = str(Path(java_home) / "bin" / "jfr")
        self.error = None

    @property
    def running(self):
        return self.error is None

    def start(self):
        output = self._jcmd("JFR.start", f"name={RECORDING}", f"settings={SETTINGS}", "maxage=2h")
        if output is not None and "Started recording" not in output:
            self.error = "jcmd JFR.start: " + _one_line(output)
        return self.running

    def dump(self, path, window_start):
        """Copies the recording since shortly before `window_start` (epoch seconds) to `path`."""
        if not self.running:
            return False
        since = max(int(time.time() - window_start) + 5, 10)
        output = self._jcmd("JFR.dump", f"name={RECORDING}", f"filename={path}", f"begin=-{since}s")
        if output is None:
            return False
        if not Path(path).is_file():
            self.error = "jcmd JFR.dump: " + _one_line(output)
            return False
        return True

    def read_window(self, path, window_start, window_end):
        """The window's GC, heap and pinning figures from a dumped recording."""
        try:
            result = subprocess.run([self.jfr, "print", "--json", "--events", ",".join(EVENTS), str(path)],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=TOOL_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as e:
            return {"available": False, "error": f"jfr print: {e}"}
        if result.returncode != 0:
            return {"available": False, "error": "jfr print: " + _one_line(result.stderr or result.stdout)}
        events = json.loads(result.stdout)["recording"]["events"]
        return summarize_events(events, window_start, window_end)

    def _jcmd(self, *arguments):
        try:
            result = subprocess.run([self.jcmd, str(self.pid), *arguments], stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, timeout=TOOL_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as e:
            self.error = f"jcmd {arguments[0]}: {e}"
            return None
        if result.returncode != 0:
            self.error = f"jcmd {arguments[0]}: " + _one_line(result.stdout)
            return None
        return result.stdout


def summarize_events(events, window_start, window_end):
    """GC pauses, heap use and pinned virtual threads among `events` (jfr print --json) that
    started in [window_start, window_end] (epoch seconds)."""
    gc_count, pause_total, pause_max = 0, 0.0, 0.0
    heap_used, heap_after_gc = [], []
    pinned, pinned_total = 0, 0.0
    for event in events:
        values = event["values"]
        started = epoch_seconds(values["startTime"])
        if not window_start <= started <= window_end:
            continue
        kind = event["type"]
        if kind == "jdk.GarbageCollection":
            gc_count += 1
            pause_total += iso_duration_s(values.get("sumOfPauses"))
            pause_max = max(pause_max, iso_duration_s(values.get("longestPause")))
        elif kind == "jdk.GCHeapSummary":
            heap_used.append(values["heapUsed"])
            if values.get("when") == "After GC":
                heap_after_gc.append(values["heapUsed"])
        elif kind == "jdk.GCHeapMemoryUsage":
            heap_used.append(values["used"])
        elif kind == "jdk.VirtualThreadPinned":
            pinned += 1
            pinned_total += iso_duration_s(values.get("duration"))
    mb = 1024 * 1024
    return {
        "available": True,
        "gc_count": gc_count,
        "gc_pause_total_ms": round(pause_total * 1000, 3),
        "gc_pause_max_ms": round(pause_max * 1000, 3),
        "heap_used_max_mb": round(max(heap_used) / mb, 1) if heap_used else None,
        "heap_after_gc_avg_mb": round(sum(heap_after_gc) / len(heap_after_gc) / mb, 1) if heap_after_gc else None,
        "pinned_events": pinned,
        "pinned_total_ms": round(pinned_total * 1000, 3),
    }


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


def _one_line(text):
    lines = [l.strip() for l in (text or "").splitlines() if l.strip()]
    return lines[-1] if lines else "(no output)"
