"""./lab verdict: the answer, generated from the committed capacity runs (labkit/capacity/decision_table.py):
docs/results/verdict.md and verdict.json, and README's decision table, rewritten from the data;
--check says whether they are what the data give, without writing."""
from pathlib import Path

from labkit import ROOT
from labkit.capacity import decision_table
from labkit.ground.errors import UsageError

RESULTS = ROOT / "docs" / "results"
README = ROOT / "README.md"


def register(subparsers):
    p = subparsers.add_parser(
        "verdict", help="write docs/results/verdict.md: which target to choose, per workload and goal, from "
                        "every committed capacity run",
        description="Reads every capacity results folder under --results and writes verdict.md and verdict.json "
                    "there: one row per pair of targets measured in the same rounds, with the choice only when "
                    "every round makes it.")
    p.add_argument("--results", type=Path, default=RESULTS, metavar="DIR",
                   help="the folder of committed results (default docs/results)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 when verdict.md or verdict.json differ from what the data give")
    p.set_defaults(run=run)


def run(args):
    if not args.results.is_dir():
        raise UsageError(f"--results {args.results}: no such folder")
    # README's table comes from the repository's own results only.
    readme = README if args.results.resolve() == RESULTS.resolve() else None
    if args.check:
        stale = decision_table.stale(args.results, readme)
        for path in stale:
            print(f"{path}: not what the committed runs give (./lab verdict rewrites it)")
        return 1 if stale else 0
    for path in decision_table.write(args.results, readme):
        print(f"wrote {path}")
    return 0
