"""CargoTracker (cargotracker/, the Faces shipping app) in the lab: its WAR on Payara Micro for
`./lab run MODE --app cargotracker`, one bench target per thread mode, and two bench scenarios.

The bench pages are plain GETs of stateless Faces views: they carry no jakarta.faces.ViewState and
open no HTTP session, so a load tool can request them as they are. The operator pages (the
dashboard) need the login: the load tool sends it as HTTP Basic, from the admin password file every
CargoTracker server of the lab uses (the application creates it at its first start). (A POST, e.g. assigning a route,
would first GET its page and send back the jakarta.faces.ViewState hidden field and the session
cookie of that GET; no bench scenario needs one.)
"""
import base64

from . import ROOT
from .arguments import port_number
from .bench.scenarios import Scenario, register as register_scenario
from .build import PAYARA_MICRO_JAR, VIRTUAL_POOL_JAR, ensure_built
from .errors import LabError, UsageError
from .foreground import serve
from .modes import payara_mode
from .payara import PayaraMicro
from .process import ensure_port_free
from .targets import Target, register_mode_targets

WAR = ROOT / "cargotracker" / "target" / "cargotracker.war"
ARTIFACTS = (WAR, VIRTUAL_POOL_JAR, PAYARA_MICRO_JAR)
# ./lab run keeps its database here across restarts; bench servers start from fresh sample data
# (the default folder is inside the run folder, which each start wipes).
DATA_DIR = ROOT / ".lab" / "cargotracker-data"
# The operator's password (user admin): created by the application at its first start, if missing.
ADMIN_PASSWORD_FILE = ROOT / ".lab" / "cargotracker-admin-password"
ADMIN_USER = "admin"
TARGET_PREFIX = "cargotracker-"
# On board a ship, with an itinerary and a handling history: the richest tracking page.
SAMPLE_CARGO = "LOOM0004"
BENCH_TARGETS = (TARGET_PREFIX + "platform-10000", TARGET_PREFIX + "virtual")


def payara_micro(mode, port, host="127.0.0.1", jvm_options=(), keep_data=False, jvm_defaults=True):
    options = list(jvm_options) + [f"-Dcargotracker.admin.password.file={ADMIN_PASSWORD_FILE}"]
    if keep_data:
        options.append(f"-Dcargotracker.data.dir={DATA_DIR}")
    return PayaraMicro(mode, port=port, host=host, war=WAR, jvm_options=options, jvm_defaults=jvm_defaults)


def run(args):
    """`./lab run MODE --app cargotracker`: in the foreground until Ctrl-C."""
    server = args.server
    if server == "glassfish":
        # Its deployment fails there: GlassFish 8.0.0-M12's MicroProfile Config bundle does not resolve
        # (it needs io.helidon, not in the distribution), and GlassFish ships Derby, not H2 (docs/glassfish).
        raise UsageError("--app cargotracker does not deploy on GlassFish 8.0.0-M12 (its MicroProfile Config "
                         "module does not resolve, and it has no H2); leave out --server")
    if server != "payara-micro":
        raise UsageError("--app cargotracker runs on Payara Micro only; leave out --server")
    mode = payara_mode(args.mode)
    port = port_number(args.port)
    ensure_port_free(port, args.host)
    ensure_built(ARTIFACTS, rebuild=args.rebuild)
    server = payara_micro(mode, port, args.host, args.jvm_opt, keep_data=True, jvm_defaults=args.jvm_defaults)
    print(f"mode {mode.name}: {mode.description}")
    print("command:", server.printable_command(), flush=True)
    print(f"log: {server.log_path}\ndata: {DATA_DIR}", flush=True)
    with server:
        info = server.info()
        print(f"ready: {server.base_url}/  tracking: {server.base_url}/track.xhtml?trackingId={SAMPLE_CARGO}  "
              f"(pid {info['pid']}, Java {info['java']['version']}, request thread: {info['request']['thread']}, "
              f"virtual={info['request']['virtual']})")
        print(f"operator pages (booking desk, booking, event logger) and API writes: user {ADMIN_USER}, "
              f"password: {ADMIN_PASSWORD_FILE}  (tracking is public)")
        return serve(server, "Payara Micro")


def admin_authorization(password_file=ADMIN_PASSWORD_FILE):
    """The operator's login as an HTTP Basic header, from the password file's first line."""
    try:
        password = password_file.read_text().splitlines()[0].strip()
    except (OSError, IndexError):
        raise LabError(f"no CargoTracker admin password in {password_file}: the application writes it at its "
                       f"first start; is a CargoTracker server of the lab running?") from None
    token = base64.b64encode(f"{ADMIN_USER}:{password}".encode()).decode()
    return f"Authorization: Basic {token}"


def _starter(mode):
    def start(port, jvm_options=(), jvm_defaults=True):
        ensure_built(ARTIFACTS)
        return payara_micro(mode, port, jvm_options=jvm_options, jvm_defaults=jvm_defaults).start()
    return start


register_mode_targets(TARGET_PREFIX, lambda mode: Target(
    TARGET_PREFIX + mode.name, "CargoTracker on Payara Micro: " + mode.description, mode.max_concurrent,
    _starter(mode), virtual=mode.virtual))

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
