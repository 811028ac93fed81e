"""CargoTracker in the lab: targets per thread mode, bench scenarios for its GET pages, and
`./lab run --app cargotracker` refusing what it cannot do, its GlassFish domain's H2 jar. None of these start a server."""
import base64
import subprocess
import sys

import pytest

from labkit import ROOT
from labkit.apps import cargotracker
from labkit.servers.appserver.server import DOMAIN_LIB_PREFIX
from labkit.ground.build import pom_property
from labkit.ground.errors import LabError
from labkit.servers.appserver.glassfish import GlassFish, GlassFishDistribution
from labkit.catalog import all_scenarios
from labkit.servers.modes import PAYARA_MODES
from labkit.catalog import all_targets


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


def test_lab_run_keeps_its_data_and_bench_servers_start_in_their_run_folder():
    kept = cargotracker.payara_micro(PAYARA_MODES["platform-4000"], 18499, keep_data=True).command()
    fresh = cargotracker.payara_micro(PAYARA_MODES["platform-4000"], 18499).command()
    assert f"-Dcargotracker.data.dir={ROOT / '.lab' / 'cargotracker-data'}" in kept
    # Always set: the data-source URL in web.xml has no default of its own. Relative to the working
    # directory, which is the run folder each start wipes.
    assert "-Dcargotracker.data.dir=./cargotracker-data" in fresh


def test_the_data_source_url_is_a_system_property_both_servers_substitute():
    web_xml = (ROOT / "cargotracker" / "src" / "main" / "webapp" / "WEB-INF" / "web.xml").read_text()
    assert "jdbc:h2:file:${cargotracker.data.dir}/cargotracker;" in web_xml
    assert "MPCONFIG" not in web_xml.split("<data-source>")[1]
    # GlassFish starts its MicroProfile Config container (which does not resolve in 8.0.0-M12) for
    # any WAR holding this file.
    assert not (ROOT / "cargotracker" / "src" / "main" / "resources" / "META-INF"
                / "microprofile-config.properties").exists()


def test_glassfish_gets_the_h2_version_of_the_pom_in_its_domain_lib_and_the_kept_data(tmp_path, monkeypatch):
    version = pom_property("h2.version")
    monkeypatch.setattr(cargotracker, "H2_DIR", tmp_path)
    (tmp_path / f"h2-{version}.jar").write_bytes(b"h2 driver")  # already downloaded: no Maven run
    server = cargotracker.glassfish(PAYARA_MODES["virtual"], 19570)
    assert server.war == cargotracker.WAR
    assert server.domain_libs == [tmp_path / f"h2-{version}.jar"]
    assert f"-Dcargotracker.data.dir={cargotracker.DATA_DIR}" in server.jvm_options
    assert f"-Dcargotracker.admin.password.file={cargotracker.ADMIN_PASSWORD_FILE}" in server.jvm_options


def test_domain_libs_replace_what_the_lab_placed_for_another_war_and_keep_the_rest(tmp_path):
    driver = tmp_path / "h2-2.2.224.jar"
    driver.write_bytes(b"h2 driver")
    server = GlassFish(PAYARA_MODES["virtual"], port=19570, distribution=GlassFishDistribution("test", tmp_path / "gf"),
                       domain_libs=(driver,), log=lambda message: None)
    lib = server.domain.dir / "lib"
    lib.mkdir(parents=True)
    (lib / (DOMAIN_LIB_PREFIX + "h2-2.1.214.jar")).write_bytes(b"an older driver")
    (lib / "someone-elses.jar").write_bytes(b"placed by hand")
    server._place_domain_libs()
    assert sorted(p.name for p in lib.iterdir()) == [DOMAIN_LIB_PREFIX + "h2-2.2.224.jar", "someone-elses.jar"]
    assert (lib / (DOMAIN_LIB_PREFIX + "h2-2.2.224.jar")).read_bytes() == b"h2 driver"
    # The loomlab WAR needs no driver: a later run for it takes the lab's jar away again.
    GlassFish(PAYARA_MODES["virtual"], port=19570, distribution=GlassFishDistribution("test", tmp_path / "gf"),
              log=lambda message: None)._place_domain_libs()
    assert [p.name for p in lib.iterdir()] == ["someone-elses.jar"]


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
    assert "--app cargotracker runs on Payara Micro and GlassFish only" in result.stderr
    assert "Traceback" not in result.stderr


def test_run_refuses_an_unknown_app_with_the_usage_line():
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "run", "virtual", "--app", "petstore"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode == 2
    assert "invalid choice: 'petstore'" in result.stderr


def test_every_cargotracker_server_reads_the_labs_admin_password(tmp_path, monkeypatch):
    lab_file = tmp_path / "cargotracker-admin-password"
    monkeypatch.setattr(cargotracker, "ADMIN_PASSWORD_FILE", lab_file)
    kept = cargotracker.payara_micro(PAYARA_MODES["virtual"], 18499, keep_data=True)
    assert f"-Dcargotracker.admin.password.file={lab_file}" in kept.command()
    assert not lab_file.exists()  # ./lab run's server makes it at its first start, as the application does
    # A bench server, here or on another host, reads a copy in its run folder of the password made here
    # (the load tool logs in with this machine's file).
    bench = cargotracker.payara_micro(PAYARA_MODES["virtual"], 18499, keep_data=False)
    assert f"-Dcargotracker.admin.password.file={cargotracker.RUN_FOLDER_PASSWORD_FILE}" in bench.command()
    made = lab_file.read_text()
    assert len(made.strip()) >= 16
    assert bench.run_files == {cargotracker.RUN_FOLDER_PASSWORD_FILE: made}
    again = cargotracker.payara_micro(PAYARA_MODES["virtual"], 18499, keep_data=False)
    assert again.run_files == bench.run_files  # the same password for every server


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
