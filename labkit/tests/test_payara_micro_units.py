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
    # A young generation alone replaces the defaults' and keeps their heap.
    assert with_lab_defaults(["-Xmn512m"], defaults) == ["-Xms4g", "-Xmx4g", "-Dgrizzly=16384", "-Xmn512m"]
    # The shipped file's heap lines are exactly what a caller's heap option replaces.
    shipped = lab_jvm_options()
    assert any(o.startswith(HEAP_SIZING) for o in shipped)
    assert not any(o.startswith(HEAP_SIZING) for o in with_lab_defaults(["-Xmx1g"], shipped)[:-1])


def test_no_jvm_defaults_leaves_only_the_callers_options():
    server = PayaraMicro(payara_mode("platform-4000"), port=18999, jvm_options=["-Xmx1g"],
                         java_home=Path("/jdk"), jvm_defaults=False)
    command = server.command()
    assert command[1:command.index("-jar")] == ["-Xmx1g"]


def test_the_payara_7_line_starts_its_own_jar_in_a_run_folder_of_its_own():
    from labkit.ground.build import PAYARA_MICRO_JARS
    six = PayaraMicro(payara_mode("virtual"), port=18999, java_home=Path("/jdk"))
    seven = PayaraMicro(payara_mode("virtual"), port=18999, java_home=Path("/jdk"), line=7)
    assert six.command()[six.command().index("-jar") + 1] == str(PAYARA_MICRO_JARS[6])
    assert seven.command()[seven.command().index("-jar") + 1] == str(PAYARA_MICRO_JARS[7])
    assert PAYARA_MICRO_JARS[6] != PAYARA_MICRO_JARS[7]
    # The rest of the command is the mode's, the same on both lines: pool jar, pre-boot file, WAR.
    rest = [part.replace(seven.run_dir.name, six.run_dir.name) for part in seven.command()[seven.command().index("-jar") + 2:]]
    assert rest == six.command()[six.command().index("-jar") + 2:] and "--addlibs" in rest
    assert six.run_dir != seven.run_dir and (six.product, seven.product) == ("Payara Micro", "Payara Micro 7")


def test_a_run_with_payara_7_targets_records_and_reports_both_versions():
    import pytest

    from labkit.ground.build import PAYARA_MICRO_JARS, pom_property
    from labkit.ground.jdk import find_java_home
    from labkit.measure.env import collect, payara_text
    assert payara_text({"payara_micro": "6.2025.10"}) == "6.2025.10"
    assert payara_text({"payara_micro": "6.2025.10", "payara_micro_7": "7.2025.1"}) == \
        "6.2025.10; 7.2025.1 for the payara7-* targets"
    if not PAYARA_MICRO_JARS[7].is_file():
        pytest.skip("target/payara-micro-7.jar is built by ./mvnw package")
    only_six = collect(find_java_home(), {}, "./lab capacity", modes=("virtual", "jdk-virtual"))
    both = collect(find_java_home(), {}, "./lab capacity", modes=("virtual", "payara7-virtual"))
    assert "payara_micro_7" not in only_six
    assert both["payara_micro_7"] == pom_property("payara7.version")  # read from the jar that runs


def test_payara_7_is_payara_micros_line_only(capsys):
    from labkit.cli import main
    assert main(["run", "virtual", "--payara", "7", "--server", "payara-server"]) == 2
    assert "Payara Server 7 is not on Maven Central" in capsys.readouterr().err
