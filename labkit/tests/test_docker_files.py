"""docker/ checked without a Docker engine: what the images copy exists (or Maven builds it), each
image renders its mode with the lab's own renderer, the compose services are the lab's standard
modes, the scripts behave, and no admin password is baked in."""
import fnmatch
import hashlib
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from labkit import ROOT
from labkit.servers.appserver.commands import preboot_commands
from labkit.ground.build import pom_property
from labkit.servers.appserver.glassfish import GlassFish, GlassFishDistribution
from labkit.servers.modes import PAYARA_MODES, payara_mode
from labkit.servers.appserver.payara_server import PayaraServer

DOCKER = ROOT / "docker"
COMPOSE = yaml.safe_load((DOCKER / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
MODES = sorted(PAYARA_MODES)
DOCKERFILES = ("docker/micro/Dockerfile", "docker/server/Dockerfile", "docker/glassfish/Dockerfile")
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def _built_services(dockerfile):
    return {name: s for name, s in SERVICES.items()
            if isinstance(s.get("build"), dict) and s["build"].get("dockerfile") == dockerfile}


MICRO = _built_services("docker/micro/Dockerfile")
SERVER = _built_services("docker/server/Dockerfile")
GLASSFISH = _built_services("docker/glassfish/Dockerfile")
# The images with an admin console: their Dockerfile, their product's lab class, their folder.
CONSOLE_IMAGES = {"server": (SERVER, PayaraServer), "glassfish": (GLASSFISH, GlassFish)}


# ---- Dockerfiles --------------------------------------------------------------------------------

def _instructions(dockerfile):
    """(instruction, arguments) pairs, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", dockerfile.read_text())
    result = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            result.append((keyword.upper(), rest.strip()))
    return result


def _copy_sources(dockerfile, mode):
    """Context paths a Dockerfile COPYs for one MODE (COPY --from another stage excluded)."""
    sources = []
    for keyword, rest in _instructions(dockerfile):
        if keyword not in ("COPY", "ADD"):
            continue
        words = [w for w in rest.split() if not w.startswith("--")]
        if "--from=" in rest:
            continue
        sources += [w.replace("${MODE}", mode).replace("$MODE", mode) for w in words[:-1]]
    return sources


def _maven_outputs():
    """target/<finalName>.<packaging> of every module the root pom aggregates."""
    root = ET.parse(ROOT / "pom.xml").getroot()
    outputs = set()
    for module in root.findall("m:modules/m:module", POM_NS):
        pom = ET.parse(ROOT / module.text / "pom.xml").getroot()
        final_name = pom.findtext("m:build/m:finalName", namespaces=POM_NS)
        packaging = pom.findtext("m:packaging", default="jar", namespaces=POM_NS)
        if final_name:
            outputs.add(f"{module.text}/target/{final_name}.{packaging}")
    return outputs


def _ignored(path, dockerignore):
    """Docker's rule: the last matching pattern wins, '!' re-includes."""
    ignored = False
    for pattern in dockerignore.read_text().splitlines():
        pattern = pattern.strip()
        if not pattern or pattern.startswith("#"):
            continue
        negated = pattern.startswith("!")
        if fnmatch.fnmatchcase(path, pattern.lstrip("!")):
            ignored = not negated
    return ignored


@pytest.mark.parametrize("dockerfile, services", [("docker/micro/Dockerfile", MICRO), ("docker/server/Dockerfile", SERVER),
                                                   ("docker/glassfish/Dockerfile", GLASSFISH)])
def test_every_copied_file_exists_or_is_a_maven_output_and_reaches_the_context(dockerfile, services):
    path = ROOT / dockerfile
    maven_outputs = _maven_outputs()
    assert {"app/target/loomlab.war", "virtual-pool/target/virtual-pool.jar"} <= maven_outputs
    modes = {s["build"]["args"]["MODE"] for s in services.values()}
    assert modes, f"no compose service builds {dockerfile}"
    dockerignore = path.with_name("Dockerfile.dockerignore")
    for mode in modes:
        for source in _copy_sources(path, mode):
            if (ROOT / source).is_dir():
                # A folder (domain-config/ for the render stage): every file the renderer reads must reach it.
                needed = [p.relative_to(ROOT).as_posix() for p in (ROOT / source).rglob("*.asadmin")]
                assert needed and not [n for n in needed if _ignored(n, dockerignore)], f"{dockerfile}: {source}"
                continue
            assert (ROOT / source).is_file() or source in maven_outputs, f"{dockerfile} copies {source}: no such file"
            assert not _ignored(source, dockerignore), \
                f"{source} is excluded from the build context by {dockerfile}.dockerignore"


@pytest.mark.parametrize("dockerfile", ["docker/micro/Dockerfile", "docker/server/Dockerfile"])
def test_images_are_official_payara_ones_on_the_build_release_and_a_jdk_21_or_newer(dockerfile):
    instructions = _instructions(ROOT / dockerfile)
    tag = next(rest for keyword, rest in instructions if keyword == "ARG" and rest.startswith("PAYARA_TAG="))
    version, jdk = re.fullmatch(r"PAYARA_TAG=(\S+)-jdk(\d+)", tag).groups()
    pom_version = ET.parse(ROOT / "pom.xml").getroot().findtext("m:properties/m:payara.version", namespaces=POM_NS)
    assert version == pom_version
    assert int(jdk) >= 21
    base = [rest for keyword, rest in instructions if keyword == "FROM"][-1]  # the image's own stage
    assert base in ("payara/micro:${PAYARA_TAG}", "payara/server-full:${PAYARA_TAG}")


def test_the_readme_says_which_jdk_each_image_runs_on():
    """The Payara images run the JDK of their tag, not the lab's: docker/README.md must name the very
    tags the Dockerfiles use and the JDK each runs, so a number from a container is read for what it is."""
    readme = " ".join((DOCKER / "README.md").read_text().split())
    for image, base in (("micro", "payara/micro"), ("server", "payara/server-full")):
        tag = _args(DOCKER / image / "Dockerfile")["PAYARA_TAG"]
        assert f"`{base}:{tag}`" in readme, f"docker/README.md does not name {base}:{tag}"
        jdk = re.fullmatch(r"\S+-jdk(\d+)", tag).group(1)
        if jdk != "25":
            assert f"both Payara images run on JDK {jdk}" in readme
    glassfish_tag = _args(DOCKER / "glassfish" / "Dockerfile")["JDK_TAG"]
    assert f"`eclipse-temurin:{glassfish_tag}`" in readme
    assert "measures on Temurin 25" in readme and "`GET /api/info` names the JVM that answered" in readme


@pytest.mark.parametrize("dockerfile", DOCKERFILES)
def test_each_image_renders_its_mode_with_the_labs_renderer_on_an_official_python_image(dockerfile):
    path = ROOT / dockerfile
    instructions = _instructions(path)
    assert ("FROM", "python:${PYTHON_TAG} AS mode") in instructions
    python = re.fullmatch(r"(\d+)\.(\d+)-slim", _args(path)["PYTHON_TAG"])
    assert python and (int(python[1]), int(python[2])) >= (3, 10), "labkit/servers/modes.py needs Python 3.10+"
    runs = [rest for keyword, rest in instructions if keyword == "RUN"]
    assert 'cd /lab && python3 -m labkit.servers.modes render --out /rendered "${MODE}"' in runs
    copies = [rest for keyword, rest in instructions if keyword == "COPY"]
    assert any(c.startswith("--from=mode ") and c.endswith("/rendered/${MODE}/pre-boot-commands.asadmin "
                                                             "/opt/loomlab/pre-boot-commands.asadmin") for c in copies)
    # The mode's raw folder never reaches the server image: only the rendered file does.
    assert not any("domain-config" in c for c in copies if not c.startswith("labkit/") and "/lab/" not in c)


@pytest.mark.parametrize("mode", ["platform-8", "virtual-4000", "virtual"])
def test_the_render_stage_gives_the_file_labkit_gives_for_a_mode(tmp_path, mode):
    """Runs the micro image's render stage's commands on a copy of what its build context holds."""
    dockerfile = ROOT / "docker" / "micro" / "Dockerfile"
    dockerignore = dockerfile.with_name("Dockerfile.dockerignore")
    lab = tmp_path / "lab"
    for keyword, rest in _instructions(dockerfile):
        if keyword == "FROM" and not rest.endswith(" AS mode"):
            break  # the render stage ends here
        if keyword == "COPY":
            *sources, target = rest.split()
            for source in sources:
                files = [ROOT / source] if (ROOT / source).is_file() else sorted((ROOT / source).rglob("*"))
                for file in files:
                    relative = file.relative_to(ROOT).as_posix()
                    if file.is_file() and not _ignored(relative, dockerignore):
                        destination = (lab / target.removeprefix("/lab/") / file.name if target.endswith("/labkit/")
                                       else lab / relative)
                        destination.parent.mkdir(parents=True, exist_ok=True)
                        destination.write_bytes(file.read_bytes())
    result = subprocess.run([sys.executable, "-m", "labkit.servers.modes", "render", "--out", str(tmp_path / "rendered"), mode],
                            cwd=lab, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "rendered" / mode / "pre-boot-commands.asadmin").read_text() == payara_mode(mode).preboot
    assert not (lab / "domain-config" / "jvm.options").exists(), "the context holds only what the renderer reads"


def _args(dockerfile):
    """ARG NAME=default lines of a Dockerfile, as a dict (last one wins)."""
    return dict(rest.split("=", 1) for keyword, rest in _instructions(dockerfile) if keyword == "ARG" and "=" in rest)


def test_the_glassfish_image_is_the_lab_release_from_maven_central_on_an_official_jdk_25_image():
    dockerfile = DOCKER / "glassfish" / "Dockerfile"
    args = _args(dockerfile)
    assert args["GLASSFISH_VERSION"] == pom_property("glassfish.version")
    jdk = re.fullmatch(r"(\d+)-jdk(-\w+)?", args["JDK_TAG"]).group(1)
    assert int(jdk) >= 25, "GlassFish 8 milestones are run on JDK 25 here (docs/glassfish/README.md)"
    bases = [rest.split()[0] for keyword, rest in _instructions(dockerfile) if keyword == "FROM"
             and not rest.endswith(" AS mode")]  # the render stage is checked with the others
    assert bases and all(base == "eclipse-temurin:${JDK_TAG}" for base in bases)
    text = dockerfile.read_text()
    assert "https://repo1.maven.org/maven2/org/glassfish/main/distributions/glassfish/${GLASSFISH_VERSION}/" in text
    assert 'sha256sum -c' in text and re.fullmatch(r"[0-9a-f]{64}", args["GLASSFISH_SHA256"])


def test_the_glassfish_image_checks_the_same_zip_maven_gives_the_lab():
    distribution = GlassFishDistribution()
    group, artifact, version, _ = distribution.coordinates.split(":")
    zip_path = (Path.home() / ".m2" / "repository" / Path(*group.split(".")) / artifact / version
                / f"{artifact}-{version}.zip")
    if not zip_path.is_file():
        pytest.skip(f"{zip_path} not downloaded (./lab run --server glassfish downloads it)")
    digest = hashlib.sha256(zip_path.read_bytes()).hexdigest()
    assert _args(DOCKER / "glassfish" / "Dockerfile")["GLASSFISH_SHA256"] == digest


@pytest.mark.parametrize("image", sorted(CONSOLE_IMAGES))
def test_each_server_image_applies_its_products_settings_as_labkit_does(image):
    services, server_class = CONSOLE_IMAGES[image]
    path = DOCKER / image / "product-settings.asadmin"
    lines = [l.strip() for l in path.read_text().splitlines() if l.strip() and not l.strip().startswith("#")]
    assert lines == server_class(payara_mode("virtual"), port=19380, log=lambda m: None).product_settings()
    copies = _copy_sources(DOCKER / image / "Dockerfile", "virtual")
    assert f"docker/{image}/product-settings.asadmin" in copies and "docker/server/start-domain.sh" in copies


# ---- compose ------------------------------------------------------------------------------------

def test_compose_runs_every_standard_mode_on_its_own_loopback_port():
    assert sorted(s["build"]["args"]["MODE"] for s in MICRO.values()) == MODES
    host_ports = []
    for name, service in MICRO.items():
        (mapping,) = service["ports"]
        host, host_port, container_port = mapping.split(":")
        assert host == "127.0.0.1", f"{name} publishes beyond loopback"
        assert container_port == "8080"
        host_ports.append(host_port)
    assert len(set(host_ports)) == len(host_ports)
    exposed = {rest for keyword, rest in _instructions(DOCKER / "micro" / "Dockerfile") if keyword == "EXPOSE"}
    assert exposed == {"8080"}


def test_every_server_in_compose_has_a_health_check_on_api_info():
    script = (DOCKER / "healthcheck.sh").read_text()
    assert "GET /api/info" in script
    for name, service in {**MICRO, **SERVER, **GLASSFISH}.items():
        assert service["healthcheck"]["test"] == ["CMD", "bash", "/opt/loomlab/healthcheck.sh"], name


def test_bombardier_loads_one_healthy_micro_service_for_a_bounded_time():
    bombardier = SERVICES["bombardier"]
    command = bombardier["command"]
    url = command[-1]
    target = re.fullmatch(r"http://([\w-]+):8080/api/sleep\?ms=\d+", url).group(1)
    assert target in MICRO
    assert bombardier["depends_on"][target]["condition"] == "service_healthy"
    assert "-d" in command and re.fullmatch(r"\d+s", command[command.index("-d") + 1])
    assert "-c" in command and int(command[command.index("-c") + 1]) <= 1000
    assert "load" in bombardier["profiles"], "load must not start with a plain `up`"


# ---- no default admin password ------------------------------------------------------------------

@pytest.mark.parametrize("image, secret", [("server", "payara_admin_password"), ("glassfish", "glassfish_admin_password")])
def test_the_server_admin_password_comes_from_a_secret_file_that_git_ignores(image, secret):
    (server,) = CONSOLE_IMAGES[image][0].values()
    assert server["secrets"] == [secret]
    assert server["environment"]["ADMIN_PASSWORD_FILE"] == f"/run/secrets/{secret}"
    assert all(mapping.startswith("127.0.0.1:") for mapping in server["ports"]), "published beyond loopback"
    secret_file = DOCKER / COMPOSE["secrets"][secret]["file"]
    assert secret_file.parent == DOCKER / "secrets"
    ignored = subprocess.run(["git", "check-ignore", "-q", str(secret_file)], cwd=ROOT).returncode
    assert ignored == 0, f"{secret_file} would be committed"
    assert not any("PASSWORD" in key and "FILE" not in key for key in server.get("environment", {}))


def test_no_file_under_docker_sets_an_admin_password():
    assignment = re.compile(r"(AS_ADMIN_PASSWORD|ADMIN_PASSWORD|AS_ADMIN_MASTERPASSWORD)\s*[=:]\s*(?P<value>\S*)")
    for path in DOCKER.rglob("*"):
        if path.is_file() and path.name != ".gitignore":
            for match in assignment.finditer(path.read_text(errors="replace")):
                value = match.group("value").strip("'\"")
                # Allowed: empty, a format or variable ("%s", "$x"), a path, or the end of a shell
                # prefix strip (${password#AS_ADMIN_PASSWORD=}); never a literal password.
                assert value == "" or value.startswith(("%s", "$", "/", "}")), \
                    f"{path.relative_to(ROOT)} sets {match.group(0)}"


def test_the_glassfish_image_drops_the_distributions_domain1_and_sets_no_password():
    instructions = _instructions(DOCKER / "glassfish" / "Dockerfile")
    runs = [rest for keyword, rest in instructions if keyword == "RUN"]
    assert any("rm -rf /opt/unpacked/glassfish8/glassfish/domains/domain1" in run for run in runs)
    env = " ".join(rest for keyword, rest in instructions if keyword == "ENV")
    assert 'ADMIN_PASSWORD=""' in env and "SERVER_DIR=/opt/glassfish8" in env
    assert ("USER", "glassfish") in instructions, "the server does not run as root"


def test_the_server_image_drops_the_base_image_domain_and_password_file():
    runs = [rest for keyword, rest in _instructions(DOCKER / "server" / "Dockerfile") if keyword == "RUN"]
    assert any('rm -rf "${PAYARA_DIR}/glassfish/domains/domain1" "${PASSWORD_FILE}"' in run for run in runs)
    env = " ".join(rest for keyword, rest in _instructions(DOCKER / "server" / "Dockerfile") if keyword == "ENV")
    assert 'ADMIN_PASSWORD=""' in env


def _start_domain(tmp_path, secret_text, home_variable="PAYARA_DIR"):
    """Runs the server images' entrypoint with no server at all: it must stop at the password check."""
    secret = tmp_path / "secret"
    if secret_text is not None:
        secret.write_text(secret_text)
    env = {"PATH": os.environ["PATH"], "ADMIN_PASSWORD_FILE": str(secret), home_variable: str(tmp_path / "no-payara")}
    return subprocess.run(["bash", str(DOCKER / "server" / "start-domain.sh")], env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)


@pytest.mark.parametrize("secret_text, message", [
    (None, "no admin password"), ("admin\n", "well-known default"), ("adminadmin\n", "well-known default"),
    ("short\n", "at least 8 characters"), ("\n", "at least 8 characters")])
def test_the_server_entrypoint_refuses_a_missing_or_weak_password(tmp_path, secret_text, message):
    result = _start_domain(tmp_path, secret_text)
    assert result.returncode == 64
    assert message in result.stderr


@pytest.mark.parametrize("home_variable", ["PAYARA_DIR", "SERVER_DIR"])  # the Payara image's, the GlassFish image's
def test_the_server_entrypoint_accepts_a_real_password_then_needs_payara(tmp_path, home_variable):
    result = _start_domain(tmp_path, "a-real-secret-password\n", home_variable)
    # Past the password check, it calls asadmin, which this test deliberately does not have.
    assert result.returncode not in (0, 64)
    assert "no-payara/bin/asadmin" in result.stderr


# A stand-in asadmin: logs each call, creates the domain folder on create-domain, and fails the
# step named in $FAIL_STEP (start-domain of the configuration, or a multimode command).
FAKE_ASADMIN = r"""#!/bin/bash
echo "$*" >> "$ASADMIN_LOG"
for last; do :; done
case " $* " in
  *" create-domain "*) mkdir -p "$PAYARA_DIR/glassfish/domains/$last/config" "$PAYARA_DIR/glassfish/domains/$last/lib" ;;
  *" start-domain --verbose "*) exit 0 ;;
  *" start-domain "*) [[ $FAIL_STEP == start ]] && exit 1 ;;
  *" multimode "*) [[ $FAIL_STEP == deploy ]] && echo "Command deploy failed." ;;
esac
exit 0
"""


def _start_domain_with_fake_payara(tmp_path, fail_step=""):
    payara = tmp_path / "payara"
    (payara / "bin").mkdir(parents=True, exist_ok=True)
    (payara / "bin" / "asadmin").write_text(FAKE_ASADMIN)
    (payara / "bin" / "asadmin").chmod(0o755)
    lab = tmp_path / "lab"
    lab.mkdir(exist_ok=True)
    (lab / "pre-boot-commands.asadmin").write_text(payara_mode("virtual").preboot)  # as the render stage gives it
    shutil.copy(DOCKER / "server" / "micro-to-server.sed", lab)
    shutil.copy(DOCKER / "server" / "product-settings.asadmin", lab)
    (lab / "virtual-pool.jar").write_text("jar")
    secret = tmp_path / "secret"
    secret.write_text("a-real-secret-password\n")
    log = tmp_path / "asadmin.log"
    log.write_text("")
    script = (DOCKER / "server" / "start-domain.sh").read_text().replace("lab=/opt/loomlab", f"lab={lab}")
    env = {"PATH": os.environ["PATH"], "ADMIN_PASSWORD_FILE": str(secret), "PAYARA_DIR": str(payara),
           "ASADMIN_LOG": str(log), "FAIL_STEP": fail_step, "LOOMLAB_MODE": "virtual"}
    result = subprocess.run(["bash", "-c", script], env=env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, timeout=60)
    return result, log.read_text().splitlines(), payara / "glassfish" / "domains" / "loomlab"


@pytest.mark.parametrize("fail_step", ["start", "deploy"])
def test_a_first_start_that_fails_half_way_is_configured_again_by_the_next(tmp_path, fail_step):
    failed, _, domain = _start_domain_with_fake_payara(tmp_path, fail_step)
    assert failed.returncode != 0
    assert not (domain / "loomlab-configured").exists()

    retried, calls, domain = _start_domain_with_fake_payara(tmp_path)

    assert retried.returncode == 0, retried.stderr
    assert any("create-domain" in c for c in calls), "the half-configured domain is created again"
    assert any("multimode" in c for c in calls), "and configured again"
    assert (domain / "loomlab-configured").read_text().strip() == "virtual"
    assert (domain / "lib" / "virtual-pool.jar").is_file()
    assert calls[-1].endswith("start-domain --verbose loomlab")


def test_a_configured_domain_is_started_without_configuring_it_again(tmp_path):
    first, _, _ = _start_domain_with_fake_payara(tmp_path)
    assert first.returncode == 0, first.stderr

    again, calls, _ = _start_domain_with_fake_payara(tmp_path)

    assert again.returncode == 0, again.stderr
    assert calls == ["--interactive=false start-domain --verbose loomlab"]


def test_the_configured_mark_is_written_after_the_last_configuration_step():
    lines = (DOCKER / "server" / "start-domain.sh").read_text().splitlines()
    mark = next(i for i, l in enumerate(lines) if re.search(r'> "\$configured"', l))
    for step in ("stop-domain", "multimode", "create-domain", "Command [^ ]+ failed"):
        assert max(i for i, l in enumerate(lines) if step in l) < mark, f"{step} comes after the mark"


# ---- the same Micro → Server translation as ./lab ------------------------------------------------

@pytest.mark.skipif(shutil.which("sed") is None, reason="needs sed")
@pytest.mark.parametrize("mode", [*MODES, "platform-8"])
def test_the_image_translates_pre_boot_files_as_labkit_does(tmp_path, mode):
    preboot = tmp_path / "pre-boot-commands.asadmin"
    preboot.write_text(payara_mode(mode).preboot)  # the rendered file the image holds
    translated = subprocess.run(["sed", "-E", "-f", str(DOCKER / "server" / "micro-to-server.sed"), str(preboot)],
                                text=True, stdout=subprocess.PIPE, check=True).stdout
    lines = [l.strip() for l in translated.splitlines() if l.strip() and not l.strip().startswith("#")]
    assert lines == preboot_commands(payara_mode(mode).preboot)


# ---- the health check script --------------------------------------------------------------------

class _Answer(http.server.BaseHTTPRequestHandler):
    status = 200

    def do_GET(self):
        self.send_response(self.status if self.path == "/api/info" else 404)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("status, healthy", [(200, True), (500, False), (None, False)])
def test_health_check_script_reports_what_api_info_answers(status, healthy):
    port = 18595
    server = None
    if status is not None:
        handler = type("Handler", (_Answer,), {"status": status})
        server = http.server.HTTPServer(("127.0.0.1", port), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        result = subprocess.run(["bash", str(DOCKER / "healthcheck.sh")], env={**os.environ, "HTTP_PORT": str(port)},
                                timeout=20)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    assert (result.returncode == 0) == healthy
