"""The full servers by their `--server` name: one place that knows them all, so `./lab run` and the
JMS start-up experiment pick a kind without loading modules by name."""
from labkit.servers.appserver.glassfish import GlassFish
from labkit.servers.appserver.payara_server import PayaraServer

KINDS = {"payara-server": PayaraServer, "glassfish": GlassFish}
