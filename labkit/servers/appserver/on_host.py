"""A full server (Payara Server, GlassFish) on another host (--server-host): the domain is brought to
its mode here, then copied there and booted there.

Why configure here: asadmin needs a running DAS to deploy and to set most of a mode, and it allows
that only from loopback without secure admin (cli.py). So the lab does on this machine exactly what
a local run does (AppServer: create the domain, apply the mode, place the pool jar, deploy, with the
same fingerprint that skips work already done), and the host gets the result:

  files/<distribution>-<version>/            the distribution, unpacked there once (its tar is
                                             made here once and sent only if its checksum differs)
  runs/<name>/domains/<domain>/              the configured domain, fresh each start, its HTTP
                                             listener on the host's address

and runs `asadmin start-domain --verbose --domaindir runs/<name>/domains <domain>` there under the
leash (labkit.hosts), pinned with taskset, with the JDK found there. The launcher and the server
JVM share one process group, so the leash ends both when the lab stops or dies. Only tar and a JDK
21+ are needed there.
"""
import io
import re
import tarfile
import time

from labkit.ground.errors import LabError
from labkit.ground.process import tail, wait_until
from labkit.servers.hosting import HostedProcess, HostedServer

# Not copied: what the server writes at run time (caches, logs, its pid), and the lab's own state
# of the domain here (its admin password file and what was applied): they stay on this machine.
RUNTIME_ENTRIES = ("osgi-cache", "logs", "loomlab", "config/pid", "config/pid.prev", "session-store")
STOPPED_WITHIN_S = 60


class DomainOnHost(HostedServer):
    """`server` (an AppServer, not started) served from `on`: same handle as every server kind."""

    def __init__(self, server, on, remote_java=None, cpus=None, startup_timeout=300):
        self.server = server
        self.product = server.PRODUCT
        self.hosted = HostedProcess(f"{server.RUN_PREFIX}{server.domain.name}-on-host", server.java_home, on,
                                    remote_java, cpus)
        self.on = self.hosted.on
        self.host = self.on.address
        self.port = server.port
        self.mode = server.mode
        self.apps = server.apps
        self.info_path = server.info_path
        self.java_home = server.java_home
        self._server_java_home = self.hosted.java_home
        self.startup_timeout = startup_timeout
        self.log_path = self.hosted.run_dir / "server.log"
        self._server_pid = None
        self._command = None

    @property
    def domains_there(self):
        return f"{self.hosted.host_run_dir}/domains"

    @property
    def pid(self):
        """The server JVM there (the launcher's child), from the pid file the server writes."""
        if self._server_pid is None and self.process is not None:
            text = self.on.run(["cat", f"{self.domains_there}/{self.server.domain.name}/config/pid"],
                               check=False).stdout.strip()
            self._server_pid = int(text) if text.isdigit() else None
        return self._server_pid

    def command(self):
        """start-domain there (the distribution is sent and unpacked there on the first call)."""
        if self._command is None:
            self._command = self._start_domain(self._distribution_there())
        return self._command

    def _start_domain(self, distribution):
        return self.hosted.pinned(["env", f"AS_JAVA={self.hosted.java_home}", f"{distribution}/bin/asadmin",
                                   "--interactive=false", "start-domain", "--verbose", "--domaindir",
                                   self.domains_there, self.server.domain.name])

    def start(self):
        self.hosted.ensure_port(self.port, self.host)
        self.server.prepare()  # the domain in its mode here, stopped: what a local run would boot
        try:
            command = self.command()
            self.hosted.fresh_run_folder()
            self._send_domain()
            self.hosted.spawn(command, self.log_path)
            if not wait_until(self._app_ready, self.startup_timeout, self.process):
                exited = self.process.poll() is not None
                why = "exited" if exited else f"did not answer {self.info_path} within {self.startup_timeout} s"
                raise LabError(f"{self.product} ({self.mode.name}) on {self.on} {why}; last lines of "
                               f"{self.log_path}:\n{tail(self.log_path)}")
            if self.pid is None:
                raise LabError(f"{self.product} on {self.on} answers but wrote no pid file in its domain")
            self.hosted.watch(self.pid)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self):
        """The leash ends the launcher and the server JVM; returns once that JVM is gone there, so
        its ports are free for the next start."""
        pid = self._server_pid
        self.hosted.stop()
        if pid is not None:
            deadline = time.monotonic() + STOPPED_WITHIN_S
            while time.monotonic() < deadline and self.on.run(["kill", "-0", str(pid)], check=False).returncode == 0:
                time.sleep(0.5)
        self._server_pid = None

    def _app_ready(self):
        try:
            self.info()
            return True
        except (OSError, ValueError):
            return False

    # -- what goes to the host -------------------------------------------------------------------

    def _distribution_there(self):
        """The distribution's folder there, unpacked once from a tar of it (made here once)."""
        distribution = self.server.distribution
        archive = distribution_archive(distribution)
        sent = self.hosted.files({"distribution": archive})["distribution"]
        folder = sent[:-len(".tar")]
        # Unpacked again only when a tar arrived after the last unpacking (put() sends one only when its
        # checksum differs, and the copy there then is newer than the marker).
        self.on.run(["sh", "-c", '[ -f "$1/.complete" ] && ! [ "$2" -nt "$1/.complete" ] || { rm -rf "$1" && '
                                 'mkdir -p "$1" && tar -xf "$2" -C "$1" && touch "$1/.complete"; }', "sh", folder, sent],
                    timeout=600)
        return f"{folder}/{distribution.TOP_DIR}"

    def _send_domain(self):
        """The configured domain into the run folder there, its HTTP listener on the host's address."""
        archive = self.hosted.run_dir / "domain.tar"
        write_domain_archive(self.server.domain, self.host, archive)
        [sent] = self.on.put_all([archive], f"runs/{self.hosted.name}")
        self.on.run(["sh", "-c", 'mkdir -p "$1" && tar -xf "$2" -C "$1" && rm -f "$2"', "sh", self.domains_there, sent],
                    timeout=300)


