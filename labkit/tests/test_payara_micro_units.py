"""How ./lab builds a Payara Micro command: the lab's JVM defaults (domain-config/jvm.options)."""
from pathlib import Path

from labkit.servers.modes import payara_mode
from labkit.servers.payara_micro import (
    HEAP_SIZING,
    JVM_DEFAULTS_FILE,
    PayaraMicro,
    lab_jvm_options,
    with_lab_defaults,
)


def test_options_file_keeps_one_option_a_line_and_drops_comments(tmp_path):
    options = tmp_path / "jvm.options"
    options.write_text("# why the heap\n-Xms1g\n\n  # indented comment\n  -Dx=a b  \n-Xmx1g\n")
    assert lab_jvm_options(options) == ["-Xms1g", "-Dx=a b", "-Xmx1g"]


def test_shipped_defaults_are_jvm_options_with_a_fixed_heap():
    options = lab_jvm_options(JVM_DEFAULTS_FILE)
    assert options and all(o.startswith("-") for o in options)
    heap = {o[:4]: o[4:] for o in options if o[:4] in ("-Xms", "-Xmx")}
    # Every mode gets the same fixed heap: initial and maximum are given and equal.
    assert heap.get("-Xms") and heap.get("-Xms") == heap.get("-Xmx")


def test_command_puts_the_defaults_before_the_callers_options_so_the_caller_wins():
    server = PayaraMicro(payara_mode("virtual"), port=18999, jvm_options=["-XX:+UseParallelGC", "-Dx=1"],
                         java_home=Path("/jdk"))
    command = server.command()
    java_options = command[1:command.index("-jar")]
    assert java_options == lab_jvm_options() + ["-XX:+UseParallelGC", "-Dx=1"]


def test_a_heap_size_from_the_caller_replaces_the_defaults_heap_sizing_only():
    defaults = ["-Xms4g", "-Xmx4g", "-Xmn2g", "-Dgrizzly=16384"]
    # Alone, -Xmx1g after -Xms4g would make the JVM refuse to start.
    assert with_lab_defaults(["-Xmx1g"], defaults) == ["-Dgrizzly=16384", "-Xmx1g"]
    assert with_lab_defaults(["-XX:MaxHeapSize=1g"], defaults) == ["-Dgrizzly=16384", "-XX:MaxHeapSize=1g"]
    assert with_lab_defaults(["-Xss512k"], defaults) == defaults + ["-Xss512k"]
    # The shipped file's heap lines are exactly what a caller's heap option replaces.
    shipped = lab_jvm_options()
    assert any(o.startswith(HEAP_SIZING) for o in shipped)
    assert not any(o.startswith(HEAP_SIZING) for o in with_lab_defaults(["-Xmx1g"], shipped)[:-1])


def test_no_jvm_defaults_leaves_only_the_callers_options():
    server = PayaraMicro(payara_mode("platform-4000"), port=18999, jvm_options=["-Xmx1g"],
                         java_home=Path("/jdk"), jvm_defaults=False)
    command = server.command()
    assert command[1:command.index("-jar")] == ["-Xmx1g"]
