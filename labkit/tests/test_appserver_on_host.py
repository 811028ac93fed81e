"""What goes to another host for a full server there (servers/appserver/on_host.py), without a server:
the configured domain with its HTTP listener moved to the host's address and nothing the server
writes at run time, and a distribution tar that is made once and is the same bytes when made again.
The server itself on the srv namespace: test_payara_server_e2e.py."""
import subprocess
import tarfile
from pathlib import Path

import pytest

from labkit.hosts.host import SshHost
from labkit.ground.errors import LabError
from labkit.servers.appserver.domain import PortLayout, ServerDomain
from labkit.servers.appserver.on_host import DomainOnHost, distribution_archive, listener_on, write_domain_archive
from labkit.servers.appserver.payara_server import Distribution, PayaraServer
from labkit.servers.interface import ServerHandle
from labkit.servers.modes import payara_mode

DOMAIN_XML = """<domain>
  <configs><config name="server-config"><network-config><network-listeners>
    <network-listener address="127.0.0.1" port="8080" protocol="http-listener-1" name="http-listener-1" thread-pool="http-thread-pool"></network-listener>
    <network-listener address="127.0.0.1" port="8081" protocol="http-listener-2" name="http-listener-2" enabled="false"></network-listener>
    <network-listener address="127.0.0.1" port="8048" protocol="admin-listener" name="admin-listener"></network-listener>
  </network-listeners></network-config></config></configs>
</domain>
"""


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_only_the_http_listener_moves_to_the_hosts_address():
    moved = listener_on(DOMAIN_XML, "198.18.0.2")
    assert 'address="198.18.0.2" port="8080"' in moved
    assert moved.count('address="198.18.0.2"') == 1  # the admin listener and the TLS one stay on loopback
    assert moved.count('address="127.0.0.1"') == 2
    with pytest.raises(LabError, match="no http-listener-1 with an address"):
        listener_on(DOMAIN_XML.replace('name="http-listener-1"', 'name="other"'), "198.18.0.2")


def test_the_domain_goes_configured_without_what_the_server_writes_at_run_time(tmp_path):
    distribution = Distribution(version="test", home=tmp_path / "payara")
    domain = ServerDomain(distribution, PortLayout(8080), "loomlab-8080-virtual")
    _write(domain.domain_xml, DOMAIN_XML)
    for kept in ("config/keyfile", "config/master-password", "lib/virtual-pool.jar", "applications/loomlab/index.html"):
        _write(domain.dir / kept, kept)
    for dropped in ("config/pid", "osgi-cache/felix/bundle1", "logs/server.log", "loomlab/asadmin.passwords"):
        _write(domain.dir / dropped, dropped)
    archive = tmp_path / "domain.tar"

    write_domain_archive(domain, "198.18.0.2", archive)

    with tarfile.open(archive) as tar:
        files = {member.name: member for member in tar.getmembers() if member.isfile()}
        xml = tar.extractfile(files["loomlab-8080-virtual/config/domain.xml"]).read().decode()
    assert set(files) == {f"loomlab-8080-virtual/{name}" for name in (
        "config/domain.xml", "config/keyfile", "config/master-password", "lib/virtual-pool.jar",
        "applications/loomlab/index.html")}
    assert 'address="198.18.0.2" port="8080"' in xml
    assert files["loomlab-8080-virtual/config/domain.xml"].mode == 0o600
    assert 'address="127.0.0.1" port="8080"' in domain.domain_xml.read_text()  # the domain here is left as it was


def test_the_distribution_tar_leaves_its_domains_out_is_made_once_and_is_the_same_when_made_again(tmp_path):
    distribution = Distribution(version="test", home=tmp_path / "payara")
    _write(distribution.asadmin, "#!/bin/sh\n")
    distribution.asadmin.chmod(0o755)
    _write(distribution.root / "glassfish" / "modules" / "a.jar", "a")
    _write(distribution.domains_dir / "domain1" / "config" / "domain.xml", "<domain/>")

    archive = distribution_archive(distribution)

    with tarfile.open(archive) as tar:
        names = tar.getnames()
        assert tar.getmember("payara6/bin/asadmin").mode & 0o111  # asadmin stays executable
    assert "payara6/glassfish/modules/a.jar" in names
    assert not any(name.startswith("payara6/glassfish/domains") for name in names)
    first = archive.read_bytes()
    (distribution.root / "glassfish" / "modules" / "a.jar").touch()  # a newer time: not in the tar's bytes
    assert distribution_archive(distribution) == archive and archive.read_bytes() == first  # made once
    archive.unlink()
    assert distribution_archive(distribution).read_bytes() == first  # made again: the same bytes, the same copy there


class _Host(SshHost):
    """A server host reached with ssh, as far as a server built for it asks before it starts: its
    address, its work folder, and a JDK 25 at /opt/jdk there (its commands answered here)."""

    def __init__(self):
        super().__init__("bench@perf-7", address="198.18.0.2", workdir="/home/bench/.loomlab")

    def run(self, command, timeout=60, check=True):
        answer = 'JAVA_VERSION="25"\n' if command == ["cat", "/opt/jdk/release"] else ""
        return subprocess.CompletedProcess(command, 0, stdout=answer, stderr="")


def test_a_domain_for_another_host_is_a_server_handle_at_that_hosts_address_before_it_starts(tmp_path):
    server = PayaraServer(payara_mode("virtual"), port=19520, java_home=Path("/no-such-jdk"),
                          distribution=Distribution(version="test", home=tmp_path))
    there = DomainOnHost(server, _Host(), remote_java="/opt/jdk")

    assert isinstance(there, ServerHandle)
    assert there.base_url == "http://198.18.0.2:19520" and there.info_path == server.info_path
    assert there.pid is None and there.process is None
    assert there.server_java_home == "/opt/jdk"  # jcmd there is the host's JDK's
    assert there.domains_there == f"/home/bench/.loomlab/runs/server-{server.domain.name}-on-host/domains"
    assert there.log_path != server.log_path  # the configure log here and the server's log there stay apart


def test_this_machine_serves_the_domain_in_place_and_any_other_host_a_copy(tmp_path):
    """A full server's bench target asks no host whether it is remote: the host's kind decides
    (cli._served_on), and a host kind written later gets the copy, as an SshHost does."""
    from labkit.hosts.local import LocalHost
    from labkit.servers.appserver.cli import _served_on

    server = PayaraServer(payara_mode("virtual"), port=19520, java_home=Path("/no-such-jdk"),
                          distribution=Distribution(version="test", home=tmp_path))
    assert _served_on(LocalHost(), server) is server

    there = _served_on(_Host(), server, remote_java="/opt/jdk", cpus=(1,))
    assert isinstance(there, DomainOnHost) and there.server is server and there.hosted.cpus == (1,)

    class Elsewhere:
        """Not an SshHost: what a domain built for a host asks of it before it starts."""
        workdir = "/srv/loomlab"
        address = "198.18.0.9"

        def server_java_home(self, lab_java_home, given=None):
            return "/opt/jdk"

    elsewhere = _served_on(Elsewhere(), server)
    assert isinstance(elsewhere, DomainOnHost) and elsewhere.base_url == "http://198.18.0.9:19520"
