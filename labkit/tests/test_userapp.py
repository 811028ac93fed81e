"""--war FILE[:/ROOT] (labkit/servers/userapp.py): what is accepted, what is refused with a usage line and
exit 2 before any server starts, how each server kind is told to deploy it, and the proof of the
mode from the probe WAR's counters. No server is started here."""
import argparse
import subprocess
import sys
import zipfile

import pytest

from labkit import ROOT
from labkit.ground.errors import UsageError
from labkit.servers.modes import payara_mode
from labkit.servers.userapp import (
    PROBE_ROOT,
    UserWar,
    check_wars,
    deployment_failure,
    micro_failure_message,
    missing_feature,
    mode_proof,
    war_argument,
)


def make_war(path, entries=("WEB-INF/web.xml", "index.html")):
    with zipfile.ZipFile(path, "w") as war:
        for name in entries:
            war.writestr(name, "<x/>")
    return path


def lab(command, *arguments):
    return subprocess.run([sys.executable, "-m", "labkit.cli", command, *arguments], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)


def test_a_war_without_root_is_served_at_its_file_name(tmp_path):
    war = war_argument(str(make_war(tmp_path / "shop.war")))
    assert war == UserWar((tmp_path / "shop.war").resolve(), "/shop")
    assert war.name == "shop"


def test_the_root_after_the_last_colon_as_payara_micro_reads_it(tmp_path):
    folder = tmp_path / "a:b"
    folder.mkdir()
    war = war_argument(f"{make_war(folder / 'shop.war')}:/store/v2")
    assert war.path == (folder / "shop.war").resolve() and war.context_root == "/store/v2"
    assert war.name == "store-v2"
    assert war_argument(f"{folder / 'shop.war'}:/").name == "root"


@pytest.mark.parametrize("build,suffix,message", [
    (None, "missing.war", "no such file"),
    (lambda p: p.write_text("not a zip"), "broken.war", "not a zip archive"),
    (lambda p: make_war(p, ("index.html",)), "static.war", "it has no WEB-INF/"),
    (lambda p: make_war(p), "app.jar", "must end in .war"),
])
def test_what_is_not_a_readable_war_is_refused(tmp_path, build, suffix, message):
    path = tmp_path / suffix
    if build:
        build(path)
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        war_argument(str(path))


@pytest.mark.parametrize("root", ["/with space", "/a//b", "/trailing/", "/ü"])
def test_a_context_root_that_servers_would_misread_is_refused(tmp_path, root):
    make_war(tmp_path / "shop.war")
    with pytest.raises(argparse.ArgumentTypeError, match="context root"):
        war_argument(f"{tmp_path / 'shop.war'}:{root}")


def test_roots_must_differ_and_leave_the_probe_its_own(tmp_path):
    a, b = make_war(tmp_path / "a.war"), make_war(tmp_path / "b.war")
    with pytest.raises(UsageError, match="context root /shop is given twice"):
        check_wars([war_argument(f"{a}:/shop"), war_argument(f"{b}:/shop")])
    with pytest.raises(UsageError, match="the lab's probe"):
        check_wars([war_argument(f"{a}:{PROBE_ROOT}")])
    assert len(check_wars([war_argument(f"{a}:/"), war_argument(str(b))])) == 2


@pytest.mark.parametrize("command", ["run", "bench"])
def test_bad_wars_are_usage_errors_before_anything_starts(tmp_path, command):
    make_war(tmp_path / "a.war")
    make_war(tmp_path / "b.war")
    mode = ["virtual"] if command == "run" else []
    for arguments, message in (
            (["--war", str(tmp_path / "nosuch.war")], "no such file"),
            (["--war", f"{tmp_path / 'a.war'}:/x", "--war", f"{tmp_path / 'b.war'}:/x"], "given twice"),
    ):
        result = lab(command, *mode, *arguments, *(["--request", "GET /x/"] if command == "bench" else []))
        assert result.returncode == 2, result.stderr
        assert message in result.stderr and "Traceback" not in result.stderr


def test_bench_with_a_war_needs_requests_and_targets_that_deploy_it(tmp_path):
    war = str(make_war(tmp_path / "shop.war"))
    result = lab("bench", "--war", war)
    assert result.returncode == 2 and "--war needs --request" in result.stderr
    result = lab("bench", "--war", war, "--request", "GET /shop/", "--modes", "jdk-virtual")
    assert result.returncode == 2 and "cannot deploy a WAR" in result.stderr


