"""Share of CPU samples whose stack passes through each component (a sample counts once per component).

Reads the folded stacks of this folder (frame;frame;... count, outermost frame first), written from each
server's JFR profile (jdk.ExecutionSample): python3 by_package.py *.folded.gz
"""
import collections
import gzip
import sys

COMPONENTS = [
    ("fish.payara.microprofile.telemetry", "Payara OpenTelemetry (JAX-RS request listener)"),
    ("fish.payara.nucleus.requesttracing", "Payara request tracing"),
    ("fish.payara", "other fish.payara.*"),
    ("org.glassfish.jersey", "Jersey (JAX-RS)"),
    ("org.jvnet.hk2", "HK2 (injection)"), ("org.glassfish.hk2", "HK2 (injection)"),
    ("org.jboss.weld", "Weld (CDI)"),
    ("org.glassfish.grizzly", "Grizzly (HTTP)"),
    ("org.apache.catalina", "Catalina (servlet)"),
    ("com.sun.enterprise", "com.sun.enterprise (container)"),
    ("dev.loomlab.api", "dev.loomlab.api (the sleep itself)"),
]


def component(frame):
    return next((label for prefix, label in COMPONENTS if frame.startswith(prefix)), None)


for path in sys.argv[1:]:
    total, shares = 0, collections.Counter()
    with gzip.open(path, "rt") as lines:
        for line in lines:
            stack, count = line.rsplit(" ", 1)
            total += int(count)
            for label in {component(f) for f in stack.split(";")} - {None}:
                shares[label] += int(count)
    print(f"{path}: {total} samples")
    for label, n in shares.most_common():
        print(f"  {n / total:6.1%}  {label}")