def distribution_archive(distribution):
    """A tar of the unpacked distribution without its domains, beside it; made once per version, with
    fixed owners and times, so its checksum (and so the copy there) changes only with the version."""
    archive = distribution.home / f"{distribution.TOP_DIR}-{distribution.version}.tar"
    if archive.is_file():
        return archive
    partial = archive.with_suffix(".tar.partial")
    domains = distribution.domains_dir.relative_to(distribution.home)
    with tarfile.open(partial, "w") as tar:
        tar.add(distribution.root, arcname=distribution.TOP_DIR, recursive=True, filter=_fixed(
            lambda name: name == str(domains) or name.startswith(f"{domains}/")))
    partial.rename(archive)
    return archive


def write_domain_archive(domain, address, archive):
    """The domain's folder as a tar (what the server writes at run time left out), its domain.xml
    with the HTTP listener on `address`."""
    xml = listener_on(domain.domain_xml.read_text(), address).encode()
    with tarfile.open(archive, "w") as tar:
        tar.add(domain.dir, arcname=domain.name, recursive=True, filter=_fixed(
            lambda name: name == f"{domain.name}/config/domain.xml"
            or any(name == f"{domain.name}/{entry}" or name.startswith(f"{domain.name}/{entry}/")
                   for entry in RUNTIME_ENTRIES)))
        info = tarfile.TarInfo(f"{domain.name}/config/domain.xml")
        info.size, info.mode = len(xml), 0o600
        tar.addfile(info, io.BytesIO(xml))


def listener_on(domain_xml, address):
    """domain.xml's text with http-listener-1 on `address` (the lab set its address when it configured
    the domain here: AppServer.lab_settings)."""
    pattern = re.compile(r'(<network-listener\b[^>]*\bname="http-listener-1"[^>]*>)')
    match = pattern.search(domain_xml)
    if not match or not re.search(r'\baddress="[^"]*"', match.group(1)):
        raise LabError("the domain's domain.xml has no http-listener-1 with an address to move to the server's host")
    moved = re.sub(r'\baddress="[^"]*"', f'address="{address}"', match.group(1), count=1)
    return domain_xml[:match.start()] + moved + domain_xml[match.end():]


def _fixed(skipped):
    """A tarfile filter: entries for which skipped(name) is true are left out; the others get one
    owner and one time, so the same files give the same tar."""
    def keep(info):
        if skipped(info.name):
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        info.mtime = 0
        return info
    return keep
