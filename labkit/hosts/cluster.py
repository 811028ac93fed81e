"""One box as a cluster: network namespaces as hosts, for the tests and for anyone without spare
machines (`./lab hosts up N`, `./lab hosts down`).

Each host is a network namespace (loomlab-srv, loomlab-lg1, ...) with one veth link into a bridge
in the root namespace, an address from the benchmarking range 198.18.0.0/15 (RFC 2544: never routed
anywhere), and its own OpenSSH server (Debian's openssh-server) that accepts only the key generated
for the cluster. The lab reaches a host exactly as it reaches a real one, with `ssh`, through the
cluster's ssh_config (.lab/cluster/ssh_config), so everything tested here is the SSH path.

The namespaces share the file system and the user accounts with the machine: only the network is
apart. A host may be pinned to CPUs (its sshd, and so every command run through it, inherits the
affinity). Only these addresses and loopback are load targets in the lab's own tests.

Everything is named with the loomlab- prefix, so `down` finds and removes every namespace, link and
process the lab made, even after a crash or a SIGKILL of `up`.
"""
import ipaddress
import json
import os
import shutil
import signal
import socket
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from labkit import ROOT
from labkit.ground.command import run_command
from labkit.ground.errors import LabError, UsageError

STATE_DIR = ROOT / ".lab" / "cluster"
PREFIX = "loomlab-"
BRIDGE = "loomlab-br0"
VETH_PREFIX = "lmv-"            # the root side of each host's link (at most 15 characters)
NETWORK = ipaddress.ip_network("198.18.0.0/24")  # inside 198.18.0.0/15, the benchmarking range
GATEWAY = NETWORK[1]            # the bridge: the root namespace's address on the cluster
SERVER_NAME = "srv"
MAX_HOSTS = 16
SSHD = Path("/usr/sbin/sshd")
# `ip netns exec` bind-mounts the files of /etc/netns/<name>/ over /etc: each host gets a hosts
# file that names the cluster, and a resolver with no server, so a lookup (a reverse lookup of the
# host's own address, as Python's http.server makes) fails at once instead of waiting on a DNS
# server the namespace cannot reach.
NETNS_ETC = Path("/etc/netns")
SSH_READY_S = 10


@dataclass(frozen=True)
class ClusterHost:
    name: str        # srv, lg1, lg2, ...: what --server-host / --load-hosts take
    netns: str       # loomlab-srv
    address: str     # 198.18.0.2
    veth: str        # lmv-srv (root side)
    cpus: str | None = None


def host_names(count):
    """srv, then lg1 ... lg(count-1): the server host and the load hosts."""
    if not 1 <= count <= MAX_HOSTS:
        raise UsageError(f"a cluster has 1 to {MAX_HOSTS} hosts, was {count}")
    return [SERVER_NAME] + [f"lg{i}" for i in range(1, count)]


def plan(count, cpus=None):
    """The hosts of a cluster of `count`, with their addresses (.2 upwards) and CPU pinning
    (cpus: {name: "0" | "1" | "0-1"})."""
    cpus = cpus or {}
    names = host_names(count)
    unknown = set(cpus) - set(names)
    if unknown:
        raise UsageError(f"--cpus names {', '.join(sorted(unknown))}, which a cluster of {count} does not have "
                         f"(its hosts: {', '.join(names)})")
    return [ClusterHost(name, PREFIX + name, str(NETWORK[2 + i]), VETH_PREFIX + name, cpus.get(name))
            for i, name in enumerate(names)]


def _ip(*args, check=True):
    result = run_command(["ip", *args])
    if check and result.returncode != 0:
        raise LabError(f"ip {' '.join(args)}: {result.stderr.strip() or 'failed'}")
    return result


def _in(netns, *command):
    return ["ip", "netns", "exec", netns, *command]


def check_can_build():
    """What `up` needs, said before anything is made."""
    missing = []
    if os.geteuid() != 0:
        missing.append("root (network namespaces and veth links need CAP_NET_ADMIN)")
    if not shutil.which("ip"):
        missing.append("iproute2 (apt-get install iproute2)")
    if not SSHD.is_file():
        missing.append("OpenSSH's server (apt-get install openssh-server; ab-scripts/install-tools.sh does it)")
    for tool in ("ssh", "ssh-keygen"):
        if not shutil.which(tool):
            missing.append(f"{tool} (apt-get install openssh-client)")
    if missing:
        raise LabError("./lab hosts up needs: " + "; ".join(missing))


