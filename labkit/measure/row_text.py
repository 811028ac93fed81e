"""A bench summary row (measure/results.summarize) in words, for the terminal table, report.md and
the charts: a metric as median [min–max], the sleep, the flags counted over the repeats."""
from labkit.ground.formatting import number


def metric(row, name, digits=0, spread=True):
    """A summary metric as 'median [min–max]' (a latency: 'merged [min–max of the windows]'), or
    just the value for one repeat."""
    m = row["metrics"].get(name)
    if not m:
        return "–"
    text = number(central(m), digits)
    if spread and m["n"] > 1:
        text += f" [{number(m['min'], digits)}–{number(m['max'], digits)}]"
    return text


def central(metric):
    """A summary metric's headline: the merged (or worst-window) value of a latency, else the median."""
    return metric["value"] if "value" in metric else metric["median"]


def sleep_text(row):
    low, high = row["sleep_min_ms"], row["sleep_max_ms"]
    return f"{low}" if low == high else f"{low}-{high}"


def flags_text(row):
    """'client-bound 2/3, errors 1/3' from a summary row's flag counts."""
    return ", ".join(f"{flag} {count}/{row['repeats']}" for flag, count in sorted(row["flags"].items())) or ""
