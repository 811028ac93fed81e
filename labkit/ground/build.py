"""Builds what is missing with Maven (the project's wrapper, ./mvnw), using the JDK 21+ that jdk.py finds."""
import xml.etree.ElementTree as ET

from labkit import BUNDLE_MANIFEST, ROOT, is_bundle
from labkit.ground.command import last_lines, run_command
from labkit.ground.errors import LabError
from labkit.ground.jdk import find_java_home, java_env

WAR = ROOT / "app" / "target" / "loomlab.war"
VIRTUAL_POOL_JAR = ROOT / "virtual-pool" / "target" / "virtual-pool.jar"
GRIZZLY5_POOL_JAR = ROOT / "grizzly5-pool" / "target" / "grizzly5-pool.jar"
# The jar that carries each pool library a mode may name (servers/modes.py: Mode.pool_library).
POOL_JARS = {"virtual-pool": VIRTUAL_POOL_JAR, "grizzly5-pool": GRIZZLY5_POOL_JAR}
# Copied by the root pom at validate, from Maven Central (fish.payara.extras:payara-micro): a jar per
# Payara line the lab runs (<payara.version> and <payara7.version>).
PAYARA_MICRO_JARS = {6: ROOT / "target" / "payara-micro.jar", 7: ROOT / "target" / "payara-micro-7.jar"}
PAYARA_MICRO_JAR = PAYARA_MICRO_JARS[6]
# micro/'s one jar: JMH's benchmarks, the ring and echo experiments, and ./lab memory's experiment.
BENCHMARKS_JAR = ROOT / "micro" / "target" / "benchmarks.jar"
# The Maven wrapper at the root: the Maven release of .mvn/wrapper/maven-wrapper.properties, fetched
# from Maven Central once, whatever Maven the machine has (or none). Relative: commands run at ROOT.
MAVEN = "./mvnw"


def mvn(args, java_home=None, quiet=True):
    """Runs Maven (./mvnw) at the project root; raises LabError with its tail on failure."""
    if is_bundle(ROOT):
        # Nothing builds offline: say what the bundle holds instead of a Maven error.
        raise LabError(f"this is an offline bundle ({ROOT}): it runs what it carries ({BUNDLE_MANIFEST} lists it) "
                       f"and builds nothing; `./mvnw {' '.join(args)}` needs a clone with network")
    java_home = java_home or find_java_home()
    command = [MAVEN, "-B"] + (["-q"] if quiet else []) + list(args)
    # No timeout: a first build downloads Maven, Payara and every dependency. No mvnw (labkit run
    # outside a clone) is run_command's "cannot run".
    result = run_command(command, cwd=ROOT, env=java_env(java_home), timeout=None, merged=True)
    if result.returncode != 0:
        raise LabError(f"build failed: {' '.join(command)}\n{last_lines(result.stdout, 30)}")
    return result.stdout


def ensure_built(artifacts=(WAR, *POOL_JARS.values(), *PAYARA_MICRO_JARS.values()), rebuild=False, log=print):
    """Packages the project (tests skipped) when an artifact is missing or a rebuild is asked for."""
    missing = [a for a in artifacts if not a.exists()]
    if missing or rebuild:
        why = "rebuild requested" if rebuild else "missing " + ", ".join(str(m.relative_to(ROOT)) for m in missing)
        log(f"building ({why}): {MAVEN} package -DskipTests")
        mvn(["package", "-DskipTests"])
    still_missing = [a for a in artifacts if not a.exists()]
    if still_missing:
        raise LabError("the build did not produce " + ", ".join(str(m) for m in still_missing))


def pool_jar(mode):
    """The jar a mode's HTTP pool class comes from; None for Grizzly's own pool (in every server)."""
    return POOL_JARS[mode.pool_library] if mode.pool_library else None


def pom_property(name):
    """A <properties> value of the root pom: versions are kept there once, for Maven and the lab."""
    pom = ET.parse(ROOT / "pom.xml").getroot()
    value = pom.findtext(f"m:properties/m:{name}", namespaces={"m": "http://maven.apache.org/POM/4.0.0"})
    if not value:
        raise LabError(f"pom.xml has no <{name}> property")
    return value.strip()


def _say(message):
    print(message, flush=True)


def ensure_benchmarks_jar(rebuild=False, log=_say):
    """Builds micro/target/benchmarks.jar (tests skipped) when it is missing or a rebuild is asked for."""
    if rebuild or not BENCHMARKS_JAR.exists():
        # -am: the jar holds lab-api (the memory experiment's JSON), built here rather than fetched.
        log("building micro/target/benchmarks.jar: ./mvnw -pl micro -am package -DskipTests")
        mvn(["-pl", "micro", "-am", "package", "-DskipTests"])
    if not BENCHMARKS_JAR.exists():
        raise LabError(f"the build did not produce {BENCHMARKS_JAR}")
    return BENCHMARKS_JAR
