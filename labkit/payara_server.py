"""Payara Server (the full distribution, with its admin console) in one thread mode.

The same `domain-config/<mode>/pre-boot-commands.asadmin` files as Payara Micro are applied to a
Payara Server domain through asadmin, the virtual-pool jar goes to the domain's lib folder, the
lab WAR is deployed at "/", and the domain is restarted so the run starts from a fresh JVM.

Layout (all under .lab/, which git ignores):
  .lab/payara-server/payara6/                     the distribution, unpacked by Maven once
  .lab/payara-server/payara6/glassfish/domains/loomlab-<port>-<mode>/   one domain per HTTP port and mode
  .../loomlab-<port>-<mode>/loomlab/              the lab's state: asadmin password file, what was applied

A domain per mode, not one per port updated at each run: `./lab bench` interleaves modes, and a
domain already in its mode boots once instead of twice (configure, then a fresh JVM).

Ports follow asadmin's --portbase = HTTP port - 80: HTTP port P, admin console P-32 (18580 ->
console 18548), and the other domain ports between P-43 and P+6 (HTTPS P+1 is disabled).

Why the launcher stays in the foreground (start-domain --verbose): a restart from the admin
console is done by that launcher, so `./lab run` keeps serving across console restarts and
Ctrl-C still stops everything (the launcher and the server JVM share one process group).
"""
import base64
import hashlib
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from . import ROOT
from .build import VIRTUAL_POOL_JAR, WAR, mvn
from .errors import LabError, UsageError
from .jdk import find_java_home, java_env
from .process import ensure_port_free, spawn, stop, tail, wait_until

HOME = ROOT / ".lab" / "payara-server"
DISTRIBUTION_GROUP = "fish.payara.distributions"
DISTRIBUTION_ARTIFACT = "payara"
ADMIN_USER = "admin"
CONSOLE_PATH = "Configurations → server-config → Thread Pools → http-thread-pool"

# ---- Micro → Server names ---------------------------------------------------------------------
# domain-config/ is written for Payara Micro, whose one HTTP listener (and its protocol) is named
# "http-listener"; Payara Server names them "http-listener-1" (plain) and "http-listener-2" (TLS).
# This table is the one place where pre-boot lines are translated for Payara Server.
MICRO_TO_SERVER_NAMES = {"http-listener": "http-listener-1"}


def server_command(line):
    """One pre-boot line as Payara Server's asadmin expects it: dotted-name segments renamed."""
    for micro, server in MICRO_TO_SERVER_NAMES.items():
        # Only a whole segment of a dotted name: ".http-listener." or ".http-listener=".
        line = re.sub(rf"(?<=\.){re.escape(micro)}(?=[.=])", server, line)
    return line


def preboot_commands(path):
    """The asadmin commands of a pre-boot file (comments and blank lines dropped), translated."""
    commands = []
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            commands.append(server_command(line))
    return commands


# ---- ports --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PortLayout:
    """The ports of a domain created with --portbase = HTTP port - 80 (asadmin's own offsets)."""
    http: int

    @property
    def base(self):
        return self.http - 80

    @property
    def admin(self):
        return self.base + 48

    @property
    def https(self):
        return self.base + 81

    def bound_at_startup(self):
        """Ports a started domain listens on, named: all must be free before we start it."""
        b = self.base
        return {"HTTP": self.http, "HTTPS": self.https, "admin console": self.admin, "IIOP": b + 37,
                "IIOP/SSL": b + 38, "IIOP/mutual-auth": b + 39, "JMX": b + 86, "OSGi shell": b + 66}

    @classmethod
    def for_http_port(cls, port):
        if not 1104 <= port <= 65529:
            raise UsageError(f"--port {port}: Payara Server needs 1104..65529 (its admin and other ports are "
                             f"derived from it: console = port - 32, base = port - 80, highest = port + 6)")
        return cls(port)


# ---- distribution -------------------------------------------------------------------------------

def payara_version():
    """The Payara release of the build (root pom <payara.version>): Server and Micro stay on one line."""
    pom = ET.parse(ROOT / "pom.xml").getroot()
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    version = pom.findtext("m:properties/m:payara.version", namespaces=ns)
    if not version:
        raise LabError("pom.xml has no <payara.version> property")
    return version.strip()


