"""CargoTracker in the lab: targets per thread mode, bench scenarios for its GET pages, and
`./lab run --app cargotracker` refusing what it cannot do. None of these start a server."""
import subprocess
import sys

from labkit import ROOT, cargotracker
from labkit.bench.scenarios import all_scenarios
from labkit.modes import PAYARA_MODES
from labkit.targets import all_targets


def test_every_payara_mode_has_a_cargotracker_target_serving_its_war():
    targets = all_targets()
    for mode in PAYARA_MODES.values():
        target = targets["cargotracker-" + mode.name]
        assert target.virtual == mode.virtual
        assert target.max_concurrent == mode.max_concurrent
    server = cargotracker.payara_micro(PAYARA_MODES["virtual"], 18499)
    command = server.command()
    assert command[command.index("--deploy") + 1] == str(ROOT / "cargotracker" / "target" / "cargotracker.war")
    assert "--addlibs" in command


def test_lab_run_keeps_its_data_and_bench_servers_do_not():
    kept = cargotracker.payara_micro(PAYARA_MODES["platform-4000"], 18499, keep_data=True).command()
    fresh = cargotracker.payara_micro(PAYARA_MODES["platform-4000"], 18499).command()
    assert f"-Dcargotracker.data.dir={ROOT / '.lab' / 'cargotracker-data'}" in kept
    assert not any(part.startswith("-Dcargotracker.data.dir") for part in fresh)


def test_bench_scenarios_request_stateless_get_pages_on_the_cargotracker_targets():
    scenarios = all_scenarios()
    track = scenarios["cargotracker-track"]
    dashboard = scenarios["cargotracker-dashboard"]
    assert track.path(None, None) == "/track.xhtml?trackingId=LOOM0004"
    assert dashboard.path(None, None) == "/admin/dashboard.xhtml"
    for scenario in (track, dashboard):
        assert scenario.service_time_s(None, None) is None
        assert not scenario.uses_sleep
        assert set(scenario.targets) <= set(all_targets())


def test_run_refuses_cargotracker_on_payara_server_with_one_line():
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "run", "virtual", "--app", "cargotracker",
                             "--server", "payara-server"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode != 0
    assert "--app cargotracker runs on Payara Micro only" in result.stderr
    assert "Traceback" not in result.stderr


def test_run_refuses_an_unknown_app_with_the_usage_line():
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "run", "virtual", "--app", "petstore"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode == 2
    assert "invalid choice: 'petstore'" in result.stderr
