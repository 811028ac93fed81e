"""The thread modes, defined once in domain-config/: rendering (a mode's lines, then the shared limits;
templates such as platform-N), the facts read from the result, bad names, and every place of the
project that names modes agreeing with domain-config/. None of these start a server."""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from labkit import ROOT
from labkit.servers import modes
from labkit.servers.registry import DEFAULT_MODES, PAYARA7_PREFIX
from labkit.ground.errors import LabError, UsageError
from labkit.servers.modes import PAYARA_MODES, find_mode, payara_mode, settings
from labkit.catalog import all_targets
from labkit.ground.build import pool_jar

POOL = "configs.config.server-config.thread-pools.thread-pool.http-thread-pool."
SHARED = {
    "configs.config.server-config.network-config.protocols.protocol.http-listener.http.max-connections": "-1",
    "configs.config.server-config.network-config.transports.transport.tcp.max-connections-count": "16384",
    POOL + "max-queue-size": "-1",
}
GRIZZLY = "org.glassfish.grizzly.threadpool.GrizzlyExecutorService"


def set_lines(preboot):
    return [line.strip() for line in preboot.splitlines() if line.strip().startswith("set ")]


# ---- the existing modes are what they were ----------------------------------------------------

# The `set` lines of each mode's pre-boot file before the modes were rendered from one template and
# one shared block (each used to be a hand-written file): behaviour must not change.
BEFORE = {
    "platform-4000": [f"{POOL}max-thread-pool-size=4000", f"{POOL}classname={GRIZZLY}"],
    "platform-10000": [f"{POOL}max-thread-pool-size=10000", f"{POOL}classname={GRIZZLY}"],
    "virtual": [f"{POOL}classname=dev.loomlab.virtualpool.VirtualThreadPool", f"{POOL}max-thread-pool-size=10000"],
    "virtual-4000": [f"{POOL}classname=dev.loomlab.virtualpool.BoundedVirtualThreadPool",
                     f"{POOL}max-thread-pool-size=4000"],
    "virtual-reusing": [f"{POOL}classname=dev.loomlab.virtualpool.ReusingVirtualThreadPool",
                        f"{POOL}idle-thread-timeout-seconds=60", f"{POOL}max-thread-pool-size=10000"],
}
SHARED_BEFORE = [f"{name}={value}" for name, value in SHARED.items()]
# name: (description, virtual, max_concurrent), as labkit/servers/modes.py used to list them by hand.
FACTS_BEFORE = {
    "platform-4000": ("Grizzly pool of up to 4000 platform threads", False, 4000),
    "platform-10000": ("Grizzly pool of up to 10000 platform threads", False, 10000),
    "virtual": ("a new virtual thread per request, unbounded", True, None),
    "virtual-4000": ("a new virtual thread per request, at most 4000 at once", True, 4000),
    "virtual-reusing": ("a virtual thread per request, reused for the next one, unbounded", True, None),
}


def test_the_standard_modes_are_the_five_of_before_in_the_same_order():
    assert list(PAYARA_MODES) == list(BEFORE)


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_every_existing_mode_renders_the_same_commands_in_the_same_order_as_before(name):
    assert set_lines(PAYARA_MODES[name].preboot) == ["set " + line for line in BEFORE[name] + SHARED_BEFORE]


@pytest.mark.parametrize("name", sorted(FACTS_BEFORE))
def test_the_facts_read_from_each_mode_are_those_listed_by_hand_before(name):
    mode = PAYARA_MODES[name]
    assert (mode.description, mode.virtual, mode.max_concurrent) == FACTS_BEFORE[name]


# ---- rendering ----------------------------------------------------------------------------------

def test_platform_8_is_grizzlys_pool_of_8_threads_with_the_shared_limits():
    mode = payara_mode("platform-8")
    values = settings(mode.preboot)
    assert values[POOL + "max-thread-pool-size"] == "8"
    assert values[POOL + "classname"] == GRIZZLY
    assert {name: values[name] for name in SHARED} == SHARED
    assert (mode.virtual, mode.max_concurrent, mode.size) == (False, 8, 8)
    assert mode.description == "Grizzly pool of up to 8 platform threads"
    assert mode.source == ROOT / "domain-config" / "platform-N" / "pre-boot-commands.asadmin"
    assert "{N}" not in mode.preboot and "#!" not in mode.preboot, "placeholders and directives are not rendered"


