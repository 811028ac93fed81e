"""The commands the documentation shows are tests: every `./lab` line of README.md, and of the examples
at the top of each docs/commands page (its first bash block), runs here as written, with only these
changes:

- the WAR, request-mix and results-folder names point at fixtures (a WAR of our own with the pages
  the lines request; a copy of the committed folder, as `./lab report` rewrites what it reads);
- host names point at the namespace cluster (`bench@perf-7` is srv, `lg-1,lg-2` are lg1 and lg2;
  `staging` is 127.0.0.1, where the test runs the server that is "already running");
- options that shorten the run (durations, rounds, rates) are appended: argparse keeps an option's
  last value, so an appended `--rate` overrides the line's. Never an option that changes which code
  path runs: `test_only_shortening_options_are_appended` keeps the list to SHORTENING.

A documented line without an entry in CASES fails `test_every_documented_command_has_a_test`, and an
entry whose line left the documentation fails it too. Every run must exit 0 and print no traceback.

Why: the README's own example for your application crashed in its host-speed reference, while the
suite tested the same feature with `--no-reference`, a path no user takes (issue 59).
"""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from labkit import ROOT
from labkit.ground.build import ensure_built
from labkit.tests.test_bench_e2e import alive

# Options that only shorten a run; nothing else may be appended to a documented line.
SHORTENING = frozenset({
    "--duration", "--warmup", "--repeats", "--rate", "--concurrency", "--timeout",    # bench
    "--stall-after",
    "--preroll", "--start-rate", "--max-rate", "--warmup-min", "--warmup-max",       # capacity
    "--warmup-iteration", "--max-window", "--cooldown",
    "--load", "--idle", "--capacity",                                                # soak
    "--passes",                                                                      # micro ring
    "--quick",                                                                       # memory --sweep: small counts
})
# Capacity searches of one window each: 3 s windows (its least) never measured again, 2 s of warm-up,
# and a --max-rate at the start rate, where the search and the round's walk stop (a floor).
CAPACITY_SHORT = ["--duration", "3", "--preroll", "1", "--repeats", "1", "--warmup-min", "0", "--warmup-max", "2",
                  "--warmup-iteration", "1", "--start-rate", "40", "--max-rate", "40", "--max-window", "3",
                  "--cooldown", "0"]
BENCH_SHORT = ["--duration", "2", "--warmup", "1", "--repeats", "1"]
SOAK_SHORT = ["--load", "3", "--idle", "3", "--warmup", "1", "--repeats", "1", "--capacity", "50"]


@dataclass(frozen=True)
class Case:
    """How the suite runs one documented line: `test` is the test function that runs it here (or
    `elsewhere`, why it runs outside this module); `replace` maps a word of the line to the fixture
    name that stands for it; `shorten` is appended."""
    test: str = ""
    replace: tuple = ()
    shorten: tuple = ()
    elsewhere: str = ""


SHOP = (("shop.war", "{war}"),)
CLUSTER = (("bench@perf-7", "srv"), ("lg-1,lg-2", "lg1,lg2"))
SUITE_ITSELF = ".ci/run runs `./lab test` as written; a nested run would run this suite inside itself"

