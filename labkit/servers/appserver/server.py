"""A full server (Payara Server, GlassFish) serving a WAR in one thread mode: the lifecycle.

The mode's pre-boot file (rendered by labkit/servers/modes.py, translated by commands.py) is applied to
a domain through asadmin, the virtual-pool jar goes to the domain's lib folder, the WAR is deployed
at "/", and the domain is restarted so the run starts from a fresh JVM.

A domain per HTTP port and mode, not one per port updated at each run: `./lab bench` interleaves
modes, and a domain already in its mode boots once instead of twice (configure, then a fresh JVM).

Why the launcher stays in the foreground (start-domain --verbose): a restart from the admin
console is done by that launcher, so `./lab run` keeps serving across console restarts and
Ctrl-C still stops everything (the launcher and the server JVM share one process group).

Subclasses say what differs: the product name, its Distribution, and product_settings().
"""
import base64
import hashlib
import json
import shlex
import shutil
import urllib.error
import urllib.request
from pathlib import Path

from labkit.ground import proc
from labkit.hosts.host import sha256
from labkit import ROOT
from labkit.ground.build import WAR, pool_jar
from labkit.ground.errors import LabError
from labkit.ground.jdk import find_java_home
from labkit.ground.process import ensure_port_free, spawn, stop, tail, terminate, wait_until
from labkit.servers.interface import LabServer
from labkit.servers.appserver.asadmin import ADMIN_USER, AdminPasswordRefused, Asadmin, asadmin_env
from labkit.servers.appserver.commands import jvm_option_commands, lab_settings, preboot_commands
from labkit.servers.appserver.domain import PortLayout, ServerDomain
from labkit.servers.appserver.passwords import generate_password, read_password_file, write_secret
from labkit.servers.userapp import PROBE_NAME, PROBE_ROOT, info_path

RUNS = ROOT / ".lab" / "runs"
# Jars the lab puts into a domain's lib/ for a WAR (AppServer.domain_libs): this prefix tells them apart.
DOMAIN_LIB_PREFIX = "loomlab-lib-"


