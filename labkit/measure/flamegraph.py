"""Where a CPU-bound window's time went, as a flame graph: the window's JFR execution samples folded
into whole stacks (FoldedStacks.java, beside this file), the most sampled of them kept in the window's
record, and drawn by Plotly as an icicle turned upside down (the root at the bottom, each frame above
its caller, as wide as its share of the samples).

Why only for windows whose limit is the CPU: there the samples say what a bigger server would spend its
cores on; a window limited by a pool or GC pauses spends little CPU, and its stacks say little. The
top five methods (jfr.summarize_profile) are kept for every window.
"""
from collections import Counter
from pathlib import Path
from labkit.ground.command import last_lines, run_command
from labkit.ground.errors import LabError

FOLDER = Path(__file__).resolve().parent
FOLDER_PROGRAM = FOLDER / "FoldedStacks.java"
# The most sampled distinct stacks a window keeps (the rest summed as `other_samples`), and the frames
# kept of each, leaf first: enough to tell the application's code from the server's, small enough
# that a run of forty CPU-bound windows adds about a megabyte to results.json before compression.
STACKS_KEPT = 80
FRAMES_KEPT = 40
CUT = "(frames below left out)"
FOLD_TIMEOUT_S = 120
CPU_LIMIT = "cpu"  # measure/limits.py's name of the check


def stacks_wanted(limits):
    """Whether a window with this limit verdict (measure.limits.window_limits) keeps its stacks: when
    the CPU is its limit or among the other checks it crossed."""
    return CPU_LIMIT in (limits["limit"], *limits["also"])


def folded_stacks(java_home, recording, window_start, window_end):
    """The window's samples as {"samples", "frames": [Class.method], "stacks": [[[frame index, root
    first], count]], "other_samples"}, or {"error": why}."""
    command = [str(Path(java_home) / "bin" / "java"), str(FOLDER_PROGRAM), str(recording),
               str(int(window_start * 1000)), str(int(window_end * 1000))]
    try:
        result = run_command(command, timeout=FOLD_TIMEOUT_S)
    except LabError as e:
        return {"error": f"FoldedStacks: {e}"}
    if result.returncode != 0:
        return {"error": "FoldedStacks: " + last_lines(result.stderr or f"exit {result.returncode}")}
    return kept_stacks(parse_folded(result.stdout))


def parse_folded(text):
    """Counter of folded stack -> samples, from "root;...;leaf COUNT" lines."""
    stacks = Counter()
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks[stack] += int(count)
    return stacks


def kept_stacks(stacks):
    """The record of a window's folded stacks: each cut to its FRAMES_KEPT leaf-most frames, the
    STACKS_KEPT most sampled kept, frames named once in a table."""
    cut = Counter()
    for stack, count in stacks.items():
        frames = stack.split(";")
        if len(frames) > FRAMES_KEPT:
            frames = [CUT, *frames[-FRAMES_KEPT:]]
        cut[tuple(frames)] += count
    kept = cut.most_common(STACKS_KEPT)
    table, index = [], {}
    for frames, _ in kept:
        for frame in frames:
            if frame not in index:
                index[frame] = len(table)
                table.append(frame)
    total = sum(cut.values())
    return {"samples": total, "frames": table,
            "stacks": [[[index[frame] for frame in frames], count] for frames, count in kept],
            "other_samples": total - sum(count for _, count in kept)}


def flame_figure(profile):
    """A Plotly icicle of `profile` (kept_stacks' record) drawn as a flame graph; None without samples."""
    import plotly.graph_objects as go
    if not profile or not profile.get("stacks"):
        return None
    frames = profile["frames"]
    root = f"all {profile['samples']:,} samples"
    ids, labels, parents, values = [root], [root], [""], [profile["samples"]]
    totals, named, parent_of = Counter(), {}, {}
    for stack, count in profile["stacks"]:
        path = root
        for position in stack:
            node = f"{path};{position}"
            totals[node] += count
            named[node], parent_of[node] = frames[position], path
            path = node
    if profile.get("other_samples"):
        node = f"{root};other"
        totals[node], named[node], parent_of[node] = profile["other_samples"], "other stacks (not kept)", root
    for node, count in totals.items():
        ids.append(node)
        labels.append(named[node])
        parents.append(parent_of[node])
        values.append(count)
    figure = go.Figure(go.Icicle(ids=ids, labels=labels, parents=parents, values=values, branchvalues="total",
                                 tiling={"orientation": "v", "flip": "y"}, maxdepth=-1,
                                 hovertemplate="%{label}<br>%{value:,} samples, %{percentRoot:.1%} of the window"
                                               "<extra></extra>"))
    figure.update_layout(height=720, margin={"t": 10, "b": 10, "l": 10, "r": 10})
    return figure
