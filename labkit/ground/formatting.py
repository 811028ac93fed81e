"""Number formatting shared by the terminal table and report.md."""


def number(value, digits=0):
    """1234.5 → '1,234' (digits=0) or '1,234.5'; None → '–'."""
    if value is None:
        return "–"
    if isinstance(value, float) and digits == 0 and abs(value) < 10 and value != int(value):
        digits = 2 if abs(value) < 1 else 1
    return f"{value:,.{digits}f}"


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


def markdown_table(headers, rows):
    """A Markdown table; a '|' inside a cell becomes '/' (it would end the cell)."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c).replace("|", "/") for c in row) + " |" for row in rows]
    return "\n".join(lines)
