"""Payara Server support without a running server: name translation, ports, passwords, CLI errors."""
import re
import socket
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from labkit import ROOT
from labkit.ground import build
from labkit.servers.appserver import payara_server as ps
from labkit.servers.appserver.commands import jvm_option_argument, preboot_commands, server_command
from labkit.servers.appserver.domain import PortLayout
from labkit.servers.appserver.passwords import generate_password, read_password_file
from labkit.servers.appserver.server import leftover_servers
from labkit.ground.errors import LabError, UsageError
from labkit.servers import modes
from labkit.servers.modes import PAYARA_MODES, payara_mode
from labkit.ground.process import gone
from labkit.catalog import all_targets

MODES = sorted(PAYARA_MODES)


# ---- Micro → Server names -----------------------------------------------------------------------

def test_micro_listener_name_becomes_server_listener_name():
    micro = "set configs.config.server-config.network-config.protocols.protocol.http-listener.http.max-connections=-1"
    assert server_command(micro) == micro.replace("protocol.http-listener.http", "protocol.http-listener-1.http")


@pytest.mark.parametrize("line", [
    "set configs.config.server-config.network-config.protocols.protocol.http-listener-1.http.max-connections=-1",
    "set configs.config.server-config.network-config.network-listeners.network-listener.http-listener-2.address=x",
    "set configs.config.server-config.thread-pools.thread-pool.http-thread-pool.max-thread-pool-size=4000",
    "set configs.config.server-config.network-config.network-listeners.network-listener.admin-listener.address=x",
])
def test_names_that_are_not_the_micro_listener_stay(line):
    assert server_command(line) == line


@pytest.mark.parametrize("mode", [*MODES, "platform-8"])
def test_every_pre_boot_line_is_applied_translated(mode):
    preboot = payara_mode(mode).preboot
    expected = [l.strip() for l in preboot.splitlines() if l.strip() and not l.strip().startswith("#")]
    commands = preboot_commands(preboot)
    assert len(commands) == len(expected)
    assert not any(re.search(r"\.http-listener[.=]", c) for c in commands), "a Micro listener name is left"


def _fragment_settings(path, size):
    """What a domain.xml fragment of domain-config/ says Payara Server should hold, as dotted name →
    value: each element a segment of the name (with its name attribute), each other attribute a setting."""
    text = path.read_text() if size is None else path.read_text().replace(modes.PLACEHOLDER, str(size))
    # A fragment, with comments around its <config>: wrapped to parse it as one document.
    config = ET.fromstring("<fragment>" + text + "</fragment>").find("config")
    found = {}

    def walk(element, prefix):
        for child in element:
            name = prefix + child.tag + ("." + child.get("name") if child.get("name") else "")
            found.update({f"{name}.{attribute}": value for attribute, value in child.attrib.items() if attribute != "name"})
            walk(child, name + ".")
    walk(config, "configs.config.server-config.")
    return found


@pytest.mark.parametrize("mode", [*MODES, "platform-8", "upstream-virtual-4000"])
def test_translated_pre_boot_file_sets_exactly_what_the_domain_xml_fragments_document(mode):
    """The mode's fragment beside its pre-boot file, plus the shared one: together all it sets, nothing else."""
    rendered = payara_mode(mode)
    applied = {}
    for command in preboot_commands(rendered.preboot):
        name, value = command.removeprefix("set ").split("=", 1)
        applied[name] = value  # a later line wins, as in asadmin
    documented = {**_fragment_settings(ROOT / "domain-config" / "shared-limits.domain.xml", None),
                  **_fragment_settings(rendered.source.parent / "domain.xml", rendered.size)}
    assert documented == applied


# ---- ports --------------------------------------------------------------------------------------

def test_ports_follow_asadmin_portbase_from_the_http_port():
    ports = PortLayout.for_http_port(18580)
    assert (ports.base, ports.admin, ports.https) == (18500, 18548, 18581)
    bound = ports.bound_at_startup()
    assert bound["HTTP"] == 18580 and bound["admin console"] == 18548
    assert len(set(bound.values())) == len(bound)
    assert all(18500 <= p <= 18599 for p in bound.values())


@pytest.mark.parametrize("port", [80, 1103, 65530])
def test_ports_whose_derived_ports_do_not_exist_are_refused(port):
    with pytest.raises(UsageError, match="1104..65529"):
        PortLayout.for_http_port(port)


# ---- passwords ----------------------------------------------------------------------------------

