"""The options that say where a server runs, as every command that starts one takes them, and the
host syntax they read (parse_host)."""
import argparse
import re

from labkit.ground.errors import UsageError
from labkit.hosts import cluster
from labkit.hosts.host import SshHost
from labkit.hosts.local import LocalHost

HOST_PATTERN = re.compile(r"(?:(?P<user>[A-Za-z0-9._-]+)@)?(?P<host>[A-Za-z0-9._-]+|\[[0-9A-Fa-f:]+\])(?::(?P<port>\d{1,5}))?")


def host_argument(text):
    """argparse type of a host: local, a cluster name (srv, lg1 while ./lab hosts is up), user@host[:port]
    or a ~/.ssh/config name."""
    try:
        return parse_host(text, cluster.hosts())
    except UsageError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_server_host_arguments(parser):
    parser.add_argument("--server-host", type=host_argument, default="local", metavar="HOST",
                        help="start the server on HOST, reached with ssh (user@host[:port], a ~/.ssh/config name, "
                             "or srv of ./lab hosts); it listens on that host's address (default: this machine)")
    parser.add_argument("--remote-java", metavar="PATH",
                        help="with --server-host: the JDK 21+ there (default: JAVA_HOME there, else the newest 21+ "
                             "in the usual folders)")


def parse_host(text, cluster_hosts=()):
    """A host as the user writes it: `local`, a name of the namespace cluster (srv, lg1), or what ssh
    takes: `user@host[:port]`, a ~/.ssh/config name. The cluster's names go through its ssh_config."""
    text = text.strip()
    if text in ("local", "localhost", "127.0.0.1"):
        return LocalHost()
    for host in cluster_hosts:
        if text in (host.name, host.netns):
            return SshHost(host.name, ssh_config=cluster.ssh_config_path(), address=host.address)
    match = HOST_PATTERN.fullmatch(text)
    if not match:
        raise UsageError(f"host '{text}': write user@host[:port], a name from your ~/.ssh/config, or local")
    user, host, port = match.group("user"), match.group("host"), match.group("port")
    if port and not 1 <= int(port) <= 65535:
        raise UsageError(f"host '{text}': port {port} is out of range")
    target = f"{user}@{host}" if user else host
    return SshHost(target, port=int(port) if port else None)
