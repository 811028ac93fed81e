"""./lab soak: does a server survive overload? Each target is loaded at FACTOR x its capacity for
--load seconds, then left idle for --idle seconds; the checks say whether it crashed, ran out of
memory, how many requests failed (by kind: timeouts are counted, not hidden), whether its OS
threads and RSS came back near their idle values during the idle phase, and whether it answers a
fresh request within a second afterwards.

The load is vegeta, the lab's open model: requests are due at a fixed rate whatever the server
answers, so an overloaded server faces the growing queue it would face in production (a closed-model
tool would slow down with it and hide the overload). Latency runs from each request's intended
start; requests vegeta could not send on schedule are counted as failed (`other`), not dropped.

Modules (the command itself is labkit/commands/soak.py):
- config.py   SoakConfig (the options, as soak.json records them) and --capacity: the rate each target
              sustained, from a number, a list, or a results.json of ./lab bench or ./lab capacity
- runner.py   the run: each round's fresh server, warm-up, quiet samples, overload (measure.session.drive),
              idle phase and fresh request
- checks.py   the verdict rules, without I/O: threads and RSS back near idle, and each round's checks
- report.py   soak.json and report.md, and ./lab report DIR's rebuild of both from the raw samples

soak.json's schema (loomlab.soak/1): labkit/bench/RESULTS-SCHEMA.md.
"""
