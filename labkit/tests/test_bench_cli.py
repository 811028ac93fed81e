"""./lab bench refuses bad input up front: a usage line and exit 2 for options, one clear line
and exit 1 for a busy port or a missing load tool. None of these start a server."""
import os
import socket
import subprocess
import sys

import pytest

from labkit import ROOT


def bench(*arguments, env=None):
    return subprocess.run([sys.executable, "-m", "labkit.cli", "bench", *arguments], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)


@pytest.mark.parametrize("arguments,message", [
    (["--concurrency", "abc"], "concurrency must be a comma-separated list"),
    (["--concurrency", "0"], "concurrency must be in 1..20000"),
    (["--sleep", "150-50"], "MIN must not exceed MAX"),
    (["--sleep", "100", "--timeout", "0.05"], "not above the sleep"),
    (["--duration", "0"], "--duration must be in 1..3600"),
    (["--repeats", "two"], "--repeats must be a whole number"),
    (["--modes", "virtual,nosuch"], "unknown mode 'nosuch'"),
    (["--modes", "virtual,nosuch"], "or any platform-N (N from 2 to 10000)"),
    (["--modes", "virtual,platform-1"], "mode platform-1: platform-N (N from 2 to 10000)"),
    (["--modes", "server-platform-007"], "without leading zeros (platform-7)"),
    (["--driver", "jmeter"], "unknown driver 'jmeter'"),
    (["--driver", "wrk", "--rate", "100"], "--rate needs a driver with a fixed-rate mode"),
    (["--steady"], "--steady needs a load tool that records each request's start: use --driver ab,vegeta "
                   "(bombardier and wrk only report whole runs)"),
    (["--steady", "--driver", "ab,wrk"], "--steady needs a load tool that records each request's start"),
    (["--steady", "--driver", "ab", "--warmup", "0"], "--steady needs a warm-up"),
    (["--steady", "--driver", "ab", "--warmup-until-steady"], "--steady warms up inside the measured run"),
    (["--warmup-until-steady", "--warmup", "0"], "--warmup-until-steady needs --warmup above 0"),
    (["--cpus", "server=1,driver=1"], "server and driver share CPU"),
    (["--rate", "100", "--driver", "wrk"], "--rate needs a driver with a fixed-rate mode"),
    (["--steady", "--driver", "ab", "--rate", "100"], "--rate needs a driver with a fixed-rate mode"),
    (["--scenario", "nosuch"], "unknown scenario 'nosuch'"),
    (["--restart", "never"], "invalid choice"),
    (["--name", "../x"], "name may hold"),
    (["--unknown-option"], "unrecognized arguments"),
    (["--jvm-opt=-Xmx1g\ndeploy /tmp/x.war"], "argument --jvm-opt: must be a single line"),
    (["--carriers", "0"], "--carriers must be in 1..10000"),
    (["--carriers", "2", "--jvm-opt=-Djdk.virtualThreadScheduler.parallelism=4"], "both set the carriers"),
    (["--stall-after", "0"], "seconds must be in (0, 3600]"),
])
def test_bad_option_gets_the_usage_line_and_exit_2(arguments, message):
    result = bench(*arguments)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: ./lab")  # unknown options are reported by ./lab itself
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_out_folder_that_is_not_empty_is_refused(tmp_path):
    (tmp_path / "old.txt").write_text("keep me")
    result = bench("--modes", "virtual", "--out", str(tmp_path))
    assert result.returncode == 2 and "is not an empty folder" in result.stderr
    assert (tmp_path / "old.txt").read_text() == "keep me"


def test_busy_port_is_named():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        result = bench("--modes", "virtual", "--port", str(port))
    assert result.returncode == 1
    assert f"port {port} is in use" in result.stderr and "Traceback" not in result.stderr


def test_missing_load_tools_get_one_line_each_saying_how_to_get_them(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))  # neither ab nor wrk on this PATH
    result = bench("--modes", "virtual", "--driver", "ab,wrk", "--port", "18197", env=env)
    assert result.returncode == 1
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    assert lines == ["lab bench: ab is not installed: apt-get install apache2-utils",
                     "wrk is not installed: apt-get install wrk"]
