"""--heap: every target at each heap size, and which heap a mode needs.

A heap size runs as its own series: the mode label becomes TARGET@HEAP (e.g. virtual@1g), so
every table, chart and the live line tell the sizes apart, while the record keeps `target` and
`heap`. The server starts with -Xms = -Xmx = HEAP added to its JVM options; on Payara Micro a
heap size given that way replaces the heap lines of domain-config/jvm.options (labkit/servers/payara_micro.py),
exactly as --jvm-opt=-Xmx... does.
"""
import argparse
import re

from labkit.servers.payara_micro import HEAP_SIZING

MIN_HEAP_MB = 64
MAX_HEAP_MB = 256 * 1024
# A heap holds its mode's throughput when its median req/s is within this share of the mode's best.
HOLDS_SHARE = 0.95


def heap_mb(text):
    """Megabytes of a heap size written as 512m or 2g (the JVM's -Xmx units, as LoomLab accepts them)."""
    match = re.fullmatch(r"(\d+)([mg])", text.strip().lower())
    if not match:
        raise ValueError(text)
    return int(match.group(1)) * (1024 if match.group(2) == "g" else 1)


def heap_list(text):
    """'512m,1g,2g,4g': heap sizes, smallest first."""
    sizes = []
    for item in text.split(","):
        item = item.strip().lower()
        try:
            mb = heap_mb(item)
        except ValueError:
            raise argparse.ArgumentTypeError(f"heap sizes are a comma-separated list like 512m,1g,2g,4g; '{item}' is not one") from None
        if not MIN_HEAP_MB <= mb <= MAX_HEAP_MB:
            raise argparse.ArgumentTypeError(f"a heap must be in {MIN_HEAP_MB}m..{MAX_HEAP_MB // 1024}g, was {item}")
        sizes.append(item)
    if len({heap_mb(s) for s in sizes}) != len(sizes):
        raise argparse.ArgumentTypeError(f"a heap size is given twice in '{text}'")
    return tuple(sorted(sizes, key=heap_mb))


def check_jvm_options(heaps, jvm_options):
    """--heap sets the heap; a --jvm-opt that sizes it too would make the sizes lie."""
    if heaps:
        sizing = [o for o in jvm_options if o.startswith(HEAP_SIZING)]
        if sizing:
            return f"--heap sets the heap of every server; drop {sizing[0]} from --jvm-opt"
    return None


def heap_options(heap):
    """The JVM options of one heap size (none without one)."""
    return [f"-Xms{heap}", f"-Xmx{heap}"] if heap else []


def series(target, heap):
    return target if heap is None else f"{target}@{heap}"


def smallest_holding_heaps(points):
    """Per (target, driver, concurrency, sleep): each heap's median req/s over its repeats, the best,
    and the smallest heap within HOLDS_SHARE of it. `points` are the run's point records."""
    import statistics
    groups = {}
    for p in points:
        rps = (p.get("load") or {}).get("ok_rps")
        if p.get("heap") is None or rps is None:
            continue
        key = (p.get("target") or p["mode"], p["driver"], p["concurrency"], p["sleep_min_ms"], p["sleep_max_ms"])
        groups.setdefault(key, {}).setdefault(p["heap"], []).append(p)
    rows = []
    for (target, driver, concurrency, low, high), by_heap in groups.items():
        medians = {heap: statistics.median(m["load"]["ok_rps"] for m in members) for heap, members in by_heap.items()}
        best_heap = max(medians, key=medians.get)
        best = medians[best_heap]
        holding = [h for h in sorted(medians, key=heap_mb) if best and medians[h] >= HOLDS_SHARE * best]
        rows.append({"target": target, "driver": driver, "concurrency": concurrency, "sleep_min_ms": low,
                     "sleep_max_ms": high, "best_heap": best_heap, "best_rps": best,
                     "smallest_holding_heap": holding[0] if holding else None,
                     "heaps": {h: medians[h] for h in sorted(medians, key=heap_mb)}})
    return rows
