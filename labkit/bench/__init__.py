"""./lab bench: start each target fresh, load it with bombardier, ab, wrk or vegeta, watch it, report.

Where a reader starts: labkit/commands/bench.py (the options and the order of the checks before
anything starts), then runner.py (the loop). What the loop builds on lives lower down: a server
session, a sampled run of a load tool and the point log in labkit/measure/session.py, the point
records and their figures in labkit/measure/results.py, the load tools in labkit/load/.

Modules, in the order a run uses them:
- config.py         the options, validated (argument types from labkit/ground/arguments.py), and the --quick preset
- runner.py         the loop: a fresh server per session, warm-up, measured windows (fresh or --steady),
                    the watchdog's stalls, JFR copies, one point record per window; RunRecorder keeps them
- rebuild.py        the files derived from the point records, in their one order (summary, results.csv,
                    charts, results.json, report.md): at the end of a run and for ./lab report DIR
- report.py         report.md: setup, servers, observations, summary tables, heaps, stalls, every window
- locks_report.py   report.md's "Locks and parks" section (--jfr-locks)
- charts.py         the PNG charts (matplotlib)

RESULTS-SCHEMA.md (here) describes the files of a run and their JSON/CSV schema, those of ./lab
capacity and ./lab soak too.
"""
