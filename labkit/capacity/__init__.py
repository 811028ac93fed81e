"""./lab capacity: the highest arrival rate each target serves within a latency goal, open model.

Where a reader starts: labkit/commands/capacity.py (the options and the checks before anything
starts), then runner.py (the plan). Modules, in the order a run uses them:
- config.py     the options, validated, and what follows from them per sleep (goal, pre-roll, timeout, warm-up sleep)
- goals.py      --slo's goals (one or several) and a window judged against a goal it was not measured for (pure)
- runner.py     the plan: per sleep a search per target (a bisection per goal), then the confirmation rounds
                in rotated order, each a walk up or down from the found rate; the ETA
- context.py    what the parts of a run share (options, targets, load tool, record, JDK, console, timings)
- search.py     the rate search: doubling ramp, then bisection (pure)
- session.py    one fresh server: the host-speed reference first, then start, probe, JFR, warm-up, full GC,
                rest; stopped in a `finally`
- warmup.py     closed-model iterations until the throughput is steady and the JIT quiet
- window.py     one window as a frozen value (target, sleep, phase, step, round, rate, length);
                its re-runs are copies
- windows.py    the window loop: a fixed-rate vegeta run per window, longer re-runs, measured again
- between.py    between windows: full GC, rest until quiet, TIME_WAIT drained; is the server still there
- verdicts.py   the rules that judge a window from its record (goal, young collections, measure
                again, server lost, connection bound; pure)
- points.py     a window's point record and its derived figures (pure)
- recorder.py   points.jsonl as the run goes, and the files report/ writes at its end
- summary.py    capacity per target from the point records: spreads, merged histograms, ratios
- limits.py     what limited each window that missed and each capacity (measure/limits.py's rules, pure)
- pairs.py      ratios from each round's pair of targets, measured minutes apart
- by_goal.py    capacity per goal from the point records, and where two targets swap places
- decision_table.py  ./lab verdict: every committed run's pairs as a table of choices, words by rule
- report/       what people read: results.json/.csv, report.md, charts, report.html (also ./lab report DIR);
                its __init__.py says which module writes what

Servers, load runs and /proc sampling are the measurement layer's (labkit/measure/).
"""
