"""GlassFish support without a running server: what is applied, targets, distribution, CLI errors."""
import socket
import subprocess
import sys

import pytest

from labkit import ROOT
from labkit.servers.appserver.commands import jvm_option_commands, preboot_commands
from labkit.ground.build import pom_property
from labkit.ground.errors import LabError
from labkit.servers.appserver.glassfish import GlassFish, GlassFishDistribution
from labkit.servers.modes import PAYARA_MODES
from labkit.servers.appserver.payara_server import PayaraServer
from labkit.catalog import all_targets

MODES = sorted(PAYARA_MODES)
QUIET = dict(log=lambda message: None)


# ---- what is applied to a domain ---------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_glassfish_gets_the_mode_the_lab_settings_and_no_payara_only_command(mode):
    glassfish = GlassFish(PAYARA_MODES[mode], port=19380, **QUIET)._settings_commands()
    payara = PayaraServer(PAYARA_MODES[mode], port=19380, **QUIET)._settings_commands()
    mode_lines = preboot_commands(PAYARA_MODES[mode].preboot)
    assert glassfish[:len(mode_lines)] == mode_lines, "the mode's own lines come first, translated"
    assert "set configs.config.server-config.network-config.network-listeners.network-listener" \
           ".http-listener-1.address=127.0.0.1" in glassfish
    # GlassFish has no Hazelcast, and its JMS service type must be LOCAL, EMBEDDED or REMOTE.
    assert not any("hazelcast" in c for c in glassfish)
    assert "set configs.config.server-config.jms-service.type=REMOTE" in glassfish
    # Payara Server's list is unchanged by the shared code: its data grid and broker stay off.
    assert "set-hazelcast-configuration --enabled=false --dynamic=false" in payara
    assert "set configs.config.server-config.jms-service.type=EMBEDDED" in payara  # the full platform: MDBs deploy
    shared = [c for c in payara if "hazelcast" not in c and "jms-service" not in c]
    assert shared == [c for c in glassfish if "jms-service" not in c]


def test_the_console_address_is_applied_to_the_admin_listener_and_jmx():
    commands = GlassFish(PAYARA_MODES["virtual"], port=19380, console_host="127.0.0.2", **QUIET)._settings_commands()
    assert any(c.endswith("network-listener.admin-listener.address=127.0.0.2") for c in commands)
    assert any(c.endswith("jmx-connector.system.address=127.0.0.2") for c in commands)


def test_jvm_options_replace_what_the_lab_added_before_and_drop_the_heap_cap():
    commands = jvm_option_commands(["-Xmx2g", "-Xlog:gc"], current={"-Xmx512m", "-Xss1m", "-Xmx3g"},
                                   previously_added=["-Xmx3g", "-Dgone=1"], removed_defaults=("-Xmx512m",))
    assert commands == ["delete-jvm-options '-Xmx3g':'-Xmx512m'", "create-jvm-options '-Xmx2g':'-Xlog\\:gc'"]


def test_nothing_to_change_gives_no_jvm_option_command():
    assert jvm_option_commands([], current={"-Xss1m"}, previously_added=[], removed_defaults=("-Xmx512m",)) == []


def test_each_server_kind_keeps_its_own_domains_and_run_folders():
    mode = PAYARA_MODES["virtual"]
    glassfish, payara = GlassFish(mode, port=19380, **QUIET), PayaraServer(mode, port=19380, **QUIET)
    assert glassfish.domain.dir != payara.domain.dir and glassfish.run_dir != payara.run_dir
    assert glassfish.domain.dir.is_relative_to(ROOT / ".lab" / "glassfish" / "glassfish8")


# ---- bench targets ------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_every_mode_is_a_bench_target_on_glassfish(mode):
    target = all_targets()["glassfish-" + mode]
    assert target.max_concurrent == PAYARA_MODES[mode].max_concurrent
    assert target.virtual == PAYARA_MODES[mode].virtual
    assert target.description.startswith("GlassFish")


# ---- the distribution ---------------------------------------------------------------------------

def test_the_distribution_is_the_pom_version_from_maven_central():
    distribution = GlassFishDistribution()
    assert distribution.version == pom_property("glassfish.version")
    assert distribution.coordinates == f"org.glassfish.main.distributions:glassfish:{distribution.version}:zip"
    assert distribution.asadmin == ROOT / ".lab" / "glassfish" / "glassfish8" / "bin" / "asadmin"


def test_a_distribution_maven_cannot_resolve_is_a_clear_error(tmp_path):
    distribution = GlassFishDistribution(version="0.0.0-no-such-release", home=tmp_path)
    with pytest.raises(LabError, match=r"cannot download the GlassFish distribution "
                                       r"org\.glassfish\.main\.distributions:glassfish:0\.0\.0-no-such-release:zip"):
        distribution.ensure_installed(log=lambda message: None)
    assert list(tmp_path.iterdir()) == [], "a failed download leaves no half-unpacked folder"


# ---- ./lab run ... --server glassfish: bad input ------------------------------------------------

def _lab(*args):
    return subprocess.run([sys.executable, "-m", "labkit.cli", *args], cwd=ROOT, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)


def test_a_busy_port_is_named_as_glassfish_before_anything_starts():
    http_port = 19390
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", http_port - 32))
        busy.listen()
        result = _lab("run", "virtual", "--server", "glassfish", "--port", str(http_port))
    assert result.returncode == 1
    assert f"port {http_port - 32} (admin console of GlassFish with HTTP port {http_port}) is in use" in result.stdout
    assert "Traceback" not in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--port", "80"], "--port 80: GlassFish needs 1104..65529"),
    (["--port", "19390", "--console-host", "0.0.0.0"], "which GlassFish allows from loopback only"),
    (["--port", "19390", "--admin-password-file", "/nonexistent/pw"], "--admin-password-file /nonexistent/pw"),
])
def test_bad_options_are_usage_errors(args, message):
    result = _lab("run", "virtual", "--server", "glassfish", *args)
    assert result.returncode == 2, result.stdout
    assert message in result.stdout and "Traceback" not in result.stdout


def test_glassfish_is_a_usage_error_for_an_unknown_server_kind_typo():
    result = _lab("run", "virtual", "--server", "glasfish")
    assert result.returncode == 2 and "invalid choice: 'glasfish'" in result.stdout


def test_run_on_another_host_refuses_cargotracker_and_says_where_it_starts_there():
    # CargoTracker on another host starts from bench, capacity and soak only: refused before any ssh.
    result = _lab("run", "virtual", "--app", "cargotracker", "--server-host", "bench@perf-7")
    assert result.returncode == 2, result.stdout
    assert "./lab run --server-host serves the lab's WAR" in result.stdout and "cargotracker-MODE" in result.stdout
