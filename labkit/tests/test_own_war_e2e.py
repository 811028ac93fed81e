"""Your own WAR on a real Payara Micro (./lab bench --war ... --request ...): a small foreign WAR (a
static page, no lab code) deployed beside the lab's probe WAR, loaded in a virtual and a platform
mode; the probe's counters show the requests ran on the mode's threads. Then what stops a run
before it measures: a request that does not answer 2xx, and a WAR with a message-driven bean, which
Payara Micro cannot deploy (no JMS broker), but the lab's Payara Server domain (JMS broker embedded)
does. Ports 19630-19632 and 19643 (Payara Server: its ports span 19600-19649); about five minutes in all.
"""
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from labkit import ROOT
from labkit.ground.build import pom_property
from labkit.ground.jdk import find_java_home
from labkit.tests.test_bench_e2e import alive

pytestmark = pytest.mark.server

WEB_XML = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>\n')
LISTENER = """\
package shop;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

// "destination": the broker's physical queue, which the embedded broker creates on first use.
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destination", propertyValue = "orders"),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class OrderListener implements MessageListener {
    @Override
    public void onMessage(Message message) {
    }
}
"""


def static_war(path):
    with zipfile.ZipFile(path, "w") as war:
        war.writestr("WEB-INF/web.xml", WEB_XML)
        war.writestr("index.html", "<html><body>a shop</body></html>\n")
    return path


def message_driven_war(folder):
    """A WAR whose one class is a message-driven bean, compiled here against the Jakarta EE 10 API jar."""
    api = _api_jar()
    source = folder / "src" / "shop" / "OrderListener.java"
    source.parent.mkdir(parents=True)
    source.write_text(LISTENER)
    classes = folder / "classes"
    javac = find_java_home() / "bin" / "javac"
    subprocess.run([str(javac), "--release", "17", "-cp", str(api), "-d", str(classes), str(source)], check=True,
                   timeout=120)
    war = folder / "orders.war"
    with zipfile.ZipFile(war, "w") as archive:
        archive.writestr("WEB-INF/web.xml", WEB_XML)
        archive.writestr("index.html", "orders\n")
        archive.write(classes / "shop" / "OrderListener.class", "WEB-INF/classes/shop/OrderListener.class")
    return war


def _api_jar():
    """The platform API jar of the build (root pom <jakartaee-api.version>), `provided` as in app/pom.xml."""
    version = pom_property("jakartaee-api.version")
    jar = (Path.home() / ".m2" / "repository" / "jakarta" / "platform" / "jakarta.jakartaee-api" / version
           / f"jakarta.jakartaee-api-{version}.jar")
    if not jar.is_file():
        pytest.skip(f"{jar} is not in the local Maven repository (mvn package puts it there)")
    return jar


def bench(*arguments):
    return subprocess.run([sys.executable, "-m", "labkit.cli", "bench", *arguments], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)


def test_a_foreign_war_runs_on_the_modes_threads_as_the_probe_shows(tmp_path):
    war = static_war(tmp_path / "shop.war")
    out = tmp_path / "run"
    result = bench("--war", f"{war}:/shop", "--request", "GET /shop/index.html", "--modes", "virtual,platform-4000",
                   "--concurrency", "8", "--warmup", "0", "--duration", "4", "--repeats", "1", "--port", "19630",
                   "--out", str(out))
    assert result.returncode == 0, result.stdout[-3000:]
    run = json.loads((out / "results.json").read_text())
    assert run["config"]["wars"] == [{"file": "shop.war", "context_root": "/shop", "bytes": war.stat().st_size}]
    assert run["config"]["requests"][0]["path"] == "/shop/index.html"
    points = {p["mode"]: p for p in run["points"]}
    virtual, platform = points["virtual"], points["platform-4000"]
    for point in (virtual, platform):
        assert point["load"]["ok"] > 0 and point["failure"] is None
        assert point["url"].endswith("/shop/index.html")
        # The watchdog probed the probe WAR, not the user's application.
        assert point["watchdog"]["probe"] == "GET /loomlab-probe/api/info"
        assert point["watchdog"]["answered"] == point["watchdog"]["probes"] >= 1
    proof = virtual["mode_proof"]
    assert proof["proven"] is True and proof["request_virtual"] is True
    assert proof["pool_tasks"] >= proof["requests_sent"] == virtual["load"]["responses"] > 0
    proof = platform["mode_proof"]
    assert proof["proven"] is True and proof["request_virtual"] is False and proof["pool_tasks"] is None
    report = (out / "report.md").read_text()
    assert "## Your application" in report and "`shop.war` at `/shop`" in report
    for session in run["sessions"]:
        assert not alive(session["pid"])


def test_a_request_that_does_not_answer_2xx_stops_the_run_before_the_load(tmp_path):
    war = static_war(tmp_path / "shop.war")
    out = tmp_path / "run"
    result = bench("--war", str(war), "--request", "GET /shop/index.html", "--request", "GET /shop/nosuch",
                   "--driver", "wrk", "--modes", "virtual", "--warmup", "0", "--duration", "2", "--repeats", "1",
                   "--port", "19631", "--out", str(out))
    assert result.returncode == 1
    assert "GET /shop/nosuch answered 404" in result.stdout, result.stdout[-3000:]
    run = json.loads((out / "results.json").read_text())
    assert run["points"] == [] and run["state"] == "failed"
    assert not alive(run["sessions"][0]["pid"])


def test_a_war_with_a_message_driven_bean_on_payara_micro_names_the_broker_and_the_full_server(tmp_path):
    war = message_driven_war(tmp_path)
    result = bench("--war", str(war), "--request", "GET /orders/index.html", "--modes", "virtual", "--warmup", "0",
                   "--duration", "2", "--repeats", "1", "--port", "19632", "--out", str(tmp_path / "run"))
    assert result.returncode == 1, result.stdout[-3000:]
    assert "orders.war did not deploy on Payara Micro: it needs a JMS broker" in result.stdout, result.stdout[-3000:]
    assert "--server payara-server" in result.stdout
    assert "Traceback" not in result.stdout


def test_the_same_message_driven_war_deploys_on_payara_server_whose_broker_is_embedded(tmp_path):
    war = message_driven_war(tmp_path)
    out = tmp_path / "run"
    result = bench("--war", str(war), "--request", "GET /orders/index.html", "--modes", "server-virtual",
                   "--concurrency", "4", "--warmup", "0", "--duration", "3", "--repeats", "1", "--port", "19643",
                   "--out", str(out))
    assert result.returncode == 0, result.stdout[-3000:]
    run = json.loads((out / "results.json").read_text())
    point = run["points"][0]
    assert point["load"]["ok"] > 0
    proof = point["mode_proof"]
    assert proof["proven"] is True and proof["pool_tasks"] >= proof["requests_sent"] > 0
    assert not alive(run["sessions"][0]["pid"])