class AppServer(LabServer):
    """One domain of a full server serving a WAR in `mode` on host:port; a ServerHandle like
    PayaraMicro (labkit/servers/interface.py)."""

    PRODUCT = None         # "Payara Server", "GlassFish"
    DISTRIBUTION = None    # a Distribution subclass
    RUN_PREFIX = None      # .lab/runs/<prefix><domain>/
    # Both default domains cap the heap at 512 MB; Payara Micro runs with the JVM's default (a
    # quarter of RAM). Removing the cap keeps the servers comparable.
    DEFAULT_HEAP_CAP = "-Xmx512m"

    def __init__(self, mode, port=8080, host="127.0.0.1", war=WAR, jvm_options=(), java_home=None,
                 admin_password_file=None, console_host="127.0.0.1", distribution=None, domain_name=None,
                 deploy=True, startup_timeout=300, log=print, apps=(), domain_libs=()):
        self.mode = mode
        # Your own WARs (userapp.UserWar), deployed beside `war`, which then serves as the probe at
        # userapp.PROBE_ROOT instead of at "/".
        self.apps = tuple(apps)
        self.info_path = info_path(self.apps)
        self.ports = PortLayout.for_http_port(port, self.PRODUCT)
        self.port = port
        self.host = host
        self.console_host = console_host
        self.war = Path(war)
        self.deploy = deploy  # False: a domain for Arquillian, which deploys the WAR itself
        self.jvm_options = list(jvm_options)
        self.domain_libs = [Path(jar) for jar in domain_libs]  # jars the WAR needs on the server's class path
        self.java_home = java_home or find_java_home()
        self.admin_password_file = admin_password_file
        self.given_password = read_password_file(admin_password_file) if admin_password_file else None
        self.distribution = distribution or self.DISTRIBUTION()
        self.domain = ServerDomain(self.distribution, self.ports, domain_name or f"loomlab-{port}-{mode.name}")
        self.startup_timeout = startup_timeout
        self.log = log
        self.run_dir = RUNS / f"{self.RUN_PREFIX}{self.domain.name}"
        self.log_path = self.run_dir / "server.log"
        self.process = None
        self._server_pid = None
        self.admin_password = None
        # The domain's asadmin with this run's password, once the domain is prepared: for commands
        # beyond the lab's own on the running server (a test reads Payara's monitoring with it).
        self.asadmin = None

    def product_settings(self):
        """asadmin commands this product needs beyond the mode and the lab's listener settings."""
        return []

    # -- public handle ---------------------------------------------------------------------------

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

    def printable_command(self):
        return " ".join(shlex.quote(p) for p in self._launch_command())

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
        asadmin = self.asadmin = self._prepare_domain()
        self._place_pool_jar()
        self._place_domain_libs()
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
            terminate(pid)
        self._server_pid = None

    # -- steps -----------------------------------------------------------------------------------

    def _check_inputs(self):
        missing = [str(p) for p in (self.war, pool_jar(self.mode),
                                    *(app.path for app in self.apps))
                   if p is not None and not Path(p).is_file()]
        if missing:
            raise LabError("missing " + ", ".join(missing) + ": build first (./lab run builds them)")

    def _check_ports(self):
        self._stop_leftovers()
        binds = {name: (self.console_host if name in ("admin console", "JMX") else
                        self.host if name.startswith("HTTP") else "127.0.0.1")
                 for name in self.ports.bound_at_startup()}
        for name, port in self.ports.bound_at_startup().items():
            try:
                ensure_port_free(port, binds[name])
            except LabError:
                raise LabError(f"port {port} ({name} of {self.PRODUCT} with HTTP port {self.port}) is in use: "
                               f"stop what runs there or pick another --port") from None

    def _stop_leftovers(self):
        """Stops, with a message, the server JVMs a killed lab left on this port (leftover_servers)."""
        for pid, domain in leftover_servers(self.distribution.domains_dir, self.port):
            self.log(f"stopping {self.PRODUCT} pid {pid} (domain {domain}): left running on port {self.port} "
                     f"by a ./lab that was killed (its launcher is gone)")
            terminate(pid)

    def _prepare_domain(self):
        domain = self.domain
        leftover = domain.running_server_pid()
        if leftover:
            # Ports are free (checked before), so this server is not serving: left by a killed lab.
            self.log(f"stopping a {self.PRODUCT} of domain {domain.name} left running (pid {leftover})")
            terminate(leftover)
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
        write_secret(run_passwords, f"AS_ADMIN_PASSWORD={self.admin_password}\n")
        asadmin = Asadmin(self.distribution, self.java_home, self.ports.admin, run_passwords)
        if not domain.exists():
            domain.create(asadmin, self.admin_password, self.log)
        return asadmin

    def _place_pool_jar(self):
        wanted = pool_jar(self.mode)
        for library in self.domain.lib_pool_jars:
            if wanted and library.name == wanted.name:
                library.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(wanted, library)
            else:
                # A mode runs without the other pool jars, so a leftover classname could not silently load one.
                library.unlink(missing_ok=True)

    def _place_domain_libs(self):
        """The WAR's server-side jars (e.g. a JDBC driver) in the domain's lib folder, under a lab
        prefix; those an earlier run placed for another WAR go, so each WAR sees only its own."""
        lib = self.domain.dir / "lib"
        lib.mkdir(parents=True, exist_ok=True)
        wanted = {DOMAIN_LIB_PREFIX + jar.name: jar for jar in self.domain_libs}
        for placed in lib.glob(DOMAIN_LIB_PREFIX + "*"):
            if placed.name not in wanted:
                placed.unlink()
        for name, jar in wanted.items():
            shutil.copyfile(jar, lib / name)

    def _configuration_commands(self):
        """Everything `./lab run` applies: settings, JVM options, then the deployment."""
        deploy = self._deploy_commands() if self.deploy else []
        return [*self._settings_commands(), *self._jvm_option_commands(), *deploy]

    def _deploy_commands(self):
        """The lab's WAR at "/", or your WARs at their roots and the lab's as the probe. Every application
        an earlier run deployed is undeployed first: one not wanted now might hold a root, and one
        wanted again may have failed to load when the domain booted to be configured (a message-driven
        WAR loads before the web container has started, and a forced redeploy over it then finds no
        CDI), so each is deployed afresh."""
        wanted = ([(app.name, app.context_root, app.path) for app in self.apps] + [(PROBE_NAME, PROBE_ROOT, self.war)]
                  if self.apps else [("loomlab", "/", self.war)])
        undeploy = [f"undeploy {shlex.quote(name)}" for name in self.domain.applications()]
        return undeploy + [f"deploy --name {shlex.quote(name)} --contextroot {shlex.quote(root)} "
                           f"{shlex.quote(str(path))}" for name, root, path in wanted]

    def _settings_commands(self):
        """The mode's pre-boot file (translated), then the lab's own lines, then the product's."""
        return [*preboot_commands(self.mode.preboot), *lab_settings(self.host, self.console_host),
                *self.product_settings()]

    def _jvm_option_commands(self):
        return jvm_option_commands(self.jvm_options, set(self.domain.jvm_options()), self._applied_jvm_options(),
                                   removed_defaults=(self.DEFAULT_HEAP_CAP,))

    def _configure(self, asadmin):
        self.log(f"applying mode {self.mode.name} ({self.mode.source.relative_to(ROOT)} and the shared limits, "
                 f"Micro names translated)"
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
        raise LabError(f"{self.PRODUCT} ({self.mode.name}) {why}; last lines of {self.log_path}:\n{tail(self.log_path)}")

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
            with urllib.request.urlopen(self.base_url + self.info_path, timeout=3) as response:
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
            "war": sha256(self.war) if self.deploy else None,
            # Only with your WARs, so a domain configured before them keeps its fingerprint.
            **({"apps": [[app.context_root, sha256(app.path)] for app in self.apps]} if self.apps and self.deploy else {}),
            "pool": sha256(pool_jar(self.mode)) if pool_jar(self.mode) else None,
            "domain.xml": sha256(self.domain.domain_xml) if self.domain.exists() else None,
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
# child. If the lab is killed with SIGKILL, its parent-death signal reaches only the launcher; the
# leash (ground/process.py) ends the server JVM too. A JVM left all the same (its leash killed with
# it, by a kill of the whole session; or by a lab older than the leash) holds the ports the next run
# checks: that run names it and stops it.

def leftover_servers(domains_dir, port, proc_root=Path("/proc")):
    """(pid, domain) of server JVMs of the lab's domains for HTTP `port` (any mode) whose launcher is
    gone. A server whose parent is still its start-domain launcher belongs to a running lab: kept."""
    marker = f"-Dcom.sun.aas.instanceRoot={Path(domains_dir)}/loomlab-{port}-"
    found = []
    for pid in proc.pids(proc_root):
        args = _cmdline(proc_root, pid)
        roots = [a for a in args if a.startswith(marker) and "/" not in a[len(marker):]]
        if roots and not _is_launcher(proc_root, _parent_pid(proc_root, pid)):
            found.append((pid, Path(roots[0].split("=", 1)[1]).name))
    return sorted(found)


def _cmdline(proc_root, pid):
    return proc.command_line(pid, proc_root)


def _parent_pid(proc_root, pid):
    stat = proc.read_stat(pid, proc_root)
    return stat.ppid if stat else None


def _is_launcher(proc_root, pid):
    return pid is not None and "start-domain" in _cmdline(proc_root, pid)
