"""CargoTracker (cargotracker/, the Faces shipping app) in the lab: its WAR on Payara Micro for
`./lab run MODE --app cargotracker` (or on GlassFish with --server glassfish), one bench target per thread mode, and two bench scenarios.

The bench pages are plain GETs of stateless Faces views: they carry no jakarta.faces.ViewState and
open no HTTP session, so a load tool can request them as they are. The operator pages (the
dashboard) need the login: the load tool sends it as HTTP Basic, from the admin password file every
CargoTracker server of the lab uses (the application creates it at its first start). (A POST, e.g. assigning a route,
would first GET its page and send back the jakarta.faces.ViewState hidden field and the session
cookie of that GET; no bench scenario needs one.)
"""
import base64
from pathlib import Path

from labkit import ROOT
from labkit.load.scenarios import Scenario, register as register_scenario
from labkit.ground.build import PAYARA_MICRO_JARS, POOL_JARS, ensure_built, mvn, pom_property
from labkit.ground.errors import LabError, UsageError
from labkit.servers.appserver.passwords import generate_password, write_secret
from labkit.servers.interface import Foreground
from labkit.servers.payara_micro import PayaraMicro
from labkit.ground.process import ensure_port_free
from labkit.servers.registry import Target, register_mode_targets

WAR = ROOT / "cargotracker" / "target" / "cargotracker.war"
ARTIFACTS = (WAR, *POOL_JARS.values(), *PAYARA_MICRO_JARS.values())
# ./lab run keeps its database here across restarts; bench servers start from fresh sample data
# (the default folder is inside the run folder, which each start wipes).
DATA_DIR = ROOT / ".lab" / "cargotracker-data"
BENCH_DATA_DIR = "./cargotracker-data"
H2_DIR = ROOT / ".lab" / "h2"
# The operator's password (user admin): created by the application at its first start, if missing.
ADMIN_PASSWORD_FILE = ROOT / ".lab" / "cargotracker-admin-password"
ADMIN_USER = "admin"
# A bench server reads the same password from a copy in its run folder (its working directory), on
# this machine or on another host.
RUN_FOLDER_PASSWORD_FILE = "cargotracker-admin-password"
TARGET_PREFIX = "cargotracker-"
# On board a ship, with an itinerary and a handling history: the richest tracking page.
SAMPLE_CARGO = "LOOM0004"
BENCH_TARGETS = (TARGET_PREFIX + "platform-10000", TARGET_PREFIX + "virtual")


def data_options(keep_data, password_file=ADMIN_PASSWORD_FILE):
    """The JVM options every CargoTracker server needs. The data-source URL in web.xml names the
    system property cargotracker.data.dir, which has no default, so it is always set: the lab's
    folder for ./lab run, else a folder in the server's working directory (Payara Micro's run
    folder, which each start wipes)."""
    return [f"-Dcargotracker.admin.password.file={password_file}",
            f"-Dcargotracker.data.dir={DATA_DIR if keep_data else BENCH_DATA_DIR}"]


def admin_password():
    """The lab's operator password (ADMIN_PASSWORD_FILE's first line), made here, as the application
    would make it, when no server has yet: a server on another host is given this one, so that the
    load tool here logs in with what this machine knows."""
    stored = _stored_password(ADMIN_PASSWORD_FILE)
    if stored:
        return stored
    password = generate_password()
    write_secret(ADMIN_PASSWORD_FILE, password + "\n")
    return password


def payara_micro(mode, port, host="127.0.0.1", jvm_options=(), keep_data=False, jvm_defaults=True, line=6,
                 on=None, remote_java=None, cpus=None):
    """CargoTracker on Payara Micro, here or on the host `on` (--server-host). With `keep_data` (./lab
    run, on this machine) it keeps its data and the admin password in the lab's folder; a bench
    server gets the lab's password as a file of its run folder and its data there."""
    password_file = ADMIN_PASSWORD_FILE if keep_data else RUN_FOLDER_PASSWORD_FILE
    options = list(jvm_options) + data_options(keep_data, password_file)
    return PayaraMicro(mode, port=port, host=host, war=WAR, jvm_options=options, jvm_defaults=jvm_defaults, line=line,
                       on=on, remote_java=remote_java, cpus=cpus,
                       run_files=None if keep_data else {RUN_FOLDER_PASSWORD_FILE: admin_password() + "\n"})


def h2_jar(log=print):
    """H2 (root pom <h2.version>) from Maven Central, once, into .lab/h2/: GlassFish ships Derby only."""
    version = pom_property("h2.version")
    jar = H2_DIR / f"h2-{version}.jar"
    if not jar.is_file():
        log(f"downloading H2 {version} (com.h2database:h2, once) into {H2_DIR}")
        mvn(["-N", "dependency:copy", f"-Dartifact=com.h2database:h2:{version}", f"-DoutputDirectory={H2_DIR}"])
        if not jar.is_file():
            raise LabError(f"Maven did not leave {jar}: is com.h2database:h2:{version} on Maven Central?")
    return jar


