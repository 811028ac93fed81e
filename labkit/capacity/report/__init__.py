"""What people read of a ./lab capacity run, all from its point records, so ./lab report DIR writes it
again from results.json alone. Modules, from the files down to report.md's sections:
- rebuild.py           every file in its one order (write_all): the summary, results.csv, the charts,
                       results.json, report.md, report.html; results.csv's columns
- markdown.py          report.md: its sections in order, and how to read them
- answer_report.py     report.md's first section: each capacity with its limit, and what each pair's rounds choose
- setup_report.py      the setup table: machine, JDK, load tool, CPUs, and the run's rules in words
- capacity_report.py   the capacity table per target and sleep, and its console line (summary_line)
- limits_report.py     what limited each capacity, round by round, and the limit cells of both tables
- ratios_report.py     the ratio matrices between targets, per sleep, and the same-ceiling comparisons
- goals_report.py      capacity per goal (by_goal.py's table) and where two targets swap places
- sessions_report.py   the run's servers: start, warm-up, CPUs allowed, log
- windows_report.py    every window's row, and the windows measured again for too few young collections
- charts.py            the PNG charts (matplotlib)
- html_report.py       report.html: report.md rendered, interactive charts, every window's time series

Two sections come from elsewhere: the paired ratios from capacity/pairs.py, beside the figures they
show, and "Your application" and the host speed from the measurement layer (labkit/measure/).
"""
from labkit.capacity.report.capacity_report import summary_line
from labkit.capacity.report.rebuild import write_all

__all__ = ["summary_line", "write_all"]
