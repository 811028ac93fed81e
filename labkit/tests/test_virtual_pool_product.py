"""virtual-pool as the product a Payara user installs: its README's compatibility table stays true (every
version it names is the one the build uses, every "tested" cell names a test that exists and runs
that server with the pool, the Grizzly named is the one that server ships), its install lines are the
lab's own mode files, and the jar's manifest carries its version and licence."""
import io
import re
import zipfile

import pytest

from labkit import ROOT
from labkit.ground.build import PAYARA_MICRO_JARS, VIRTUAL_POOL_JAR, pom_property
from labkit.servers.modes import DOMAIN_CONFIG, SHARED_LIMITS, find_mode, settings

README = ROOT / "virtual-pool" / "README.md"
MARKER = "<!-- compatibility: labkit/tests/test_virtual_pool_product.py keeps this table true -->"
# Where each server's version comes from, and what a test that runs it says: a version named in the
# table must be the build's (a pom property) unless the row says the lab only ran it by hand or
# cannot get it.
VERSIONS = {("Payara Micro", "6"): "payara.version", ("Payara Micro", "7"): "payara7.version",
            ("Payara Server", "6"): "payara.version", ("GlassFish", "8"): "glassfish.version"}
RUNS_SERVER = {"Payara Micro": ("payara-micro", "PayaraMicro"), "Payara Server": ("PayaraServer", "payara-server"),
               "GlassFish": ("GlassFish", "glassfish")}
CELL = re.compile(r"^(tested|by hand|not run here|not on Maven Central)\b")


def table_rows(text):
    """[(server, version, Grizzly, jdk21 cell, jdk25 cell)] of the table after the marker."""
    lines = text[text.index(MARKER):].splitlines()[1:]
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append(tuple(cell.strip() for cell in line.strip("|").split("|")))
    return rows


def problems(text):
    """What is not true in the table of `text`: [] when every row holds."""
    found = []
    rows = table_rows(text)
    if not {server for server, *_ in rows} >= {"Payara Micro", "Payara Server", "GlassFish"}:
        found.append("a server is missing")
    for server, version, _grizzly, *cells in rows:
        if not all(CELL.match(cell) for cell in cells):
            found.append(f"{server} {version}: a cell says none of {CELL.pattern}")
        line = next((v for (name, major), v in VERSIONS.items() if name == server and version.startswith(major)), None)
        if line and any(cell.startswith("tested") for cell in cells) and version != pom_property(line):
            found.append(f"{server} {version}: the build uses {pom_property(line)}")
        for cell in (c for c in cells if c.startswith("tested")):
            links = re.findall(r"\]\(\.\./([^)]+)\)", cell)
            if not links:
                found.append(f"{server} {version}: a tested cell names no test")
            for link in links:
                path = ROOT / link
                source = path.read_text() if path.is_file() else ""
                if not any(word in source for word in RUNS_SERVER[server]) or "virtual" not in source:
                    found.append(f"{server} {version}: {link} does not run {server} in a virtual mode")
    return found


def test_the_compatibility_table_names_the_builds_versions_and_tests_that_exist():
    assert problems(README.read_text()) == []


# -- the Grizzly each server ships -------------------------------------------------------------------
GRIZZLY_JAR = "nucleus-grizzly-all.jar"     # Payara's and GlassFish's Grizzly, one jar with its version file
GRIZZLY_VERSION_FILE = "org/glassfish/grizzly/version.properties"


def grizzly_version(jar_bytes):
    with zipfile.ZipFile(io.BytesIO(jar_bytes)) as jar:
        text = jar.read(GRIZZLY_VERSION_FILE).decode()
    return re.search(r"^grizzly\.version=(\S+)", text, re.M).group(1)


def shipped_grizzly(server, version):
    """The Grizzly version inside the distribution the lab runs for that table row."""
    if server == "Payara Micro":
        with zipfile.ZipFile(PAYARA_MICRO_JARS[int(version.split(".")[0])]) as micro:
            return grizzly_version(micro.read(f"MICRO-INF/runtime/{GRIZZLY_JAR}"))
    if server == "Payara Server":
        from labkit.servers.appserver.payara_server import Distribution
    else:
        from labkit.servers.appserver.glassfish import GlassFishDistribution as Distribution
    root = Distribution(version).ensure_installed(log=lambda message: None).root
    return grizzly_version((root / "glassfish" / "modules" / GRIZZLY_JAR).read_bytes())


def test_the_grizzly_of_each_row_is_the_one_that_server_ships():
    """The pool reaches two package-private Grizzly fields (README, What it does): the Grizzly lines it
    ran on are the ones the table names."""
    rows = [(server, version, grizzly) for server, version, grizzly, *cells in table_rows(README.read_text())
            if any(cell.startswith("tested") for cell in cells)]
    assert len(rows) >= 4
    assert [(server, version, shipped_grizzly(server, version)) for server, version, _ in rows] == rows