def glassfish(mode, port, host="127.0.0.1", jvm_options=(), admin_password_file=None, console_host="127.0.0.1"):
    """CargoTracker on GlassFish, its data kept across runs, with H2 in the domain's lib/ (the
    data source of web.xml is created by the server, so its driver must be on the server's class path)."""
    from labkit.servers.appserver.glassfish import GlassFish
    return GlassFish(mode, port=port, host=host, war=WAR, jvm_options=list(jvm_options) + data_options(True),
                     admin_password_file=admin_password_file, console_host=console_host, domain_libs=(h2_jar(),))


def foreground(args, mode, port):
    """`./lab run MODE --app cargotracker`: CargoTracker on Payara Micro (or --server glassfish), its
    data kept across runs in the lab's folder."""
    kind = args.server
    if kind not in ("payara-micro", "glassfish"):
        raise UsageError("--app cargotracker runs on Payara Micro and GlassFish only; leave out --server "
                         "or use --server glassfish")
    if kind == "glassfish":
        server = glassfish(mode, port, args.host, args.jvm_opt, args.admin_password_file, args.console_host)
        server._check_ports()  # before a build or a download, so a busy port fails fast
        def before():
            return [f"mode {mode.name} on {server.PRODUCT}: {mode.description}"]
    else:
        ensure_port_free(port, args.host)
        server = payara_micro(mode, port, args.host, args.jvm_opt, keep_data=True, jvm_defaults=args.jvm_defaults,
                              line=int(args.payara))
        def before():
            return [f"mode {mode.name} on {server.product}: {mode.description}", f"command: {server.printable_command()}"]

    def after(started, info):
        lines = [f"operator pages (booking desk, booking, event logger) and API writes: user {ADMIN_USER}, "
                 f"password: {ADMIN_PASSWORD_FILE}  (tracking is public)"]
        if kind == "glassfish":
            lines.append(f"admin console: {started.console_url}  (user admin, password: "
                         f"{args.admin_password_file or started.domain.password_file})")
        return lines
    return Foreground(server, server.PRODUCT if kind == "glassfish" else server.product,
                      before=lambda: before() + [f"log: {server.log_path}", f"data: {DATA_DIR}"],
                      urls=lambda started: (f"{started.base_url}/  tracking: "
                                            f"{started.base_url}/track.xhtml?trackingId={SAMPLE_CARGO}"),
                      after=after, artifacts=ARTIFACTS)


def admin_authorization(password_file=ADMIN_PASSWORD_FILE):
    """The operator's login as an HTTP Basic header, from the password file's first line."""
    password = _stored_password(password_file)
    if password is None:
        raise LabError(f"no CargoTracker admin password in {password_file}: the application writes it at its "
                       f"first start; is a CargoTracker server of the lab running?")
    token = base64.b64encode(f"{ADMIN_USER}:{password}".encode()).decode()
    return f"Authorization: Basic {token}"


def _stored_password(password_file):
    """The first line of an operator password file, stripped; None when it cannot be read or is empty."""
    try:
        return Path(password_file).read_text().splitlines()[0].strip()
    except (OSError, IndexError):
        return None


def _starter(mode):
    def start(port, jvm_options=(), jvm_defaults=True, on=None, remote_java=None, cpus=None):
        ensure_built(ARTIFACTS)
        return payara_micro(mode, port, jvm_options=jvm_options, jvm_defaults=jvm_defaults, on=on,
                            remote_java=remote_java, cpus=cpus).start()
    return start


register_mode_targets(TARGET_PREFIX, lambda mode: Target(
    TARGET_PREFIX + mode.name, "CargoTracker on Payara Micro: " + mode.description, mode.max_concurrent,
    _starter(mode), virtual=mode.virtual, takes_host=True))

register_scenario(Scenario(
    name="cargotracker-track",
    description=f"GET /track.xhtml?trackingId={SAMPLE_CARGO}: the public tracking page (Faces, JPA reads, no view state)",
    path=lambda config, level: f"/track.xhtml?trackingId={SAMPLE_CARGO}",
    service_time_s=lambda config, level: None,  # CPU and database work: no fixed service time to compare with
    targets=BENCH_TARGETS,
))

register_scenario(Scenario(
    name="cargotracker-dashboard",
    description="GET /admin/dashboard.xhtml: the booking desk's three cargo lists (Faces, JPA reads, no view state)",
    path=lambda config, level: "/admin/dashboard.xhtml",
    service_time_s=lambda config, level: None,
    targets=BENCH_TARGETS,
    headers=lambda config: (admin_authorization(),),  # an operator page: logged in with HTTP Basic
))
