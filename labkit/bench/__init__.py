"""./lab bench: start each target fresh, load it with bombardier, ab, wrk or vegeta, watch it, report.

Where a reader starts: command.py (the options and the checks before anything starts), then
runner.py (the loop). Modules, in the order a run uses them:
- command.py    the ./lab bench options and the order of the checks before anything starts
- config.py     the options, validated (argument types from labkit/ground/arguments.py), and the --quick preset
- scenarios.py  what is requested (URL path, method, body, headers) and its service time for Little's law
- plan.py       the points of a run (repeat x target x heap x driver x concurrency) and the ETA
- heaps.py      --heap: every target once per heap size, as series TARGET@HEAP
- cpus.py       --cpus: server and load tool on different cores
- drivers.py    finds or builds the load tools of labkit/load/drivers (one module per tool: command + output parser)
- runner.py     the loop: server sessions (any labkit.servers.interface.ServerHandle, started from labkit/servers/registry.py),
                warm-up, measured windows, Ctrl-C; its server start, probe and one sampled tool run
                (drive) are what ./lab capacity builds on
- sampler.py    /proc sampling of the server, the driver and the machine
- steadiness.py per-second throughput: not-steady windows, warm-up until it settles
- watchdog.py   a probe on a connection of its own every second: a server that stops answering is stalled
- threaddump.py the stalled server's JSON thread dump (jcmd, virtual threads included) and its likely cause
- jfr.py        JFR recording of the server through jcmd (loomlab.jfc), read back with the JDK's jfr tool
- perfcounters.py the JVM's performance counters (jcmd PerfCounter.print): the JIT's compile count
- histograms.py latency histograms merged across windows, .hgrm.gz files, spreads and CI
- results.py    point records, derived figures, medians, results.json / results.csv
- env.py        env.json: the machine (labkit/ground/machine.py), JDK, Payara, git and tool versions
- report.py, charts.py, progress.py, formatting.py   what people read

Files of a run and the JSON/CSV schema: RESULTS-SCHEMA.md beside this file.
"""
