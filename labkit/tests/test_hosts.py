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

from pathlib import Path

import pytest

from labkit import ROOT
from labkit.ground.errors import UsageError
from labkit.hosts import cluster
from labkit.hosts.host import SshHost
from labkit.hosts.local import LocalHost
from labkit.hosts.java import bundled_jdk_on
from labkit.hosts.options import parse_host
from labkit.measure.server_setup import ServerSetup

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
    # own_connection: no master connection is tried for a host that is not there.
    assert host.ssh_command(["echo", "a b"], own_connection=True)[-2:] == ["bench@perf-7.example", "echo 'a b'"]
    assert "-p" in host.ssh_command(["true"], own_connection=True) and parse_host("staging").port is None
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
    """The commands running in a namespace, its sshd aside (the listener, and the sessions of the
    master connections this test process holds: hosts/ssh_master.py)."""
    pids = cluster.namespace_pids(netns)
    if not pids:
        return []
    out = subprocess.run(["ps", "-o", "args=", "-p", ",".join(map(str, pids))], stdout=subprocess.PIPE, text=True).stdout
    return [line for line in out.splitlines() if line.strip() and not line.startswith(("sshd:", "sshd-session:"))]


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
        from labkit.hosts.options import parse_host
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
def test_short_commands_go_over_one_master_connection_and_without_it_when_it_is_gone(hosts):
    srv = parse_host("srv", cluster.hosts())    # a host object of its own: its own master
    assert [srv.run(["echo", str(i)]).stdout.strip() for i in range(3)] == ["0", "1", "2"]
    master = srv._master
    assert master.process.poll() is None and master.socket.exists()
    assert f"ControlPath={master.socket}" in srv.ssh_command(["true"])
    assert f"ControlPath={master.socket}" not in srv.ssh_command(["true"], own_connection=True)
    check = subprocess.run(["ssh", "-O", "check", "-o", f"ControlPath={master.socket}", *master.ssh_arguments],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert check.returncode == 0 and "Master running" in check.stdout, check.stdout
    # The master gone (as when its process is killed), commands connect by themselves.
    master.process.kill()
    master.process.wait()
    assert srv.run(["echo", "still"]).stdout.strip() == "still"
    folder = master.folder
    master.close()
    assert master.process is None and not folder.exists()


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
def test_files_copied_together_go_in_one_copy_and_only_those_that_differ(hosts, tmp_path, monkeypatch):
    srv = hosts["srv"]
    files = []
    for name in ("a.jar", "b.jar", "c.jar"):
        files.append(tmp_path / name)
        files[-1].write_bytes(os.urandom(2048))
    copies = []
    real_scp = srv._scp
    monkeypatch.setattr(srv, "_scp", lambda *args: (copies.append(args[:-1]), real_scp(*args)))
    folder = f"test-{os.getpid()}/libs"
    remote = srv.put_all(files, folder)
    assert remote == [f"{srv.workdir}/{folder}/{name}" for name in ("a.jar", "b.jar", "c.jar")]
    assert len(copies) == 1 and len(copies[0]) == 3  # one scp for the three
    files[1].write_bytes(os.urandom(2048))
    assert srv.put_all(files, folder) == remote
    assert copies[1:] == [(str(files[1]),)]  # only the changed one is sent again
    assert srv.put_all(files, folder) == remote and len(copies) == 2
    digests = srv.run(["sha256sum", *remote]).stdout.split()[::2]
    assert digests == [__import__("hashlib").sha256(f.read_bytes()).hexdigest() for f in files]
    srv.run(["rm", "-rf", f"{srv.workdir}/test-{os.getpid()}"])


@needs_root
def test_a_bundles_jdk_goes_to_a_host_once_per_bundle_whole_or_not_at_all(hosts, tmp_path):
    srv = hosts["srv"]
    jdk = tmp_path / "jdk"
    (jdk / "bin").mkdir(parents=True)
    (jdk / "bin" / "java").write_text("#!/bin/sh\necho bundled\n")
    (jdk / "bin" / "java").chmod(0o755)
    (jdk / "release").write_text('JAVA_VERSION="25.0.3"\n')
    manifest = tmp_path / "BUNDLE.json"
    manifest.write_text('{"made_at": "%d"}' % os.getpid())
    remote = bundled_jdk_on(srv, jdk, manifest)
    try:
        assert remote.startswith(f"{srv.workdir}/jdk-")
        assert srv.run([f"{remote}/bin/java"]).stdout == "bundled\n"  # executable bits kept
        assert srv.run(["cat", f"{remote}/release"]).stdout == 'JAVA_VERSION="25.0.3"\n'
        (jdk / "release").write_text('JAVA_VERSION="99"\n')
        assert bundled_jdk_on(srv, jdk, manifest) == remote  # the same bundle: nothing copied again
        assert srv.run(["cat", f"{remote}/release"]).stdout == 'JAVA_VERSION="25.0.3"\n'
        assert srv.run(["sh", "-c", f'ls -d {remote}*']).stdout.split() == [remote]  # no .partial left
        manifest.write_text('{"made_at": "another bundle"}')
        other = bundled_jdk_on(srv, jdk, manifest)
        assert other != remote and srv.run(["cat", f"{other}/release"]).stdout == 'JAVA_VERSION="99"\n'
    finally:
        srv.run(["sh", "-c", f'rm -rf {srv.workdir}/jdk-*'])


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


def test_a_load_hosts_targets_name_the_request_bodies_copied_there(tmp_path):
    from labkit.load.drivers.base import LoadSpec
    from labkit.load.requests_mix import Request, RequestMix
    from labkit.load.spread import body_files, stage_targets
    from labkit.load.tools import DRIVERS
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    order, refund = tmp_path / "a" / "body.json", tmp_path / "b" / "body.json"  # one file name, two bodies
    order.write_text('{"item": 1}')
    refund.write_text('{"refund": 1}')

    class Host:  # what SshHost.put does, without a host: the path the file gets there
        def __init__(self):
            self.sent = []

        def put(self, path, folder):
            self.sent.append((str(path), folder))
            return f"/home/lg/.loomlab/{folder}/{Path(path).name}"

    mix = RequestMix((Request("POST", "/shop/order", body=order.read_bytes(), body_file=order),
                      Request("POST", "/shop/refund", body=refund.read_bytes(), body_file=refund),
                      Request("GET", "/shop/")))
    spec = LoadSpec(url="http://198.18.0.2:8080", concurrency=10, duration_s=5, timeout_s=5, rate=30,
                    side_file_prefix=tmp_path / "p", requests=mix)
    driver = DRIVERS["vegeta"]
    driver.command(spec, "vegeta")  # writes the targets file, naming the bodies here
    host = Host()
    assert body_files(spec) == [str(order.resolve()), str(refund.resolve())]
    remote = stage_targets(host, driver.targets_file(spec), body_files(spec))
    assert remote == f"/home/lg/.loomlab/load/{driver.targets_file(spec).name}"
    assert host.sent == [(str(order.resolve()), "load/bodies/0"), (str(refund.resolve()), "load/bodies/1"),
                         (str(driver.targets_file(spec)), "load")]
    text = driver.targets_file(spec).read_text()
    assert "@/home/lg/.loomlab/load/bodies/0/body.json" in text and "@/home/lg/.loomlab/load/bodies/1/body.json" in text
    assert str(tmp_path) not in text and "GET http://198.18.0.2:8080/shop/" in text


def test_server_host_takes_every_server_kind_and_names_a_target_that_cannot_move():
    from dataclasses import dataclass
    from types import SimpleNamespace

    from labkit.catalog import all_targets
    from labkit.commands.where import on_server_host
    from labkit.servers.registry import Target

    @dataclass(frozen=True)
    class Config:
        setup: ServerSetup = ServerSetup()

    catalog = all_targets()
    args = SimpleNamespace(server_host=SshHost("bench@perf-7"), remote_java="/opt/jdk-25")
    movable = {name: catalog[name] for name in ("virtual", "platform-4000", "jdk-virtual", "helidon", "vertx-virtual",
                                                "cargotracker-virtual", "server-virtual", "glassfish-virtual")}
    config = on_server_host(Config(), args, movable)
    assert config.setup.server_host is args.server_host and config.setup.remote_java == "/opt/jdk-25"
    # A kind that can only start here (a stand-in: every kind the lab has can move).
    here_only = {name: Target(name, "starts here only", None, start=lambda port: None) for name in ("a-here", "b-here")}
    with pytest.raises(UsageError) as refused:
        on_server_host(Config(), args, {**movable, **here_only})
    named = str(refused.value)
    assert named.startswith("--server-host: a-here, b-here cannot start on another host")
    assert "jdk-virtual" not in named.split("(")[0]  # only the ones that cannot
    # This machine: nothing to check, every target starts here.
    assert on_server_host(Config(), SimpleNamespace(server_host=LocalHost(), remote_java=None),
                          {"server-virtual": catalog["server-virtual"]}) == Config()


def test_a_remote_command_is_recorded_with_its_home_folder_as_a_user_types_it():
    host = SshHost("perf@bench-7")
    host._home = "/home/perf"  # what `printf %s "$HOME"` answered there
    line = host.printable(["/opt/jdk/bin/java", "-jar", "/home/perf/.loomlab/files/payara-micro.jar",
                           "--deploy", "/home/perf/.loomlab/files/my shop.war:/shop", "/home/perfect/x"])
    assert line == ("/opt/jdk/bin/java -jar ~/.loomlab/files/payara-micro.jar "
                    "--deploy ~/'.loomlab/files/my shop.war:/shop' /home/perfect/x")
    # The shell there expands ~ and joins the quoted rest: the recorded line runs as it was run.
    words = subprocess.run(["sh", "-c", 'HOME=/home/perf; eval "set -- $0"; printf "%s\\n" "$@"', line],
                           stdout=subprocess.PIPE, text=True, check=True).stdout.splitlines()
    assert words[2:5] == ["/home/perf/.loomlab/files/payara-micro.jar", "--deploy",
                          "/home/perf/.loomlab/files/my shop.war:/shop"]
    assert LocalHost().printable(["java", "-jar", "my shop.war"]) == "java -jar 'my shop.war'"


def test_load_hosts_on_the_servers_kernel_are_the_load_tool_not_other_load():
    from types import SimpleNamespace

    from labkit.measure.session import count_load_hosts_beside
    box, elsewhere = SimpleNamespace(kernel=lambda: "boot-a"), SimpleNamespace(kernel=lambda: "boot-b")
    hosts = [SimpleNamespace(kernel=lambda: "boot-a"), SimpleNamespace(kernel=lambda: "boot-b")]
    per_host = [{"host": "lg1", "cpu_s": 12.0}, {"host": "lg-far", "cpu_s": 30.0}]

    def resources():
        return {"server": {"cpu_cores": 0.9}, "machine": {"busy_cores": 1.5, "other_cores": 0.6}}

    # lg1 shares the server machine's kernel (a namespace of one box): its 12 s over 60 s are 0.2 cores.
    on_the_box = resources()
    count_load_hosts_beside(on_the_box, hosts, per_host, box, wall_s=60)
    assert on_the_box["machine"]["load_hosts_cores"] == 0.2 and on_the_box["machine"]["other_cores"] == 0.4
    # Seen from a machine that runs neither, no load host's CPU is on it: other load stays.
    apart = resources()
    count_load_hosts_beside(apart, hosts, per_host, SimpleNamespace(kernel=lambda: "boot-c"), wall_s=60)
    assert apart["machine"]["load_hosts_cores"] == 0 and apart["machine"]["other_cores"] == 0.6
    # Never below zero; and nothing to correct without the machine's figures.
    both = resources()
    count_load_hosts_beside(both, [hosts[0], SimpleNamespace(kernel=lambda: "boot-a")], per_host, box, wall_s=60)
    assert both["machine"]["other_cores"] == 0.0
    bare = {"server": {"cpu_cores": 0.9}}
    count_load_hosts_beside(bare, hosts, per_host, elsewhere, wall_s=60)
    assert bare == {"server": {"cpu_cores": 0.9}}


def test_a_machine_whose_kernel_cannot_be_read_has_no_load_host_beside_it():
    from types import SimpleNamespace

    from labkit.measure.session import count_load_hosts_beside
    unknown = SimpleNamespace(kernel=lambda: None)
    resources = {"server": {"cpu_cores": 0.5}, "machine": {"busy_cores": 1.0, "other_cores": 0.5}}
    count_load_hosts_beside(resources, [unknown], [{"cpu_s": 30.0}], unknown, wall_s=60)
    assert resources["machine"]["other_cores"] == 0.5 and resources["machine"]["load_hosts_cores"] == 0


def test_the_jdk_on_a_host_is_looked_up_once_per_run_not_at_every_server_start():
    from types import SimpleNamespace

    from labkit.hosts.java import java_home_on

    class CountingHost(SshHost):
        calls = 0

        def run(self, command, check=True, **ignored):
            CountingHost.calls += 1
            return SimpleNamespace(returncode=0, stdout="/usr/lib/jvm/jdk-17\t17\t\n/opt/jdk-25\t25\t\n", stderr="")

    host = CountingHost("bench@perf-7")
    assert [java_home_on(host) for _ in range(3)] == ["/opt/jdk-25"] * 3
    assert CountingHost.calls == 1
