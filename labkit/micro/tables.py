"""Markdown tables from JMH's JSON results: IO vs CPU tasks, and time per ring."""
import math

MODE_NAMES = {"thrpt": "throughput", "avgt": "average time"}


def _number(value):
    """JMH writes NaN errors as the string "NaN" (one iteration, no spread)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return math.nan
    return number


def fmt(value, digits=3):
    value = _number(value)
    if math.isnan(value):
        return "–"
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(0, digits - 1 - magnitude)
    return f"{value:,.{decimals}f}"


def score_with_error(metric, scale=1.0):
    score = _number(metric["score"]) * scale
    error = _number(metric.get("scoreError")) * scale
    return fmt(score) + ("" if math.isnan(error) else f" ± {fmt(error, 2)}")


def _per_ms(metric):
    """Average time in ms/op whatever unit JMH reported (s/op, ms/op, us/op)."""
    unit = metric["scoreUnit"]
    return {"s/op": 1000.0, "ms/op": 1.0, "us/op": 0.001, "ns/op": 1e-6}.get(unit, 1.0)


def _per_s(metric):
    unit = metric["scoreUnit"]
    return {"ops/s": 1.0, "ops/ms": 1000.0, "ops/us": 1e6}.get(unit, 1.0)


def io_cpu_table(results):
    """One row per (task, concurrency, thread kind): throughput in ops/s and average time in ms/op."""
    rows = {}
    for record in results:
        params = record.get("params", {})
        key = (params.get("task", "?"), int(params.get("concurrency", 0)), params.get("delayMs", "?"),
               params.get("threads", "?"))
        metric = record["primaryMetric"]
        cell = (score_with_error(metric, _per_s(metric)) if record["mode"] == "thrpt"
                else score_with_error(metric, _per_ms(metric)))
        rows.setdefault(key, {})[record["mode"]] = cell
    lines = ["| task | tasks per op | stub delay (ms) | threads | throughput (ops/s) | average time (ms/op) |",
             "|---|---:|---:|---|---:|---:|"]
    for (task, concurrency, delay, threads), cells in sorted(rows.items(), key=lambda item: (item[0][0] != "io", item[0][1], item[0][3] != "virtual")):
        lines.append(f"| {task} | {concurrency} | {delay if task == 'io' else '–'} | {threads} | "
                     f"{cells.get('thrpt', '–')} | {cells.get('avgt', '–')} |")
    return "\n".join(lines)


def secondary_table(results, mode="thrpt"):
    """The profilers' numbers (gc, thread counts) for one mode, one row per benchmark configuration."""
    records = [r for r in results if r["mode"] == mode and r.get("secondaryMetrics")]
    names = []
    for record in records:
        for name, metric in record["secondaryMetrics"].items():
            if name != "stack" and not name.startswith("gc.churn") and name not in names:
                names.append(name)
    if not records or not names:
        return ""
    units = {}
    for record in records:
        for name in names:
            if name in record["secondaryMetrics"]:
                units[name] = record["secondaryMetrics"][name]["scoreUnit"]
    header = "| configuration | " + " | ".join(f"{n} ({units.get(n, '')})" for n in names) + " |"
    lines = [header, "|---|" + "---:|" * len(names)]
    for record in records:
        params = record.get("params", {})
        label = ", ".join(f"{k}={v}" for k, v in params.items() if k != "delayMs") or record["benchmark"]
        cells = []
        for name in names:
            metric = record["secondaryMetrics"].get(name)
            cells.append(fmt(metric["score"]) if metric else "–")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


RING_VARIANTS = {
    "platformThreads": "platform threads",
    "virtualThreads": "virtual threads",
    "virtualThreadsOneCarrier": "virtual threads, 1 carrier",
}


def ring_table(results):
    """Time per ring (ms) and per hand-off (ns) for each variant."""
    lines = ["| variant | workers | passes | time per ring (ms) | per pass (ns) |", "|---|---:|---:|---:|---:|"]
    for record in results:
        method = record["benchmark"].rsplit(".", 1)[-1]
        params = record.get("params", {})
        passes = int(params.get("passes", 0))
        metric = record["primaryMetric"]
        per_ms = _per_ms(metric)
        per_pass = _number(metric["score"]) * per_ms * 1e6 / passes if passes else math.nan
        lines.append(f"| {RING_VARIANTS.get(method, method)} | {params.get('workers', '?')} | {passes:,} | "
                     f"{score_with_error(metric, per_ms)} | {fmt(per_pass)} |")
    return "\n".join(lines)
