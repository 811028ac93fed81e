"""Hosts: the namespace cluster (./lab hosts up/down) and the SSH host the lab reaches it with.

The cluster tests build real network namespaces with Debian's sshd in each (root only: CI runs as
root, and ab-scripts/install-tools.sh installs openssh-server). They check what the remote work
relies on: each host answers SSH at its own address, one host reaches another over HTTP, a remote
command dies with the lab even when the lab is SIGKILLed, files are copied once by checksum, and
`down` leaves no namespace, link or process behind."""
import os
import signal
import subprocess
import sys
import textwrap
import time
import urllib.request

import pytest

from labkit import ROOT
from labkit.ground.errors import UsageError
from labkit.hosts import cluster
from labkit.hosts.host import LocalHost, SshHost, parse_host

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root (CI runs as root)")


def test_a_cluster_is_srv_then_load_hosts_on_the_benchmarking_range():
    hosts = cluster.plan(3, {"srv": "1", "lg2": "0-1"})
    assert [(h.name, h.netns, h.address, h.cpus) for h in hosts] == [
        ("srv", "loomlab-srv", "198.18.0.2", "1"), ("lg1", "loomlab-lg1", "198.18.0.3", None),
        ("lg2", "loomlab-lg2", "198.18.0.4", "0-1")]
    assert all(len(h.veth) <= 15 for h in cluster.plan(cluster.MAX_HOSTS))  # the kernel's limit on link names
    with pytest.raises(UsageError, match="lg5, which a cluster of 3 does not have"):
        cluster.plan(3, {"lg5": "0"})
    with pytest.raises(UsageError, match="1 to 16 hosts"):
        cluster.plan(17)
    assert cluster.parse_cpus("srv=1,lg1=0") == {"srv": "1", "lg1": "0"}
    with pytest.raises(UsageError, match="HOST=CPUS"):
        cluster.parse_cpus("srv")


def test_a_host_is_written_as_ssh_takes_it():
    host = parse_host("bench@perf-7.example:2222")
    assert isinstance(host, SshHost) and (host.target, host.port) == ("bench@perf-7.example", 2222)
    assert host.ssh_command(["echo", "a b"])[-2:] == ["bench@perf-7.example", "echo 'a b'"]
    assert "-p" in host.ssh_command(["true"]) and parse_host("staging").port is None
    assert isinstance(parse_host("local"), LocalHost)
    for bad in ("user@", "a b", "host:99999", "x;rm"):
        with pytest.raises(UsageError):
            parse_host(bad)


@pytest.fixture(scope="module")
def hosts():
    if not cluster.SSHD.is_file():
        pytest.fail("sshd is missing: ab-scripts/install-tools.sh installs openssh-server")
    made = cluster.up(3, log=lambda message: None)
    yield {h.name: parse_host(h.name, made) for h in made}
    cluster.down(log=lambda message: None)


def remote_processes(netns):
    """The commands running in a namespace, its sshd listener aside."""
    pids = cluster.namespace_pids(netns)
    if not pids:
        return []
    out = subprocess.run(["ps", "-o", "args=", "-p", ",".join(map(str, pids))], stdout=subprocess.PIPE, text=True).stdout
    return [line for line in out.splitlines() if line.strip() and "[listener]" not in line]


def answers(url):
    try:
        return urllib.request.urlopen(url, timeout=2).status == 200
    except OSError:
        return False


