"""A server on another host, end to end on the namespace cluster: `./lab run virtual --server-host srv`
starts Payara Micro inside the srv namespace, reached with ssh; it serves from srv's address on a
virtual thread, the pid the lab reports is that JVM's, and a lab killed with SIGKILL leaves no
process in the namespace; a baseline and CargoTracker start there too (CargoTracker with the lab's
operator password). Root only (network namespaces); CI runs as root."""
import base64
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from labkit import ROOT
from labkit.ground.build import ensure_built
from labkit.hosts import cluster

pytestmark = [pytest.mark.server,
              pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root (CI runs as root)")]

PORT = 18087


@pytest.fixture(scope="module")
def srv():
    made = cluster.up(2, log=lambda message: None)
    yield made[0]
    cluster.down(log=lambda message: None)


def jvms_in(netns):
    pids = cluster.namespace_pids(netns)
    out = subprocess.run(["ps", "-o", "pid=,args=", "-p", ",".join(map(str, pids))], stdout=subprocess.PIPE,
                         text=True).stdout if pids else ""
    # The JVM itself, not the shells of the leash around it (their arguments name the jar too).
    return [line for line in out.splitlines() if "payara-micro" in line and line.split()[1].endswith("/bin/java")]


def test_run_on_the_server_host_serves_from_its_address_and_dies_with_the_lab(srv, tmp_path):
    ensure_built(log=lambda message: None)
    lab = subprocess.Popen([sys.executable, "-m", "labkit.cli", "run", "virtual", "--server-host", "srv",
                            "--port", str(PORT)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            line = lab.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("ready:"):
                break
        ready = next((line for line in lines if line.startswith("ready:")), None)
        assert ready, "".join(lines)
        assert f"http://{srv.address}:{PORT}/api/sleep" in ready
        with urllib.request.urlopen(f"http://{srv.address}:{PORT}/api/sleep?ms=5", timeout=30) as response:
            answer = json.load(response)
        assert answer["virtual"] is True
        with urllib.request.urlopen(f"http://{srv.address}:{PORT}/api/info", timeout=30) as response:
            pid = json.load(response)["pid"]
        assert f"(pid {pid}," in ready  # the lab reports the JVM that serves
        assert [line.split()[0] for line in jvms_in(srv.netns)] == [str(pid)]  # and it runs inside srv
        # The command line the lab printed names the copies in the host's work folder...
        command = next(line for line in lines if line.startswith("command:"))
        assert "~/.loomlab/files/payara-micro.jar" in command and "~/.loomlab/files/loomlab.war" in command
        # ... as a user types them there: a run's record names no user's home folder.
        assert os.path.expanduser("~/.loomlab") not in command
        os.kill(lab.pid, signal.SIGKILL)
        lab.wait()
        deadline = time.monotonic() + 40  # the leash: SIGTERM at once, SIGKILL after its grace period
        while jvms_in(srv.netns) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert jvms_in(srv.netns) == [], "the server outlived the lab"
    finally:
        if lab.poll() is None:
            lab.kill()


def test_a_baseline_starts_on_the_server_host_with_its_libs_and_leaves_nothing_there(srv):
    # Helidon: the baseline whose jar names the most libraries (36) in its manifest's Class-Path.
    from labkit.hosts.options import parse_host
    from labkit.servers.baselines import BASELINES, BaselineServer, ensure_baselines_built
    ensure_baselines_built(log=lambda message: None)
    host = parse_host("srv", cluster.hosts())
    server = BaselineServer(BASELINES["helidon"], port=PORT + 1, on=host).start()
    try:
        assert server.base_url == f"http://{srv.address}:{PORT + 1}"
        with urllib.request.urlopen(f"{server.base_url}/api/sleep?ms=5", timeout=30) as response:
            answer = json.load(response)
        assert answer["virtual"] is True
        assert server.info()["pid"] == server.pid
        assert server.pid in cluster.namespace_pids(srv.netns)
        # Its /proc is read inside srv: the feed's process is the JVM there, with the heap of a JVM.
        status = server.proc_feed.latest().process_status
        assert status is not None and status.rss_kb > 20_000
        assert "~/.loomlab/files/baselines-helidon/baselines-helidon.jar" in server.printable_command()
        libs = host.run(["ls", f"{host.workdir}/files/baselines-helidon/libs"]).stdout.split()
        assert len(libs) == len(list((BASELINES["helidon"].jar.parent / "libs").glob("*.jar")))
    finally:
        server.stop()
    assert server.proc_feed is None
    assert java_processes_in(srv.netns) == []


def test_cargotracker_on_the_server_host_serves_its_pages_to_the_labs_operator_login(srv):
    from labkit.apps import cargotracker
    from labkit.hosts.options import parse_host
    from labkit.servers.modes import payara_mode
    ensure_built(cargotracker.ARTIFACTS, log=lambda message: None)
    host = parse_host("srv", cluster.hosts())
    server = cargotracker.payara_micro(payara_mode("virtual"), PORT + 2, on=host).start()
    try:
        assert server.base_url == f"http://{srv.address}:{PORT + 2}"
        with urllib.request.urlopen(f"{server.base_url}/track.xhtml?trackingId={cargotracker.SAMPLE_CARGO}",
                                    timeout=60) as response:
            assert response.status == 200 and cargotracker.SAMPLE_CARGO in response.read().decode()
        # The operator's pages with the password this machine holds: the server there was given it.
        name, _, value = cargotracker.admin_authorization().partition(": ")
        dashboard = urllib.request.Request(f"{server.base_url}/admin/dashboard.xhtml", headers={name: value})
        with urllib.request.urlopen(dashboard, timeout=60) as response:
            assert response.status == 200
        wrong = "Basic " + base64.b64encode(b"admin:not-the-labs-password").decode()
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(f"{server.base_url}/admin/dashboard.xhtml",
                                                          headers={"Authorization": wrong}), timeout=60)
        assert refused.value.code == 401
        there = f"{server.hosted.host_run_dir}/{cargotracker.RUN_FOLDER_PASSWORD_FILE}"
        assert host.run(["stat", "-c", "%a", there]).stdout.strip() == "600"
    finally:
        server.stop()
    assert java_processes_in(srv.netns) == []


def java_processes_in(netns):
    found = []
    for pid in cluster.namespace_pids(netns):
        try:
            program = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        if program.endswith("/java"):
            found.append(pid)
    return found