def up(count, cpus=None, log=print):
    """Builds the cluster (after removing any earlier one); returns its hosts. On any failure
    everything made so far is removed again."""
    check_can_build()
    hosts = plan(count, cpus)
    down(log=lambda message: None)
    STATE_DIR.mkdir(parents=True, exist_ok=True)
    try:
        _keys()
        _ip("link", "add", BRIDGE, "type", "bridge")
        _ip("addr", "add", f"{GATEWAY}/{NETWORK.prefixlen}", "dev", BRIDGE)
        _ip("link", "set", BRIDGE, "up")
        _write_etc(hosts)
        for host in hosts:
            _add_host(host)
        _write_client_config(hosts)
        for host in hosts:
            _start_sshd(host)
        _write_state(hosts)
        for host in hosts:
            _wait_for_ssh(host)
    except BaseException:
        down(log=lambda message: None)
        raise
    for host in hosts:
        pinned = f", CPUs {host.cpus}" if host.cpus else ""
        log(f"{host.name}: {host.address} (namespace {host.netns}{pinned}), ssh -F {ssh_config_path()} {host.name}")
    return hosts


def _write_etc(hosts):
    names = "".join(f"{h.address}\t{h.name} {h.netns}\n" for h in hosts)
    for host in hosts:
        folder = NETNS_ETC / host.netns
        folder.mkdir(parents=True, exist_ok=True)
        # The hosts share this machine's host name; inside each it names that host's own address, as
        # on a real machine (a JVM looks it up at start: InetAddress.getLocalHost).
        (folder / "hosts").write_text(f"127.0.0.1\tlocalhost\n::1\tlocalhost\n{host.address}\t{socket.gethostname()}\n"
                                      f"{names}")
        (folder / "resolv.conf").write_text("# ./lab hosts: no DNS server inside the cluster\noptions timeout:1 attempts:1\n")


def _add_host(host):
    _ip("netns", "add", host.netns)
    _ip("link", "add", host.veth, "type", "veth", "peer", "name", "eth0", "netns", host.netns)
    _ip("link", "set", host.veth, "master", BRIDGE)
    _ip("link", "set", host.veth, "up")
    _ip("netns", "exec", host.netns, "ip", "addr", "add", f"{host.address}/{NETWORK.prefixlen}", "dev", "eth0")
    _ip("netns", "exec", host.netns, "ip", "link", "set", "eth0", "up")
    _ip("netns", "exec", host.netns, "ip", "link", "set", "lo", "up")
    _ip("netns", "exec", host.netns, "ip", "route", "add", "default", "via", str(GATEWAY))


def _keys():
    """A client key and a host key, made for this cluster (kept across up/down: known_hosts stays true)."""
    for name in ("client_key", "host_key"):
        key = STATE_DIR / name
        if not key.is_file():
            run_command(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", f"loomlab cluster {name}", "-f", key],
                        check=True)
    shutil.copyfile(STATE_DIR / "client_key.pub", STATE_DIR / "authorized_keys")
    for name in ("client_key", "host_key", "authorized_keys"):
        os.chmod(STATE_DIR / name, 0o600)


def ssh_config_path():
    return STATE_DIR / "ssh_config"


def _write_client_config(hosts):
    host_key = (STATE_DIR / "host_key.pub").read_text().split()
    (STATE_DIR / "known_hosts").write_text("".join(f"{h.address} {host_key[0]} {host_key[1]}\n" for h in hosts))
    blocks = []
    for host in hosts:
        blocks.append(f"""Host {host.name} {host.netns}
    HostName {host.address}
    User root
    IdentityFile {STATE_DIR / 'client_key'}
    IdentitiesOnly yes
    UserKnownHostsFile {STATE_DIR / 'known_hosts'}
    StrictHostKeyChecking yes
    BatchMode yes
    ConnectTimeout 5
    ServerAliveInterval 2
    ServerAliveCountMax 3
""")
    ssh_config_path().write_text("# Made by ./lab hosts up: the cluster's hosts, for ssh -F.\n" + "\n".join(blocks))