def test_a_virtual_n_mode_is_the_bounded_virtual_pool_of_that_size():
    mode = payara_mode("virtual-16")
    assert (mode.virtual, mode.max_concurrent) == (True, 16)
    assert settings(mode.preboot)[POOL + "classname"] == "dev.loomlab.virtualpool.BoundedVirtualThreadPool"


def test_an_upstream_virtual_n_mode_is_grizzly_5s_executor_of_that_size_from_its_own_jar():
    mode = payara_mode("upstream-virtual-4000")
    assert (mode.virtual, mode.max_concurrent, mode.pool_library) == (True, 4000, "grizzly5-pool")
    assert settings(mode.preboot)[POOL + "classname"] == "dev.loomlab.grizzly5pool.Grizzly5VirtualThreadPool"
    assert pool_jar(mode).name == "grizzly5-pool.jar"
    # Each jar carries the classes of its library only: the lab's pool, or none for Grizzly's own.
    assert (payara_mode("virtual-4000").pool_library, pool_jar(payara_mode("virtual-4000")).name) == ("virtual-pool", "virtual-pool.jar")
    assert (payara_mode("platform-4000").pool_library, pool_jar(payara_mode("platform-4000"))) == (None, None)
    assert "upstream-virtual-4000" not in PAYARA_MODES, "a comparison mode: no standard size"


@pytest.mark.parametrize("name", [*PAYARA_MODES, "platform-8", "platform-2", "virtual-1", "virtual-1000000",
                                  "upstream-virtual-4000"])
def test_the_shared_limits_are_in_every_mode_exactly_once_after_its_own_lines(name):
    lines = set_lines(payara_mode(name).preboot)
    for shared in SHARED_BEFORE:
        assert lines.count("set " + shared) == 1
    assert lines[-len(SHARED_BEFORE):] == ["set " + shared for shared in SHARED_BEFORE]
    # Written once: no mode folder repeats them.
    for source in (ROOT / "domain-config").glob("*/pre-boot-commands.asadmin"):
        assert not set(settings(source.read_text())) & set(SHARED), f"{source} sets a shared limit itself"


@pytest.mark.parametrize("name, message", [
    ("platform-0", "mode platform-0: platform-N (N from 2 to 10000)"),
    ("platform-1", "mode platform-1: platform-N (N from 2 to 10000)"),
    ("platform-10001", "mode platform-10001: platform-N (N from 2 to 10000)"),
    ("platform-99999999999999999999", "platform-N (N from 2 to 10000)"),
    ("virtual-0", "mode virtual-0: virtual-N (N from 1 to 1000000)"),
    ("platform-007", "write the size without leading zeros (platform-7)"),
])
def test_a_template_size_out_of_its_range_is_refused_with_the_range(name, message):
    with pytest.raises(UsageError) as refused:
        payara_mode(name)
    assert message in str(refused.value)


@pytest.mark.parametrize("name", ["platform-N", "platform-", "platform", "nosuch", "Platform-8", "platform-8x",
                                  "platform--8", "../domain-config/virtual", "virtual/../virtual", "", "jvm.options"])
def test_a_name_no_folder_or_template_gives_is_an_unknown_mode_with_the_choices(name):
    assert find_mode(name) is None
    with pytest.raises(UsageError) as refused:
        payara_mode(name)
    message = str(refused.value)
    assert message.startswith(f"unknown mode '{name}'; choose one of: platform-4000, platform-10000, virtual, ")
    assert ("or any platform-N (N from 2 to 10000), upstream-virtual-N (N from 1 to 1000000), "
            "virtual-N (N from 1 to 1000000)") in message


def test_a_mode_with_its_own_folder_is_found_before_a_template():
    mode = payara_mode("virtual-reusing")
    assert mode.source.parent.name == "virtual-reusing" and mode.size is None


# ---- the renderer refuses broken folders --------------------------------------------------------

def write_config(root, files):
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


SHARED_FILE = "# Limits.\nset a.queue=-1\n"
GOOD_TEMPLATE = "# Mode pool-{N}: a pool of {N}\n#! N: 1..50\n#! standard sizes: 10\nset " + POOL + "max-thread-pool-size={N}\n"