def test_payara_micro_deploys_the_wars_first_and_the_probe_last(tmp_path):
    from labkit.servers.payara_micro import PayaraMicro
    war = war_argument(f"{make_war(tmp_path / 'shop.war')}:/shop")
    server = PayaraMicro(payara_mode("virtual"), port=19601, apps=[war])
    command = server.command()
    deploys = [command[i + 1] for i, part in enumerate(command) if part == "--deploy"]
    assert deploys == [f"{war.path}:/shop", f"{server.war}:{PROBE_ROOT}"]
    assert server.info_path == PROBE_ROOT + "/api/info"
    plain = PayaraMicro(payara_mode("virtual"), port=19601).command()
    assert [plain[i + 1] for i, part in enumerate(plain) if part == "--deploy"] == [str(server.war)]


def test_a_full_server_undeploys_all_it_holds_and_deploys_the_probe_beside_the_war(tmp_path, monkeypatch):
    from labkit.servers.appserver.payara_server import PayaraServer
    war = war_argument(f"{make_war(tmp_path / 'shop.war')}:/")
    server = PayaraServer(payara_mode("virtual"), port=19610, apps=[war], log=lambda m: None)
    # An earlier run left the lab's own WAR at "/": it must go before the user's takes "/"; the user's
    # own "root", wanted again, goes too and is deployed afresh (it may not have loaded at the boot).
    monkeypatch.setattr(server.domain, "applications", lambda: ["loomlab", "root"])
    commands = server._deploy_commands()
    assert commands[:2] == ["undeploy loomlab", "undeploy root"]
    assert commands[2] == f"deploy --name root --contextroot / {war.path}"
    assert commands[3].startswith(f"deploy --name loomlab-probe --contextroot {PROBE_ROOT} ")
    assert len(commands) == 4
    alone = PayaraServer(payara_mode("virtual"), port=19610, log=lambda m: None)
    monkeypatch.setattr(alone.domain, "applications", lambda: ["loomlab-probe", "root"])
    assert alone._deploy_commands()[:2] == ["undeploy loomlab-probe", "undeploy root"]
    assert alone._deploy_commands()[2].startswith("deploy --name loomlab --contextroot / ")
    monkeypatch.setattr(alone.domain, "applications", lambda: [])
    assert [c.split()[0] for c in alone._deploy_commands()] == ["deploy"]


def test_a_deployment_failure_names_what_micro_lacks_and_the_full_server():
    # The shape of Payara Micro 6's log for a WAR with a message-driven bean (colours as Micro writes them).
    log = ("[2026-11-23T03:24:28] [] [\x1b[1;92mINFO\x1b[0m] booting\n"
           "[2026-11-23T03:24:34] [] [\x1b[1;91mSEVERE\x1b[0m] MDB00017: [OrderListener]: Exception in creating "
           "message-driven bean container:\n"
           "java.lang.RuntimeException: EJB Container initialization error\n"
           "\tat org.glassfish.ejb.startup.EjbApplication.loadContainers(EjbApplication.java:237)\n"
           "Caused by: com.sun.appserv.connectors.internal.api.ConnectorRuntimeException: Resource adapter jmsra "
           "is not deployed\n"
           "\t... 39 more\n")
    failure = deployment_failure(log)
    assert failure.startswith("[2026-11-23T03:24:34] [] [SEVERE] MDB00017: [OrderListener]")
    assert missing_feature(failure).startswith("a JMS broker")
    message = micro_failure_message(failure, [UserWar(ROOT / "orders.war", "/orders")], "server.log")
    assert "orders.war did not deploy on Payara Micro: it needs a JMS broker" in message
    assert "--server payara-server" in message
    assert "Payara said: com.sun.appserv.connectors.internal.api.ConnectorRuntimeException: Resource adapter jmsra " \
           "is not deployed" in message
    assert deployment_failure("[INFO] Deployed 2 archive(s)\n") is None
    assert missing_feature("Exception while deploying the app [x] : java.lang.NoClassDefFoundError: Foo") is None


def info(virtual, started=None, thread="http-thread-pool::http-listener(3)"):
    pools = [] if started is None else [{"poolName": "http-thread-pool::http-listener", "started": started}]
    return {"request": {"virtual": virtual, "thread": thread}, "virtualPools": pools}


def test_the_mode_is_proven_when_the_pool_counted_every_answered_request():
    proof = mode_proof(info(True, 1_000), info(True, 1_530), 520, expected_virtual=True)
    assert proof["proven"] is True and proof["pool_tasks"] == 530 and proof["requests_sent"] == 520


def test_fewer_pool_tasks_than_answers_or_the_wrong_kind_of_thread_is_not_proof():
    assert mode_proof(info(True, 1_000), info(True, 1_100), 520, expected_virtual=True)["proven"] is False
    assert mode_proof(info(False), info(False), 520, expected_virtual=True)["proven"] is False


def test_a_platform_pool_shows_its_thread_but_has_no_counter():
    proof = mode_proof(info(False), info(False), 520, expected_virtual=False)
    assert proof["proven"] is True and proof["pool_tasks"] is None
    assert "no task counter" in proof["why"]
    assert mode_proof(None, info(False), 5, False)["proven"] is None
