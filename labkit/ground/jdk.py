"""Finds a JDK 21+ : JAVA_HOME when it is new enough, else an offline bundle's own runtime, else the
usual install folders."""
import glob
import os
import re
from pathlib import Path

from labkit import ROOT
from labkit.ground.errors import LabError

MIN_FEATURE = 21
SEARCH_GLOBS = (
    "/usr/lib/jvm/*",
    "/usr/java/*",
    "/opt/java/*",
    "/opt/jdk*",
    os.path.expanduser("~/.sdkman/candidates/java/*"),
    os.path.expanduser("~/.jdks/*"),
    "/Library/Java/JavaVirtualMachines/*/Contents/Home",
)
# The runtime an offline bundle carries (./lab bundle, labkit/bundle/runtime.py); a clone has none.
BUNDLED_JDK = ROOT / "jdk"


def release_feature(text):
    """The feature release (17, 21, 25 ...) a JDK's `release` file gives, or None."""
    match = re.search(r'^JAVA_VERSION="(\d+)', text, re.MULTILINE)
    return int(match.group(1)) if match else None


def feature_version(java_home):
    """The JDK's feature release (17, 21, 25 ...) from its `release` file, or None."""
    release = Path(java_home) / "release"
    if not (Path(java_home) / "bin" / "java").exists() or not release.is_file():
        return None
    return release_feature(release.read_text(errors="replace"))


def find_java_home(environ=os.environ, globs=SEARCH_GLOBS, bundled=BUNDLED_JDK):
    """JAVA_HOME if it is 21+, else the bundle's runtime (when the lab runs from one: the JDK its files
    were built and tested with), else the newest 21+ JDK in the usual folders."""
    configured = environ.get("JAVA_HOME")
    if configured and (feature_version(configured) or 0) >= MIN_FEATURE:
        return Path(configured)
    if (feature_version(bundled) or 0) >= MIN_FEATURE:
        return Path(bundled)
    candidates = []
    for pattern in globs:
        for home in glob.glob(pattern):
            version = feature_version(home)
            if version and version >= MIN_FEATURE and not os.path.islink(home):
                candidates.append((version, home))
    if not candidates:
        hint = f" (JAVA_HOME={configured} is older)" if configured else ""
        raise LabError(f"no JDK {MIN_FEATURE}+ found{hint}; install one (e.g. apt-get install openjdk-21-jdk) "
                       f"or set JAVA_HOME to it")
    candidates.sort()
    return Path(candidates[-1][1])


def java_env(java_home):
    """The environment for Maven and java: JAVA_HOME set, its bin first on PATH."""
    env = dict(os.environ)
    env["JAVA_HOME"] = str(java_home)
    env["PATH"] = f"{java_home}/bin{os.pathsep}{env.get('PATH', '')}"
    return env