# -- the install lines are the lab's mode files ------------------------------------------------------
INSTALL_START = "<!-- install lines: the lab's domain-config files, N = 4000 -->"
INSTALL_END = "<!-- end of install lines -->"
POOL_CLASS = "configs.config.server-config.thread-pools.thread-pool.http-thread-pool.classname"
MODE_OF_CLASS = {"dev.loomlab.virtualpool.VirtualThreadPool": "virtual",
                 "dev.loomlab.virtualpool.BoundedVirtualThreadPool": "virtual-4000",
                 "dev.loomlab.virtualpool.ReusingVirtualThreadPool": "virtual-reusing"}


def install_problems(text):
    """What the README's install lines say otherwise than the lab's files: every block of `set` lines
    (for Payara Micro's pre-boot file or `asadmin set`) that names one of the pools sets exactly what
    the lab's mode sets (its own lines, and any shared limit it repeats, at the lab's value); the
    install section shows each pool once. [] when all hold."""
    found, shown_in_section = [], set()
    section = text[text.index(INSTALL_START):text.index(INSTALL_END)]
    for block in re.findall(r"^```\n(.*?)^```", text, flags=re.S | re.M):
        shown = settings(re.sub(r"^asadmin ", "", block, flags=re.M))
        mode_name = MODE_OF_CLASS.get(shown.get(POOL_CLASS))
        if mode_name is None:
            continue
        if block in section:
            shown_in_section.add(mode_name)
        lab = settings(find_mode(mode_name).preboot)
        shared = settings((DOMAIN_CONFIG / SHARED_LIMITS).read_text())
        for name, value in shown.items():
            if lab.get(name) != value:
                found.append(f"{mode_name}: {name}={value}, the lab sets {lab.get(name)}")
        for name in lab.keys() - shared.keys() - shown.keys():
            found.append(f"{mode_name}: {name}={lab[name]} is missing")
    for mode_name in sorted(set(MODE_OF_CLASS.values()) - shown_in_section):
        found.append(f"{mode_name}: no install lines")
    return found


def test_the_install_lines_are_the_lab_modes_own():
    assert install_problems(README.read_text()) == []


def test_an_install_line_the_lab_did_not_measure_fails_the_check():
    text = README.read_text()
    assert "max-queue-size=-1" in text and "idle-thread-timeout-seconds=60" in text
    queue = "configs.config.server-config.thread-pools.thread-pool.http-thread-pool.max-queue-size"
    assert set(install_problems(text.replace("max-queue-size=-1", "max-queue-size=4096"))) == {
        f"virtual-4000: {queue}=4096, the lab sets -1"}
    idle = "configs.config.server-config.thread-pools.thread-pool.http-thread-pool.idle-thread-timeout-seconds"
    assert install_problems(text.replace(f"set {idle}=60\n", "")) == [f"virtual-reusing: {idle}=60 is missing"]


def test_a_stale_version_or_a_missing_test_fails_the_check():
    text = README.read_text()
    stale = text.replace(f"| Payara Micro | {pom_property('payara.version')} |", "| Payara Micro | 6.2024.1 |")
    assert problems(stale) == ["Payara Micro 6.2024.1: the build uses " + pom_property("payara.version")]
    moved = text.replace("labkit/tests/test_glassfish_e2e.py", "labkit/tests/test_gone.py")
    assert problems(moved) == [f"GlassFish {pom_property('glassfish.version')}: labkit/tests/test_gone.py does not "
                               f"run GlassFish in a virtual mode"]


def manifest_of(jar_path):
    """The jar's main manifest attributes; a line that starts with a space continues the one before
    (manifests wrap at 72 bytes)."""
    with zipfile.ZipFile(jar_path) as jar:
        text = jar.read("META-INF/MANIFEST.MF").decode()
    attributes, name = {}, None
    for line in text.splitlines():
        if line.startswith(" ") and name:
            attributes[name] += line[1:]
        elif ": " in line:
            name, value = line.split(": ", 1)
            attributes[name] = value
    return attributes


def test_the_jar_names_its_version_licence_and_the_servers_it_was_tested_on():
    if not VIRTUAL_POOL_JAR.is_file():
        pytest.skip(f"{VIRTUAL_POOL_JAR} not built: ./mvnw -pl virtual-pool -am package")
    manifest = manifest_of(VIRTUAL_POOL_JAR)
    assert manifest["Implementation-Version"] == pom_property("virtual-pool.version") == module_version()
    assert not module_version().endswith("-SNAPSHOT"), "the pool is released, not a snapshot"
    assert manifest["Bundle-License"] == "Apache-2.0" and "Apache License" in (ROOT / "LICENSE").read_text()
    assert manifest["Implementation-Title"].startswith("LoomLab virtual-thread pool")
    tested = manifest["LoomLab-Tested-On"]
    for name in ("payara.version", "payara7.version", "glassfish.version"):
        assert pom_property(name) in tested, (name, tested)


def module_version():
    """virtual-pool/pom.xml's own <version>: the pool's release, apart from the lab's snapshot."""
    import xml.etree.ElementTree as ET
    return ET.parse(ROOT / "virtual-pool" / "pom.xml").getroot().findtext("{http://maven.apache.org/POM/4.0.0}version")
