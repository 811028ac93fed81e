"""One module per ./lab subcommand: its options (argparse), checked before anything starts, and the
run it calls below. Each defines register(subparsers), which sets a `run(args)` default;
labkit/cli.py lists them. The reference of each: docs/commands/.

run, test, bench, capacity, report (with compare), soak, memory, micro, verdict, hosts, bundle.

common.py holds what the run commands (bench, capacity, soak) share: their options and prepare_run,
everything each does before it measures, in one order (the config with its measure.server_setup.ServerSetup,
the results folder, the targets, --server-host and --load-hosts checked, the port, the load tools,
the JDK, the build, the open-files limit, env.json); where.py the checks and records of where the
servers and the load are.
"""
