"""A lab domain of a full server: its ports, folders, saved password and server JVMs.

Ports follow asadmin's --portbase = HTTP port - 80: HTTP port P, admin console P-32 (18580 ->
console 18548), and the other domain ports between P-43 and P+6 (HTTPS P+1 is disabled).
"""
import re
import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from labkit.ground import proc
from labkit.ground.build import POOL_JARS
from labkit.ground.errors import LabError, UsageError
from labkit.servers.appserver.asadmin import Asadmin
from labkit.servers.appserver.passwords import generate_password, write_secret


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
                "IIOP/SSL": b + 38, "IIOP/mutual-auth": b + 39, "JMX": b + 86, "OSGi shell": b + 66,
                # The embedded JMS broker's (Payara Server); GlassFish's REMOTE JMS service binds none.
                "JMS": b + 76}

    @classmethod
    def for_http_port(cls, port, product="the server"):
        if not 1104 <= port <= 65529:
            raise UsageError(f"--port {port}: {product} needs 1104..65529 (its admin and other ports are "
                             f"derived from it: console = port - 32, base = port - 80, highest = port + 6)")
        return cls(port)


class ServerDomain:
    """A domain for the lab: created once, brought up to date with its mode each run."""

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
        # Where each pool jar goes when a mode needs it (the server loads lib/ at start).
        self.lib_pool_jars = [self.dir / "lib" / jar.name for jar in POOL_JARS.values()]

    def exists(self):
        return self.domain_xml.is_file()

    def applications(self):
        """Names of the applications deployed in the domain (domain.xml's <applications>), in order."""
        if not self.exists():
            return []
        try:
            root = ET.parse(self.domain_xml).getroot()
        except ET.ParseError:
            return []
        return [app.get("name") for app in root.findall("applications/application") if app.get("name")]

    def created_ports(self):
        """The HTTP port domain.xml holds (None if unreadable): a domain is tied to its ports."""
        text = self.domain_xml.read_text(errors="replace") if self.exists() else ""
        match = re.search(r'<network-listener\b[^>]*\bname="http-listener-1"[^>]*>', text)
        port = re.search(r'\bport="(\d+)"', match.group(0)) if match else None
        return int(port.group(1)) if port else None

    def create(self, asadmin, admin_password, log=print):
        creation = self.distribution.home / f".{self.name}.create.passwords"
        write_secret(creation, f"AS_ADMIN_PASSWORD={admin_password}\nAS_ADMIN_MASTERPASSWORD={generate_password()}\n")
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
        write_secret(self.password_file, f"AS_ADMIN_PASSWORD={admin_password}\n")

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
        return [pid for pid in proc.pids() if self.is_server(pid)]

    def is_server(self, pid):
        """Whether pid is a live server JVM of this domain (by its command line: pids get reused)."""
        return f"-Dcom.sun.aas.instanceRoot={self.dir}" in proc.command_line(pid)

    def jvm_options(self):
        """The server-config JVM options as domain.xml holds them."""
        if not self.exists():
            return []
        root = ET.parse(self.domain_xml).getroot()
        for config in root.iter("config"):
            if config.get("name") == "server-config":
                return [e.text or "" for e in config.iter("jvm-options")]
        return []
