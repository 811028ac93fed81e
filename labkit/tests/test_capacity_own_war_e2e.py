"""./lab capacity for your own application: a small WAR of the test fixtures on Payara Micro, loaded
with its own request (each checked 2xx before the search), gives a capacity at an absolute goal, with the pool's counters around each window in its report."""
import json
import subprocess
import sys

import pytest

from labkit import ROOT
from labkit.tests.test_own_war_e2e import static_war

pytestmark = pytest.mark.server


def test_capacity_of_your_war_with_your_request(tmp_path):
    war = static_war(tmp_path / "shop.war")
    out = tmp_path / "capacity"
    result = subprocess.run(
        [sys.executable, "-m", "labkit.cli", "capacity", "--modes", "virtual", "--no-reference", "--war", f"{war}:/shop",
         "--request", "GET /shop/index.html", "--slo", "p99=500ms", "--duration", "3", "--preroll", "1",
         "--repeats", "1", "--warmup-min", "0", "--warmup-max", "3", "--warmup-iteration", "1",
         "--warmup-concurrency", "10", "--start-rate", "50", "--max-rate", "100", "--cooldown", "0",
         "--min-young-gcs", "0", "--port", "19150", "--out", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    run = json.loads((out / "results.json").read_text())
    assert run["config"]["wars"] == [{"file": "shop.war", "context_root": "/shop", "bytes": war.stat().st_size}]
    assert run["config"]["scenario"] == "requests"
    targets = [path.read_text() for path in (out / "raw").glob("*.vegeta-targets")]
    assert targets and all(text.startswith("GET http://127.0.0.1:19150/shop/index.html") for text in targets)
    searched = [(p["phase"], p["rate"], p["capacity"]["passed"]) for p in run["points"] if p["phase"] == "search"]
    assert searched and searched[0] == ("search", 50, True), searched
    assert any(p["phase"] == "confirm" and p["capacity"]["passed"] for p in run["points"])
    summary = run["summary"][0]
    assert summary["capacity_rps"]["median"] >= 50, summary
    # The pool's counters around every window, as ./lab bench shows them: virtual's pool counted at
    # least every answered request of the window (the pre-roll's too), on a virtual thread.
    proofs = [p["mode_proof"] for p in run["points"] if p.get("load")]
    assert proofs and all(proof["proven"] is True and proof["request_virtual"] is True for proof in proofs), proofs
    assert all(proof["pool_tasks"] >= proof["requests_sent"] > 0 for proof in proofs), proofs
    report = (out / "report.md").read_text()
    assert "## Your application" in report and "`GET /shop/index.html`: 100 % of requests" in report
    first = next(p for p in run["points"] if p.get("load"))
    assert f"| {first['id']} | virtual | {first['mode_proof']['requests_sent']:,} | {first['mode_proof']['pool_tasks']:,} |" in report


def test_a_relative_goal_or_a_sleep_is_refused_with_your_requests(tmp_path):
    war = static_war(tmp_path / "shop.war")
    for extra, said in ((["--slo", "p99=+50ms"], "give an absolute goal"), (["--slo", "p99=200ms", "--sleep", "100"],
                                                                            "your requests (--request/--requests) have none")):
        result = subprocess.run([sys.executable, "-m", "labkit.cli", "capacity", "--war", str(war), "--request",
                                 "GET /shop/index.html", *extra], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=60)
        assert result.returncode == 2 and said in result.stdout, result.stdout
