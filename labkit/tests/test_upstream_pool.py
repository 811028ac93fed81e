"""Grizzly 5's own virtual-thread executor on Payara (grizzly5-pool/, mode upstream-virtual-N): the jar
moves the released Grizzly 5 classes out of the packages Payara's Grizzly 4 already has, and on Payara
Micro the executor serves the lab's requests on virtual threads and holds the mode's bound."""
import json
import time
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pytest

from labkit.ground.build import GRIZZLY5_POOL_JAR, ensure_built, pom_property
from labkit.servers.modes import payara_mode
from labkit.servers.payara_micro import PayaraMicro

PORT = 18096
UPSTREAM = "dev/loomlab/grizzly5pool/upstream/"


def test_the_jar_carries_grizzly_5_moved_out_of_payaras_packages_and_names_its_version():
    ensure_built((GRIZZLY5_POOL_JAR,))
    with zipfile.ZipFile(GRIZZLY5_POOL_JAR) as jar:
        names = jar.namelist()
        manifest = jar.read("META-INF/MANIFEST.MF").decode()
        adapter = jar.read("dev/loomlab/grizzly5pool/Grizzly5VirtualThreadPool.class")
    assert UPSTREAM + "threadpool/VirtualThreadExecutorService.class" in names
    # A class left in org/glassfish/grizzly/ would meet Payara's Grizzly 4 class of the same name.
    assert not [name for name in names if name.startswith("org/glassfish/grizzly/")]
    # The adapter calls the moved executor, and Payara's own grizzly-config (not moved).
    assert (UPSTREAM + "threadpool/VirtualThreadExecutorService").encode() in adapter
    assert b"org/glassfish/grizzly/config/ConfigAwareElement" in adapter
    assert f"Grizzly-Version: {pom_property('grizzly5.version')}" in manifest


def _sleep(seconds):
    url = f"http://127.0.0.1:{PORT}/api/sleep?ms={int(seconds * 1000)}&depth=1"
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, json.load(response)


@pytest.mark.server
def test_upstream_virtual_2_serves_on_grizzly_5s_virtual_threads_two_requests_at_a_time():
    ensure_built()
    mode = payara_mode("upstream-virtual-2")
    server = PayaraMicro(mode, port=PORT).start()
    try:
        _sleep(0.01)  # the first request compiles and initialises what the timed ones then reuse
        # Four 1-s requests at once on a pool of 2: two run, two wait for a place, so two waves.
        with ThreadPoolExecutor(4) as clients:
            started = time.monotonic()
            answers = list(clients.map(_sleep, [1.0] * 4))
            elapsed = time.monotonic() - started
        log = server.log_path.read_text(errors="replace")
    finally:
        server.stop()
    assert server.process.poll() is not None
    assert [status for status, _ in answers] == [200] * 4
    assert all(body["virtual"] for _, body in answers), answers
    # Grizzly 5 names its threads <pool>-<n>; the lab's own pool would say <pool>-virtual-<n>.
    threads = [body["thread"] for _, body in answers]
    assert all(t.startswith("http-thread-pool::http-listener-") and "-virtual-" not in t for t in threads), threads
    assert 1.95 <= elapsed < 10, f"four 1-s requests on a pool of 2 took {elapsed:.2f} s"
    assert "Grizzly 5 VirtualThreadExecutorService http-thread-pool::http-listener: pool size 2, queue limit -1" in log
