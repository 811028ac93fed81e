"""./lab bench: start each target fresh, load it with bombardier, ab or wrk, watch it, report.

Modules, in the order a run uses them:
- config.py     the options, validated, and the --quick preset
- scenarios.py  what is requested (URL path) and its service time for Little's law
- plan.py       the points of a run (repeat x target x driver x concurrency) and the ETA
- drivers.py    finds or builds the load tools of labkit/drivers (one module per tool: command + output parser)
- cpus.py       --cpus: server and load tool on different cores
- sampler.py    /proc sampling of the server, the driver and the machine
- steadiness.py per-second throughput: not-steady windows, warm-up until it settles
- histograms.py latency histograms merged across windows, .hgrm.gz files, spreads and CI
- jfr.py        JFR recording of the server through jcmd, read back with the JDK's jfr tool
- watchdog.py   a probe on a connection of its own every second: a server that stops answering is stalled
- threaddump.py the stalled server's JSON thread dump (jcmd, virtual threads included) and its likely cause
- runner.py     the loop: server sessions, warm-up, measured windows, Ctrl-C; its server start,
                probe and one sampled tool run (drive) are what ./lab capacity builds on
- results.py    point records, derived figures, medians, results.json / results.csv
- report.py, charts.py, progress.py, formatting.py, env.py   what people read
- command.py    the ./lab bench options and the order of the checks before anything starts

Files of a run and the JSON/CSV schema: RESULTS-SCHEMA.md beside this file.
"""