class Distribution:
    """The Payara Server zip from Maven Central, unpacked once under .lab/payara-server/."""

    def __init__(self, version=None, home=HOME):
        self.version = version or payara_version()
        self.home = Path(home)
        self.root = self.home / "payara6"
        self.marker = self.root / ".loomlab-version"

    @property
    def coordinates(self):
        return f"{DISTRIBUTION_GROUP}:{DISTRIBUTION_ARTIFACT}:{self.version}:zip"

    @property
    def asadmin(self):
        return self.root / "bin" / "asadmin"

    @property
    def domains_dir(self):
        return self.root / "glassfish" / "domains"

    def installed(self):
        return self.marker.is_file() and self.marker.read_text().strip() == self.version

    def ensure_installed(self, log=print):
        if self.installed():
            return self
        self.home.mkdir(parents=True, exist_ok=True)
        staging = self.home / f".unpack-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        log(f"installing Payara Server {self.version} ({self.coordinates}, ~170 MB, once) into {self.root}")
        try:
            # Maven resolves it (and caches it in ~/.m2), as it does Payara Micro for the build.
            mvn(["-N", "dependency:unpack", f"-Dartifact={self.coordinates}", f"-DoutputDirectory={staging}"])
        except LabError as e:
            shutil.rmtree(staging, ignore_errors=True)
            raise LabError(f"cannot download the Payara Server distribution {self.coordinates} with Maven "
                           f"(is Maven Central reachable? does that version exist?)\n{_last_lines(str(e), 8)}") from None
        unpacked = staging / "payara6"
        if not (unpacked / "bin" / "asadmin").is_file():
            shutil.rmtree(staging, ignore_errors=True)
            raise LabError(f"{self.coordinates} did not contain payara6/bin/asadmin: not a Payara Server distribution")
        (unpacked / ".loomlab-version").write_text(self.version + "\n")
        if self.root.exists():
            log(f"replacing {self.root} (another version; its domains go with it)")
            shutil.rmtree(self.root)
        unpacked.rename(self.root)
        shutil.rmtree(staging, ignore_errors=True)
        return self


def _last_lines(text, count):
    return "\n".join(text.splitlines()[-count:])


# ---- admin password -----------------------------------------------------------------------------

def read_password_file(path):
    """A password file as a user or Docker secret gives it: the first line, or AS_ADMIN_PASSWORD=..."""
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise UsageError(f"--admin-password-file {path}: {e.strerror}") from None
    password = None
    for line in text.splitlines():
        if line.startswith("AS_ADMIN_PASSWORD="):
            password = line.split("=", 1)[1]
            break
    if password is None:
        password = text.splitlines()[0] if text.splitlines() else ""
    password = password.strip()
    if len(password) < 8:
        raise UsageError(f"--admin-password-file {path}: the password must have at least 8 characters")
    if password.lower() in ("admin", "adminadmin", "changeit", "password"):
        raise UsageError(f"--admin-password-file {path}: that is a well-known default password; choose another")
    return password


def generate_password():
    return secrets.token_urlsafe(18)


# ---- the domain ---------------------------------------------------------------------------------

def asadmin_env(java_home):
    env = java_env(java_home)
    env["AS_JAVA"] = str(java_home)  # asadmin and its launcher take the JDK from AS_JAVA
    env["TERM"] = "dumb"             # no terminal probing in a captured session
    return env


