"""The thread modes: one folder of domain-config/ each, plus test-only and later targets."""
from dataclasses import dataclass

from . import ROOT
from .errors import UsageError

DOMAIN_CONFIG = ROOT / "domain-config"


@dataclass(frozen=True)
class Mode:
    name: str
    description: str
    virtual: bool
    # Requests that may run at once: None when unbounded. Used for Little's-law ceilings.
    max_concurrent: int | None

    @property
    def preboot_file(self):
        return DOMAIN_CONFIG / self.name / "pre-boot-commands.asadmin"

    @property
    def needs_virtual_pool(self):
        return self.virtual


PAYARA_MODES = {
    m.name: m
    for m in (
        Mode("platform-4000", "Grizzly pool of up to 4000 platform threads", False, 4000),
        Mode("platform-10000", "Grizzly pool of up to 10000 platform threads", False, 10000),
        Mode("virtual", "a new virtual thread per request, unbounded", True, None),
        Mode("virtual-4000", "a new virtual thread per request, at most 4000 at once", True, 4000),
        Mode("virtual-reusing", "a virtual thread per request, reused for the next one, unbounded", True, None),
    )
}


def payara_mode(name):
    try:
        return PAYARA_MODES[name]
    except KeyError:
        raise UsageError(f"unknown mode '{name}'; choose one of: {', '.join(PAYARA_MODES)}") from None
