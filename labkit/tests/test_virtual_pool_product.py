"""virtual-pool as the product a Payara user installs: its README's compatibility table stays true (every
version it names is the one the build uses, every "tested" cell names a test that exists and runs
that server with the pool), and the jar's manifest carries its version and licence."""
import re
import zipfile

import pytest

from labkit import ROOT
from labkit.ground.build import VIRTUAL_POOL_JAR, pom_property

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
    """[(server, version, jdk21 cell, jdk25 cell)] of the table after the marker."""
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
    for server, version, *cells in rows:
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


def test_a_stale_version_or_a_missing_test_fails_the_check():
    text = README.read_text()
    stale = text.replace(f"| Payara Micro | {pom_property('payara.version')} |", "| Payara Micro | 6.2024.1 |")
    assert problems(stale) == ["Payara Micro 6.2024.1: the build uses " + pom_property("payara.version")]
    moved = text.replace("labkit/tests/test_glassfish_e2e.py", "labkit/tests/test_gone.py")
    assert problems(moved) == [f"GlassFish {pom_property('glassfish.version')}: labkit/tests/test_gone.py does not "
                               f"run GlassFish in a virtual mode"]


def test_the_jar_names_its_version_and_licence():
    if not VIRTUAL_POOL_JAR.is_file():
        pytest.skip(f"{VIRTUAL_POOL_JAR} not built: ./mvnw -pl virtual-pool -am package")
    with zipfile.ZipFile(VIRTUAL_POOL_JAR) as jar:
        manifest = dict(line.split(": ", 1) for line in jar.read("META-INF/MANIFEST.MF").decode().splitlines()
                        if ": " in line)
    assert manifest["Implementation-Version"] == pom_property_version()
    assert manifest["Bundle-License"] == "Apache-2.0" and "Apache License" in (ROOT / "LICENSE").read_text()
    assert manifest["Implementation-Title"].startswith("LoomLab virtual-thread pool")


def pom_property_version():
    """The project's version (the root pom's own <version>)."""
    import xml.etree.ElementTree as ET
    return ET.parse(ROOT / "pom.xml").getroot().findtext("{http://maven.apache.org/POM/4.0.0}version")
