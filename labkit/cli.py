"""./lab's entry point: each subcommand lives in its own module and registers itself here."""
import argparse
import os
import shlex
import signal
import sys
import traceback
from datetime import datetime, timezone

from labkit import ROOT, __version__, is_clone
from labkit.commands import bench, bundle, capacity, hosts, memory, micro, report, run, soak, test, verdict
from labkit.ground.command import run_command
from labkit.ground.errors import LabError
from labkit.ground.process import interrupt_on_signals

# One module per subcommand, in the order --help lists them; each defines register(subparsers),
# which sets a `run(args)` default.
COMMANDS = (run, test, bench, capacity, report, verdict, soak, memory, micro, hosts, bundle)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="./lab", description="LoomLab: Payara thread modes (platform pools vs virtual threads), run and measured.")
    parser.add_argument("--version", action="version", version=version_line(),
                        help="print the lab's version (and its git commit, in a clone) and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def version_line():
    """`lab 1.0.0.dev0`, and `(commit 875edcc)` when labkit runs from a git clone."""
    commit = ""
    if (ROOT / ".git").exists():
        try:
            commit = run_command(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, timeout=20).stdout.strip()
        except LabError:  # no git on PATH: the version alone
            pass
    return f"lab {__version__}" + (f" (commit {commit})" if commit else "")


def main(argv):
    parser = build_parser()
    args = parser.parse_args(argv)
    interrupt_on_signals()  # Ctrl-C and SIGTERM both clean up
    try:
        return args.run(args) or 0
    except LabError as e:
        print(f"lab {args.command}: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print(f"\nlab {args.command}: interrupted, stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`./lab compare A B | head`): stop as a pipe's writer
        # does, without a traceback, and keep Python's exit flush from failing on the closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except Exception as e:  # a fault of the lab's own: one line here, the traceback in a log
        log = write_crash_log(argv)
        print(f"lab {args.command}: unexpected error ({type(e).__name__}: {e}); the lab's fault, not yours: "
              f"traceback in {log}", file=sys.stderr)
        return 1


# Where an unexpected error's traceback goes: a file per crash, so a user can attach it to a report.
CRASH_LOGS = ROOT / ".lab" / "crashes"


def write_crash_log(argv):
    """Writes the current exception's traceback, the command line and the version to a new file under
    .lab/crashes/; returns its path (or, when it cannot be written, where the traceback went instead)."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    text = (f"command: ./lab {shlex.join(argv)}\nversion: {version_line()}\nat: {stamp}\n\n"
            + traceback.format_exc())
    try:
        CRASH_LOGS.mkdir(parents=True, exist_ok=True)
        path = CRASH_LOGS / f"{stamp}.log"
        path.write_text(text)
        return path
    except OSError:
        sys.stderr.write(text)
        return "standard error, above (the crash log could not be written)"


def entry():
    """`lab`, the console script of an installed labkit (pyproject.toml); ./lab runs main() itself.
    Outside a clone, --help and --version answer, every command names what it lacks."""
    argv = sys.argv[1:]
    args = build_parser().parse_args(argv)  # --help and --version exit here
    if not is_clone(ROOT):
        print(f"lab {args.command}: needs a LoomLab clone (pom.xml, domain-config/ ...), none at {ROOT}: "
              "run ./lab in a clone, or set LOOMLAB_HOME to one", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