def test_a_template_in_another_folder_renders_its_sizes_and_lists_its_standard_ones(tmp_path):
    config = write_config(tmp_path, {"shared-limits.asadmin": SHARED_FILE, "pool-N/pre-boot-commands.asadmin": GOOD_TEMPLATE})
    assert list(modes.standard_modes(config)) == ["pool-10"]
    mode = find_mode("pool-50", config)
    assert (mode.virtual, mode.max_concurrent, mode.description) == (False, 50, "a pool of 50")
    assert set_lines(mode.preboot) == [f"set {POOL}max-thread-pool-size=50", "set a.queue=-1"]
    with pytest.raises(UsageError, match=r"pool-N \(N from 1 to 50\)"):
        find_mode("pool-51", config)


@pytest.mark.parametrize("files, message", [
    ({"pool-N/pre-boot-commands.asadmin": GOOD_TEMPLATE.replace("#! N: 1..50\n", "")}, "needs the line '#! N: LOW..HIGH'"),
    ({"pool-N/pre-boot-commands.asadmin": GOOD_TEMPLATE.replace("1..50", "0..50")}, "needs the line '#! N: LOW..HIGH'"),
    ({"pool-N/pre-boot-commands.asadmin": GOOD_TEMPLATE.replace("sizes: 10", "sizes: 60")}, "takes numbers from 1 to 50"),
    ({"pool-N/pre-boot-commands.asadmin": GOOD_TEMPLATE + "set a.queue=5\n"}, "shared-limits.asadmin sets for every mode"),
    ({"pool-N/pre-boot-commands.asadmin": GOOD_TEMPLATE.replace("# Mode pool-{N}", "# Mode other-{N}")},
     "the first line must be '# Mode pool-{N}: <description>'"),
    ({"pool-N/pre-boot-commands.asadmin": GOOD_TEMPLATE.replace("={N}", "={SIZE}")}, "{SIZE} is replaced only"),
    ({"pool-N/pre-boot-commands.asadmin": GOOD_TEMPLATE.replace("max-thread-pool-size={N}", "classname=x.Pool")},
     "which max-thread-pool-size bounds: set it to 1 or more"),
    ({"fixed/pre-boot-commands.asadmin": "# Mode fixed: a pool\nset " + POOL + "max-thread-pool-size={N}\n"},
     "{N} is replaced only in a template folder"),
])
def test_a_broken_mode_folder_is_a_clear_error_naming_the_file(tmp_path, files, message):
    config = write_config(tmp_path, {"shared-limits.asadmin": SHARED_FILE, **files})
    with pytest.raises(LabError) as refused:
        modes.standard_modes(config)
    assert message in str(refused.value)
    assert "pre-boot-commands.asadmin" in str(refused.value)


# ---- python3 -m labkit.servers.modes: what Maven and the Docker images run -------------------------------

def run_modes(*arguments, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "labkit.servers.modes", *arguments], cwd=cwd, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)


def test_render_prints_one_modes_complete_file():
    result = run_modes("render", "platform-8")
    assert result.returncode == 0, result.stderr
    assert result.stdout == payara_mode("platform-8").preboot


def test_render_out_writes_a_file_per_mode_as_arquillian_and_the_images_read_them(tmp_path):
    result = run_modes("render", "--out", str(tmp_path / "rendered"), "platform-8", "virtual-4000")
    assert result.returncode == 0, result.stderr
    for name in ("platform-8", "virtual-4000"):
        assert (tmp_path / "rendered" / name / "pre-boot-commands.asadmin").read_text() == payara_mode(name).preboot


def test_render_refuses_a_bad_name_with_the_usage_line_and_writes_nothing(tmp_path):
    result = run_modes("render", "--out", str(tmp_path / "rendered"), "virtual", "platform-0")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: python3 -m labkit.servers.modes")
    assert "mode platform-0: platform-N (N from 2 to 10000)" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "rendered").exists(), "no file is written when one name is bad"


def test_list_shows_each_standard_modes_facts_and_the_templates():
    result = run_modes("list")
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line for line in result.stdout.splitlines() if not line.startswith("any size")}
    assert list(rows) == list(PAYARA_MODES)
    assert re.search(r"virtual-4000\s+virtual\s+at most 4000\s+a new virtual thread", rows["virtual-4000"])
    assert "platform-N (N from 2 to 10000)" in result.stdout


