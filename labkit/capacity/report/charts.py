"""The capacity charts: latency against offered load (one line per target, the goal drawn in),
and the percentile spectrum at capacity (merged histograms, log scales)."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

from labkit.capacity.by_goal import value as goal_value  # noqa: E402
from labkit.capacity.goals import percentile_name  # noqa: E402
from labkit.capacity.summary import superseded  # noqa: E402

CHARTS = {"latency_vs_load": "latency-vs-load.png", "spectrum": "percentile-spectrum.png",
          "capacity_vs_goal": "capacity-vs-goal.png"}


def _log_axis(axis):
    axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def _panels(count):
    """A figure with one panel per sleep side by side, and the colour cycle its lines take."""
    figure, axes = plt.subplots(1, count, figsize=(max(6.5 * count, 7), 5), squeeze=False)
    return figure, axes[0], plt.rcParams["axes.prop_cycle"].by_key()["color"]


def _finish_panel(ax, low, high, xlabel, ylabel, grid="major"):
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"sleep {low} ms" if low == high else f"sleep {low}-{high} ms")
    ax.grid(alpha=0.3, which=grid)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small")


def _save(figure, title, path, drawn=True):
    figure.suptitle(title)
    figure.tight_layout()
    if drawn:
        figure.savefig(path, dpi=110)
    plt.close(figure)


def _sleeps(run):
    return [(s["sleep_min_ms"], s["sleep_max_ms"], s["goal_ms"]) for s in run["config"]["sleeps"]]


def latency_vs_load(run, path):
    sleeps = _sleeps(run)
    figure, axes, colors = _panels(len(sleeps))
    percentile = run["config"]["goal"]["percentile"]
    label = {"p999": "p99.9"}.get(percentile, percentile)
    for ax, (low, high, goal) in zip(axes, sleeps):
        for i, mode in enumerate(run["config"]["modes"]):
            points = [p for p in run["points"] if p["mode"] == mode and p["sleep_max_ms"] == high
                      and p["sleep_min_ms"] == low and (p.get("load") or {}).get("latency_ms")
                      and not superseded(p)]
            if not points:
                continue
            color = colors[i % len(colors)]
            search = sorted((p["rate"], p["load"]["latency_ms"][percentile]) for p in points if p["phase"] == "search")
            confirm = [(p["rate"], p["load"]["latency_ms"][percentile]) for p in points if p["phase"] == "confirm"]
            if search:
                ax.plot([r for r, _ in search], [v for _, v in search], marker="o", color=color, label=mode)
            if confirm:
                ax.scatter([r for r, _ in confirm], [v for _, v in confirm], facecolors="none", edgecolors=color,
                           s=60, label=None if search else mode)
        ax.axhline(goal, color="black", linestyle="dashed", linewidth=1)
        ax.text(ax.get_xlim()[0], goal, f" goal {goal:g} ms", va="bottom", fontsize="small")
        ax.set_yscale("log")
        _log_axis(ax.yaxis)
        _finish_panel(ax, low, high, "offered load, requests due per second",
                      f"{label} latency from intended start, ms (log)", grid="both")
    _save(figure, "Latency vs offered load (dots: search windows; rings: confirmation windows)", path)


def spectrum(run, path):
    sleeps = _sleeps(run)
    figure, axes, colors = _panels(len(sleeps))
    drawn = False
    for ax, (low, high, goal) in zip(axes, sleeps):
        for i, mode in enumerate(run["config"]["modes"]):
            row = next((r for r in run["summary"] if r["mode"] == mode and r["sleep_max_ms"] == high
                        and r["sleep_min_ms"] == low), None)
            if not row or not row["spectrum_ms"]:
                continue
            # x = 1 / (1 − p): each decade one more nine; the 100th percentile (max) is left to the table.
            values = [(100.0 / (100.0 - p), v) for p, v in row["spectrum_ms"] if p < 100.0]
            ax.plot([x for x, _ in values], [v for _, v in values], marker=".", color=colors[i % len(colors)],
                    label=f"{mode} at {_capacity_label(row)} req/s")
            drawn = True
        ax.axhline(goal, color="black", linestyle="dashed", linewidth=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{100 - 100 / x:g}%"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        _log_axis(ax.yaxis)
        _finish_panel(ax, low, high, "percentile", "latency, ms (log)", grid="both")
    _save(figure, "Percentile spectrum at capacity (confirmation windows merged)", path, drawn)
    return drawn


def capacity_vs_goal(run, path):
    """Per sleep: capacity against the goal's limit, one line per target; rounds' medians with their
    [min–max], and hollow markers where only the windows bracket it (drawn at the rate that met it)."""
    rows = run["by_goal"]["rows"]
    sleeps = list(dict.fromkeys((r["sleep_min_ms"], r["sleep_max_ms"]) for r in rows))
    figure, axes, colors = _panels(len(sleeps))
    label = percentile_name(run["by_goal"]["percentile"])
    for ax, (low, high) in zip(axes, sleeps):
        members = [r for r in rows if (r["sleep_min_ms"], r["sleep_max_ms"]) == (low, high)]
        for i, mode in enumerate(dict.fromkeys(r["mode"] for r in members)):
            color = colors[i % len(colors)]
            mine = sorted((r for r in members if r["mode"] == mode), key=lambda r: r["goal_ms"])
            confirmed = [r for r in mine if r["capacity_rps"]]
            if confirmed:
                medians = [r["capacity_rps"]["median"] for r in confirmed]
                ax.errorbar([r["goal_ms"] for r in confirmed], medians, capsize=3, marker="o", color=color, label=mode,
                            yerr=[[m - r["capacity_rps"]["min"] for m, r in zip(medians, confirmed)],
                                  [r["capacity_rps"]["max"] - m for m, r in zip(medians, confirmed)]])
            windows = [r for r in mine if not r["capacity_rps"] and goal_value(r)]
            if windows:
                ax.scatter([r["goal_ms"] for r in windows], [goal_value(r) for r in windows], facecolors="none",
                           edgecolors=color, s=60, label=None if confirmed else f"{mode} (windows)")
        _finish_panel(ax, low, high, f"{label} goal, ms", "capacity, requests due per second")
    _save(figure, "Capacity against the latency goal (bars: the rounds' min–max; rings: the windows only)", path)


def write_charts(run, out_dir):
    written = {}
    if any((p.get("load") or {}).get("latency_ms") for p in run["points"]):
        latency_vs_load(run, out_dir / CHARTS["latency_vs_load"])
        written["latency_vs_load"] = CHARTS["latency_vs_load"]
        if spectrum(run, out_dir / CHARTS["spectrum"]):
            written["spectrum"] = CHARTS["spectrum"]
    if run.get("by_goal") and any(r["capacity_rps"] or r["found_rps"] for r in run["by_goal"]["rows"]):
        capacity_vs_goal(run, out_dir / CHARTS["capacity_vs_goal"])
        written["capacity_vs_goal"] = CHARTS["capacity_vs_goal"]
    return written


def _capacity_label(row):
    capacity = row["capacity_rps"]
    if not capacity:
        return "0"
    return ("<" if capacity.get("median_below") else "") + f"{capacity['median']:,.0f}"
