"""One module per ./lab subcommand: its options (argparse), checked before anything starts, and the
run it calls below. Each defines register(subparsers), which sets a `run(args)` default;
labkit/cli.py lists them. The reference of each: docs/commands/.

run, test, bench, capacity, report (with compare), soak, memory, micro.
"""
