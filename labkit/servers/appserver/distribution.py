"""A server distribution zip from Maven Central, unpacked once under .lab/<kind>/."""
import os
import shutil
from pathlib import Path

from labkit.ground.build import mvn
from labkit.ground.command import last_lines
from labkit.ground.errors import LabError


class Distribution:
    """Subclasses name the product, its Maven coordinates and the folder the zip unpacks to."""
    PRODUCT = None          # "Payara Server"
    GROUP = None            # Maven groupId
    ARTIFACT = None         # Maven artifactId (type zip)
    TOP_DIR = None          # the zip's top folder, e.g. "payara6"
    SIZE = None             # shown while downloading, e.g. "~170 MB"
    DEFAULT_HOME = None     # .lab/<kind>

    def __init__(self, version=None, home=None):
        self.version = version or self.default_version()
        self.home = Path(home or self.DEFAULT_HOME)
        self.root = self.home / self.TOP_DIR
        self.marker = self.root / ".loomlab-version"

    @classmethod
    def default_version(cls):
        raise NotImplementedError

    @property
    def coordinates(self):
        return f"{self.GROUP}:{self.ARTIFACT}:{self.version}:zip"

    @property
    def asadmin(self):
        return self.root / "bin" / "asadmin"

    @property
    def domains_dir(self):
        return self.root / "glassfish" / "domains"

    def installed(self):
        return self.marker.is_file() and self.marker.read_text().strip() == self.version

    def ensure_installed(self, log=print):
        if self.installed():
            return self
        self.home.mkdir(parents=True, exist_ok=True)
        staging = self.home / f".unpack-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        log(f"installing {self.PRODUCT} {self.version} ({self.coordinates}, {self.SIZE}, once) into {self.root}")
        try:
            # Maven resolves it (and caches it in ~/.m2), as it does Payara Micro for the build.
            mvn(["-N", "dependency:unpack", f"-Dartifact={self.coordinates}", f"-DoutputDirectory={staging}"])
        except LabError as e:
            shutil.rmtree(staging, ignore_errors=True)
            raise LabError(f"cannot download the {self.PRODUCT} distribution {self.coordinates} with Maven "
                           f"(is Maven Central reachable? does that version exist?)\n{last_lines(str(e), 8)}") from None
        unpacked = staging / self.TOP_DIR
        if not (unpacked / "bin" / "asadmin").is_file():
            shutil.rmtree(staging, ignore_errors=True)
            raise LabError(f"{self.coordinates} did not contain {self.TOP_DIR}/bin/asadmin: "
                           f"not a {self.PRODUCT} distribution")
        (unpacked / ".loomlab-version").write_text(self.version + "\n")
        if self.root.exists():
            log(f"replacing {self.root} (another version; its domains go with it)")
            shutil.rmtree(self.root)
        unpacked.rename(self.root)
        shutil.rmtree(staging, ignore_errors=True)
        return self
