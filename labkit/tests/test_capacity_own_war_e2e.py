"""./lab capacity for your own application refuses what it cannot measure. The run itself, README's
own line, is test_documented_commands.test_readme_capacity_of_your_war."""
import subprocess
import sys

import pytest

from labkit import ROOT
from labkit.tests.test_own_war_e2e import static_war

pytestmark = pytest.mark.server


def test_a_relative_goal_or_a_sleep_is_refused_with_your_requests(tmp_path):
    war = static_war(tmp_path / "shop.war")
    for extra, said in ((["--slo", "p99=+50ms"], "give an absolute goal"), (["--slo", "p99=200ms", "--sleep", "100"],
                                                                            "your requests (--request/--requests) have none")):
        result = subprocess.run([sys.executable, "-m", "labkit.cli", "capacity", "--war", str(war), "--request",
                                 "GET /shop/index.html", *extra], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=60)
        assert result.returncode == 2 and said in result.stdout, result.stdout
