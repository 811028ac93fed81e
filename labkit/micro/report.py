"""Each run's report.md, and the shared reports in docs/results/ that --publish keeps up to date.

A published report holds generated sections between markers and hand-written text around them
(the reading of the numbers, under "## Reading"). Publishing replaces only its own section, so the
reading survives a re-run; a new kind of run (e.g. with another profiler) adds its section just
above the reading.
"""
import re
import shutil

from labkit import ROOT

DOCS_RESULTS = ROOT / "docs" / "results"
READING_HEADING = "## Reading"
PLACEHOLDER_READING = READING_HEADING + "\n\n_To be written after looking at the numbers above._\n"


def markers(section):
    return f"<!-- generated:{section}:begin -->", f"<!-- generated:{section}:end -->"


def write_report(run_dir, title, body):
    path = run_dir / "report.md"
    path.write_text(f"# {title}\n\n{body.strip()}\n")
    return path


def publish(doc_name, title, section, body, files=(), docs_dir=None):
    """Puts body into section `section` of docs/results/<doc_name>.md and copies files beside it."""
    docs_dir = docs_dir or DOCS_RESULTS
    docs_dir.mkdir(parents=True, exist_ok=True)
    path = docs_dir / f"{doc_name}.md"
    begin, end = markers(section)
    block = f"{begin}\n{body.strip()}\n{end}"
    if path.exists():
        text = path.read_text()
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.DOTALL)
        if pattern.search(text):
            text = pattern.sub(lambda _: block, text, count=1)
        elif READING_HEADING in text:
            # New runs go above the reading, which is about all of them.
            head, _, reading = text.partition(READING_HEADING)
            text = head.rstrip() + "\n\n" + block + "\n\n" + READING_HEADING + reading
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
    else:
        text = f"# {title}\n\n{block}\n\n{PLACEHOLDER_READING}"
    path.write_text(text)
    for source, target_name in files:
        shutil.copyfile(source, docs_dir / target_name)
    return path
