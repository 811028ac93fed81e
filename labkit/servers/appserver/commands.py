"""A mode's pre-boot file (written for Payara Micro; labkit/servers/modes.py renders it) as asadmin commands
for a full server domain.

Payara Micro's one HTTP listener (and its protocol) is named "http-listener"; Payara Server and
GlassFish name them "http-listener-1" (plain) and "http-listener-2" (TLS). This table is the one
place where pre-boot lines are translated for a full server.
"""
import re

from labkit.ground.errors import UsageError

MICRO_TO_SERVER_NAMES = {"http-listener": "http-listener-1"}

LISTENERS = "configs.config.server-config.network-config.network-listeners.network-listener"


def server_command(line):
    """One pre-boot line as a full server's asadmin expects it: dotted-name segments renamed."""
    for micro, server in MICRO_TO_SERVER_NAMES.items():
        # Only a whole segment of a dotted name: ".http-listener." or ".http-listener=".
        line = re.sub(rf"(?<=\.){re.escape(micro)}(?=[.=])", server, line)
    return line


def preboot_commands(preboot):
    """The asadmin commands of a pre-boot file's text (comments and blank lines dropped), translated."""
    commands = []
    for raw in preboot.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            commands.append(server_command(line))
    return commands


def lab_settings(host, console_host):
    """What the lab adds to every mode on every full server: each listener on its address, one
    plain HTTP listener as on Micro."""
    return [
        f"set {LISTENERS}.http-listener-1.address={host}",
        # Each listener builds its own pool from http-thread-pool, so the TLS listener would
        # double a bounded mode's bound.
        f"set {LISTENERS}.http-listener-2.enabled=false",
        f"set {LISTENERS}.admin-listener.address={console_host}",
        f"set configs.config.server-config.admin-service.jmx-connector.system.address={console_host}",
        *(f"set configs.config.server-config.iiop-service.iiop-listener.{name}.address=127.0.0.1"
          for name in ("orb-listener-1", "SSL", "SSL_MUTUALAUTH")),
    ]


def jvm_option_argument(option):
    """One option for create-/delete-jvm-options in a multimode file: ':' separates options, so each
    is escaped as '\\:', inside single quotes (a backslash outside quotes is itself an escape of the
    multimode tokenizer). Checked by hand on Payara Server 6.2025.10 and GlassFish 8.0.0-M12:
    '-Xlog\\:gc' is created as -Xlog:gc on both; a doubled escape inside quotes fails on both."""
    if "'" in option:
        raise UsageError(f"a JVM option for Payara Server or GlassFish cannot contain a single quote: {option}")
    return "'" + option.replace(":", "\\:") + "'"


def jvm_option_commands(wanted, current, previously_added, removed_defaults=()):
    """Commands that take the domain's JVM options from `current` to hold `wanted`: what the lab
    added last time (and is still there) goes, as do the distribution defaults the lab removes."""
    removed = [o for o in previously_added if o in current]
    removed += [o for o in removed_defaults if o in current and o not in removed]
    commands = []
    if removed:
        commands.append("delete-jvm-options " + ":".join(jvm_option_argument(o) for o in removed))
    if wanted:
        commands.append("create-jvm-options " + ":".join(jvm_option_argument(o) for o in wanted))
    return commands
