"""One real Payara Server domain, end to end: virtual-4000 applied, served, stopped; a wrong password
refused; the same domain served from the srv namespace (--server-host), as root.

Runs by default (about 1.5 minutes on an idle 2-core machine, the first time plus the ~170 MB
download); LOOMLAB_SKIP_PAYARA_SERVER=1 skips it. Uses its own domain (loomlab-test-18580), removed
after the module: the test on srv boots the domain the first one configured.
"""
import json
import os
import re
import shutil
import threading
import time
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from labkit.servers.appserver.asadmin import AdminPasswordRefused
from labkit.ground.build import ensure_built
from labkit.ground.errors import LabError
from labkit.servers.modes import payara_mode
from labkit.servers.appserver.payara_server import PayaraServer
from labkit.ground.process import ensure_port_free

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(os.environ.get("LOOMLAB_SKIP_PAYARA_SERVER") == "1", reason="LOOMLAB_SKIP_PAYARA_SERVER=1"),
]

PORT = 18580
DOMAIN = f"loomlab-test-{PORT}"


def _get_json(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, json.load(response)


def wait_for(read, seconds):
    """read()'s first answer that is not None within `seconds`, else None."""
    deadline = time.monotonic() + seconds
    while (value := read()) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    return value


def _listeners(domain_xml):
    root = ET.parse(domain_xml).getroot()
    config = next(c for c in root.iter("config") if c.get("name") == "server-config")
    return {listener.get("name"): listener.attrib for listener in config.iter("network-listener")}


def _payara_thread_pool_counts(server):
    """Payara's own monitoring figures of the listener's thread pool, {name: count}."""
    output = server.asadmin.run(["get", "-m", "server.network.http-listener-1.thread-pool.*"])
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"thread-pool\.(\w+)-count = (-?\d+)", output)} or None


def _listener_pool(info):
    """The HTTP listener's pool as the WAR's info endpoint reports it (the pool's MBean)."""
    return {p["poolName"]: p for p in info["virtualPools"]}["http-thread-pool::http-listener-1"]


def _assert_nothing_left(server):
    assert server.domain.server_pids() == [], "a server JVM of the domain still runs"
    assert server.process is None or server.process.poll() is not None, "the launcher still runs"
    for name, port in server.ports.bound_at_startup().items():
        try:
            ensure_port_free(port)
        except LabError:
            pytest.fail(f"{name} port {port} still in use after stop")


@pytest.fixture(scope="module", autouse=True)
def test_domain():
    yield
    server = PayaraServer(payara_mode("virtual-4000"), port=PORT, domain_name=DOMAIN)
    shutil.rmtree(server.domain.dir, ignore_errors=True)
    shutil.rmtree(server.run_dir, ignore_errors=True)


