"""Every target and scenario the lab knows, loaded in one place.

The registries themselves sit low (labkit/servers/registry.py for targets, labkit/load/scenarios.py
for scenarios), so a server kind or an application can register into them without knowing the rest.
This module sits above all kinds and loads each one by a plain import, so a name is looked up here:
a run or a command asks `catalog.target(name)`, `catalog.all_targets()` or `catalog.scenario(name)`.
A new server kind is one more import below.
"""
from labkit.apps import cargotracker
from labkit.ground.errors import UsageError
from labkit.load import scenarios
from labkit.servers import baselines, registry
from labkit.servers.appserver import glassfish, payara_server

# The modules whose import registers targets (and, for CargoTracker, scenarios) beside the Payara
# Micro modes that labkit/servers/registry.py registers itself.
KINDS = (baselines, payara_server, glassfish, cargotracker)


def all_targets():
    """Every target by name: the registered ones, and any size of a mode template on every kind."""
    return registry.TargetCatalog()


def target(name):
    known = all_targets()
    try:
        return known[name]
    except KeyError:
        raise UsageError(f"unknown target '{name}'; choose from: {registry.choices(known)}") from None


def all_scenarios():
    return dict(scenarios.SCENARIOS)


def scenario(name):
    known = all_scenarios()
    try:
        return known[name]
    except KeyError:
        raise UsageError(f"unknown scenario '{name}'; choose from: {', '.join(known)}") from None
