"""report.html of a capacity run: report.md rendered, latency against offered load and capacity
against the goal as interactive charts, and every window's time series (measure/html.py). Written
beside report.md by rebuild.write_all, so ./lab report DIR writes it too."""
from labkit.measure import html as page_parts
from labkit.measure.html import HTML_FILE
from labkit.capacity.by_goal import value as goal_value
from labkit.capacity.report.goals_report import goal_cell
from labkit.capacity.summary import superseded


def latency_figure(run):
    """The goal's percentile against the offered rate, per target and sleep: search windows as lines,
    confirmation windows as rings; the goal as a dashed line; log latency."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots
    config = run["config"]
    sleeps = config["sleeps"]
    percentile = config["goal"]["percentile"]
    figure = make_subplots(rows=1, cols=len(sleeps), subplot_titles=[f"sleep {s['sleep_max_ms']} ms" for s in sleeps])
    for col, sleep in enumerate(sleeps, start=1):
        for i, mode in enumerate(config["modes"]):
            points = [p for p in run["points"] if p["mode"] == mode and p["sleep_max_ms"] == sleep["sleep_max_ms"]
                      and p["sleep_min_ms"] == sleep["sleep_min_ms"] and (p.get("load") or {}).get("latency_ms")
                      and not superseded(p)]
            color = page_parts.COLORS[i % len(page_parts.COLORS)]
            for phase, mode_text, marker in (("search", "lines+markers", "circle"), ("confirm", "markers", "circle-open")):
                chosen = sorted((p for p in points if p["phase"] == phase), key=lambda p: p["rate"])
                if chosen:
                    figure.add_trace(go.Scatter(
                        x=[p["rate"] for p in chosen], y=[p["load"]["latency_ms"][percentile] for p in chosen],
                        mode=mode_text, marker={"symbol": marker, "size": 9, "color": color}, line={"color": color},
                        name=f"{mode} ({phase})", legendgroup=mode, showlegend=col == 1,
                        text=[p["id"] for p in chosen], hovertemplate="%{text}<br>%{x:,} req/s: %{y:,.1f} ms"),
                        row=1, col=col)
        # The goal as a trace, not a shape with an annotation: on a log axis Plotly places annotations
        # at log10 of the value, and a goal of 150 ms would stretch the axis to 10^150.
        rates = [p["rate"] for p in run["points"] if p["sleep_max_ms"] == sleep["sleep_max_ms"]] or [0]
        figure.add_trace(go.Scatter(x=[min(rates), max(rates)], y=[sleep["goal_ms"]] * 2, mode="lines",
                                    line={"dash": "dash", "color": "black"}, name=f"goal {sleep['goal_ms']:g} ms",
                                    showlegend=col == 1, hoverinfo="skip"), row=1, col=col)
        figure.update_yaxes(type="log", title_text=f"{percentile} latency from intended start, ms", row=1, col=col)
        figure.update_xaxes(title_text="offered load, requests due per second", row=1, col=col)
    figure.update_layout(height=520, margin={"t": 50})
    return figure


def goal_figure(run):
    """Capacity against the goal's limit, one line per target and sleep, the rounds' min–max as bars."""
    import plotly.graph_objects as go
    rows = run["by_goal"]["rows"]
    figure = go.Figure()
    modes = list(dict.fromkeys(r["mode"] for r in rows))
    for (low, high) in dict.fromkeys((r["sleep_min_ms"], r["sleep_max_ms"]) for r in rows):
        for i, mode in enumerate(modes):
            mine = sorted((r for r in rows if r["mode"] == mode and (r["sleep_min_ms"], r["sleep_max_ms"]) == (low, high)
                           and goal_value(r) is not None), key=lambda r: r["goal_ms"])
            if not mine:
                continue
            values = [goal_value(r) for r in mine]
            error = {"type": "data", "symmetric": False,
                     "array": [(r["capacity_rps"]["max"] - v) if r["capacity_rps"] else 0 for r, v in zip(mine, values)],
                     "arrayminus": [(v - r["capacity_rps"]["min"]) if r["capacity_rps"] else 0 for r, v in zip(mine, values)]}
            figure.add_trace(go.Scatter(x=[r["goal_ms"] for r in mine], y=values, error_y=error, mode="lines+markers",
                                        name=f"{mode}, sleep {high} ms", line={"color": page_parts.COLORS[i % len(page_parts.COLORS)]},
                                        text=[goal_cell(r) for r in mine], hovertemplate="goal %{x:g} ms: %{text}"))
    figure.update_layout(height=480, xaxis_title=f"{run['by_goal']['percentile']} goal, ms",
                         yaxis_title="capacity, requests due per second", margin={"t": 30})
    return figure


def _describe(point):
    latency = ((point.get("load") or {}).get("latency_ms") or {}).get("p99")
    return (f"{point['id']}: {point['rate']:,} req/s, p99 "
            f"{'–' if latency is None else f'{latency:,.1f}'} ms, counts as met: "
            f"{'yes' if point['capacity']['passed'] else 'no'}")


def write_html(run, folder):
    """report.html beside report.md (which it renders): the interactive charts, then every window."""
    charts = [("Latency against offered load", latency_figure(run), "latency-vs-load")]
    if run.get("by_goal"):
        charts.append(("Capacity against the goal", goal_figure(run), "capacity-vs-goal"))
    text = page_parts.report_page(f"LoomLab capacity: {run['config']['name']}", folder, charts, run["points"], _describe)
    (folder / HTML_FILE).write_text(text)
    return HTML_FILE