def test_password_file_first_line_or_asadmin_form(tmp_path):
    plain = tmp_path / "plain"
    plain.write_text("s3cret-enough\nignored\n")
    asadmin = tmp_path / "asadmin"
    asadmin.write_text("AS_ADMIN_MASTERPASSWORD=other-one\nAS_ADMIN_PASSWORD=from-asadmin-file\n")
    assert read_password_file(plain) == "s3cret-enough"
    assert read_password_file(asadmin) == "from-asadmin-file"


@pytest.mark.parametrize("content, message", [("", "at least 8"), ("short\n", "at least 8"),
                                              ("adminadmin\n", "well-known default"), ("changeit\n", "well-known default")])
def test_weak_or_empty_passwords_are_refused(tmp_path, content, message):
    path = tmp_path / "pw"
    path.write_text(content)
    with pytest.raises(UsageError, match=message):
        read_password_file(path)


def test_missing_password_file_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="No such file"):
        read_password_file(tmp_path / "absent")


def test_generated_passwords_differ_and_are_long():
    first, second = generate_password(), generate_password()
    assert first != second and len(first) >= 20


def test_jvm_option_colons_are_escaped_once_inside_quotes_for_a_multimode_file():
    # The form both servers accept (a doubled escape inside quotes was split at the colon).
    assert jvm_option_argument("-Xlog:gc:file=x") == r"'-Xlog\:gc\:file=x'"
    assert jvm_option_argument("-Xmx2g") == "'-Xmx2g'"
    with pytest.raises(UsageError):
        jvm_option_argument("-Dname='x'")


# ---- bench targets ------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_every_mode_is_a_bench_target_on_payara_server(mode):
    target = all_targets()["server-" + mode]
    assert target.max_concurrent == PAYARA_MODES[mode].max_concurrent
    assert target.virtual == PAYARA_MODES[mode].virtual
    assert target.description.startswith("Payara Server")


# ---- the distribution ---------------------------------------------------------------------------

def test_server_and_micro_come_from_one_payara_release():
    pom = (ROOT / "pom.xml").read_text()
    assert f"<payara.version>{ps.payara_version()}</payara.version>" in pom


def test_a_distribution_maven_cannot_resolve_is_a_clear_error(tmp_path):
    distribution = ps.Distribution(version="0.0.0-no-such-release", home=tmp_path)
    with pytest.raises(LabError, match=r"cannot download the Payara Server distribution "
                                       r"fish\.payara\.distributions:payara:0\.0\.0-no-such-release:zip"):
        distribution.ensure_installed(log=lambda message: None)
    assert list(tmp_path.iterdir()) == [], "a failed download leaves no half-unpacked folder"


# ---- ./lab run ... --server payara-server: bad input ----------------------------------------------

def _lab(*args):
    return subprocess.run([sys.executable, "-m", "labkit.cli", *args], cwd=ROOT, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)


def test_unknown_mode_is_a_usage_error():
    result = _lab("run", "no-such-mode", "--server", "payara-server", "--port", "18580")
    assert result.returncode == 2
    assert "unknown mode 'no-such-mode'" in result.stderr and "virtual-4000" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("busy_offset, name", [(0, "HTTP"), (-32, "admin console")])
def test_a_busy_port_of_the_domain_is_named_before_anything_starts(busy_offset, name):
    http_port = 18590
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", http_port + busy_offset))
        busy.listen()
        result = _lab("run", "virtual", "--server", "payara-server", "--port", str(http_port))
    assert result.returncode == 1
    assert f"port {http_port + busy_offset} ({name} of Payara Server" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_remote_console_without_secure_admin_is_refused():
    result = _lab("run", "virtual", "--server", "payara-server", "--port", "18590", "--console-host", "0.0.0.0")
    assert result.returncode == 2
    assert "--console-host 0.0.0.0" in result.stderr and "loopback" in result.stderr


# ---- servers left by a killed lab ----------------------------------------------------------------

def _fake_process(proc, pid, ppid, *args):
    (proc / str(pid)).mkdir(parents=True)
    (proc / str(pid) / "cmdline").write_bytes(b"\0".join(a.encode() for a in args) + b"\0")
    # A whole stat line, as the kernel writes it (52 fields).
    (proc / str(pid) / "stat").write_text(f"{pid} (java) S {ppid} {pid} {pid} 0 -1 4194560 " + " ".join(["0"] * 44) + "\n")