CASES = {
    # README.md
    "./lab bench --quick": Case("test_readme_main_job", shorten=BENCH_SHORT),
    "./lab test": Case(elsewhere=SUITE_ITSELF),
    "./lab capacity --war shop.war --request 'GET /shop/catalog' --slo p99=200ms --modes virtual,platform-4000":
        Case("test_readme_capacity_of_your_war", replace=SHOP, shorten=CAPACITY_SHORT),
    "./lab bench --war shop.war --requests mix.yaml --driver vegeta --modes virtual,platform-4000":
        Case("test_readme_bench_of_your_mix", replace=(*SHOP, ("mix.yaml", "{mix}")),
             shorten=[*BENCH_SHORT, "--rate", "40"]),
    "./lab capacity --server-host bench@perf-7 --load-hosts lg-1,lg-2 --war shop.war --request 'GET /shop/catalog' "
    "--slo p99=200ms --modes virtual,platform-4000":
        Case("test_readme_capacity_on_other_hosts", replace=(*CLUSTER, *SHOP), shorten=CAPACITY_SHORT),
    "./lab bench --url http://staging:8080 --request 'GET /shop/catalog' --driver vegeta --rate 500":
        Case("test_readme_bench_of_a_running_server", replace=(("http://staging:8080", "http://127.0.0.1:8080"),),
             shorten=[*BENCH_SHORT, "--rate", "40"]),
    # docs/commands/bench.md
    "./lab bench --modes virtual,platform-4000 --concurrency 1000": Case("test_bench_examples",
                                                                         shorten=[*BENCH_SHORT, "--concurrency", "20"]),
    "./lab bench --modes virtual --concurrency 2000 --rate 5000": Case("test_bench_examples", shorten=[
        *BENCH_SHORT, "--concurrency", "20", "--rate", "40"]),
    "./lab bench --scenario contend --modes virtual,platform-4000 --carriers 2 --concurrency 3 --repeats 1":
        Case("test_bench_stall_example", shorten=["--warmup", "0", "--duration", "8", "--stall-after", "4"]),
    # docs/commands/capacity.md
    "./lab capacity --modes jdk-virtual,virtual --sleep 100": Case("test_capacity_examples", shorten=CAPACITY_SHORT),
    "./lab capacity --modes jdk-virtual --sleep 100 --slo p99=120ms --duration 10":
        Case("test_capacity_examples", shorten=CAPACITY_SHORT),
    # docs/commands/soak.md
    "./lab soak --modes virtual,platform-4000 --capacity 1500": Case("test_soak_example", shorten=SOAK_SHORT),
    # docs/commands/run.md
    "./lab run virtual": Case("test_run_examples"),
    "./lab run platform-8": Case("test_run_examples"),
    # docs/commands/report.md
    "./lab report docs/results/capacity/s100-run1": Case("test_report_examples", replace=(
        ("docs/results/capacity/s100-run1", "{copy}"),)),
    "./lab report docs/results/overload/run2-pinned": Case("test_report_examples", replace=(
        ("docs/results/overload/run2-pinned", "{copy}"),)),
    # docs/commands/verdict.md
    "./lab verdict": Case("test_verdict_examples"),
    "./lab verdict --check": Case("test_verdict_examples"),
    # docs/commands/memory.md
    "./lab memory -v -n 100000 --depth 1000": Case("test_memory_examples"),
    "./lab memory --sweep": Case("test_memory_examples", shorten=["--quick"]),
    # docs/commands/micro.md
    "./lab micro jmh --quick --prof gc": Case("test_micro_examples"),
    "./lab micro ring --workers 503 --passes 1000000": Case("test_micro_examples", shorten=["--passes", "2000"]),
    "./lab micro echo --sweep 100,1000 --clients nio,platform,virtual --latency-ms 1000": Case("test_micro_examples"),
    # docs/commands/hosts.md
    "./lab hosts up 3 --cpus srv=1,lg1=0": Case("test_hosts_examples"),
    "./lab hosts list": Case("test_hosts_examples"),
    "./lab hosts down": Case("test_hosts_examples"),
    # docs/commands/bundle.md
    "./lab bundle": Case(elsewhere="test_bundle_e2e.py makes a bundle and runs a capacity search from it offline"),
    "./lab bundle --python 3.12": Case(elsewhere="test_bundle_e2e.py makes a bundle with --python, this machine's "
                                                 "line, and runs a capacity search from it offline"),
    # docs/commands/test.md
    "./lab test --quick": Case(elsewhere=SUITE_ITSELF),
    "./lab test -- -Pbig-pools": Case(elsewhere=SUITE_ITSELF),
}


# ---- what the documentation shows ---------------------------------------------------------------

def bash_blocks(text):
    return re.findall(r"^```bash\n(.*?)^```", text, flags=re.S | re.M)


def command_lines(block):
    """The `./lab` command lines of a bash block: continuation lines joined, comments dropped, each
    written back as shlex.join of its words (so spacing does not matter)."""
    joined = re.sub(r"\\\n\s*", " ", block)
    lines = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["./lab"]:
            lines.append(shlex.join(words))
    return lines


