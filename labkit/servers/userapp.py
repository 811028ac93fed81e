"""Your own WAR in the lab (`./lab run` and `./lab bench` with `--war FILE[:/ROOT]`): the option,
the probe WAR deployed beside it, and what a deployment failure on Payara Micro means.

`--war FILE[:/ROOT]` is Payara Micro's own `--deploy` syntax: the context root after the last
colon (it must start with "/"), else "/" + the file's name without `.war`, as the servers do.
Repeatable; every server kind the lab runs (Payara Micro, Payara Server, GlassFish) deploys them.

The probe: the lab's own loomlab.war is deployed beside the user's WARs at PROBE_ROOT. It serves
the watchdog's probe (`PROBE_ROOT/api/info`, on the same HTTP listener and thread pool as the
user's requests) and reads the pool's counters (`virtualPools` of /api/info: the virtual-pool jar's
MXBean), so the lab can show which threads the user's requests ran on without touching the
user's application (ModeProof).
"""
import argparse
import json
import re
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

from labkit.ground.errors import UsageError

PROBE_ROOT = "/loomlab-probe"
PROBE_NAME = "loomlab-probe"
INFO_PATH = "/api/info"
# What a context root may hold: URL path characters that need no escaping (and no ':' or spaces,
# which asadmin and Micro's FILE:ROOT would read otherwise).
CONTEXT_ROOT = re.compile(r"/|(/[A-Za-z0-9._~-]+)+")


@dataclass(frozen=True)
class UserWar:
    path: Path
    context_root: str

    @property
    def name(self):
        """The application name on the server: from the context root (unique), "root" for "/"."""
        return "root" if self.context_root == "/" else self.context_root.strip("/").replace("/", "-")

    def to_dict(self):
        return {"file": self.path.name, "context_root": self.context_root, "bytes": self.path.stat().st_size}


def war_argument(text):
    """argparse type of --war: FILE[:/ROOT], a readable WAR (a zip archive named *.war)."""
    file, root = text, None
    head, sep, tail = text.rpartition(":")
    if sep and tail.startswith("/"):
        file, root = head, tail
    path = Path(file).expanduser()
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"--war {file}: no such file")
    if path.suffix.lower() != ".war":
        raise argparse.ArgumentTypeError(f"--war {file}: not a WAR (the file must end in .war)")
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except PermissionError:
        raise argparse.ArgumentTypeError(f"--war {file}: cannot read it (permission denied)") from None
    except (zipfile.BadZipFile, OSError) as e:
        raise argparse.ArgumentTypeError(f"--war {file}: not a WAR (not a zip archive: {e})") from None
    if not any(name.startswith("WEB-INF/") for name in names):
        raise argparse.ArgumentTypeError(f"--war {file}: not a WAR (it has no WEB-INF/)")
    root = root if root is not None else "/" + path.stem
    if not CONTEXT_ROOT.fullmatch(root):
        raise argparse.ArgumentTypeError(f"--war {text}: context root '{root}' must be '/' or /name[/name...] "
                                         f"(letters, digits, '.', '_', '~', '-')")
    return UserWar(path.resolve(), root)


def check_wars(wars):
    """Checks --war values together: each context root once, none at the probe's; a UsageError."""
    seen = {}
    for war in wars:
        if war.context_root == PROBE_ROOT:
            raise UsageError(f"--war {war.path.name}: {PROBE_ROOT} is the lab's probe; choose another context root")
        if war.context_root in seen:
            raise UsageError(f"--war: context root {war.context_root} is given twice ({seen[war.context_root]} and "
                             f"{war.path.name}); give one with FILE:/ROOT")
        seen[war.context_root] = war.path.name
    return tuple(wars)


def add_war_argument(parser):
    parser.add_argument("--war", dest="wars", action="append", type=war_argument, default=[], metavar="FILE[:/ROOT]",
                        help="deploy your own WAR (repeatable) at /ROOT (default: / + its file name without .war), "
                             f"with the lab's probe WAR beside it at {PROBE_ROOT}; docs/bring-your-own-app.md")


def info_path(wars):
    """Where a server of the lab answers /api/info: the probe's when user WARs are deployed."""
    return PROBE_ROOT + INFO_PATH if wars else INFO_PATH


def ready_urls(base_url, wars):
    """What ./lab run prints as ready: your WARs' roots and the probe, or the lab's sleep endpoint."""
    if not wars:
        return f"{base_url}/api/sleep?ms=100"
    roots = "  ".join(base_url + ("/" if war.context_root == "/" else war.context_root + "/") for war in wars)
    return f"{roots}  (probe: {base_url}{PROBE_ROOT}{INFO_PATH})"


# ---- Payara Micro: what a failed deployment means --------------------------------------------------

