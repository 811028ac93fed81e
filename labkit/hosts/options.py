"""The options that say where a server runs, as every command that starts one takes them."""
import argparse

from labkit.ground.errors import UsageError
from labkit.hosts import cluster
from labkit.hosts.host import parse_host


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
