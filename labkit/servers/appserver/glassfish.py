"""GlassFish (the Eclipse EE4J server, Payara Server's upstream) in one thread mode.

All of the work is shared with Payara Server in labkit/servers/appserver/; this module says what is
GlassFish's: the distribution and the bench target names. Grizzly builds GlassFish's HTTP worker
pool from the thread pool's classname exactly as in Payara, so the virtual-pool jar and the
domain-config/ modes apply unchanged.

Layout (all under .lab/, which git ignores):
  .lab/glassfish/glassfish8/                                          the distribution, unpacked once
  .lab/glassfish/glassfish8/glassfish/domains/loomlab-<port>-<mode>/  one domain per HTTP port and mode
"""
from labkit import ROOT
from labkit.servers.appserver import cli
from labkit.servers.appserver.distribution import Distribution
from labkit.servers.appserver.server import AppServer
from labkit.ground.build import pom_property

HOME = ROOT / ".lab" / "glassfish"
TARGET_PREFIX = "glassfish-"


class GlassFishDistribution(Distribution):
    """org.glassfish.main.distributions:glassfish from Maven Central (root pom <glassfish.version>)."""
    PRODUCT = "GlassFish"
    GROUP = "org.glassfish.main.distributions"
    ARTIFACT = "glassfish"
    TOP_DIR = "glassfish8"
    SIZE = "~125 MB"
    DEFAULT_HOME = HOME

    @classmethod
    def default_version(cls):
        return pom_property("glassfish.version")


class GlassFish(AppServer):
    """GlassFish serving the lab WAR in `mode` on host:port; same handle as PayaraMicro."""
    PRODUCT = "GlassFish"
    DISTRIBUTION = GlassFishDistribution
    RUN_PREFIX = "glassfish-"

    def product_settings(self):
        # As on Payara Micro, no JMS broker. GlassFish's JMS service cannot be DISABLED (only
        # LOCAL, EMBEDDED, REMOTE), and EMBEDDED binds a lazy-start proxy on every address at
        # port base + 7676; REMOTE starts nothing (no remote broker is ever used by the lab's WARs).
        # EMBEDDED with jms-host 127.0.0.1 (as on Payara Server) booted on 8.0.0-M12 with loopback ports
        # only, but no MDB was deployed on it yet: docs/bring-your-own-app.md.
        return ["set configs.config.server-config.jms-service.type=REMOTE"]


SERVER = GlassFish

# Registered on import (labkit.servers.registry.EXTRA_TARGET_MODULES): glassfish-platform-4000, ...
cli.register_targets(GlassFish, TARGET_PREFIX)


def main(argv=None):
    """python3 -m labkit.servers.appserver.glassfish prepare: a stopped domain for app/pom.xml's glassfish profile."""
    return cli.prepare_main(GlassFish, "labkit.servers.appserver.glassfish", argv)


if __name__ == "__main__":
    raise SystemExit(main())
