"""The report's charts (matplotlib, PNG): throughput and efficiency, latency percentiles,
memory and threads, CPU. Bars are medians over the repeats; whiskers span min to max."""
import matplotlib

matplotlib.use("Agg")  # files only, no display needed
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

from labkit.measure.row_text import central, sleep_text  # noqa: E402

CHARTS = {
    "throughput": "throughput.png",
    "latency": "latency.png",
    "memory": "memory-threads.png",
    "cpu": "cpu.png",
    "spectrum": "percentile-spectrum.png",
}


class ChartData:
    """Summary rows arranged by series (mode, or mode · driver) and load level."""

    def __init__(self, rows):
        self.rows = rows
        self.series = list(dict.fromkeys((r["mode"], r["driver"]) for r in rows))
        self.levels = list(dict.fromkeys((r["concurrency"], r["sleep_min_ms"], r["sleep_max_ms"]) for r in rows))
        self.several_drivers = len({d for _, d in self.series}) > 1
        self._by_key = {((r["mode"], r["driver"]), (r["concurrency"], r["sleep_min_ms"], r["sleep_max_ms"])): r
                        for r in rows}

    def series_label(self, series):
        mode, driver = series
        return f"{mode} · {driver}" if self.several_drivers else mode

    def level_label(self, level):
        concurrency, low, high = level
        return f"c={concurrency}\n{sleep_text({'sleep_min_ms': low, 'sleep_max_ms': high})} ms"

    def row(self, series, level):
        return self._by_key.get((series, level))

    def metric(self, series, level, name):
        row = self.row(series, level)
        return row["metrics"].get(name) if row else None


def _bars(ax, data, name, ylabel, scale=1.0, whiskers=True, marker=None):
    """Grouped bars: one group per level, one bar per series. `marker(series, level)` draws a
    short line over a bar (the Little's-law ceiling)."""
    count = len(data.series)
    width = 0.8 / max(count, 1)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, series in enumerate(data.series):
        xs, heights, low, high = [], [], [], []
        for j, level in enumerate(data.levels):
            m = data.metric(series, level, name)
            if not m:
                continue
            x = j - 0.4 + width * (i + 0.5)
            xs.append(x)
            heights.append(m["median"] * scale)
            low.append((m["median"] - m["min"]) * scale)
            high.append((m["max"] - m["median"]) * scale)
            if marker:
                value = marker(series, level)
                if value:
                    ax.hlines(value * scale, x - width / 2, x + width / 2, colors="black", linestyles="dashed", linewidth=1)
        color = colors[i % len(colors)]
        ax.bar(xs, heights, width * 0.95, label=data.series_label(series), color=color,
               yerr=[low, high] if whiskers and any(low + high) else None, capsize=3 if whiskers else 0)
    ax.set_xticks(range(len(data.levels)))
    ax.set_xticklabels([data.level_label(level) for level in data.levels])
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)


def _save(figure, path):
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def throughput_chart(data, path):
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7.5), sharex=True)

    def ceiling(series, level):
        row = data.row(series, level)
        return row["ceiling_rps"] if row else None

    _bars(top, data, "ok_rps", "2xx responses / s", marker=ceiling)
    top.set_title("Throughput (median, whiskers min–max; dashed: Little's-law ceiling)")
    top.legend(fontsize="small")
    _bars(bottom, data, "efficiency", "measured ÷ ceiling")
    bottom.axhline(1.0, color="black", linewidth=0.8)
    bottom.set_title("Efficiency")
    _save(figure, path)


def latency_chart(data, path):
    percentiles = (("latency_p50_ms", "p50"), ("latency_p90_ms", "p90"), ("latency_p99_ms", "p99"),
                   ("latency_p999_ms", "p99.9"), ("latency_max_ms", "max"))
    figure, axes = plt.subplots(1, len(data.levels), figsize=(max(5.5 * len(data.levels), 7), 4.8), squeeze=False)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, level in zip(axes[0], data.levels):
        for i, series in enumerate(data.series):
            values = [(label, data.metric(series, level, name)) for name, label in percentiles]
            points = [(k, central(m)) for k, (label, m) in enumerate(values) if m]
            if points:
                ax.plot([k for k, _ in points], [v for _, v in points], marker="o",
                        color=colors[i % len(colors)], label=data.series_label(series))
        ax.set_xticks(range(len(percentiles)))
        ax.set_xticklabels([label for _, label in percentiles])
        ax.set_yscale("log")
        # Plain numbers at 1-2-5 steps: readable, and no math-text rendering of 10^n labels.
        ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_ylabel("latency, ms (log)")
        ax.set_title(data.level_label(level).replace("\n", ", "))
        ax.grid(alpha=0.3, which="both")
    axes[0][0].legend(fontsize="small")
    figure.suptitle("Latency percentiles (repeats merged; a tool without raw latencies: its worst repeat)")
    _save(figure, path)


