"""What a server exposes about itself over HTTP: MicroProfile Metrics at /metrics (Payara Micro and
Server serve it by default), in the Prometheus/OpenMetrics text format. Read before and after a
window for a server the lab did not start (--url), whose /proc the lab may not see: its JVM's live
threads, heap in use, and garbage collections (count and time) during the window.
"""
import re
import urllib.error
import urllib.request

METRICS_PATH = "/metrics"
# name{labels} value   (comments start with #)
_LINE = re.compile(r"^([A-Za-z_:][A-Za-z0-9_:]*)(\{[^}]*\})?\s+([-+0-9.eE]+|NaN)")
# The MicroProfile base metrics the lab reads, by their exported names: MP Metrics 5 (Payara 6) names
# them plainly with an mp_scope="base" label, MP Metrics 3 and 4 with a base_ prefix.
THREADS = ("thread_count", "base_thread_count")
HEAP_USED = ("memory_usedHeap_bytes", "base_memory_usedHeap_bytes")
GC_COUNT = ("gc_total", "base_gc_total")
GC_TIME_SECONDS = ("gc_time_seconds_total", "base_gc_time_seconds_total", "base_gc_time_total_seconds")
GC_TIME_MILLISECONDS = ("base_gc_time_total",)
_SCOPE = re.compile(r'mp_scope="([^"]*)"')


def parse(text):
    """{name: summed value} of the base scope's samples (and of samples with no scope), labels summed
    away: every collector's GCs together. An application's metric of the same name is not counted."""
    values = {}
    for line in text.splitlines():
        match = _LINE.match(line)
        if not match or match.group(3) == "NaN":
            continue
        scope = _SCOPE.search(match.group(2) or "")
        if scope and scope.group(1) != "base":
            continue
        name = match.group(1)
        values[name] = values.get(name, 0.0) + float(match.group(3))
    return values


def figures(values):
    """The lab's figures from parsed metrics: threads, heap_used_mb, gc_count, gc_time_ms (None each
    when the server does not export it)."""
    def first(names):
        return next((values[n] for n in names if n in values), None)
    gc_time_s = first(GC_TIME_SECONDS)
    gc_time_ms = gc_time_s * 1000 if gc_time_s is not None else first(GC_TIME_MILLISECONDS)
    heap = first(HEAP_USED)
    threads, gcs = first(THREADS), first(GC_COUNT)
    return {"threads": int(threads) if threads is not None else None,
            "heap_used_mb": round(heap / 1024 / 1024, 1) if heap is not None else None,
            "gc_count": int(gcs) if gcs is not None else None,
            "gc_time_ms": round(gc_time_ms, 1) if gc_time_ms is not None else None}


def read(base_url, timeout_s=10):
    """(figures, None), or (None, why) when the server serves no metrics there."""
    try:
        with urllib.request.urlopen(base_url + METRICS_PATH, timeout=timeout_s) as response:
            text = response.read().decode(errors="replace")
    except urllib.error.HTTPError as e:
        return None, f"GET {METRICS_PATH} answered {e.code}"
    except OSError as e:
        return None, f"GET {METRICS_PATH}: {getattr(e, 'reason', e)}"
    found = figures(parse(text))
    if all(value is None for value in found.values()):
        return None, f"GET {METRICS_PATH} has none of the MicroProfile base metrics (threads, heap, GC)"
    return found, None


def exposed(server):
    """(figures, why) of a server the lab did not start (server.external); None for the others."""
    return read(server.base_url) if getattr(server, "external", False) else None


def window_of(before, after):
    """The point record's "server_metrics": the window's figures, or why there are none."""
    if before is None or before[0] is None or after is None or after[0] is None:
        why = (before or after or (None, "not read"))[1]
        return {"available": False, "error": why}
    return {"available": True, **window(before[0], after[0])}


def window(before, after):
    """A window's figures from the readings before and after it: threads and heap at its end, the
    collections and their time during it."""
    if before is None or after is None:
        return None
    def delta(key):
        return (round(after[key] - before[key], 1) if after.get(key) is not None and before.get(key) is not None
                else None)
    return {"threads": after["threads"], "heap_used_mb": after["heap_used_mb"], "gc_count": delta("gc_count"),
            "gc_time_ms": delta("gc_time_ms")}