def test_only_orphaned_servers_of_the_lab_domains_on_the_port_are_leftovers(tmp_path):
    proc, domains = tmp_path / "proc", tmp_path / "domains"
    root = f"-Dcom.sun.aas.instanceRoot={domains}"
    _fake_process(proc, 100, 1, "java", f"{root}/loomlab-18580-virtual", "com.sun.enterprise.glassfish.bootstrap.ASMain")
    _fake_process(proc, 200, 1, "java", "-jar", "admin-cli.jar", "start-domain", "--verbose", "loomlab-18580-platform-4000")
    _fake_process(proc, 201, 200, "java", f"{root}/loomlab-18580-platform-4000", "ASMain")  # a running lab's
    _fake_process(proc, 300, 1, "java", f"{root}/loomlab-1858-virtual", "ASMain")           # another port
    _fake_process(proc, 301, 1, "java", f"{root}/loomlab-18580-virtual/sub", "ASMain")       # not a domain root
    _fake_process(proc, 302, 1, "java", f"{root}/loomlab-it-virtual-4000", "ASMain")        # Arquillian's
    (proc / "self").mkdir()
    assert leftover_servers(domains, 18580, proc_root=proc) == [(100, "loomlab-18580-virtual")]


def test_a_server_left_on_the_port_by_a_killed_lab_is_stopped_before_the_port_check(tmp_path):
    distribution = ps.Distribution(version="test", home=tmp_path)
    port = 19281
    # A stand-in for the orphaned server JVM of another mode's domain: it holds the HTTP port, and its
    # command line names the domain; the shell that starts it exits at once, as the killed launcher did.
    root = f"-Dcom.sun.aas.instanceRoot={distribution.domains_dir}/loomlab-{port}-platform-4000"
    listen = (f"import socket, time; s = socket.socket(); s.bind(('127.0.0.1', {port})); s.listen(); "
              f"time.sleep(120)")
    # Another program on the port would end the wait below before the stand-in listens (one failure).
    assert socket.socket().connect_ex(("127.0.0.1", port)) != 0, f"port {port} is busy before the test"
    subprocess.run(["/bin/sh", "-c", f'"{sys.executable}" -c "{listen}" "{root}" >/dev/null 2>&1 &'], check=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (leftover_servers(distribution.domains_dir, port)
                                               and socket.socket().connect_ex(("127.0.0.1", port)) == 0):
        time.sleep(0.1)
    [(pid, domain)] = leftover_servers(distribution.domains_dir, port)
    messages = []
    server = ps.PayaraServer(PAYARA_MODES["virtual"], port=port, distribution=distribution,
                             java_home=tmp_path, log=messages.append)

    server._check_ports()  # before the fix: "port 19281 (HTTP ...) is in use"

    assert gone(pid)
    assert len(messages) == 1 and f"pid {pid}" in messages[0] and domain in messages[0], messages


def test_a_mode_gets_its_own_pool_jar_in_the_domain_lib_and_a_leftover_of_another_goes(tmp_path, monkeypatch):
    built = {}
    for library in build.POOL_JARS:
        built[library] = tmp_path / "build" / f"{library}.jar"
        built[library].parent.mkdir(exist_ok=True)
        built[library].write_text(f"the {library} jar")
        monkeypatch.setitem(build.POOL_JARS, library, built[library])
    distribution = ps.Distribution(version="test", home=tmp_path)
    for name, wanted in (("upstream-virtual-4000", "grizzly5-pool"), ("virtual", "virtual-pool"), ("platform-4000", None)):
        server = ps.PayaraServer(payara_mode(name), port=19282, distribution=distribution, java_home=tmp_path)
        lib = server.domain.dir / "lib"
        lib.mkdir(parents=True)
        for library in build.POOL_JARS:  # an earlier run's jars, left in the domain
            (lib / f"{library}.jar").write_text("stale")

        server._place_pool_jar()

        placed = {jar.name: jar.read_text() for jar in lib.glob("*.jar")}
        assert placed == ({f"{wanted}.jar": f"the {wanted} jar"} if wanted else {}), name


@pytest.mark.parametrize("option", [["--host", "127.0.0.1\nset x=y"], ["--jvm-opt=-Xmx1g\rdeploy /tmp/x.war"],
                                    ["--server", "payara-server", "--console-host", "127.0.0.1\nx"]])
def test_a_value_with_a_line_break_is_a_usage_error(option):
    # Each value becomes one line of a pre-boot or asadmin multimode file; a break would add a command.
    result = subprocess.run([sys.executable, "-m", "labkit.cli", "run", "virtual", "--port", "19283", *option],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: ./lab run")
    assert "must be a single line" in result.stderr