def test_virtual_4000_on_payara_server_then_a_wrong_admin_password(tmp_path):
    ensure_built(log=lambda message: None)
    mode = payara_mode("virtual-4000")
    server = PayaraServer(mode, port=PORT, domain_name=DOMAIN, log=lambda message: None)
    try:
        with server:
            pid = server.pid
            status, info = _get_json(server.base_url + "/api/sleep?ms=20")
            assert status == 200 and info["virtual"] is True and info["sleptMs"] >= 20

            info = server.info()
            assert info["pid"] == pid
            listener_pool = _listener_pool(info)
            assert listener_pool["variant"] == "dev.loomlab.virtualpool.BoundedVirtualThreadPool"
            assert listener_pool["maxConcurrent"] == 4000  # from the mode's pre-boot file, through asadmin
            # No 512 MB cap: the heap is sized like Payara Micro's (the JVM default).
            assert info["maxHeapBytes"] > 600 * 1024 * 1024

            with urllib.request.urlopen(server.console_url, timeout=30) as console:
                # 202 while the console installs itself on first use, then 200.
                assert console.status in (200, 202) and b"Payara Server Administration Console" in console.read()
            listeners = _listeners(server.domain.domain_xml)
            assert listeners["http-listener-1"].get("address") == "127.0.0.1"
            assert listeners["admin-listener"].get("address") == "127.0.0.1"
            # One app listener, as on Micro: the TLS one would build a second pool with its own bound.
            assert listeners["http-listener-2"].get("enabled") == "false"
            assert len(info["virtualPools"]) == 1

            # What virtual-pool/README.md says of monitoring: Payara's own figures of the HTTP thread
            # pool come from probes of Grizzly's pool classes, which the lab's pool does not fire, so
            # with 20 requests in flight they read 0 (a platform pool of 4000 read 40 busy with 40 in
            # flight, by hand); the pool's MBean counts them.
            configured = server.domain.domain_xml.read_bytes()
            server.asadmin.run(["enable-monitoring", "--modules", "thread-pool=HIGH:http-service=HIGH"])
            in_flight = [threading.Thread(target=_get_json, args=(server.base_url + "/api/sleep?ms=6000",))
                         for _ in range(20)]
            for request in in_flight:
                request.start()
            try:
                assert wait_for(lambda: _listener_pool(server.info())["active"] >= 20 or None, 5), "the 20 requests never ran"
                # Payara registers the figures a moment after monitoring is enabled.
                counts = wait_for(lambda: _payara_thread_pool_counts(server), 4)
                assert counts is not None, "Payara's monitoring showed no thread-pool figures"
                assert counts["currentthreadsbusy"] == 0 and counts["currentthreadcount"] == 0, counts
            finally:
                for request in in_flight:
                    request.join()
            assert _listener_pool(server.info())["completed"] >= 21
            assert _payara_thread_pool_counts(server)["totalexecutedtasks"] == 0
        _assert_nothing_left(server)
        # enable-monitoring wrote domain.xml: back to the configured domain, so the tests after this
        # one boot it as it is instead of configuring it again.
        server.domain.domain_xml.write_bytes(configured)

        saved = server.domain.password_file.read_text()
        wrong = tmp_path / "wrong-password"
        wrong.write_text("certainly-not-the-password\n")
        refused = PayaraServer(mode, port=PORT, domain_name=DOMAIN, admin_password_file=wrong,
                               log=lambda message: None)
        with pytest.raises(AdminPasswordRefused, match=f"does not accept the admin password in {wrong}"):
            refused.start()
        _assert_nothing_left(refused)
        assert server.domain.password_file.read_text() == saved, "a refused password must not replace the saved one"
    finally:
        server.stop()


@pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root (CI runs as root)")
def test_the_domain_configured_here_serves_from_the_server_host_and_leaves_nothing_there():
    from labkit.hosts import cluster
    from labkit.hosts.options import parse_host
    from labkit.servers.appserver.on_host import DomainOnHost
    from labkit.tests.test_remote_server_e2e import java_processes_in

    ensure_built(log=lambda message: None)
    [srv] = cluster.up(1, log=lambda message: None)
    server = PayaraServer(payara_mode("virtual-4000"), port=PORT, domain_name=DOMAIN, log=lambda message: None)
    there = DomainOnHost(server, parse_host("srv", cluster.hosts()))
    try:
        with there:
            assert there.base_url == f"http://{srv.address}:{PORT}"
            status, info = _get_json(there.base_url + "/api/sleep?ms=20")
            assert status == 200 and info["virtual"] is True
            info = there.info()
            # The pid is the server JVM's inside srv (not its launcher's), and /proc is read there.
            assert info["pid"] == there.pid and there.pid in java_processes_in(srv.netns)
            reading = wait_for(there.proc_feed.latest, 10)
            assert reading is not None and reading.process_status.rss_kb > 100_000
            assert _listener_pool(info)["maxConcurrent"] == 4000  # the mode went with the domain
            assert server.domain.server_pids() == []  # nothing serves here
            command = there.printable_command()
            assert "~/.loomlab/files/payara6-" in command and "start-domain" in command and "AS_JAVA=" in command
        assert java_processes_in(srv.netns) == [], "the launcher or the server JVM outlived stop()"
    finally:
        there.stop()
        cluster.down(log=lambda message: None)
