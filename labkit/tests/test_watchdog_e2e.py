"""The stall watchdog against the lab's own reproduction of carrier starvation (GET /api/contend):
Payara Micro in `virtual` with two carriers and three requests at once (one holds the lock and
sleeps, two spin for it, one per carrier) stalls, and the watchdog's thread dump names the
spinning frame; `platform-4000` under the same load stays alive. About two minutes: two Payara
Micro starts and 8 s windows.
"""
import json
import subprocess
import sys

import pytest

from labkit import ROOT
from labkit.tests.test_bench_e2e import alive

pytestmark = pytest.mark.server

SPINNING_FRAME = "dev.loomlab.app.contend.SpinLock.acquire"


def test_virtual_stalls_with_carrier_starvation_in_the_spinner_while_platform_stays_alive(tmp_path):
    out = tmp_path / "run"
    command = [sys.executable, "-m", "labkit.cli", "bench", "--scenario", "contend", "--modes", "virtual,platform-4000",
               "--carriers", "2", "--concurrency", "3", "--warmup", "0", "--duration", "8", "--repeats", "1",
               "--stall-after", "4", "--port", "19400", "--out", str(out)]
    result = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=600)
    # A stalled point has no result: the run must not pass as complete.
    assert result.returncode == 1, result.stdout[-3000:]
    run = json.loads((out / "results.json").read_text())
    assert run["state"] == "failed" and run["config"]["carriers"] == 2
    points = {p["mode"]: p for p in run["points"]}
    assert set(points) == {"virtual", "platform-4000"}, result.stdout[-3000:]

    virtual = points["virtual"]
    assert "stalled" in virtual["flags"] and "failed" in virtual["flags"]
    stall = virtual["watchdog"]["stall"]
    summary = stall["dump"]["summary"]
    assert summary["cause"]["kind"] == "carrier-starvation", summary
    assert summary["cause"]["frame"] == SPINNING_FRAME
    assert [c["code"] for c in summary["carriers"]] == [SPINNING_FRAME, SPINNING_FRAME]
    assert summary["idle_carriers"] == 0
    dump = json.loads((out / virtual["files"]["threads"]).read_text())
    assert any(str(t.get("virtual")).lower() == "true"
               for c in dump["threadDump"]["threadContainers"] for t in c.get("threads") or ())

    platform = points["platform-4000"]
    assert "stalled" not in platform["flags"] and platform["failure"] is None
    watchdog = platform["watchdog"]
    assert watchdog["stall"] is None and watchdog["answered"] == watchdog["probes"] >= 5
    assert platform["load"]["ok"] > 0

    report = (out / "report.md").read_text()
    assert "## Stalls" in report and "**carrier-starvation**" in report and SPINNING_FRAME in report
    for session in run["sessions"]:
        assert not alive(session["pid"])