def memory_chart(data, path):
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7.5), sharex=True)
    _bars(top, data, "rss_peak_mb", "MB")
    top.set_title("Server resident memory, peak during the window (RSS)")
    top.legend(fontsize="small")
    _bars(bottom, data, "threads_max", "OS threads")
    bottom.set_title("Server OS threads, most during the window (virtual threads are not OS threads)")
    _save(figure, path)


def cpu_chart(data, path, cpus=None):
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7.5), sharex=True)
    _stacked_cpu(top, data)
    if cpus:
        top.axhline(cpus, color="black", linewidth=0.8)
    top.set_title("CPU during the window: server (colour), load tool (hatched), other programs (grey)")
    _bars(bottom, data, "requests_per_cpu_s", "2xx responses per server CPU-second")
    bottom.set_title("Requests per CPU-second")
    _save(figure, path)


def _stacked_cpu(ax, data):
    """Server, load tool and other programs stacked: the top of a bar is how busy the machine was."""
    count = len(data.series)
    width = 0.8 / max(count, 1)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, series in enumerate(data.series):
        for j, level in enumerate(data.levels):
            x = j - 0.4 + width * (i + 0.5)
            bottom = 0.0
            for name, style in (("server_cpu_cores", {"color": colors[i % len(colors)]}),
                                ("driver_cpu_cores", {"color": "white", "hatch": "//", "edgecolor": colors[i % len(colors)]}),
                                ("other_cpu_cores", {"color": "lightgrey", "edgecolor": "white"})):
                m = data.metric(series, level, name)
                if not m:
                    continue
                label = data.series_label(series) if name == "server_cpu_cores" and j == 0 else None
                ax.bar(x, m["median"], width * 0.95, bottom=bottom, label=label, **style)
                bottom += m["median"]
    # Legend: the series, then the two stacked parts that are not a series.
    handles, _ = ax.get_legend_handles_labels()
    handles += [Patch(facecolor="white", hatch="//", edgecolor="black", label="load tool"),
                Patch(facecolor="lightgrey", label="other programs")]
    ax.legend(handles=handles, fontsize="small")
    ax.set_xticks(range(len(data.levels)))
    ax.set_xticklabels([data.level_label(level) for level in data.levels])
    ax.set_ylabel("cores (median)")
    ax.grid(axis="y", alpha=0.3)


def spectrum_chart(data, path):
    """Per level, the percentile spectrum of each series' merged histogram, log-log."""
    figure, axes = plt.subplots(1, len(data.levels), figsize=(max(5.5 * len(data.levels), 7), 4.8), squeeze=False)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, level in zip(axes[0], data.levels):
        for i, series in enumerate(data.series):
            row = data.row(series, level)
            if not row or not row.get("spectrum_ms"):
                continue
            # x = 1 / (1 − p): one decade per added nine; the max (p = 100) stays in the tables.
            values = [(100.0 / (100.0 - p), v) for p, v in row["spectrum_ms"] if p < 100.0]
            ax.plot([x for x, _ in values], [v for _, v in values], marker=".", color=colors[i % len(colors)],
                    label=data.series_label(series))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{100 - 100 / x:g}%"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("percentile")
        ax.set_ylabel("latency, ms (log)")
        ax.set_title(data.level_label(level).replace("\n", ", "))
        ax.grid(alpha=0.3, which="both")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small")
    figure.suptitle("Percentile spectrum (repeats' histograms merged)")
    _save(figure, path)


def write_charts(rows, out_dir, cpus=None):
    """Writes every chart for the summary rows; returns {name: file name}. `cpus`: the machine's
    CPU count, drawn as the limit on the CPU chart."""
    data = ChartData([r for r in rows if r["metrics"]])
    if not data.series:
        return {}
    written = {}
    for name, draw in (("throughput", throughput_chart), ("latency", latency_chart),
                       ("memory", memory_chart), ("cpu", lambda d, p: cpu_chart(d, p, cpus))):
        draw(data, out_dir / CHARTS[name])
        written[name] = CHARTS[name]
    if any(r.get("spectrum_ms") for r in data.rows):
        spectrum_chart(data, out_dir / CHARTS["spectrum"])
        written["spectrum"] = CHARTS["spectrum"]
    return written