def test_the_renderer_needs_only_the_files_the_docker_stage_copies(tmp_path):
    # The images' render stage (docker/*/Dockerfile) copies exactly its labkit/ files, without the lab's venv.
    for kind in ("micro", "server", "glassfish"):
        dockerfile = ROOT / "docker" / kind / "Dockerfile"
        copies = re.findall(r"^COPY ((?:labkit/\S+ )+)/lab/(\S+)$", dockerfile.read_text(), re.M)
        assert len(copies) == 3, dockerfile
        for sources, folder in copies:
            for source in sources.split():
                (tmp_path / folder).mkdir(parents=True, exist_ok=True)
                (tmp_path / folder / Path(source).name).write_text((ROOT / source).read_text())
    write_config(tmp_path / "domain-config", {
        path.relative_to(ROOT / "domain-config").as_posix(): path.read_text()
        for path in (ROOT / "domain-config").rglob("*.asadmin")})
    result = run_modes("render", "platform-8", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == payara_mode("platform-8").preboot


# ---- targets: any size on every server -----------------------------------------------------------

@pytest.mark.parametrize("name, product", [("platform-8", "Payara Micro"), ("server-platform-8", "Payara Server"),
                                           ("glassfish-virtual-16", "GlassFish"),
                                           ("cargotracker-platform-32", "CargoTracker on Payara Micro")])
def test_a_template_size_is_a_target_on_every_server_of_the_lab(name, product):
    targets = all_targets()
    assert name in targets
    target = targets[name]
    size = int(name.rsplit("-", 1)[1])
    assert (target.name, target.max_concurrent, target.virtual) == (name, size, name.split("-")[-2] == "virtual")
    assert target.description.startswith(product + ": ")


def test_an_out_of_range_target_is_refused_with_the_range_not_as_unknown():
    with pytest.raises(UsageError, match=r"mode platform-0: platform-N \(N from 2 to 10000\)"):
        all_targets()["server-platform-0"]
    assert "server-nosuch-8" not in all_targets()


# ---- every place that names modes agrees with domain-config/ --------------------------------------

POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}
ARQ_NS = {"a": "http://jboss.org/schema/arquillian"}
TEST_ONLY = ROOT / "app" / "src" / "it" / "domain-config"


def _plugin(pom, artifact):
    plugins = ET.parse(pom).getroot().find("m:build/m:plugins", POM_NS)
    return next(p for p in plugins.findall("m:plugin", POM_NS) if p.findtext("m:artifactId", namespaces=POM_NS) == artifact)


def _failsafe_launches(pom, mode_property):
    """{container qualifier (arquillian.launch): mode} of the Failsafe executions of a pom's main build,
    and the summaries `verify` reads."""
    failsafe = _plugin(pom, "maven-failsafe-plugin")
    executions = failsafe.findall("m:executions/m:execution", POM_NS)
    launches = {}
    for e in executions:
        mode = e.findtext(f"m:configuration/m:systemPropertyVariables/m:{mode_property}", namespaces=POM_NS)
        if mode:
            launch = e.findtext("m:configuration/m:systemPropertyVariables/m:arquillian.launch", namespaces=POM_NS)
            launches[launch or mode] = mode
    verify = next(e for e in executions if e.findtext("m:goals/m:goal", namespaces=POM_NS) == "verify")
    summaries = [Path(s.text).stem for s in verify.findall("m:configuration/m:summaryFiles/m:summaryFile", POM_NS)]
    return launches, summaries


def _failsafe_modes(pom, mode_property):
    """The modes the Failsafe executions test (each once, whatever Payara line), and the summaries."""
    launches, summaries = _failsafe_launches(pom, mode_property)
    return list(dict.fromkeys(launches.values())), summaries


def _rendered_by_maven(pom):
    """The modes the pom's render-modes execution renders (python3 -m labkit.servers.modes render --out DIR ...)."""
    execution = next(e for e in _plugin(pom, "exec-maven-plugin").findall("m:executions/m:execution", POM_NS)
                     if e.findtext("m:id", namespaces=POM_NS) == "render-modes")
    arguments = [a.text for a in execution.findall("m:configuration/m:arguments/m:argument", POM_NS)]
    assert arguments[:5] == ["-m", "labkit.servers.modes", "render", "--out", "${domain.config.dir}"]
    return arguments[5:]


