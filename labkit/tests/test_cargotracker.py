"""CargoTracker in the lab: targets per thread mode, bench scenarios for its GET pages, and
`./lab run --app cargotracker` refusing what it cannot do. None of these start a server."""
import base64
import subprocess
import sys

import pytest

from labkit import ROOT, cargotracker
from labkit.errors import LabError
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


def test_every_cargotracker_server_gets_the_labs_admin_password_file():
    for keep_data in (True, False):
        command = cargotracker.payara_micro(PAYARA_MODES["virtual"], 18499, keep_data=keep_data).command()
        assert f"-Dcargotracker.admin.password.file={cargotracker.ADMIN_PASSWORD_FILE}" in command


def test_the_dashboard_is_loaded_logged_in_and_tracking_without_a_login(tmp_path):
    scenarios = all_scenarios()
    assert scenarios["cargotracker-track"].headers_for(None) == ()
    password_file = tmp_path / "admin-password"
    password_file.write_text("s3cret-enough-password\nignored\n")
    header = cargotracker.admin_authorization(password_file)
    assert header == "Authorization: Basic " + base64.b64encode(b"admin:s3cret-enough-password").decode()
    assert scenarios["cargotracker-dashboard"].headers is not None
    with pytest.raises(LabError, match="no CargoTracker admin password"):
        cargotracker.admin_authorization(tmp_path / "missing")
