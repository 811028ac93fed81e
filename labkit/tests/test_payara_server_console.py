"""The admin console in headless Chromium: the path to http-thread-pool, and proof that its
max-thread-pool-size is also the bound of the LoomLab virtual pool (virtual-4000 → 8 → restart).

Opt-in (about 3 to 4 minutes: a domain, two boots, a console restart):
    LOOMLAB_CONSOLE_TEST=1 .venv/bin/python -m pytest -q labkit/tests/test_payara_server_console.py
Needs Debian's chromium and chromium-driver. With LOOMLAB_UPDATE_SCREENSHOTS=1 the screenshots
replace those in docs/payara-server/ (the README shows them); otherwise they go to a temp folder.
"""
import json
import os
import shutil
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from labkit import ROOT
from labkit.ground.build import ensure_built
from labkit.servers.modes import payara_mode
from labkit.servers.appserver.payara_server import PayaraServer

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(os.environ.get("LOOMLAB_CONSOLE_TEST") != "1", reason="opt-in: LOOMLAB_CONSOLE_TEST=1"),
    pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="needs apt-get install chromium chromium-driver"),
]

PORT = 18570  # console on 18538
DOMAIN = f"loomlab-console-test-{PORT}"
NEW_BOUND = 8
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--no-first-run", "--window-size=1280,1000")
THREAD_POOL_FIELD = "propertyForm:propertySheet:propertSectionTextField:{}:{}"


class Console:
    """The Payara admin console as a user clicks through it (its pages swap content in place)."""

    def __init__(self, url, password, profile_dir, screenshots):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile_dir}"):
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(300)
        self.url, self.password, self.screenshots = url, password, screenshots

    def wait(self, condition, timeout=180):
        from selenium.common.exceptions import (ElementNotInteractableException, NoSuchElementException,
                                                StaleElementReferenceException)
        from selenium.webdriver.support.ui import WebDriverWait
        ignored = (NoSuchElementException, StaleElementReferenceException, ElementNotInteractableException)
        return WebDriverWait(self.driver, timeout, ignored_exceptions=ignored).until(condition)

    def element(self, element_id):
        from selenium.webdriver.common.by import By
        return self.wait(lambda d: d.find_element(By.ID, element_id))

    def click(self, element_id=None, xpath=None):
        from selenium.webdriver.common.by import By

        def attempt(driver):
            found = driver.find_element(By.ID, element_id) if element_id else driver.find_element(By.XPATH, xpath)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", found)
            found.click()
            return True
        self.wait(attempt)

    def wait_for_title(self, title):
        self.wait(lambda d: d.title == title or d.title.endswith(title))

    def log_in(self):
        from selenium.webdriver.common.by import By
        self.driver.get(self.url)
        # The console installs itself on first use: its login form comes after a "loading" page.
        user = self.wait(lambda d: d.find_element(By.NAME, "j_username"), timeout=300)
        user.send_keys("admin")
        self.driver.find_element(By.NAME, "j_password").send_keys(self.password)
        self.click("loginButton")
        self.wait_for_title("Common Tasks")

    def expand(self, node):
        leaf = node.rsplit(":", 1)[1]
        if not self.element(node + "_children").is_displayed():
            self.click(f"{node}:{leaf}_turner")
            self.wait(lambda d: self.element(node + "_children").is_displayed())

    def open_http_thread_pool(self):
        """Configurations → server-config → Thread Pools → http-thread-pool."""
        tree = "treeForm:tree:configurations"
        self.click(f"{tree}:configurations_link")
        self.wait_for_title("Configurations")
        self.click(f"{tree}:server-config:server-config_link")
        self.wait_for_title("Configuration")
        self.expand(f"{tree}:server-config")
        self.click(f"{tree}:server-config:threadPools:threadPools_link")
        self.wait_for_title("Thread Pools")
        self.shot("1-thread-pools.png")
        self.click(xpath="//form[@id='propertyForm']//a[normalize-space()='http-thread-pool']")
        self.wait_for_title("Edit Thread Pool")

    def field(self, name):
        return self.element(THREAD_POOL_FIELD.format(name, name))

    def save(self):
        from selenium.webdriver.common.by import By
        self.click("propertyForm:propertyContentPage:topButtons:saveButton")
        self.wait(lambda d: "New values successfully saved" in d.find_element(By.TAG_NAME, "body").text)

    def restart_server(self):
        from selenium.webdriver.support import expected_conditions
        self.click("treeForm:tree:applicationServer:applicationServer_link")
        self.wait_for_title("General Information")
        self.shot("4-restart.png")
        self.click("propertyForm:propertyContentPage:restartInstance")
        self.wait(expected_conditions.alert_is_present()).accept()  # "Restart the Payara Server Instance ?"

    def shot(self, name):
        # Few colours are enough for a console page and keep the committed PNGs small.
        from PIL import Image
        raw = self.screenshots / ("raw-" + name)
        self.driver.save_screenshot(str(raw))
        Image.open(raw).convert("RGB").quantize(colors=64).save(self.screenshots / name, optimize=True)
        raw.unlink()

    def close(self):
        self.driver.quit()


