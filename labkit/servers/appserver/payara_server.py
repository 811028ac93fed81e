"""Payara Server (the full distribution, with its admin console) in one thread mode.

All of the work is shared with GlassFish in labkit/servers/appserver/ (import its pieces from there); this
module, like labkit/servers/appserver/glassfish.py, says only what is Payara's: the distribution (same release as
Payara Micro), Payara's data grid, and the bench target names. It is also the entry point
app/pom.xml's payara-server profile runs: `python3 -m labkit.servers.appserver.payara_server prepare`.

Layout (all under .lab/, which git ignores):
  .lab/payara-server/payara6/                     the distribution, unpacked by Maven once
  .lab/payara-server/payara6/glassfish/domains/loomlab-<port>-<mode>/   one domain per HTTP port and mode
  .../loomlab-<port>-<mode>/loomlab/              the lab's state: asadmin password file, what was applied
"""
from labkit import ROOT
from labkit.servers.appserver import cli
from labkit.servers.appserver.distribution import Distribution as _Distribution
from labkit.servers.appserver.server import AppServer
from labkit.ground.build import pom_property

HOME = ROOT / ".lab" / "payara-server"
TARGET_PREFIX = "server-"


def payara_version():
    """The Payara release of the build (root pom <payara.version>): Server and Micro stay on one line."""
    return pom_property("payara.version")


class Distribution(_Distribution):
    """The Payara Server zip from Maven Central, unpacked once under .lab/payara-server/."""
    PRODUCT = "Payara Server"
    GROUP = "fish.payara.distributions"
    ARTIFACT = "payara"
    TOP_DIR = "payara6"
    SIZE = "~170 MB"
    DEFAULT_HOME = HOME

    @classmethod
    def default_version(cls):
        return payara_version()


class PayaraServer(AppServer):
    """Payara Server serving the lab WAR in `mode` on host:port; same handle as PayaraMicro."""
    PRODUCT = "Payara Server"
    DISTRIBUTION = Distribution
    RUN_PREFIX = "server-"

    def product_settings(self):
        return [
            # As Payara Micro's --nocluster: no Hazelcast data grid.
            "set-hazelcast-configuration --enabled=false --dynamic=false",
            # The JMS broker EMBEDDED (Payara's default): the lab's domains stay the full platform, so
            # an application with message-driven beans or JMS resources deploys (DISABLED refuses it:
            # "JMS Broker is Disabled"). Its start-up cost: docs/bring-your-own-app.md.
            "set configs.config.server-config.jms-service.type=EMBEDDED",
            # Its port (base + 76) on loopback only, as every other port of the lab's domains (the
            # broker binds every address otherwise).
            "set configs.config.server-config.jms-service.jms-host.default_JMS_host.host=127.0.0.1",
        ]


SERVER = PayaraServer


# Registered on import (labkit.servers.registry.EXTRA_TARGET_MODULES): `./lab bench` can run
# server-platform-4000, server-virtual, ... beside the Payara Micro modes.
cli.register_targets(PayaraServer, TARGET_PREFIX)


def main(argv=None):
    """python3 -m labkit.servers.appserver.payara_server prepare: a stopped domain for app/pom.xml's payara-server profile."""
    return cli.prepare_main(PayaraServer, "labkit.servers.appserver.payara_server", argv)


if __name__ == "__main__":
    raise SystemExit(main())