def documented_commands():
    """{command line: where it is documented}: every bash block of README.md, and the first bash block
    of each docs/commands page (the examples at its top)."""
    found = {}
    for block in bash_blocks((ROOT / "README.md").read_text()):
        for line in command_lines(block):
            found.setdefault(line, "README.md")
    for page in sorted((ROOT / "docs" / "commands").glob("*.md")):
        blocks = bash_blocks(page.read_text())
        for line in command_lines(blocks[0]) if blocks else ():
            found.setdefault(line, str(page.relative_to(ROOT)))
    return found


def test_every_documented_command_has_a_test():
    documented = documented_commands()
    registered = {shlex.join(shlex.split(line)) for line in CASES}
    missing = {line: where for line, where in documented.items() if line not in registered}
    assert not missing, f"documented command lines without a test in CASES: {missing}"
    stale = registered - set(documented)
    assert not stale, f"CASES names lines the documentation no longer shows: {stale}"
    for line, case in CASES.items():
        assert case.elsewhere or case.test in globals(), (line, case.test)


def test_only_shortening_options_are_appended():
    for line, case in CASES.items():
        options = [word for word in case.shorten if word.startswith("--")]
        assert set(options) <= SHORTENING, (line, set(options) - SHORTENING)
        assert not any(word.startswith("--no-") for word in case.shorten), line
        for word, _ in case.replace:
            assert word in shlex.split(line), f"{line}: nothing to replace for {word}"


def test_the_parser_reads_continuations_and_comments():
    block = "./lab capacity --war shop.war \\\n    --slo p99=200ms   # a goal\nssh -F x srv\n./lab hosts list\n"
    assert command_lines(block) == ["./lab capacity --war shop.war --slo p99=200ms", "./lab hosts list"]


# ---- running a documented line ------------------------------------------------------------------

def as_run(line, **fixtures):
    """The documented line's words as this suite runs them: replaced, shortened, on this Python."""
    case = CASES[line]
    replacements = {word: value.format(**fixtures) for word, value in case.replace}
    words = [replacements.get(word, word) for word in shlex.split(line)]
    return [sys.executable, "-m", "labkit.cli", *words[1:], *case.shorten]


def run_documented(line, timeout=900, **fixtures):
    """Runs a documented line to its end; asserts exit 0 and no traceback; returns its output."""
    command = as_run(line, **fixtures)
    result = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=timeout)
    assert "Traceback" not in result.stdout, result.stdout[-5000:]
    assert result.returncode == 0, f"{shlex.join(command[2:])} exited {result.returncode}:\n{result.stdout[-5000:]}"
    return result.stdout


def results_folder(output):
    """The results folder a run names in its output (report: PATH/report.md)."""
    match = re.search(r"^report: (\S+)/report\.md$", output, flags=re.M)
    assert match, output[-3000:]
    return Path(match.group(1))


def load_results(folder):
    path = folder / "results.json"
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def built():
    ensure_built(log=lambda message: None)


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    """shop.war (a static page at /shop/catalog and /shop/index.html, no code of the lab's) and
    mix.yaml (a weighted mix of both)."""
    folder = tmp_path_factory.mktemp("shop")
    war = folder / "shop.war"
    with zipfile.ZipFile(war, "w") as archive:
        archive.writestr("WEB-INF/web.xml", '<?xml version="1.0" encoding="UTF-8"?>\n'
                         '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0"/>\n')
        archive.writestr("catalog", "<html><body>the catalog</body></html>\n")
        archive.writestr("index.html", "<html><body>a shop</body></html>\n")
    mix = folder / "mix.yaml"
    mix.write_text("- path: /shop/catalog\n  weight: 8\n- path: /shop/index.html\n  weight: 2\n")
    return {"war": str(war), "mix": str(mix)}


def cleanup(output):
    """Removes the results folder a run wrote under results/ (a documented line names no --out)."""
    try:
        shutil.rmtree(results_folder(output))
    except (AssertionError, OSError):
        pass


def references_measured(env):
    """The host-speed references of a run: each one measured (no `error`), at least one."""
    references = env.get("host_speed") or []
    assert references and all("error" not in r for r in references), references
    return references