def wait_for(predicate, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


@needs_root
def test_each_host_answers_ssh_at_its_own_address_and_reaches_the_others_over_http(hosts, tmp_path):
    for name, host in hosts.items():
        assert host.run(["hostname", "-I"]).stdout.split() == [host.address], name
    srv, lg1 = hosts["srv"], hosts["lg1"]
    server = srv.spawn([sys.executable, "-m", "http.server", "--bind", srv.address, "18080"], tmp_path / "http.log",
                       cwd=str(tmp_path))
    try:
        assert wait_for(lambda: answers(f"http://{srv.address}:18080/")), (tmp_path / "http.log").read_text()
        fetch = f"import urllib.request; print(urllib.request.urlopen('http://{srv.address}:18080/').status)"
        assert lg1.run([sys.executable, "-c", fetch]).stdout.strip() == "200"
        # srv listens on its own address only: its loopback is its own, not this machine's.
        assert not answers("http://127.0.0.1:18080/")
    finally:
        srv.stop(server)
    assert wait_for(lambda: remote_processes("loomlab-srv") == []), remote_processes("loomlab-srv")


@needs_root
def test_a_remote_command_dies_with_the_lab_even_when_the_lab_is_killed(hosts, tmp_path):
    # A stand-in for the lab: spawns a remote command that ignores SIGHUP, then waits to be killed.
    lab = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from labkit.hosts import cluster
        from labkit.hosts.host import parse_host
        host = parse_host("lg1", cluster.hosts())
        host.spawn(["sh", "-c", "trap '' HUP; echo started; exec sleep 400"], {str(tmp_path / 'remote.log')!r})
        time.sleep(600)
    """)
    process = subprocess.Popen([sys.executable, "-c", lab])
    try:
        assert wait_for(lambda: "sleep 400" in "".join(remote_processes("loomlab-lg1")), timeout=15)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert wait_for(lambda: remote_processes("loomlab-lg1") == [], timeout=10), remote_processes("loomlab-lg1")
    finally:
        if process.poll() is None:
            process.kill()


@needs_root
def test_a_file_is_copied_once_and_again_when_it_changes(hosts, tmp_path, monkeypatch):
    srv = hosts["srv"]
    local = tmp_path / "payload.bin"
    local.write_bytes(os.urandom(4096))
    copies = []
    real_scp = srv._scp
    monkeypatch.setattr(srv, "_scp", lambda source, destination: (copies.append(source), real_scp(source, destination)))
    folder = f"test-{os.getpid()}"
    remote = srv.put(local, folder)
    assert srv.put(local, folder) == remote and len(copies) == 1  # same content: not sent again
    local.write_bytes(os.urandom(4096))
    srv.put(local, folder)
    assert len(copies) == 2
    assert srv.run(["sha256sum", remote]).stdout.split()[0] == __import__("hashlib").sha256(local.read_bytes()).hexdigest()
    srv.run(["rm", "-rf", f"{srv.workdir}/{folder}"])


@needs_root
def test_down_removes_every_namespace_link_and_sshd():
    made = cluster.up(2, log=lambda message: None)
    assert [h.netns for h in made] == ["loomlab-srv", "loomlab-lg1"] and len(cluster.hosts()) == 2
    sshd = subprocess.run(["pgrep", "-f", str(cluster.STATE_DIR / "sshd_config")], stdout=subprocess.PIPE, text=True)
    assert len(sshd.stdout.split()) == 2
    cluster.down(log=lambda message: None)
    assert cluster.namespaces() == [] and cluster.hosts() == []
    links = subprocess.run(["ip", "-o", "link", "show"], stdout=subprocess.PIPE, text=True).stdout
    assert cluster.BRIDGE not in links and cluster.VETH_PREFIX not in links
    assert list(cluster.NETNS_ETC.glob(cluster.PREFIX + "*")) == []
    assert subprocess.run(["pgrep", "-f", str(cluster.STATE_DIR / "sshd_config")]).returncode == 1


def test_load_hosts_refuse_a_split_they_cannot_make(tmp_path):
    from labkit.ground.errors import LabError
    from labkit.load.drivers.base import LoadSpec
    from labkit.load.tools import DRIVERS
    from labkit.load.spread import SpreadRun
    hosts = [SshHost("lg1"), SshHost("lg2"), SshHost("lg3")]
    spec = LoadSpec(url="http://198.18.0.2:8080/", concurrency=10, duration_s=5, timeout_s=5, rate=2,
                    side_file_prefix=tmp_path / "p")
    with pytest.raises(LabError, match="2 req/s cannot be split over 3 load hosts"):
        SpreadRun(DRIVERS["vegeta"], "vegeta", spec, hosts, ())
    body = tmp_path / "body.json"
    body.write_text("{}")
    spec = LoadSpec(url="http://198.18.0.2:8080/", concurrency=10, duration_s=5, timeout_s=5, rate=30,
                    side_file_prefix=tmp_path / "p", body_file=body)
    with pytest.raises(LabError, match="cannot send request bodies yet"):
        SpreadRun(DRIVERS["vegeta"], "vegeta", spec, hosts, ())
