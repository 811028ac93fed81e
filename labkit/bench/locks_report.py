"""The report's "Locks and parks" section (./lab bench --jfr-locks): per mode the contended monitor
enters summed over its windows, then per window the enters and parks with their top classes and sites."""
from labkit.ground.formatting import number, markdown_table
from labkit.measure.row_text import metric
from labkit.measure.histograms import median_spread


def locks_section(run):
    """Markdown lines, or [] when the run did not record locks (no --jfr-locks)."""
    if not run["config"].get("jfr_locks"):
        return []
    lines = ["## Locks and parks (JFR, --jfr-locks)", ""]
    per_mode = _locks_per_mode(run)
    if per_mode:
        lines += [LOCKS_PER_MODE_NOTE, "", per_mode, ""]
    return lines + [LOCKS_NOTE, "", _locks_table(run), ""]


# The same Markdown table as report.py's: its own copy, since report.py imports this module.
LOCKS_PER_MODE_NOTE = ("Per mode and level, over its windows: contended monitor enters of 10 ms or more (median "
                       "[min–max] of the windows' counts and blocked seconds) and where that time went, the classes "
                       "and code sites summed over the windows (each window names its top five). A mode that runs "
                       "more threads than cores at once shows here first. In the lab's runs on JDK 25, JFR "
                       "recorded no park or monitor-enter event of a virtual thread, only of platform threads, "
                       "while thread dumps found hundreds of virtual threads BLOCKED on monitors: for virtual "
                       "modes these counts leave out the requests' own waits.")

LOCKS_NOTE = ("Per window: contended monitor enters and thread parks of 10 ms or more that began in it, their "
              "count and blocked time (total, longest), and where the most time went: the class blocked on and "
              "the code site (first frame outside java.util.concurrent.locks and the JDK's park machinery). "
              "Idle pool threads waiting for work park too: read the sites before the totals.")


def _locks_per_mode(run):
    groups = {}
    for p in run["points"]:
        monitors = ((p.get("jfr") or {}).get("locks") or {}).get("monitor_enter")
        if monitors is not None:
            groups.setdefault((p["mode"], p.get("driver"), p["concurrency"]), []).append(monitors)
    if not groups:
        return None
    several_drivers = len({driver for _, driver, _ in groups}) > 1
    rows = []
    for (mode, driver, concurrency), windows in groups.items():
        counts = [w.get("count") or 0 for w in windows]
        blocked = [(w.get("total_ms") or 0) / 1000 for w in windows]
        rows.append([mode] + ([driver] if several_drivers else []) + [
            concurrency, len(windows), _median_range(counts, 0), _median_range(blocked, 1),
            _top_summed(windows, "top_classes", "name"), _top_summed(windows, "top_sites", "site", code=True)])
    return markdown_table(["mode"] + (["driver"] if several_drivers else []) + [
        "c", "windows", "monitor enters", "blocked s", "top classes (blocked s)", "top sites (blocked s)"], rows)


def _median_range(values, digits):
    """The windows' values as a summary metric reads them: 'median [min–max]'."""
    return metric({"metrics": {"value": median_spread(values)}}, "value", digits)


def _top_summed(windows, field, key, code=False, top=3):
    """The `top` entries of the windows' top lists, their blocked time summed over the windows."""
    totals = {}
    for window in windows:
        for entry in window.get(field) or ():
            totals[entry[key]] = totals.get(entry[key], 0.0) + (entry.get("total_ms") or 0) / 1000
    ranked = sorted(totals.items(), key=lambda item: -item[1])[:top]
    if not ranked:
        return "–"
    return "; ".join(f"{f'`{name}`' if code else name} ({number(seconds, 1)})" for name, seconds in ranked)


def _locks_table(run):
    rows = []
    for p in run["points"]:
        locks = (p.get("jfr") or {}).get("locks")
        if not locks:
            continue
        row = [p["mode"], p["concurrency"], p.get("repeat", "–")]
        for kind in ("monitor_enter", "park"):
            entry = locks.get(kind) or {}
            top_class = (entry.get("top_classes") or [{}])[0]
            top_site = (entry.get("top_sites") or [{}])[0]
            row += [f"{number(entry.get('count'))} / {number(entry.get('total_ms'))} / {number(entry.get('max_ms'))}",
                    f"{top_class.get('name', '–')} ({number(top_class.get('total_ms'))} ms)" if top_class else "–",
                    f"`{top_site['site']}` ({number(top_site.get('total_ms'))} ms)" if top_site.get("site") else "–"]
        rows.append(row)
    if not rows:
        return "No window has a lock summary (JFR was unavailable)."
    return markdown_table(["mode", "c", "repeat", "monitor enters: count / total ms / longest ms", "top monitor class",
                   "top monitor site", "parks: count / total ms / longest ms", "top parked-on class", "top park site"],
                  rows)