def _containers(arquillian):
    """qualifier -> (pre-boot file, whether the virtual pool is added, the Payara Micro jar) of each
    Payara Micro container."""
    containers = {}
    for container in ET.parse(arquillian).getroot().findall("a:container", ARQ_NS):
        options = container.findtext("a:configuration/a:property[@name='extraMicroOptions']", namespaces=ARQ_NS).split()
        jar = container.findtext("a:configuration/a:property[@name='microJar']", namespaces=ARQ_NS)
        containers[container.get("qualifier")] = (options[options.index("--prebootcommandfile") + 1], "--addlibs" in options,
                                                  jar)
    return containers


@pytest.mark.parametrize("module, mode_property", [("app", "loomlab.mode"), ("cargotracker", "cargotracker.mode")])
def test_failsafe_executions_arquillian_containers_and_rendered_modes_agree(module, mode_property):
    pom = ROOT / module / "pom.xml"
    launches, summaries = _failsafe_launches(pom, mode_property)
    tested = set(launches.values())
    containers = _containers(ROOT / module / "src" / "test" / "resources" / "arquillian.xml")
    rendered = _rendered_by_maven(pom)
    assert sorted(summaries) == sorted(launches), "verify reads every execution's summary"
    assert sorted(containers) == sorted(launches), "one Arquillian container per Failsafe execution"
    test_only = sorted(p.name for p in TEST_ONLY.iterdir()) if module == "app" else []
    assert sorted(rendered) == sorted(m for m in tested if m not in test_only), "Maven renders what the tests run"
    for qualifier, (preboot, addlibs, jar) in containers.items():
        name = launches[qualifier]
        # A container on Payara Micro 7 is named payara7-<mode>, tests <mode>, and starts 7's jar.
        line7 = qualifier.startswith(PAYARA7_PREFIX)
        assert qualifier == (PAYARA7_PREFIX + name if line7 else name), qualifier
        assert jar == ("${payara.micro7.jar}" if line7 else "${payara.micro.jar}"), (qualifier, jar)
        if name in test_only:
            assert preboot == f"${{test.domain.config.dir}}/{name}/pre-boot-commands.asadmin"
            virtual = modes.pool_facts(name, settings((TEST_ONLY / name / modes.PREBOOT).read_text()), name)[0]
        else:
            assert preboot == f"${{domain.config.dir}}/{name}/pre-boot-commands.asadmin"
            virtual = payara_mode(name).virtual
        assert addlibs == virtual, f"{name}: --addlibs exactly in the virtual modes"


def test_the_default_mode_tests_cover_every_standard_mode_and_a_small_platform_pool():
    tested, _ = _failsafe_modes(ROOT / "app" / "pom.xml", "loomlab.mode")
    assert set(PAYARA_MODES) <= set(tested)
    assert any(payara_mode(m).size and not payara_mode(m).virtual and payara_mode(m).max_concurrent <= 50
               for m in tested if m in _rendered_by_maven(ROOT / "app" / "pom.xml"))


def _java_expectations():
    """ModeUnderTest's expectations: its named modes, and the thread kind of each sized family."""
    java = (ROOT / "app/src/test/java/dev/loomlab/app/ModeUnderTest.java").read_text()
    named = {m[1]: (m[2] == "true", int(m[3])) for m in
             re.finditer(r'new ModeUnderTest\("([^"]+)", (true|false), (-?\d+), -?\d+\)', java)}
    families = {f: v == "true" for f, v in
                re.findall(r'"([\w-]+)", (true|false)', re.search(r"SIZED_FAMILIES = Map\.of\(([^;]*)\);", java)[1])}
    return named, families


def _java_expects(name):
    named, families = _java_expectations()
    if name in named:
        return named[name]
    family, size = re.fullmatch(r"([a-z]+(?:-[a-z]+)*)-([1-9]\d*)", name).groups()
    return families[family], int(size)


def test_mode_under_test_expects_what_the_lab_reads_from_domain_config():
    named, families = _java_expectations()
    tested, _ = _failsafe_modes(ROOT / "app" / "pom.xml", "loomlab.mode")
    test_only = {p.name for p in TEST_ONLY.iterdir()}
    for name in tested:
        if name in test_only:
            values = settings((TEST_ONLY / name / modes.PREBOOT).read_text())
            virtual, bound = modes.pool_facts(name, values, name)
        else:
            virtual, bound = payara_mode(name).virtual, payara_mode(name).max_concurrent
        assert _java_expects(name) == (virtual, -1 if bound is None else bound), name
    # The families and the folders of domain-config/ are the ones ModeUnderTest knows.
    assert families == {family: find_mode(f"{family}-{t.sizes.start}").virtual
                        for family, t in modes.templates().items()}
    folders = {p.parent.name for p in (ROOT / "domain-config").glob("*/pre-boot-commands.asadmin")}
    assert set(named) - test_only == {f for f in folders if not f.endswith("-N")}