# ---- README.md ----------------------------------------------------------------------------------

@pytest.mark.server
def test_readme_main_job(built):
    output = run_documented("./lab bench --quick")
    run = load_results(results_folder(output))
    assert {p["mode"] for p in run["points"]} == {"platform-4000", "platform-10000", "virtual", "virtual-4000"}
    assert {p["concurrency"] for p in run["points"]} == {100, 1000}
    assert all(p["load"] and p["load"]["ok_rps"] > 0 for p in run["points"]), run["points"]
    assert (results_folder(output) / "report.html").is_file()
    cleanup(output)


@pytest.mark.server
def test_readme_capacity_of_your_war(built, shop):
    line = ("./lab capacity --war shop.war --request 'GET /shop/catalog' --slo p99=200ms "
            "--modes virtual,platform-4000")
    output = run_documented(line, **shop)
    folder = results_folder(output)
    run = load_results(folder)
    # The host-speed reference ran beside your WAR (it crashed here once): one per server session.
    references_measured(run["env"])
    assert [s["mode"] for s in run["summary"]] == ["virtual", "platform-4000"]
    assert all(s["capacity_rps"]["median"] >= 40 for s in run["summary"]), run["summary"]
    assert run["config"]["wars"][0]["file"] == "shop.war"
    targets = [path.read_text() for path in (folder / "raw").glob("*.vegeta-targets")]
    assert targets and all(text.startswith("GET http://127.0.0.1:8080/shop/catalog") for text in targets)
    # The probe's request ran on the mode's threads around every window; the virtual pool's counter
    # ran at least every request sent (Grizzly's platform pool keeps no counter).
    proofs = {p["id"]: (p["mode"], p["mode_proof"]) for p in run["points"] if p.get("load")}
    assert proofs and all(proof["proven"] is True and proof["request_virtual"] is (mode == "virtual")
                          for mode, proof in proofs.values()), proofs
    assert all(proof["pool_tasks"] >= proof["requests_sent"] > 0 if mode == "virtual" else proof["pool_tasks"] is None
               for mode, proof in proofs.values()), proofs
    report = (folder / "report.md").read_text()
    assert "## Your application" in report and "`GET /shop/catalog`: 100 % of requests" in report
    cleanup(output)


@pytest.mark.server
def test_readme_bench_of_your_mix(built, shop):
    output = run_documented("./lab bench --war shop.war --requests mix.yaml --driver vegeta "
                            "--modes virtual,platform-4000", **shop)
    run = load_results(results_folder(output))
    assert {p["mode"] for p in run["points"]} == {"virtual", "platform-4000"}
    assert all(p["mode_proof"]["proven"] for p in run["points"]), [p["mode_proof"] for p in run["points"]]
    targets = [path.read_text() for path in (results_folder(output) / "raw").glob("*.vegeta-targets")]
    # Weights 8 and 2, as vegeta goes round its targets file: 4 catalog pages to each index page.
    assert targets and all(text.count("/shop/catalog") == 4 * text.count("/shop/index.html") > 0
                           for text in targets), targets[:1]
    cleanup(output)


@pytest.fixture(scope="module")
def cluster_hosts():
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root (CI runs as root)")
    from labkit.hosts import cluster
    made = cluster.up(3, log=lambda message: None)
    yield made
    cluster.down(log=lambda message: None)


@pytest.mark.server
def test_readme_capacity_on_other_hosts(built, shop, cluster_hosts):
    line = ("./lab capacity --server-host bench@perf-7 --load-hosts lg-1,lg-2 --war shop.war "
            "--request 'GET /shop/catalog' --slo p99=200ms --modes virtual,platform-4000")
    output = run_documented(line, **shop)
    run = load_results(results_folder(output))
    references_measured(run["env"])
    assert run["env"]["server_host"]["address"] == cluster_hosts[0].address, run["env"]["server_host"]
    assert [h["host"] for h in run["env"]["load_hosts"]] == ["lg1", "lg2"]
    windows = [p for p in run["points"] if p.get("load")]
    assert windows and all({h["host"] for h in p["load_hosts"]} == {"lg1", "lg2"} for p in windows)
    assert [s["mode"] for s in run["summary"]] == ["virtual", "platform-4000"]
    cleanup(output)


