"""report.html of a bench run: report.md rendered, and every window's time series (measure/html.py).
Written by rebuild.write_all beside report.md, so ./lab report DIR writes it too."""
from labkit.measure.html import HTML_FILE, report_page


def _describe(point):
    load = point.get("load") or {}
    p99 = (load.get("latency_ms") or {}).get("p99")
    return (f"{point['id']}: {point['mode']}, {point['driver']}, c={point.get('concurrency')}, "
            f"{load.get('ok_rps', 0):,.0f} req/s, p99 {'–' if p99 is None else f'{p99:,.1f}'} ms")


def write_html(run, folder):
    (folder / HTML_FILE).write_text(report_page(f"LoomLab bench: {run['config'].get('name', '')}", folder,
                                                windows=run["points"], describe=_describe))
    return HTML_FILE
