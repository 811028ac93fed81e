"""./lab test: the whole suite (Maven unit and per-mode Arquillian tests, then the lab's own tests)."""
import subprocess
import sys

from .. import ROOT
from ..errors import LabError
from ..jdk import find_java_home, java_env


def register(subparsers):
    p = subparsers.add_parser("test", help="run the test suite with a JDK 21+ found automatically",
                              description="mvn verify (unit tests + Arquillian tests per mode) and pytest for labkit.")
    p.add_argument("maven_args", nargs="*", metavar="MAVEN_ARG",
                   help="extra Maven arguments after --, e.g. ./lab test -- -Pbig-pools")
    p.set_defaults(run=run)


def run(args):
    java_home = find_java_home()
    print(f"JDK: {java_home}", flush=True)
    env = java_env(java_home)
    steps = [
        ["mvn", "-B", "verify", *args.maven_args],
        [sys.executable, "-m", "pytest", "-q", "labkit/tests"],
    ]
    for step in steps:
        print("$", " ".join(step), flush=True)
        try:
            code = subprocess.call(step, cwd=ROOT, env=env)
        except FileNotFoundError:
            raise LabError(f"{step[0]} is not installed") from None
        if code != 0:
            raise LabError(f"{' '.join(step[:3])} failed (exit {code})", exit_code=code)
    return 0