@pytest.mark.server
def test_readme_bench_of_a_running_server(built, shop):
    """"A server already running": started here as a user would, on the README's port. The lab loads
    it without restarting it, and its report says which figures it lacks."""
    server = subprocess.Popen([sys.executable, "-m", "labkit.cli", "run", "virtual", "--war", shop["war"]], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for text in server.stdout:
            if text.startswith("ready:"):
                break
        else:
            pytest.fail(f"./lab run exited with {server.wait()} before it was ready")
        pid = server_pid()
        output = run_documented("./lab bench --url http://staging:8080 --request 'GET /shop/catalog' "
                                "--driver vegeta --rate 500")
        assert server_pid() == pid, "the lab restarted a server it did not start"
        out = results_folder(output)
        run = load_results(out)
        assert [p["mode"] for p in run["points"]] == ["url"]
        assert run["points"][0]["load"]["ok"] > 0
        exposed = run["points"][0]["server_metrics"]
        assert exposed["available"] is True and exposed["threads"] > 10 and exposed["heap_used_mb"] > 0, exposed
        report = (out / "report.md").read_text()
        assert "not started by the lab: never restarted" in report
        assert "Not measured: server CPU, RSS and OS threads (/proc)" in report
        assert "## The server's own metrics" in report
        cleanup(output)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=90)


def server_pid():
    """The pid the server on 127.0.0.1:8080 reports (the lab's probe WAR answers /api/info beside your
    WAR at the probe's root)."""
    from labkit.servers.userapp import PROBE_ROOT
    with urllib.request.urlopen(f"http://127.0.0.1:8080{PROBE_ROOT}/api/info", timeout=30) as answer:
        return json.load(answer)["pid"]


# ---- docs/commands/ -----------------------------------------------------------------------------

@pytest.mark.server
def test_bench_examples(built):
    output = run_documented("./lab bench --modes virtual,platform-4000 --concurrency 1000")
    run = load_results(results_folder(output))
    assert {p["mode"] for p in run["points"]} == {"virtual", "platform-4000"}
    cleanup(output)
    output = run_documented("./lab bench --modes virtual --concurrency 2000 --rate 5000")
    run = load_results(results_folder(output))
    assert {(p["mode"], p["driver"]) for p in run["points"]} == {("virtual", "vegeta")}, run["points"]
    cleanup(output)


SPINNING_FRAME = "dev.loomlab.app.contend.SpinLock.acquire"


@pytest.mark.server
def test_bench_stall_example(built):
    """The stall on purpose: `virtual` with two carriers and three requests at once (one holds the lock
    and sleeps, two spin for it, one per carrier) stalls, and the watchdog's thread dump names the
    spinning frame; `platform-4000` under the same load stays alive. A stalled point has no result, so
    the run exits 1 by design (docs/commands/bench.md, Stalls): the one documented line that does."""
    command = as_run("./lab bench --scenario contend --modes virtual,platform-4000 --carriers 2 --concurrency 3 "
                     "--repeats 1")
    result = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    assert "Traceback" not in result.stdout, result.stdout[-5000:]
    assert result.returncode == 1, result.stdout[-3000:]
    out = results_folder(result.stdout)
    run = load_results(out)
    assert run["state"] == "failed" and run["config"]["carriers"] == 2
    points = {p["mode"]: p for p in run["points"]}
    assert set(points) == {"virtual", "platform-4000"}, result.stdout[-3000:]

    virtual = points["virtual"]
    assert "stalled" in virtual["flags"] and "failed" in virtual["flags"]
    summary = virtual["watchdog"]["stall"]["dump"]["summary"]
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
    cleanup(result.stdout)


@pytest.mark.server
def test_capacity_examples(built):
    output = run_documented("./lab capacity --modes jdk-virtual,virtual --sleep 100")
    run = load_results(results_folder(output))
    references_measured(run["env"])
    assert [s["mode"] for s in run["summary"]] == ["jdk-virtual", "virtual"]
    cleanup(output)
    output = run_documented("./lab capacity --modes jdk-virtual --sleep 100 --slo p99=120ms --duration 10")
    run = load_results(results_folder(output))
    assert run["config"]["duration_s"] == 3  # the appended --duration wins
    cleanup(output)


