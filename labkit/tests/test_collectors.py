"""GC as a dimension of a run: <target>@<collector>[-young<SIZE>] is the target started on that
collector (its selector after the target's own options), beside the same target unchanged; a
--jvm-opt that picks a collector too, a young size for ZGC, or an unknown collector is refused; the
lab's heap stays when a young size replaces only its young generation. That a @zgc server really runs
ZGC is read from the JVM's own flags (jcmd VM.flags) in test_a_zgc_target_runs_zgc."""
import subprocess

import pytest

from labkit.catalog import all_targets
from labkit.ground.errors import UsageError
from labkit.measure.cpus import CpuPinning, server_jvm_options
from labkit.servers.collectors import collector_variant
from labkit.servers.registry import Target


def recording_target(name="virtual", virtual=True, max_concurrent=None):
    seen = []

    def start(port, jvm_options=(), *args, **kwargs):
        seen.append((port, list(jvm_options), kwargs))
        return "started"
    return Target(name, "Payara Micro: a virtual thread per request", max_concurrent, start, virtual=virtual,
                  takes_wars=True, takes_host=True), seen


def test_a_collector_suffix_starts_the_same_target_on_that_collector():
    base, seen = recording_target()
    target = collector_variant("virtual@zgc", base)
    assert (target.name, target.virtual, target.takes_wars, target.max_concurrent) == ("virtual@zgc", True, True, None)
    assert target.description.endswith(", ZGC collector")
    assert target.start(8080, ["-Dx=1"], apps=("a.war",)) == "started"
    assert seen == [(8080, ["-Dx=1", "-XX:+UseZGC"], {"apps": ("a.war",)})]
    young, seen = recording_target("platform-4000", virtual=False, max_concurrent=4000)
    target = collector_variant("platform-4000@g1-young512m", young)
    target.start(8080, [])
    assert seen[0][1] == ["-XX:+UseG1GC", "-Xmn512m"] and target.max_concurrent == 4000
    assert target.description.endswith("G1 collector, young generation 512m")


def test_what_cannot_go_together_is_refused_in_one_line():
    base, _ = recording_target()
    with pytest.raises(UsageError, match="virtual@zgc: --jvm-opt=-XX:\\+UseParallelGC chooses a collector too"):
        server_jvm_options(["-XX:+UseParallelGC"], None, ["virtual", "virtual@zgc"])
    with pytest.raises(UsageError, match="ZGC sizes its young generation itself"):
        collector_variant("virtual@zgc-young512m", base)


def test_a_suffix_replaces_the_g1_a_server_on_one_cpu_gets_by_default():
    """A run pinned to one server CPU adds G1 for every target (measure/cpus.py); a @zgc target
    starts on ZGC alone, a plain target beside it keeps G1 (the first limits run stopped here)."""
    one_cpu = CpuPinning(server=(1,), driver=(0,))
    options = server_jvm_options(None, one_cpu, ["virtual", "virtual@zgc"])
    assert options == ("-XX:+UseG1GC",)
    base, seen = recording_target()
    collector_variant("virtual@zgc", base).start(8080, options)
    base.start(8080, options)
    assert seen[0][1] == ["-XX:+UseZGC"] and seen[1][1] == ["-XX:+UseG1GC"]


def test_the_catalogue_finds_every_collector_of_every_target_and_keeps_the_plain_names():
    targets = all_targets()
    assert targets["virtual@zgc"].name == "virtual@zgc"
    assert targets["platform-200@parallel"].max_concurrent == 200
    assert targets["virtual+2carriers@zgc"].description.endswith("2 carrier thread(s), ZGC collector")
    assert targets["jdk-virtual@zgc"].virtual is True
    assert "@" not in targets["virtual"].name and targets["virtual"].start is not targets["virtual@zgc"].start
    with pytest.raises(KeyError):
        targets["virtual@cms"]


def test_the_labs_heap_stays_when_a_young_size_replaces_its_young_generation():
    from labkit.servers.payara_micro import lab_jvm_options, with_lab_defaults
    options = with_lab_defaults(["-XX:+UseG1GC", "-Xmn512m"], lab_jvm_options())
    assert "-Xms4g" in options and "-Xmx4g" in options and "-Xmn2g" not in options and options[-1] == "-Xmn512m"


@pytest.mark.server
def test_a_zgc_target_runs_zgc():
    from labkit.ground.build import ensure_built
    from labkit.ground.jdk import find_java_home
    ensure_built(log=lambda message: None)
    server = all_targets()["virtual@zgc"].start(19470, [])  # a target's start() returns it running
    try:
        flags = subprocess.run([str(find_java_home() / "bin" / "jcmd"), str(server.pid), "VM.flags"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60).stdout
        assert "-XX:+UseZGC" in flags and "-XX:+UseG1GC" not in flags, flags
        assert server.info()["request"]["virtual"] is True
    finally:
        server.stop()