def test_no_mode_folder_shadows_a_size_of_a_template():
    families = modes.templates()
    for path in (ROOT / "domain-config").glob("*/pre-boot-commands.asadmin"):
        sized = modes.SIZED_NAME.fullmatch(path.parent.name)
        assert not (sized and sized["family"] in families), f"{path.parent.name} is also a size of {sized['family']}-N"


def test_the_server_profiles_and_docker_images_name_modes_the_lab_has():
    pom = (ROOT / "app" / "pom.xml").read_text()
    named = re.findall(r"<argument>--mode</argument><argument>([^<]+)</argument>", pom)
    named += re.findall(r"<loomlab\.mode>([^<]+)</loomlab\.mode>", pom)
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())["services"]
    named += [s["build"]["args"]["MODE"] for s in compose.values() if isinstance(s.get("build"), dict) and "args" in s["build"]]
    test_only = {p.name for p in TEST_ONLY.iterdir()}
    assert named and all(find_mode(name) for name in named if name not in test_only), named


def test_the_bench_and_capacity_default_modes_are_standard_modes():
    assert set(DEFAULT_MODES) <= set(PAYARA_MODES)


def _readme_section(path, heading):
    text = path.read_text()
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end > 0 else None]


def test_the_readme_mode_table_lists_the_standard_modes_and_the_templates_with_their_folders():
    rows = [line for line in _readme_section(ROOT / "README.md", "## The modes").splitlines() if line.startswith("| `")]
    listed = {}
    for row in rows:
        first, _, link = (cell.strip() for cell in row.strip("|").split("|"))
        folder = re.search(r"\(domain-config/([^/)]+)", link)[1]
        for name in re.findall(r"`([^`]+)`", first):
            listed[name] = folder
    forms = {t.form: t.form for t in modes.templates().values()}
    expected = {name: mode.source.parent.name for name, mode in PAYARA_MODES.items()} | forms
    assert listed == expected


def test_the_docker_readme_lists_a_micro_service_per_standard_mode():
    rows = re.findall(r"^\| micro-([\w-]+) \| ([\w-]+) \|", (ROOT / "docker" / "README.md").read_text(), re.M)
    assert [mode for service, mode in rows] == list(PAYARA_MODES)
    assert all(service == mode for service, mode in rows)


def test_payara_micro_7_runs_a_mode_test_and_its_jar_is_where_the_lab_starts_it():
    from labkit.ground.build import PAYARA_MICRO_JARS, pom_property
    launches, _ = _failsafe_launches(ROOT / "app" / "pom.xml", "loomlab.mode")
    on_seven = {q: m for q, m in launches.items() if q.startswith(PAYARA7_PREFIX)}
    assert on_seven == {"payara7-virtual": "virtual"}
    app = ET.parse(ROOT / "app" / "pom.xml").getroot()
    jar = app.findtext("m:properties/m:payara.micro7.jar", namespaces=POM_NS)
    assert jar == "${project.basedir}/../target/" + PAYARA_MICRO_JARS[7].name
    # The root pom copies <payara7.version> to that file name, as it copies 6's.
    copy = next(e for e in _plugin(ROOT / "pom.xml", "maven-dependency-plugin").findall("m:executions/m:execution", POM_NS)
                if e.findtext("m:id", namespaces=POM_NS) == "copy-payara-micro")
    items = {i.findtext("m:destFileName", namespaces=POM_NS): i.findtext("m:version", namespaces=POM_NS)
             for i in copy.findall("m:configuration/m:artifactItems/m:artifactItem", POM_NS)}
    assert items == {PAYARA_MICRO_JARS[6].name: "${payara.version}", PAYARA_MICRO_JARS[7].name: "${payara7.version}"}
    assert pom_property("payara7.version").startswith("7.") and pom_property("payara.version").startswith("6.")
    # Every mode has a target on 7 too, started from 7's jar.
    target = all_targets()["payara7-virtual-4000"]
    assert target.virtual and target.max_concurrent == 4000 and target.description.startswith("Payara Micro 7:")
