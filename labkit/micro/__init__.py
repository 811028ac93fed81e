"""./lab micro: the micro-benchmarks below the app server, run from micro/target/benchmarks.jar.

jmh.py runs JMH (IO vs CPU tasks, the token ring) and reads its JSON; echo.py runs the echo
server and clients as separate JVMs over a sweep of connection counts; chart.py plots the sweep;
report.py writes each run's report.md and, on request, the reports in docs/results/.
"""
