"""The echo sweep's chart: throughput, CPU time, peak RSS and CPU per echo against connections."""
import matplotlib

matplotlib.use("Agg")  # files only, no display needed (CI, ssh)
import matplotlib.pyplot as plt  # noqa: E402

STYLES = {"nio": ("tab:blue", "o"), "platform": ("tab:red", "s"), "virtual": ("tab:green", "^")}


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def echo_chart(rows, path, title):
    """Writes a 2x2 PNG; runs that stopped early are marked with an x on the throughput panel."""
    figure, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    panels = (
        (axes[0][0], "throughput_per_s", "echoes per second", "Client throughput"),
        (axes[0][1], "cpu_s", "CPU seconds (user + system)", "Client CPU time"),
        (axes[1][0], "peak_rss_mb", "MB", "Client peak RSS (VmHWM)"),
        (axes[1][1], "cpu_ms_per_1000", "CPU ms per 1,000 echoes", "Client CPU per echo"),
    )
    clients = list(dict.fromkeys(r["client"] for r in rows))
    for axis, field, unit, panel_title in panels:
        for client in clients:
            color, marker = STYLES.get(client, ("tab:gray", "."))
            points = []
            for r in rows:
                if r["client"] != client or r["status"] != "ok":
                    continue
                if field == "cpu_ms_per_1000":
                    cpu, echoes = _number(r["cpu_s"]), _number(r["echoes"])
                    value = cpu * 1000 / echoes * 1000 if cpu is not None and echoes else None
                else:
                    value = _number(r[field])
                if value is not None:
                    points.append((int(r["connections"]), value))
            if points:
                xs, ys = zip(*sorted(points))
                axis.plot(xs, ys, marker=marker, color=color, label=client)
        axis.set_title(panel_title)
        axis.set_xlabel("connections")
        axis.set_ylabel(unit)
        axis.grid(True, alpha=0.3)
    throughput = axes[0][0]
    ideal = sorted({(int(r["connections"]), _number(r["ideal_per_s"])) for r in rows if _number(r["ideal_per_s"])})
    if ideal:
        throughput.plot(*zip(*ideal), linestyle="--", color="gray", label="ideal: C / latency")
    failed = [r for r in rows if r["status"] != "ok"]
    for r in failed:
        color, _ = STYLES.get(r["client"], ("tab:gray", "."))
        throughput.plot([int(r["connections"])], [0], marker="x", markersize=12, color=color, linestyle="none")
    if failed:
        throughput.plot([], [], marker="x", color="black", linestyle="none", label="stopped early")
    for axis in axes.flat:
        if axis.get_legend_handles_labels()[0]:
            axis.legend()
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