@pytest.mark.server
def test_soak_example(built):
    output = run_documented("./lab soak --modes virtual,platform-4000 --capacity 1500")
    folder = results_folder(output)
    soak = json.loads((folder / "soak.json").read_text())
    assert {t["mode"] for t in soak["targets"]} == {"virtual", "platform-4000"}, soak["targets"]
    # The appended --capacity 50 (a rate) wins: each target loaded at twice it.
    assert {t["rate"] for t in soak["targets"]} == {100}, [t["rate"] for t in soak["targets"]]
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.server
def test_run_examples(built):
    for line, virtual in (("./lab run virtual", True), ("./lab run platform-8", False)):
        lab = subprocess.Popen(as_run(line), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        seen = []
        try:
            for text in lab.stdout:
                seen.append(text)
                if text.startswith("ready:"):
                    break
            else:
                pytest.fail(f"{line} exited with {lab.wait()}:\n{''.join(seen)}")
            # The page's curl line, and the answer it shows.
            with urllib.request.urlopen("http://127.0.0.1:8080/api/sleep?ms=100&depth=100", timeout=30) as answer:
                body = json.load(answer)
            assert body["virtual"] is virtual and body["sleptMs"] == 100 and body["depth"] == 100, body
        finally:
            lab.send_signal(signal.SIGINT)  # Ctrl-C, as the page says
            rest = lab.communicate(timeout=90)[0]
        assert "Traceback" not in "".join(seen) + rest, rest


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_report_examples(tmp_path):
    for folder in ("docs/results/capacity/s100-run1", "docs/results/overload/run2-pinned"):
        copy = tmp_path / Path(folder).name
        shutil.copytree(ROOT / folder, copy)
        (copy / "report.md").unlink()
        output = run_documented(f"./lab report {folder}", copy=str(copy))
        assert f"rebuilt {copy / 'report.md'}" in output
        assert (copy / "report.md").read_text().startswith("# ")


def test_verdict_examples():
    """On the committed data: --check finds verdict.md, verdict.json and README's table as the runs give
    them, and the rewrite leaves them as they were."""
    files = [ROOT / "docs" / "results" / name for name in ("verdict.md", "verdict.json")] + [ROOT / "README.md"]
    before = [path.read_text() for path in files]
    assert run_documented("./lab verdict --check") == ""
    assert "wrote" in run_documented("./lab verdict")
    assert [path.read_text() for path in files] == before


@pytest.mark.server
def test_memory_examples(built):
    output = run_documented("./lab memory -v -n 100000 --depth 1000")
    assert "VmRSS" in output and "100000 parked at depth" in output, output[-2000:]
    output = run_documented("./lab memory --sweep")
    folder = re.search(r"(\S+)/thread-memory\.json", output)
    assert folder and Path(folder.group(0)).is_file(), output[-2000:]
    shutil.rmtree(folder.group(1), ignore_errors=True)


@pytest.mark.server
def test_micro_examples(built):
    for line in ("./lab micro jmh --quick --prof gc", "./lab micro ring --workers 503 --passes 1000000",
                 "./lab micro echo --sweep 100,1000 --clients nio,platform,virtual --latency-ms 1000"):
        output = run_documented(line, timeout=1200)
        folder = re.search(r"(results/\S+-micro-\w+)", output)
        assert folder, output[-2000:]
        shutil.rmtree(ROOT / folder.group(1), ignore_errors=True)


@pytest.mark.server
def test_hosts_examples():
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root (CI runs as root)")
    try:
        run_documented("./lab hosts up 3 --cpus srv=1,lg1=0")
        listed = run_documented("./lab hosts list")
        assert all(name in listed for name in ("srv", "lg1", "lg2")), listed
    finally:
        output = run_documented("./lab hosts down")
    assert "loomlab-srv" not in subprocess.run(["ip", "netns", "list"], stdout=subprocess.PIPE, text=True).stdout, output
