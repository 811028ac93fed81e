"""The pool's release (issue 58): `./mvnw -pl virtual-pool -P release package` builds the release folder
from the module alone, with no Payara jar unpacked (its one compile dependency is GlassFish's
grizzly-config from Maven Central, provided by the server), and the install page's own lines check its
checksums and install it into a Maven repository as dev.loomlab:virtual-pool with sources and javadoc."""
import hashlib
import re
import subprocess
import zipfile

import pytest

from labkit import ROOT
from labkit.ground.build import pom_property
from labkit.ground.jdk import find_java_home, java_env

MODULE = ROOT / "virtual-pool"
README = MODULE / "README.md"


def page_lines(containing):
    """The command in README.md's code blocks that holds `containing`."""
    blocks = re.findall(r"```\n(.*?)```", README.read_text(), re.S)
    found = [line for block in blocks for line in block.splitlines() if containing in line]
    assert len(found) == 1, f"README.md shows one line with {containing!r}: {found}"
    return found[0]


def test_the_module_compiles_against_maven_central_only():
    pom = (MODULE / "pom.xml").read_text()
    assert "<scope>system</scope>" not in pom and "systemPath" not in pom and "payara-runtime" not in pom
    release_pom = (MODULE / "release.pom").read_text()
    assert "<parent>" not in release_pom and "@version@" in release_pom


@pytest.mark.server
def test_the_release_folder_builds_and_installs_by_the_pages_own_lines(tmp_path):
    version = pom_property("virtual-pool.version")
    env = java_env(find_java_home())
    build = subprocess.run([str(ROOT / "mvnw"), "-B", "-q", "-pl", "virtual-pool", "-P", "release", "-DskipTests",
                            "package"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    release = MODULE / "target" / "release"
    base = f"virtual-pool-{version}"
    artifacts = [f"{base}.jar", f"{base}-sources.jar", f"{base}-javadoc.jar", f"{base}.pom"]
    assert sorted(p.name for p in release.iterdir()) == sorted(
        ["CHANGELOG.md", *artifacts, *(f"{name}.sha256" for name in artifacts)])
    assert f"## {version} " in (release / "CHANGELOG.md").read_text()
    for name in artifacts:
        digest = (release / f"{name}.sha256").read_text().split()[0]
        assert digest == hashlib.sha256((release / name).read_bytes()).hexdigest(), name
    with zipfile.ZipFile(release / f"{base}.jar") as jar:
        assert "dev/loomlab/virtualpool/VirtualThreadPool.class" in jar.namelist()
        assert not [n for n in jar.namelist() if n.startswith("org/glassfish/")], "the server provides Grizzly"
    with zipfile.ZipFile(release / f"{base}-sources.jar") as sources:
        assert "dev/loomlab/virtualpool/VirtualThreadPool.java" in sources.namelist()
    pom = (release / f"{base}.pom").read_text()
    assert f"<version>{version}</version>" in pom and f"<version>{pom_property('glassfish.version')}</version>" in pom

    # The page's lines, as written, from the release folder.
    check = subprocess.run(page_lines("sha256sum -c").split("&& ", 1)[1], shell=True, cwd=release,
                           capture_output=True, text=True, env=env)
    assert check.returncode == 0 and f"{base}.jar: OK" in check.stdout, check.stdout + check.stderr
    repository = tmp_path / "repository"
    install = f"{page_lines('install:install-file')} -B -q -Dmaven.repo.local={repository}"
    installed = subprocess.run(install, shell=True, cwd=release, env=env, capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    folder = repository / "dev" / "loomlab" / "virtual-pool" / version
    assert (folder / f"{base}.jar").read_bytes() == (release / f"{base}.jar").read_bytes()
    assert (folder / f"{base}.pom").read_text() == pom
    assert (folder / f"{base}-sources.jar").is_file() and (folder / f"{base}-javadoc.jar").is_file()
