"""./lab test: the whole suite (Maven unit and per-mode Arquillian tests, then the lab's own tests),
or with --quick the seconds-to-a-minute loop (unit tests and the lab tests that start no server)."""
import subprocess
import sys

from labkit import ROOT
from labkit.ground.build import MAVEN
from labkit.ground.errors import LabError
from labkit.ground.jdk import find_java_home, java_env

# The one install recipe, shared with .ci/run: browser and driver, load tools, Go for bombardier.
INSTALL_TOOLS = ROOT / "ab-scripts" / "install-tools.sh"


def register(subparsers):
    p = subparsers.add_parser("test", help="run the test suite with a JDK 21+ found automatically",
                              description="./mvnw verify (unit tests + Arquillian tests per mode) and pytest for labkit. "
                                          "First installs what the suite needs (ab-scripts/install-tools.sh).")
    p.add_argument("--quick", action="store_true",
                   help="unit tests only: ./mvnw test (no Arquillian, no browser) and the lab's tests that start "
                        "no server (pytest -m 'not server'); installs nothing")
    p.add_argument("maven_args", nargs="*", metavar="MAVEN_ARG",
                   help="extra Maven arguments after --, e.g. ./lab test -- -Pbig-pools")
    p.set_defaults(run=run)


def run(args):
    if not args.quick:
        install_tools()
    java_home = find_java_home()
    print(f"JDK: {java_home}", flush=True)
    env = java_env(java_home)
    # --durations: the slowest tests named at the end, so the suite's time (CI's budget) is watched.
    pytest = [sys.executable, "-m", "pytest", "-q", "--durations=25", "labkit/tests"]
    if args.quick:
        steps = [[MAVEN, "-B", "test", *args.maven_args], [*pytest, "-m", "not server"]]
    else:
        steps = [[MAVEN, "-B", "verify", *args.maven_args], pytest]
    for step in steps:
        print("$", " ".join(step), flush=True)
        try:
            code = subprocess.call(step, cwd=ROOT, env=env)
        except FileNotFoundError:
            raise LabError(f"{step[0]} is not installed") from None
        if code != 0:
            raise LabError(f"{' '.join(step[:3])} failed (exit {code})", exit_code=code)
    return 0


def install_tools():
    """Runs the install recipe before anything is built; its own one-line reason when it cannot."""
    print(f"$ bash {INSTALL_TOOLS.relative_to(ROOT)}", flush=True)
    result = subprocess.run(["bash", str(INSTALL_TOOLS)], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise LabError(result.stderr.strip() or f"{INSTALL_TOOLS.name} failed (exit {result.returncode})")