def _info(server):
    with urllib.request.urlopen(server.base_url + "/api/info", timeout=30) as response:
        return json.load(response)


def _listener_pool(info):
    return next(p for p in info["virtualPools"] if p["poolName"] == "http-thread-pool::http-listener-1")


def _sleep(server, ms):
    with urllib.request.urlopen(f"{server.base_url}/api/sleep?ms={ms}", timeout=60) as response:
        return response.status


def test_console_path_and_max_thread_pool_size_bounds_the_virtual_pool(tmp_path):
    pytest.importorskip("selenium")
    ensure_built(log=lambda message: None)
    screenshots = ROOT / "docs" / "payara-server" if os.environ.get("LOOMLAB_UPDATE_SCREENSHOTS") == "1" else tmp_path
    screenshots.mkdir(parents=True, exist_ok=True)
    server = PayaraServer(payara_mode("virtual-4000"), port=PORT, domain_name=DOMAIN, log=lambda message: None)
    console = None
    try:
        server.start()
        before = _info(server)
        assert _listener_pool(before)["maxConcurrent"] == 4000

        console = Console(server.console_url, server.admin_password, tempfile.mkdtemp(dir=tmp_path), screenshots)
        console.log_in()
        console.open_http_thread_pool()
        assert console.field("classname").get_attribute("value") == "dev.loomlab.virtualpool.BoundedVirtualThreadPool"
        assert console.field("maxThread").get_attribute("value") == "4000"
        console.shot("2-http-thread-pool.png")
        console.field("maxThread").clear()
        console.field("maxThread").send_keys(str(NEW_BOUND))
        console.save()
        console.shot("3-saved.png")
        # Saved, not applied: Grizzly builds the pool when the listener starts.
        assert _listener_pool(_info(server))["maxConcurrent"] == 4000

        console.restart_server()
        deadline = time.monotonic() + 300
        after = None
        while time.monotonic() < deadline:
            try:
                after = _info(server)
                if after["pid"] != before["pid"]:
                    break
            except OSError:
                pass  # down while restarting
            time.sleep(1)
        assert after is not None and after["pid"] != before["pid"], "the console did not restart the server"
        assert _listener_pool(after)["maxConcurrent"] == NEW_BOUND

        # The bound is enforced, not only reported: twice as many sleeps as the bound, at once.
        with ThreadPoolExecutor(2 * NEW_BOUND) as clients:
            assert set(clients.map(lambda _: _sleep(server, 1500), range(2 * NEW_BOUND))) == {200}
        assert _listener_pool(_info(server))["peakActive"] == NEW_BOUND
    finally:
        if console is not None:
            console.close()
        server.stop()
        assert server.domain.server_pids() == []
        shutil.rmtree(server.domain.dir, ignore_errors=True)
        shutil.rmtree(server.run_dir, ignore_errors=True)
