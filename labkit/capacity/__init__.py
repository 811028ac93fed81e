"""./lab capacity: the highest arrival rate each target serves within a latency goal, open model.

Modules: config.py (options), search.py (ramp + bisection, pure), runner.py (servers, warm-up,
windows; the bench's server start, load runs and sampler underneath), summary.py (capacity per
target from the point records), report.py and charts.py (what people read), command.py.
"""