def _sshd_config(host):
    return f"""# Made by ./lab hosts up for {host.netns}: only the cluster's key, only the cluster's address.
ListenAddress {host.address}
Port 22
HostKey {STATE_DIR / 'host_key'}
PidFile {STATE_DIR / f'sshd-{host.name}.pid'}
AuthorizedKeysFile {STATE_DIR / 'authorized_keys'}
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
PrintMotd no
AcceptEnv LANG LC_*
Subsystem sftp internal-sftp
"""


def _start_sshd(host):
    config = STATE_DIR / f"sshd_config-{host.name}"
    config.write_text(_sshd_config(host))
    Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege separation folder
    command = _in(host.netns, *(["taskset", "-c", host.cpus] if host.cpus else []), str(SSHD), "-f", str(config))
    # sshd detaches itself; its pid file says where it went.
    result = run_command(command, merged=True)
    if result.returncode != 0:
        raise LabError(f"sshd in {host.netns} did not start: {result.stdout.strip()}")


def _wait_for_ssh(host):
    deadline = time.monotonic() + SSH_READY_S
    while True:
        result = run_command(["ssh", "-F", ssh_config_path(), host.name, "true"], merged=True,
                             timeout=SSH_READY_S + 5)
        if result.returncode == 0:
            return
        if time.monotonic() > deadline:
            raise LabError(f"ssh to {host.name} ({host.address}) failed: {result.stdout.strip()}")
        time.sleep(0.2)


def _write_state(hosts):
    (STATE_DIR / "cluster.json").write_text(json.dumps({"bridge": BRIDGE, "gateway": str(GATEWAY),
                                                        "hosts": [asdict(h) for h in hosts]}, indent=2) + "\n")


def hosts():
    """The hosts of the running cluster, [] when none is up."""
    try:
        state = json.loads((STATE_DIR / "cluster.json").read_text())
    except (OSError, ValueError):
        return []
    running = set(namespaces())
    return [ClusterHost(**h) for h in state["hosts"] if h["netns"] in running]


def namespaces():
    """The lab's network namespaces that exist now."""
    result = _ip("netns", "list", check=False)
    return sorted(line.split()[0] for line in result.stdout.splitlines() if line.startswith(PREFIX))


def namespace_pids(netns):
    result = _ip("netns", "pids", netns, check=False)
    return [int(pid) for pid in result.stdout.split() if pid.isdigit()]


def down(log=print):
    """Removes every namespace, link and process of the lab's cluster (found by name, so it also
    cleans up after a crash); returns what it removed."""
    removed = []
    for netns in namespaces():
        _kill_all(netns)
        _ip("netns", "del", netns, check=False)
        removed.append(netns)
    links = _ip("-o", "link", "show", check=False).stdout
    for line in links.splitlines():
        name = line.split(":")[1].strip().split("@")[0]
        if name.startswith(VETH_PREFIX) or name == BRIDGE:
            _ip("link", "del", name, check=False)
            removed.append(name)
    for folder in NETNS_ETC.glob(PREFIX + "*"):
        shutil.rmtree(folder, ignore_errors=True)
    (STATE_DIR / "cluster.json").unlink(missing_ok=True)
    for pid_file in STATE_DIR.glob("sshd-*.pid"):
        pid_file.unlink(missing_ok=True)
    log(f"removed: {', '.join(removed)}" if removed else "no cluster was up")
    return removed


def _kill_all(netns, grace_s=5):
    """Every process in the namespace: SIGTERM, then SIGKILL after the grace period."""
    for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 5)):
        pids = namespace_pids(netns)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while namespace_pids(netns) and time.monotonic() < deadline:
            time.sleep(0.1)


def parse_cpus(text):
    """'srv=1,lg1=0': each host's CPUs (as taskset -c takes them)."""
    cpus = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        if not name.strip() or not value.strip() or not all(c.isdigit() or c in ",-" for c in value.strip()):
            raise UsageError(f"--cpus takes HOST=CPUS[,HOST=CPUS...] (e.g. srv=1,lg1=0), was '{text}'")
        cpus[name.strip()] = value.strip()
    return cpus
