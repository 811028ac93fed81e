"""One real GlassFish domain, end to end: virtual mode applied, a request on a virtual thread,
nothing listening beyond loopback, and nothing left after stop().

About 1.5 minutes on an idle 2-core machine (plus the ~125 MB download the first time);
LOOMLAB_SKIP_GLASSFISH=1 skips it. Uses its own domain (loomlab-test-19380), removed after.
"""
import ipaddress
import json
import os
import re
import shutil
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from labkit.ground.build import ensure_built
from labkit.ground.errors import LabError
from labkit.servers.appserver.glassfish import GlassFish
from labkit.servers.modes import payara_mode
from labkit.ground.process import ensure_port_free

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(os.environ.get("LOOMLAB_SKIP_GLASSFISH") == "1", reason="LOOMLAB_SKIP_GLASSFISH=1"),
]

PORT = 19380
DOMAIN = f"loomlab-test-{PORT}"


def _get_json(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, json.load(response)


def _listening_addresses(pid):
    """(address, port) of every TCP socket the process listens on, from /proc."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            match = re.fullmatch(r"socket:\[(\d+)\]", os.readlink(fd))
        except OSError:
            continue
        if match:
            inodes.add(match.group(1))
    found = []
    for table, width in (("tcp", 8), ("tcp6", 32)):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state != "0A" or inode not in inodes:  # 0A: LISTEN
                continue
            hex_address, hex_port = local.split(":")
            raw = bytes.fromhex(hex_address)
            # /proc prints each 32-bit word in host (little-endian) order.
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            address = ipaddress.ip_address(raw)
            if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
                address = address.ipv4_mapped
            found.append((address, int(hex_port, 16)))
    return found


def _assert_nothing_left(server):
    assert server.domain.server_pids() == [], "a server JVM of the domain still runs"
    assert server.process is None or server.process.poll() is not None, "the launcher still runs"
    for name, port in server.ports.bound_at_startup().items():
        try:
            ensure_port_free(port)
        except LabError:
            pytest.fail(f"{name} port {port} still in use after stop")


def test_virtual_on_glassfish_serves_on_virtual_threads_on_loopback_and_stops_completely():
    ensure_built(log=lambda message: None)
    server = GlassFish(payara_mode("virtual"), port=PORT, domain_name=DOMAIN, log=lambda message: None)
    try:
        with server:
            pid = server.pid
            status, answer = _get_json(server.base_url + "/api/sleep?ms=20")
            assert status == 200 and answer["sleptMs"] >= 20
            assert answer["virtual"] is True
            assert answer["thread"].startswith("http-thread-pool::http-listener-1-virtual-")

            info = server.info()
            assert info["pid"] == pid
            assert [p["variant"] for p in info["virtualPools"]] == ["dev.loomlab.virtualpool.VirtualThreadPool"]
            assert info["maxHeapBytes"] > 600 * 1024 * 1024, "the default domain's 512 MB cap is removed"

            listening = _listening_addresses(pid)
            assert (ipaddress.ip_address("127.0.0.1"), PORT) in listening
            assert all(address.is_loopback for address, port in listening), listening
            config = next(c for c in ET.parse(server.domain.domain_xml).getroot().iter("config")
                          if c.get("name") == "server-config")
            assert config.find("jms-service").get("type") == "REMOTE"
        _assert_nothing_left(server)
    finally:
        server.stop()
        shutil.rmtree(server.domain.dir, ignore_errors=True)
        shutil.rmtree(server.run_dir, ignore_errors=True)
