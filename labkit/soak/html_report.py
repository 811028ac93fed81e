"""report.html of a soak: report.md rendered, and each soaked target's server over the whole soak
(CPU, RSS, threads every 0.5 s from raw/<target>.r<round>.samples.csv; measure/html.py). Written
with report.md, so ./lab report DIR writes it too."""
from labkit.measure.html import HTML_FILE, report_page


def _as_window(index, record):
    """A soaked target's round as the time-series builder reads a window: its samples file."""
    name = f"{record['mode']}.r{record.get('repeat', 1)}.samples.csv"
    return {"index": index, "id": f"{record['mode']} round {record.get('repeat', 1)}",
            "files": {"samples": f"raw/{name}"}, "window": {"preroll_s": 0}}


def write_html(run, folder):
    windows = [_as_window(i, record) for i, record in enumerate(run["targets"], start=1)]
    (folder / HTML_FILE).write_text(report_page("LoomLab soak", folder, windows=windows,
                                                describe=lambda window: window["id"]))
    return HTML_FILE