class Asadmin:
    """Runs asadmin of one distribution with the lab's JDK, against one domain's admin port."""

    def __init__(self, distribution, java_home, admin_port, password_file):
        self.distribution = distribution
        self.java_home = java_home
        self.env = asadmin_env(java_home)
        self.admin_port = admin_port
        self.password_file = password_file

    def run(self, args, timeout=300, what=None):
        command = [str(self.distribution.asadmin), "--interactive=false", "--user", ADMIN_USER,
                   "--passwordfile", str(self.password_file), "--host", "127.0.0.1",
                   "--port", str(self.admin_port), *args]
        try:
            result = subprocess.run(command, env=self.env, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        except subprocess.TimeoutExpired:
            raise LabError(f"asadmin {args[0]} did not finish within {timeout} s") from None
        output = "\n".join(l for l in result.stdout.splitlines() if "manpage" not in l and "infocmp" not in l)
        failed = [l for l in output.splitlines() if re.match(r"Command \S+ failed\.", l)]
        if "Authentication failed" in output:
            raise AdminPasswordRefused(f"asadmin {args[0]}: the domain refused the admin password:\n"
                                       f"{_last_lines(output, 5)}")
        if result.returncode != 0 or failed:
            raise LabError(f"asadmin {what or args[0]} failed:\n{_last_lines(output, 15)}")
        return output

    def multimode(self, commands, path, timeout=600):
        """Several commands in one asadmin JVM; multimode exits 0 even when one fails, so run() checks."""
        Path(path).write_text("\n".join(commands) + "\n")
        return self.run(["multimode", "--file", str(path)], timeout=timeout, what=f"multimode --file {path}")


class AdminPasswordRefused(LabError):
    """The domain does not accept the admin password the lab has for it."""


class ServerDomain:
    """A Payara Server domain for the lab: created once, brought up to date with its mode each run."""

    def __init__(self, distribution, ports, name):
        self.distribution = distribution
        self.ports = ports
        self.name = name
        self.dir = distribution.domains_dir / self.name
        self.state_dir = self.dir / "loomlab"
        self.password_file = self.state_dir / "asadmin.passwords"
        self.applied_file = self.state_dir / "applied.json"
        self.domain_xml = self.dir / "config" / "domain.xml"
        self.pid_file = self.dir / "config" / "pid"
        self.lib_pool_jar = self.dir / "lib" / VIRTUAL_POOL_JAR.name

    def exists(self):
        return self.domain_xml.is_file()

    def created_ports(self):
        """The HTTP port domain.xml holds (None if unreadable): a domain is tied to its ports."""
        text = self.domain_xml.read_text(errors="replace") if self.exists() else ""
        match = re.search(r'<network-listener\b[^>]*\bname="http-listener-1"[^>]*>', text)
        port = re.search(r'\bport="(\d+)"', match.group(0)) if match else None
        return int(port.group(1)) if port else None

    def create(self, asadmin, admin_password, log=print):
        creation = self.distribution.home / f".{self.name}.create.passwords"
        _write_secret(creation, f"AS_ADMIN_PASSWORD={admin_password}\nAS_ADMIN_MASTERPASSWORD={generate_password()}\n")
        log(f"creating domain {self.name} (ports from base {self.ports.base}: HTTP {self.ports.http}, "
            f"console {self.ports.admin})")
        try:
            creator = Asadmin(self.distribution, asadmin.java_home, self.ports.admin, creation)
            creator.run(["create-domain", "--portbase", str(self.ports.base), "--savemasterpassword=true",
                         "--checkports=false", self.name], timeout=300)
        except LabError:
            shutil.rmtree(self.dir, ignore_errors=True)
            raise
        finally:
            creation.unlink(missing_ok=True)
        self.save_password(admin_password)

    def save_password(self, admin_password):
        self.state_dir.mkdir(parents=True, exist_ok=True)
        _write_secret(self.password_file, f"AS_ADMIN_PASSWORD={admin_password}\n")

    def saved_password(self):
        if not self.password_file.is_file():
            return None
        for line in self.password_file.read_text().splitlines():
            if line.startswith("AS_ADMIN_PASSWORD="):
                return line.split("=", 1)[1]
        return None

    def server_pid(self):
        try:
            return int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None

    def running_server_pid(self):
        """The pid of a live server JVM of this domain, else None."""
        pid = self.server_pid()
        if pid is not None and self.is_server(pid):
            return pid
        # The pid file is written late in the boot and renamed early in a shutdown: look further.
        found = self.server_pids()
        return found[0] if found else None

    def server_pids(self):
        """Every live process whose command line runs this domain (normally one server JVM)."""
        pids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and self.is_server(int(entry.name)):
                pids.append(int(entry.name))
        return pids

    def is_server(self, pid):
        """Whether pid is a live server JVM of this domain (by its command line: pids get reused)."""
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            return False
        return f"-Dcom.sun.aas.instanceRoot={self.dir}\0" in cmdline

    def jvm_options(self):
        """The server-config JVM options as domain.xml holds them."""
        if not self.exists():
            return []
        root = ET.parse(self.domain_xml).getroot()
        for config in root.iter("config"):
            if config.get("name") == "server-config":
                return [e.text or "" for e in config.iter("jvm-options")]
        return []


def _write_secret(path, text):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def _jvm_option_argument(option):
    # create-jvm-options separates options with ':'; in a multimode file the escape is doubled.
    return shlex.quote(option.replace(":", "\\\\:"))


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# ---- the running server -------------------------------------------------------------------------

class PayaraServer:
    """Payara Server serving the lab WAR in `mode` on host:port; same handle as PayaraMicro."""

    # Payara Server's default domain caps the heap at 512 MB; Payara Micro runs with the JVM's
    # default (a quarter of RAM). Removing the cap keeps the two servers comparable.
    DEFAULT_HEAP_CAP = "-Xmx512m"

    def __init__(self, mode, port=8080, host="127.0.0.1", war=WAR, jvm_options=(), java_home=None,
                 admin_password_file=None, console_host="127.0.0.1", distribution=None, domain_name=None,
                 deploy=True, startup_timeout=300, log=print):
        self.mode = mode
        self.ports = PortLayout.for_http_port(port)
        self.port = port
        self.host = host
        self.console_host = console_host
        self.war = Path(war)
        self.deploy = deploy  # False: a domain for Arquillian, which deploys the WAR itself
        self.jvm_options = list(jvm_options)
        self.java_home = java_home or find_java_home()
        self.admin_password_file = admin_password_file
        self.given_password = read_password_file(admin_password_file) if admin_password_file else None
        self.distribution = distribution or Distribution()
        self.domain = ServerDomain(self.distribution, self.ports, domain_name or f"loomlab-{port}-{mode.name}")
        self.startup_timeout = startup_timeout
        self.log = log
        self.run_dir = ROOT / ".lab" / "runs" / f"server-{self.domain.name}"
        self.log_path = self.run_dir / "server.log"
        self.process = None
        self._server_pid = None
        self.admin_password = None

    # -- public handle ---------------------------------------------------------------------------

    @property
    def base_url(self):
        return f"http://{self.host}:{self.port}"

    @property
    def console_url(self):
        return f"http://{self.console_host}:{self.ports.admin}/"

    @property
    def pid(self):
        """The server JVM (not the launcher): it changes when the console restarts the domain."""
        current = self.domain.running_server_pid()
        if current:
            self._server_pid = current
        return current

    def info(self):
        with urllib.request.urlopen(self.base_url + "/api/info", timeout=10) as response:
            return json.load(response)

    def printable_command(self):
        return " ".join(shlex.quote(p) for p in self._launch_command())

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self):
        """Brings the domain to the mode, then boots it and waits for the app."""
        try:
            self._bring_domain_to_mode()
            # A fresh JVM for the run itself: nothing left from configuring and deploying.
            self._boot(wait_for_app=True, log_name="server.log")
        except BaseException:
            self.stop()
            raise
        return self

    def prepare(self):
        """Brings the domain to the mode and leaves it stopped (Arquillian's managed container
        starts it itself)."""
        try:
            self._bring_domain_to_mode()
        finally:
            self.stop()
        return self

    def _bring_domain_to_mode(self):
        self._check_inputs()
        self._check_ports()
        self.distribution.ensure_installed(self.log)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        asadmin = self._prepare_domain()
        self._place_pool_jar()
        if self._applied() == self._fingerprint():
            return  # domain.xml and every input as the last configuration left them
        self._boot(wait_for_app=False, log_name="configure.log")
        self._configure(asadmin)
        self.stop()
        self._record_applied()

    def stop(self):
        """Stops the launcher and the server JVM, and returns only once the server JVM is gone."""
        # Found before the launcher goes: a JVM that is exiting has an empty command line already.
        servers = set(self.domain.server_pids())
        if self._server_pid and self.domain.is_server(self._server_pid):
            servers.add(self._server_pid)
        if self.process is not None:
            stop(self.process, grace_seconds=60)
            self.process = None
        # The launcher exits at once on SIGTERM while its server JVM is still shutting down:
        # wait for that JVM too, so its ports are free when stop() returns.
        for pid in servers:
            _terminate(pid)
        self._server_pid = None

    # -- steps -----------------------------------------------------------------------------------

    def _check_inputs(self):
        missing = [str(p) for p in (self.war, VIRTUAL_POOL_JAR if self.mode.needs_virtual_pool else None)
                   if p is not None and not Path(p).is_file()]
        if missing:
            raise LabError("missing " + ", ".join(missing) + ": build first (./lab run builds them)")

    def _check_ports(self):
        stop_leftover_servers(self.distribution, self.port, self.log)
        binds = {name: (self.console_host if name in ("admin console", "JMX") else
                        self.host if name.startswith("HTTP") else "127.0.0.1")
                 for name in self.ports.bound_at_startup()}
        for name, port in self.ports.bound_at_startup().items():
            try:
                ensure_port_free(port, binds[name])
            except LabError:
                raise LabError(f"port {port} ({name} of Payara Server with HTTP port {self.port}) is in use: "
                               f"stop what runs there or pick another --port") from None

    def _prepare_domain(self):
        domain = self.domain
        leftover = domain.running_server_pid()
        if leftover:
            # Ports are free (checked before), so this server is not serving: left by a killed lab.
            self.log(f"stopping a Payara Server of domain {domain.name} left running (pid {leftover})")
            _terminate(leftover)
        if domain.exists() and domain.created_ports() != self.ports.http:
            self.log(f"domain {domain.name} has other ports; recreating it")
            shutil.rmtree(domain.dir)
        if domain.exists():
            saved = domain.saved_password()
            if saved is None:
                raise LabError(f"domain {domain.name} has no lab password file ({domain.password_file}); "
                               f"delete {domain.dir} to recreate it")
            self.admin_password = self.given_password or saved
        else:
            self.admin_password = self.given_password or generate_password()
        # The asadmin password file of this run: the saved one is only replaced once the domain accepts it.
        run_passwords = self.run_dir / "asadmin.passwords"
        _write_secret(run_passwords, f"AS_ADMIN_PASSWORD={self.admin_password}\n")
        asadmin = Asadmin(self.distribution, self.java_home, self.ports.admin, run_passwords)
        if not domain.exists():
            domain.create(asadmin, self.admin_password, self.log)
        return asadmin

    def _place_pool_jar(self):
        jar = self.domain.lib_pool_jar
        if self.mode.needs_virtual_pool:
            jar.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(VIRTUAL_POOL_JAR, jar)
        else:
            # Platform modes run without it, so a leftover classname could not silently load it.
            jar.unlink(missing_ok=True)

    def _configuration_commands(self):
        """Everything `./lab run` applies: settings, JVM options, then the deployment."""
        deploy = [f"deploy --force=true --name loomlab --contextroot / {shlex.quote(str(self.war))}"] if self.deploy else []
        return [*self._settings_commands(), *self._jvm_option_commands(), *deploy]

    def _settings_commands(self):
        """The mode's pre-boot file (translated), then the lab's own lines."""
        commands = preboot_commands(self.mode.preboot_file)
        listeners = "configs.config.server-config.network-config.network-listeners.network-listener"
        commands += [
            "# Added by ./lab: the app listener on --host, the admin console and JMX on --console-host.",
            f"set {listeners}.http-listener-1.address={self.host}",
            "# As Payara Micro: one plain HTTP listener. Each listener builds its own pool from",
            "# http-thread-pool, so the TLS listener would double a bounded mode's bound.",
            f"set {listeners}.http-listener-2.enabled=false",
            f"set {listeners}.admin-listener.address={self.console_host}",
            f"set configs.config.server-config.admin-service.jmx-connector.system.address={self.console_host}",
            *(f"set configs.config.server-config.iiop-service.iiop-listener.{name}.address=127.0.0.1"
              for name in ("orb-listener-1", "SSL", "SSL_MUTUALAUTH")),
            "# As Payara Micro's --nocluster: no Hazelcast data grid; and, as in Micro, no JMS broker",
            "# (its proxy listener would bind every address).",
            "set-hazelcast-configuration --enabled=false --dynamic=false",
            "set configs.config.server-config.jms-service.type=DISABLED",
        ]
        return [c for c in commands if not c.startswith("#")]

    def _jvm_option_commands(self):
        current = set(self.domain.jvm_options())
        previous = self._applied_jvm_options()
        commands = []
        removed = [o for o in previous if o in current]
        if self.DEFAULT_HEAP_CAP in current:
            removed.append(self.DEFAULT_HEAP_CAP)
        if removed:
            commands.append("delete-jvm-options " + ":".join(_jvm_option_argument(o) for o in removed))
        if self.jvm_options:
            commands.append("create-jvm-options " + ":".join(_jvm_option_argument(o) for o in self.jvm_options))
        return commands

    def _configure(self, asadmin):
        self.log(f"applying {self.mode.preboot_file.relative_to(ROOT)} (Micro names translated)"
                 + (f" and deploying {self.war.name}" if self.deploy else ""))
        asadmin.multimode(self._configuration_commands(), self.run_dir / "configure.asadmin")

    def _launch_command(self):
        return [str(self.distribution.asadmin), "--interactive=false", "start-domain", "--verbose", self.domain.name]

    def _boot(self, wait_for_app, log_name):
        self.log_path = self.run_dir / log_name
        self.process = spawn(self._launch_command(), self.log_path, cwd=self.run_dir, env=asadmin_env(self.java_home))
        admin_state = {}
        if not wait_until(lambda: self._admin_answers(admin_state), self.startup_timeout, self.process):
            self._fail_boot("the admin console did not answer")
        self._server_pid = self.domain.running_server_pid()
        if admin_state.get("status") == 401:
            raise AdminPasswordRefused(
                f"domain {self.domain.name} does not accept the admin password "
                + (f"in {self.admin_password_file}" if self.given_password else f"saved in {self.domain.password_file}")
                + f"; give the right one with --admin-password-file, or delete {self.domain.dir} to start afresh")
        if self.given_password:
            self.domain.save_password(self.given_password)  # accepted: later runs may omit the file
        if wait_for_app and not wait_until(self._app_ready, self.startup_timeout, self.process):
            self._fail_boot("the application did not answer on /api/info")

    def _fail_boot(self, what):
        exited = self.process.poll() is not None
        why = "exited" if exited else f"{what} within {self.startup_timeout} s"
        raise LabError(f"Payara Server ({self.mode.name}) {why}; last lines of {self.log_path}:\n{tail(self.log_path)}")

    def _admin_answers(self, state):
        """True once the DAS answers its REST API; state['status'] tells 200 (our password) from 401."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.ports.admin}/management/domain/version",
                                         headers={"Accept": "application/json",
                                                  "Authorization": "Basic " + base64.b64encode(
                                                      f"{ADMIN_USER}:{self.admin_password}".encode()).decode()})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                state["status"] = response.status
                return True
        except urllib.error.HTTPError as e:
            state["status"] = e.code
            return e.code == 401
        except OSError:
            return False

    def _app_ready(self):
        try:
            with urllib.request.urlopen(self.base_url + "/api/info", timeout=3) as response:
                return response.status == 200
        except OSError:
            return False


    # -- what was applied ------------------------------------------------------------------------

    def _fingerprint(self):
        """Inputs and resulting domain.xml of the last configuration: equal means nothing to redo."""
        parts = {
            "settings": self._settings_commands(),
            "deploy": self.deploy,
            "jvm": self.jvm_options,
            "war": _sha256(self.war) if self.deploy else None,
            "pool": _sha256(VIRTUAL_POOL_JAR) if self.mode.needs_virtual_pool else None,
            "domain.xml": _sha256(self.domain.domain_xml) if self.domain.exists() else None,
        }
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()

    def _applied(self):
        try:
            return json.loads(self.domain.applied_file.read_text()).get("fingerprint")
        except (OSError, ValueError):
            return None

    def _applied_jvm_options(self):
        try:
            return json.loads(self.domain.applied_file.read_text()).get("jvm_options", [])
        except (OSError, ValueError):
            return []

    def _record_applied(self):
        # Recomputed after the restart-to-be: domain.xml now holds the mode, so the next identical
        # run boots once instead of twice. A change made in the console changes domain.xml, so the
        # next `./lab run` applies its mode again.
        self.domain.applied_file.parent.mkdir(parents=True, exist_ok=True)
        self.domain.applied_file.write_text(json.dumps(
            {"fingerprint": self._fingerprint(), "mode": self.mode.name, "jvm_options": self.jvm_options}, indent=1))


# ---- servers left by a killed lab ---------------------------------------------------------------
# `./lab` runs the domain as `asadmin start-domain --verbose`, whose server JVM is the launcher's
# child. If the lab is killed with SIGKILL, its parent-death signal reaches only the launcher: the
# server JVM lives on, orphaned, and holds the ports the next run checks.

def leftover_servers(domains_dir, port, proc=Path("/proc")):
    """(pid, domain) of server JVMs of the lab's domains for HTTP `port` (any mode) whose launcher is
    gone. A server whose parent is still its start-domain launcher belongs to a running lab: kept."""
    marker = f"-Dcom.sun.aas.instanceRoot={Path(domains_dir)}/loomlab-{port}-"
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        args = _cmdline(proc, entry.name)
        roots = [a for a in args if a.startswith(marker) and "/" not in a[len(marker):]]
        if roots and not _is_launcher(proc, _parent_pid(proc, entry.name)):
            found.append((int(entry.name), Path(roots[0].split("=", 1)[1]).name))
    return sorted(found)


def stop_leftover_servers(distribution, port, log=print):
    """Stops, with a message, the server JVMs a killed lab left on this port (see above)."""
    for pid, domain in leftover_servers(distribution.domains_dir, port):
        log(f"stopping Payara Server pid {pid} (domain {domain}): left running on port {port} by a ./lab "
            f"that was killed (its launcher is gone)")
        _terminate(pid)


def _cmdline(proc, pid):
    try:
        return (proc / str(pid) / "cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def _parent_pid(proc, pid):
    try:
        stat = (proc / str(pid) / "stat").read_text()
        return int(stat[stat.rindex(")") + 2:].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _is_launcher(proc, pid):
    return pid is not None and "start-domain" in _cmdline(proc, pid)


def _terminate(pid, grace_seconds=30):
    """SIGTERM to a server JVM (the launcher's child, not ours), SIGKILL after the grace period;
    returns once the process is gone and its sockets are closed."""
    for sig, wait in ((signal.SIGTERM, grace_seconds), (signal.SIGKILL, 10)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        if wait_until(lambda: _gone(pid), wait):
            return


def _gone(pid):
    """True once every thread of pid has exited: no /proc entry, or a zombie waiting to be reaped.
    A JVM's main thread can be a zombie while its other threads still exit and hold its sockets."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        if stat[stat.rindex(")") + 2] not in "ZX":
            return False
        return len(os.listdir(f"/proc/{pid}/task")) <= 1
    except (OSError, ValueError):
        return True


# ---- ./lab run MODE --server payara-server -----------------------------------------------------

def add_run_arguments(parser):
    """The options `./lab run` has for Payara Server (its other options apply to both servers)."""
    parser.add_argument("--server", choices=("payara-micro", "payara-server"), default="payara-micro",
                        help="payara-micro (default) or payara-server (full server with admin console)")
    parser.add_argument("--admin-password-file", metavar="FILE",
                        help="payara-server: the admin password (first line, or AS_ADMIN_PASSWORD=...); "
                             "default: generated once per domain and saved in the domain's loomlab/ folder")
    from .commands.run import single_line
    parser.add_argument("--console-host", default="127.0.0.1", type=single_line,
                        help="payara-server: address of the admin console (default 127.0.0.1, loopback only)")


def run(args):
    from .build import ensure_built
    from .commands.run import port_number
    from .modes import payara_mode

    mode = payara_mode(args.mode)
    port = port_number(args.port)
    if not _is_loopback(args.console_host):
        # Payara refuses remote administration unless secure admin (TLS) is on, and the lab leaves
        # it off: the console would listen on that address but refuse every login.
        raise UsageError(f"--console-host {args.console_host}: the lab runs the admin console without secure "
                         f"admin, which Payara allows from loopback only; use 127.0.0.1 (e.g. with ssh -L)")
    server = PayaraServer(mode, port=port, host=args.host, jvm_options=args.jvm_opt,
                          admin_password_file=args.admin_password_file, console_host=args.console_host)
    server._check_ports()  # before a build or a download, so a busy port fails fast
    ensure_built(rebuild=args.rebuild)
    print(f"mode {mode.name} on Payara Server {server.distribution.version}: {mode.description}")
    print(f"domain: {server.domain.dir}", flush=True)
    with server:
        info = server.info()
        print(f"log: {server.log_path}")
        print(f"ready: {server.base_url}/api/sleep?ms=100  (pid {info['pid']}, Java {info['java']['version']}, "
              f"request thread: {info['request']['thread']}, virtual={info['request']['virtual']})")
        print(f"admin console: {server.console_url}  (user {ADMIN_USER}, password: "
              f"{args.admin_password_file or server.domain.password_file})")
        print(f"  thread pool: {CONSOLE_PATH}; Save, then server (Admin Server) → Restart")
        print("Ctrl-C stops the server.", flush=True)
        # The launcher outlives restarts from the console; it exits when the server stops for good.
        while server.process.poll() is None:
            time.sleep(0.5)
        print(f"Payara Server exited with code {server.process.returncode}; see {server.log_path}")
        return 1


def _is_loopback(host):
    return host in ("localhost", "::1") or host.startswith("127.")


# ---- bench targets ------------------------------------------------------------------------------
# Registered on import (labkit.targets.EXTRA_TARGET_MODULES): `./lab bench` can run
# server-platform-4000, server-virtual, ... beside the Payara Micro modes.

TARGET_PREFIX = "server-"


def _register_targets():
    from .modes import PAYARA_MODES
    from .targets import Target, register

    def starter(mode):
        def start(port, jvm_options=(), jvm_defaults=True):  # the domain keeps its own JVM options
            return PayaraServer(mode, port=port, jvm_options=jvm_options).start()
        return start

    for mode in PAYARA_MODES.values():
        register(Target(TARGET_PREFIX + mode.name, "Payara Server: " + mode.description, mode.max_concurrent,
                        starter(mode), virtual=mode.virtual))


_register_targets()


# ---- python3 -m labkit.payara_server prepare: domains for the Arquillian profile ----------------

def _properties_escape(value):
    escaped = value.replace("\\", "\\\\")
    for char in ":=#! ":
        escaped = escaped.replace(char, "\\" + char)
    return escaped.encode("ascii", "backslashreplace").decode().replace("\\x", "\\u00")


def main(argv=None):
    """Prepares a stopped domain in a mode for app/pom.xml's payara-server profile, where
    Arquillian's managed container starts it, deploys the test WAR and stops it again."""
    import argparse
    import sys

    from .modes import payara_mode

    parser = argparse.ArgumentParser(prog="python3 -m labkit.payara_server")
    commands = parser.add_subparsers(dest="command", required=True)
    prepare = commands.add_parser("prepare", help="create or update a domain in MODE, and leave it stopped")
    prepare.add_argument("--mode", required=True)
    prepare.add_argument("--port", type=int, required=True, help="HTTP port (the console is port - 32)")
    prepare.add_argument("--domain", required=True, help="domain name (in .lab/payara-server/payara6)")
    prepare.add_argument("--admin-password-file", required=True,
                         help="the admin password; written with a generated one when the file does not exist")
    prepare.add_argument("--properties", help="also write the Payara home, admin port and password there, "
                                              "as Java properties for Failsafe's systemPropertiesFile")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _terminate_as_interrupt)

    def log(message):
        print(f"payara-server: {message}", flush=True)
    try:
        mode = payara_mode(args.mode)
        password_file = Path(args.admin_password_file)
        if not password_file.exists():
            _write_secret(password_file, generate_password() + "\n")
        server = PayaraServer(mode, port=args.port, domain_name=args.domain,
                              admin_password_file=password_file, deploy=False, log=log)
        server.prepare()
        log(f"domain {server.domain.name} holds {args.mode}; console port {server.ports.admin}")
        if args.properties:
            properties = {"loomlab.server.home": str(server.distribution.root),
                          "loomlab.server.adminPort": str(server.ports.admin),
                          "loomlab.server.adminPassword": server.admin_password}
            _write_secret(args.properties, "".join(f"{k}={_properties_escape(v)}\n" for k, v in properties.items()))
    except LabError as e:
        print(f"payara-server: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("payara-server: interrupted, stopped.", file=sys.stderr)
        return 130
    return 0


def _terminate_as_interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    raise SystemExit(main())
