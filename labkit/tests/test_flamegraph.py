"""A CPU-bound window's flame graph: its JFR execution samples folded into whole stacks by the JDK's
own reader (a real recording of a real JVM here), cut to what a record keeps, and drawn as a Plotly
icicle whose every frame is as wide as the samples that passed through it."""
import shutil
import subprocess
import time

import pytest

from labkit.ground.jdk import find_java_home
from labkit.measure import flamegraph
from labkit.measure.flamegraph import CUT, flame_figure, folded_stacks, kept_stacks, parse_folded, stacks_wanted

SPIN = """
public class Spin {
    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + 2_000_000_000L;
        byte[] digest = new byte[32];
        var sha = java.security.MessageDigest.getInstance("SHA-256");
        while (System.nanoTime() < end) {
            digest = hash(sha, digest);
        }
        System.out.println(digest[0]);
    }

    static byte[] hash(java.security.MessageDigest sha, byte[] input) {
        return sha.digest(input);
    }
}
"""


def test_the_samples_of_a_real_recording_fold_into_stacks_from_main_to_the_digest(tmp_path):
    java_home = find_java_home()
    (tmp_path / "Spin.java").write_text(SPIN)
    recording = tmp_path / "spin.jfr"
    began = time.time()
    subprocess.run([f"{java_home}/bin/java", f"-XX:StartFlightRecording=filename={recording},settings=profile",
                    str(tmp_path / "Spin.java")], check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    profile = folded_stacks(java_home, recording, began, time.time() + 1)
    assert "error" not in profile, profile
    named = [[profile["frames"][i] for i in stack] for stack, _ in profile["stacks"]]
    spinning = [frames for frames in named if "Spin.hash" in frames]
    assert spinning, named[:5]
    # Root first: main calls hash, which calls into the JDK's digest.
    frames = spinning[0]
    assert frames.index("Spin.main") < frames.index("Spin.hash") < len(frames) - 1
    assert sum(count for _, count in profile["stacks"]) + profile["other_samples"] == profile["samples"] > 20
    # Nothing in the window asked for: no sample.
    assert folded_stacks(java_home, recording, began - 100, began - 50)["samples"] == 0


def test_a_recording_that_cannot_be_read_is_an_error_not_a_crash(tmp_path):
    broken = tmp_path / "broken.jfr"
    broken.write_bytes(b"not a recording")
    assert folded_stacks(find_java_home(), broken, 0, 1)["error"].startswith("FoldedStacks: ")


def test_a_record_keeps_the_most_sampled_stacks_their_leaf_frames_and_counts_the_rest(monkeypatch):
    monkeypatch.setattr(flamegraph, "STACKS_KEPT", 2)
    monkeypatch.setattr(flamegraph, "FRAMES_KEPT", 3)
    stacks = parse_folded("main;serve;work;sha 50\nmain;serve;idle 30\nmain;gc 5\nbad line\nmain;serve;work;sha 10\n")
    assert stacks == {"main;serve;work;sha": 60, "main;serve;idle": 30, "main;gc": 5}
    kept = kept_stacks(stacks)
    named = [([kept["frames"][i] for i in stack], count) for stack, count in kept["stacks"]]
    assert named == [([CUT, "serve", "work", "sha"], 60), (["main", "serve", "idle"], 30)]
    assert kept["samples"] == 95 and kept["other_samples"] == 5
    assert len(kept["frames"]) == len(set(kept["frames"]))


def test_the_flame_graph_makes_each_frame_as_wide_as_the_samples_through_it():
    profile = kept_stacks(parse_folded("main;serve;work 60\nmain;serve;idle 30\nmain;gc 10\n"))
    icicle = flame_figure(profile).data[0]
    width = {label: value for label, value in zip(icicle.labels, icicle.values)}
    assert width == {"all 100 samples": 100, "main": 100, "serve": 90, "work": 60, "idle": 30, "gc": 10}
    parent = dict(zip(icicle.ids, icicle.parents))
    work = next(i for i, label in zip(icicle.ids, icicle.labels) if label == "work")
    assert [icicle.labels[list(icicle.ids).index(parent[work])]] == ["serve"]
    assert icicle.tiling.flip == "y" and icicle.branchvalues == "total"
    assert flame_figure(None) is None and flame_figure({"samples": 0, "stacks": []}) is None


def test_only_a_window_the_cpu_limited_keeps_its_stacks():
    assert stacks_wanted({"limit": "cpu", "also": []}) and stacks_wanted({"limit": "gc-young", "also": ["cpu"]})
    assert not stacks_wanted({"limit": "pool", "also": ["sockets"]})
    assert not stacks_wanted({"limit": "none found", "also": []})
