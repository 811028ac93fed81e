"""Numbers and Markdown tables as every report and terminal table writes them (a bench row's own
words are measure/row_text.py's)."""


def number(value, digits=0):
    """1234.5 → '1,234' (digits=0) or '1,234.5'; None → '–'."""
    if value is None:
        return "–"
    if isinstance(value, float) and digits == 0 and abs(value) < 10 and value != int(value):
        digits = 2 if abs(value) < 1 else 1
    return f"{value:,.{digits}f}"


def markdown_table(headers, rows):
    """A Markdown table; a '|' inside a cell becomes '/' (it would end the cell)."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c).replace("|", "/") for c in row) + " |" for row in rows]
    return "\n".join(lines)
