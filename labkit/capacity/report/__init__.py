"""What people read of a ./lab capacity run, all computed from its point records, so ./lab report DIR
writes it again from results.json alone. Modules:
- markdown.py         every file in its order (write_all: results.csv, charts, results.json, report.md,
                      report.html) and report.md itself; the console's line per target (summary_line)
- goals_report.py     report.md's section on capacity per goal (by_goal.py's table, said plainly)
- sessions_report.py  report.md's table of the run's servers: start, warm-up, CPUs, log
- charts.py           the PNG charts (matplotlib)
- html_report.py      report.html: report.md rendered, interactive charts, every window's time series
"""
from labkit.capacity.report.markdown import summary_line, write_all

__all__ = ["summary_line", "write_all"]
