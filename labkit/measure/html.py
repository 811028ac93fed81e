"""The HTML report's page, for every run kind: one self-contained file (plotly.js inline once, no
request leaves the page): report.md rendered (Python-Markdown), interactive charts drawn by Plotly,
and each window's time series — throughput, p99, server CPU, RSS, threads and GC pauses per second —
from what the lab keeps: raw/<point>.samples.csv (every 0.5 s), the load tool's per-second counts and
p99s, and the JFR pauses. A run kind's builder (capacity/report/html_report.py) puts the sections together.

Why Plotly: a reader zooms into a window, reads a value under the cursor and hides a target, which a
picture cannot offer; and a kept library draws the axes, legends and hover text that hand-made SVG
would have to. Window charts are drawn when their section is opened: a run has up to a hundred
windows, and drawing them all at load would take seconds.
"""
import base64
import html
import re
from pathlib import Path

from labkit.measure.flamegraph import flame_figure
from labkit.measure.results import stored_file
from labkit.measure.sampler import read_samples_csv

HTML_FILE = "report.html"
# Colours that stay apart for the lab's usual 2–7 targets (Plotly's default sequence).
COLORS = ("#636efa", "#ef553b", "#00cc96", "#ab63fa", "#ffa15a", "#19d3f3", "#ff6692", "#b6e880")
STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1400px; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } tr:nth-child(even) td { background: #fafafa; }
code { background: #f2f2f2; padding: 0 0.2em; } .note { color: #555; font-size: 0.9em; max-width: 60em; }
details { margin: 0.3em 0; } summary { cursor: pointer; } .chart { min-height: 420px; }
"""
# Draws a window's chart the first time its <details> opens (the figure's JSON sits beside it).
LAZY_SCRIPT = """
document.querySelectorAll('details[data-figure]').forEach(function (section) {
  section.addEventListener('toggle', function () {
    var target = document.getElementById(section.dataset.figure);
    if (!section.open || target.dataset.drawn) { return; }
    var figure = JSON.parse(document.getElementById(section.dataset.figure + '-data').textContent);
    Plotly.newPlot(target, figure.data, figure.layout, {displaylogo: false, responsive: true});
    target.dataset.drawn = 'yes';
  });
});
"""


def cell_html(text):
    return html.escape("" if text is None else str(text), quote=False)


def markdown_html(text, folder):
    """report.md as HTML (Python-Markdown, with its tables), its images inlined as data: URIs so the
    page needs no file beside it."""
    import markdown
    body = markdown.markdown(text, extensions=["tables"])

    def inline(match):
        path = Path(folder) / html.unescape(match.group(1))
        if not path.is_file() or path.suffix != ".png":
            return match.group(0)
        return f'src="data:image/png;base64,{base64.b64encode(path.read_bytes()).decode()}"'
    return re.sub(r'src="([^"]+)"', inline, body)


def figure_html(figure, div_id):
    """A figure drawn as the page loads (plotly.js is in the page's head)."""
    return figure.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                          config={"displaylogo": False, "responsive": True})


def lazy_figure_html(figure, div_id, summary):
    """A figure drawn when its section is first opened."""
    data = figure.to_json().replace("</", "<\\/")
    return (f'<details data-figure="{div_id}"><summary>{cell_html(summary)}</summary>'
            f'<div id="{div_id}" class="chart"></div>'
            f'<script type="application/json" id="{div_id}-data">{data}</script></details>')


def page(title, sections):
    """The whole file: `sections` are HTML strings, in order (plotly.js, a few MB, inline once)."""
    from plotly.offline import get_plotlyjs
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style>"
            f"<script>{get_plotlyjs()}</script></head><body>\n"
            + "\n".join(sections) + f"\n<script>{LAZY_SCRIPT}</script></body></html>\n")


# -- a window's time series ---------------------------------------------------------------------
def read_samples(folder, relative):
    """A window's /proc samples (sampler.Sample): raw/<id>.samples.csv as a run writes it, or
    compressed, or under samples/ as docs/results/ commits it; [] when none is there."""
    if not relative:
        return []
    relative = Path(relative)
    found = stored_file(Path(folder) / relative.parent, relative.name) or stored_file(Path(folder) / "samples",
                                                                                         relative.name)
    return read_samples_csv(found) if found else []


def _cores(samples):
    """(t, server CPU cores) between consecutive samples."""
    return [(after.t, (after.server.cpu_s - before.server.cpu_s) / (after.t - before.t))
            for before, after in zip(samples, samples[1:])
            if before.server and after.server and after.t > before.t]


def window_series(point, folder):
    """{name: [(seconds into the measured window, value)]} of one window; the pre-roll is negative.
    A series the run did not keep is absent."""
    preroll = ((point.get("window") or {}).get("preroll_s")) or 0
    samples = read_samples(folder, (point.get("files") or {}).get("samples"))
    series = {}
    if samples:
        series["server CPU, cores"] = [(t - preroll, v) for t, v in _cores(samples)]
        series["server RSS, MB"] = [(s.t - preroll, s.server.rss_kb / 1024) for s in samples if s.server]
        series["server threads"] = [(s.t - preroll, s.server.threads) for s in samples if s.server]
    load = point.get("load") or {}
    if load.get("per_second_ok"):
        series["2xx answers per second"] = [(i + 0.5, v) for i, v in enumerate(load["per_second_ok"])]
    if load.get("per_second_p99_ms"):
        series["p99 per second, ms"] = [(i + 0.5, v) for i, v in enumerate(load["per_second_p99_ms"]) if v is not None]
    pauses = (point.get("jfr") or {}).get("gc_pauses")
    if pauses:
        series["GC pause, ms"] = [(at, ms) for at, ms, _ in pauses]
    return series


# The panels of a window's chart, top to bottom, and the series each one draws.
PANELS = (("load", ("2xx answers per second", "p99 per second, ms")),
          ("CPU", ("server CPU, cores", "GC pause, ms")),
          ("memory and threads", ("server RSS, MB", "server threads")))


def window_figure(point, folder):
    """A window's time series in three panels, each with a second axis; None without any series."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots
    series = window_series(point, folder)
    if not series:
        return None
    figure = make_subplots(rows=len(PANELS), cols=1, shared_xaxes=True, vertical_spacing=0.06,
                           subplot_titles=[title for title, _ in PANELS],
                           specs=[[{"secondary_y": True}] for _ in PANELS])
    for row, (_, names) in enumerate(PANELS, start=1):
        for secondary, name in enumerate(names):
            values = series.get(name)
            if not values:
                continue
            markers = name == "GC pause, ms"
            figure.add_trace(go.Scatter(x=[x for x, _ in values], y=[y for _, y in values], name=name,
                                        mode="markers" if markers else "lines",
                                        line={"color": COLORS[(2 * row + secondary) % len(COLORS)]}),
                             row=row, col=1, secondary_y=bool(secondary))
            figure.update_yaxes(title_text=name, row=row, col=1, secondary_y=bool(secondary))
    earliest = min(x for values in series.values() for x, _ in values)
    if earliest < 0:
        figure.add_vrect(x0=earliest, x1=0, fillcolor="#999", opacity=0.12, line_width=0,
                         annotation_text="pre-roll", annotation_position="top left")
    figure.update_xaxes(title_text="seconds into the measured window", row=len(PANELS), col=1)
    figure.update_layout(height=720, margin={"t": 40, "b": 40}, legend={"orientation": "h"})
    return figure


def window_sections(points, folder, describe):
    """Each window's chart in its own closed section (drawn when opened); describe(point) is its title."""
    parts = []
    for point in points:
        figure = window_figure(point, folder)
        if figure is None:
            parts.append(f"<p>{cell_html(describe(point))} (no samples kept)</p>")
        else:
            parts.append(lazy_figure_html(figure, f"window-{point['index']}", describe(point)))
        profile = (point.get("jfr") or {}).get("cpu_stacks")
        flame = flame_figure(profile)
        if flame is not None:
            parts.append(lazy_figure_html(flame, f"flame-{point['index']}",
                                          f"{describe(point)}: where its CPU went, a flame graph of "
                                          f"{profile['samples']:,} JFR execution samples"))
    return parts


def report_page(title, folder, charts=(), windows=(), describe=None):
    """The HTML report of a results folder: links to its parts, the interactive `charts` ((heading,
    figure, div id)), its report.md rendered, and the time series of `windows` (point records)."""
    links = (['<a href="#interactive">interactive charts</a>'] if charts else []) + \
            (['<a href="#windows">each window over time</a>'] if windows else [])
    sections = [f"<p class=\"note\">report.md with {' and '.join(links)} below.</p>" if links else ""]
    sections.append(markdown_html((Path(folder) / "report.md").read_text(), folder))
    if charts:
        sections.append('<h2 id="interactive">Interactive charts</h2>')
        for heading, figure, div_id in charts:
            sections += [f"<h3>{cell_html(heading)}</h3>", figure_html(figure, div_id)]
    if windows:
        sections += ['<h2 id="windows">Each window over time</h2>',
                     "<p class=\"note\">Open a window to draw it: 2xx answers and p99 per second (the load tool), "
                     "server CPU, RSS and threads every 0.5 s (/proc), GC pauses (JFR); the pre-roll is shaded. "
                     "A series the run did not keep is left out. A window whose limit was the CPU has a flame graph "
                     "beside it: each method above its caller, as wide as its share of the samples.</p>"]
        sections += window_sections(windows, folder, describe)
    return page(title, sections)