# Payara Micro (the Web Profile plus a few extras) has no JMS broker, no persistent EJB timers
# (no timer database), no remote EJB over IIOP and no JAX-WS; a WAR that needs one fails to deploy.
# Each: (what is missing, a pattern of the server log's failure text).
MISSING_FEATURES = (
    ("a JMS broker (message-driven beans, JMS connection factories or destinations)",
     re.compile(r"MessageDriven|message-driven|\bMDB\b|jakarta\.jms|javax\.jms|\bJMS\b|jmsra|ConnectionFactory",
                re.IGNORECASE)),
    ("persistent EJB timers (the EJB timer service's database)",
     re.compile(r"EJB Timer|TimerService|ejb-timer|persistent timer", re.IGNORECASE)),
    ("remote EJB (IIOP/CORBA)", re.compile(r"\bIIOP\b|CORBA|@Remote\b|RemoteHome", re.IGNORECASE)),
    ("Jakarta XML Web Services (JAX-WS)", re.compile(r"jakarta\.jws|javax\.jws|JAX-WS|@WebService", re.IGNORECASE)),
)
# Lines of a Payara log that say a deployment failed (the MDB line is the first Micro writes for a
# message-driven bean: "MDB00017: [Bean]: Exception in creating message-driven bean container").
DEPLOYMENT_FAILED = re.compile(r"Exception while (deploying|loading) the app|deployment.* failed|failed to deploy|"
                               r"Error occurred during deployment|Exception during lifecycle processing|"
                               r"Exception in creating message-driven bean container", re.IGNORECASE)
# The failure's text: from its first line on, this many lines (its stack traces and their causes).
FAILURE_LINES = 300
ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def deployment_failure(log_text):
    """The failure text of a Payara log whose deployment failed (the first failing line and the
    FAILURE_LINES after it, colours removed), or None when no deployment failed."""
    lines = ANSI_COLOUR.sub("", log_text).splitlines()
    for number, line in enumerate(lines):
        if DEPLOYMENT_FAILED.search(line):
            return "\n".join(lines[number:number + FAILURE_LINES])
    return None


def root_cause(failure_text):
    """The deepest 'Caused by:' of the failure (what went wrong first), else its first line."""
    causes = [l.strip()[len("Caused by:"):].strip() for l in failure_text.splitlines()
              if l.strip().startswith("Caused by:")]
    if causes:
        return causes[-1]
    return next((l.strip() for l in failure_text.splitlines() if l.strip()), "")


def missing_feature(failure_text):
    """What Payara Micro lacks that the failure text names, or None."""
    for feature, pattern in MISSING_FEATURES:
        if pattern.search(failure_text or ""):
            return feature
    return None


def micro_failure_message(failure_text, wars, log_path):
    """The one explanation ./lab gives when a WAR does not deploy on Payara Micro."""
    names = ", ".join(war.path.name for war in wars)
    feature = missing_feature(failure_text)
    first = root_cause(failure_text)
    if feature:
        return (f"{names} did not deploy on Payara Micro: it needs {feature}, which Payara Micro does not have. "
                f"Run it on the full server: add --server payara-server (./lab run) or use server-<mode> targets "
                f"(./lab bench --modes server-virtual,...). Payara said: {first[:300]} (log: {log_path})")
    return f"{names} did not deploy on Payara Micro: {first[:300]} (log: {log_path})"


# ---- the proof of the mode -------------------------------------------------------------------------

def read_info(base_url, wars=(), timeout=10):
    with urllib.request.urlopen(base_url + info_path(wars), timeout=timeout) as response:
        return json.load(response)


def pool_started(info):
    """Tasks the HTTP pool(s) of the virtual-pool jar accepted since start (None: no such pool, a
    platform mode, whose Grizzly executor keeps no task counter)."""
    pools = (info or {}).get("virtualPools") or []
    counts = [p.get("started") for p in pools if isinstance(p.get("started"), int)]
    return sum(counts) if counts else None


def probe_info(server):
    """/api/info of the probe WAR beside your WARs, read around a window for mode_proof; None when it
    does not answer."""
    try:
        return server.info()
    except (OSError, ValueError):
        return None


def mode_proof(before, after, requests_sent, expected_virtual):
    """What the probe WAR saw around a window: the pool's task counter before and after (the user's
    requests and the probe's own run on that pool), and the thread that ran the probe's request.

    `proven`: True when the probe's request ran on the kind of thread the mode promises and, where the
    pool counts its tasks (the virtual modes), it counted at least as many tasks as the load tool got
    answers; None when it cannot be told (the probe was not read)."""
    if not before or not after:
        return {"proven": None, "why": "the probe WAR's /api/info was not read before and after the window"}
    request = after.get("request") or {}
    started = (pool_started(before), pool_started(after))
    proof = {"request_thread": request.get("thread"), "request_virtual": request.get("virtual"),
             "requests_sent": requests_sent, "pool_tasks_before": started[0], "pool_tasks_after": started[1],
             "pool_tasks": None if None in started else started[1] - started[0]}
    thread_ok = expected_virtual is None or request.get("virtual") == expected_virtual
    if proof["pool_tasks"] is None:
        proof["proven"] = thread_ok
        proof["why"] = (f"the probe's request ran on {request.get('thread')} (virtual={request.get('virtual')}); "
                        "this pool keeps no task counter (Grizzly's platform executor): the user's requests share "
                        "its listener and pool")
    else:
        counted = proof["pool_tasks"] >= (requests_sent or 0)
        proof["proven"] = thread_ok and counted
        proof["why"] = (f"the mode's pool ran {proof['pool_tasks']:,} tasks during the window for {requests_sent:,} "
                        f"answered requests; the probe's request ran on {request.get('thread')} "
                        f"(virtual={request.get('virtual')})")
    return proof
