"""The bundle's JDK runtime: jlink of the JDK the lab runs on, with every module it has but the linker's
own, so a server in the bundle runs as it does here (Payara's modules, JFR, jcmd, the compiler that
runs FoldedStacks.java, the JDK's HTTP server of the reference)."""
from pathlib import Path

from labkit.ground.command import last_lines, run_command
from labkit.ground.errors import LabError
from labkit.ground.jdk import MIN_FEATURE, feature_version

# jlink refuses to put itself into an image linked from a JDK that has no jmods/ (JEP 493, as Temurin
# 24+ ships), and jpackage needs it: the bundle runs servers, it links nothing.
LEFT_OUT = frozenset({"jdk.jlink", "jdk.jpackage"})
# The lines of the JDK's release file that say whose build it is.
IDENTITY = ("IMPLEMENTOR", "IMPLEMENTOR_VERSION", "JAVA_RUNTIME_VERSION")


def modules_of(java_home):
    """The module names the JDK at `java_home` holds (java --list-modules)."""
    listing = _run([f"{java_home}/bin/java", "--list-modules"], "java --list-modules").stdout
    return [line.split("@")[0] for line in listing.split() if line.strip()]


def link_runtime(java_home, output):
    """Links the runtime into `output` (which must not exist); returns its feature release."""
    java_home = Path(java_home)
    if (feature_version(java_home) or 0) < MIN_FEATURE:
        raise LabError(f"{java_home}: not a JDK {MIN_FEATURE}+, nothing to link a runtime from")
    modules = [m for m in modules_of(java_home) if m not in LEFT_OUT]
    # Man pages and C headers serve no run; debug attributes stay, so stack traces keep their lines.
    _run([f"{java_home}/bin/jlink", "--add-modules", ",".join(modules), "--output", str(output),
          "--no-man-pages", "--no-header-files"], "jlink")
    feature = feature_version(output)
    if feature != feature_version(java_home):
        raise LabError(f"jlink made {output} without a release file of JDK {feature_version(java_home)}")
    _keep_identity(java_home, output)
    return feature


def _keep_identity(java_home, output):
    """jlink's release file names the modules and the version only: the vendor and the exact build
    of the JDK it was linked from are copied in, so env.json and the reports say what ran."""
    release = (output / "release").read_text()
    have = {line.split("=", 1)[0] for line in release.splitlines() if "=" in line}
    kept = [line for line in (java_home / "release").read_text().splitlines()
            if line.split("=", 1)[0] in IDENTITY and line.split("=", 1)[0] not in have]
    if kept:
        (output / "release").write_text(release.rstrip("\n") + "\n" + "\n".join(kept) + "\n")


def _run(command, what):
    try:
        result = run_command(command, timeout=600, merged=True)
    except LabError as e:
        raise LabError(f"{what}: {e}") from None
    if result.returncode != 0:
        raise LabError(f"{what} failed:\n" + last_lines(result.stdout, 15))
    return result
