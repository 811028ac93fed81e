"""The files a bench run derives from its point records, in their one order: the summary over
repeats, results.csv, the charts, results.json, report.md, report.html. RunRecorder.finish writes them at the
end of a run and `./lab report DIR` writes them again from results.json alone."""
from labkit.bench.charts import write_charts
from labkit.bench.html_report import write_html
from labkit.bench.report import write_report
from labkit.measure.results import RESULTS_JSON, summarize, write_csv, write_json


def write_all(run, out_dir, record=True):
    """Writes every derived file into out_dir (and results.json plain, unless `record` is False: ./lab
    report reads it and leaves it as it is); returns the run with its summary and charts filled in."""
    run["summary"] = summarize(run["points"])
    write_csv(out_dir / "results.csv", run["points"])
    # The charts' names go into results.json and report.md, so they are drawn first.
    run["charts"] = write_charts(run["summary"], out_dir, run["env"]["host"]["cpus"])
    if record:
        write_json(out_dir / RESULTS_JSON, run)
    write_report(out_dir / "report.md", run)
    write_html(run, out_dir)
    return run
