"""Measurement: one measured server session, the same for ./lab bench, capacity and soak.

- server_setup.py ServerSetup: how a run's servers start and where (port, JVM options, --cpus,
                  --carriers, --war, --server-host with its JDK, --load-hosts), held by every run's config
- measured_server.py  MeasuredServer: one server of any run (bench, capacity, soak, the reference):
                  started as its ServerSetup says, its session record opened, JFR recorded when
                  asked, and closed once (recording ended, server stopped, log kept, record handed on)
- session.py      start a target (pinned by --cpus, with its heap and carriers), probe it once,
                  drive a load tool while /proc is sampled and the watchdog probes, keep the
                  server's log, record each point as it finishes (PointLog: points.jsonl, env.json)
- sampler.py      the server, the load tool and the machine, from /proc, every 0.5 s of a window
- watchdog.py     a probe on a connection of its own while the server is loaded or served
- threaddump.py   a JSON thread dump of a stalled server, and what it says about why
- jfr.py          JDK Flight Recorder on the server (jcmd, jfr); loomlab.jfc its settings
- flamegraph.py   a CPU-bound window's whole stacks (FoldedStacks.java, the JDK's JFR reader) and
                  their flame graph in report.html
- html.py         report.html of every run kind: report.md, Plotly charts, each window over time
- perfcounters.py HotSpot's counters of a running JVM (jcmd PerfCounter.print)
- histograms.py   latency histograms across windows: merged, never averaged
- steadiness.py   is a window steady, has a warm-up settled?
- limits.py       why a window missed its goal: the first check crossed (load tool, pool, sockets,
                  GC, CPU, pinning, locks, JIT) with its figures, or "none found" and what showed
                  below the lines
- gc_limits.py    its GC checks: pauses old and young against the goal's slack, ZGC's allocation
                  stalls, a concurrent collector's cycles
- results.py      point records, derived figures, medians over repeats, the results files and
                  their schema names
- env.py          env.json: the machine, JDK, Payara, git and tool versions of a run (a server
                  host's facts under the same FACTS, its texts fetched over ssh), and the setup rows
                  every report opens with (where_rows, git_row)
- reference.py    the host's speed: a fixed request at a fixed rate on the JDK's server, its CPU
                  per request, before each session (env.json host_speed), and its drift
- cpus.py         --cpus server=...,driver=...: the server and the load tool on different cores
- plan.py         the points of a run grouped by server session, and the time the rest will take
- progress.py     what a run prints while it runs: plan, point i/N, ETA, live req/s
- foreground.py   ./lab run's loop: serve until exit, Ctrl-C or a stall (then a thread dump)
- ownapp_report.py report.md's "Your application" section of bench and capacity (--war, --request):
                  what was deployed and requested, and the pool's counters around each window
- row_text.py     a bench summary row in words: a metric's median [min–max], the sleep, the flags
- report_files.py report.md's links: only to files its folder holds, and what it lacks and why

Rule: measure imports catalog, apps, servers, load, hosts and ground, never a run or a command
(labkit/tests/test_import_graph.py). A server on another host is measured here as a local one: its
/proc through its feed (labkit/hosts/procfeed.py), jcmd through its host, the load spread over
load hosts by labkit/load/spread.py.
"""
