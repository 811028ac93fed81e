"""The documentation's promises: a short README that starts with the two commands, links that
resolve, results pages that open with their question, command, verdict and status, and a command
page for every subcommand whose option tables match the real parser."""
import argparse
import re

import pytest

from labkit import ROOT
from labkit.cli import build_parser

README = ROOT / "README.md"
COMMANDS = ROOT / "docs" / "commands"
RESULTS = ROOT / "docs" / "results"
RESULTS_INDEX = RESULTS / "README.md"
# Every page whose relative links must resolve (files, and headings in Markdown files).
LINKED_PAGES = [README, RESULTS_INDEX, *sorted(COMMANDS.glob("*.md"))]
# The hand-written results pages; the report.md files in their folders are generated.
RESULTS_PAGES = sorted(p for p in RESULTS.glob("*.md") if p.name != "README.md")
HEAD_LABELS = ("**Question:**", "**Command:**", "**Verdict:**", "**Status:**")
SUPERSEDED = re.compile(r"superseded by \[[^\]]+\]\(([^)#\s]+)\)")


def _without_code_blocks(text):
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def _slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path):
    anchors, seen = set(), {}
    for heading in re.findall(r"^#{1,6} (.+)$", _without_code_blocks(path.read_text()), re.M):
        slug = _slug(heading)
        count = seen.get(slug, 0)
        anchors.add(slug if count == 0 else f"{slug}-{count}")
        seen[slug] = count + 1
    return anchors


def _relative_links(path):
    links = re.findall(r"\]\(([^)\s]+)\)", _without_code_blocks(path.read_text()))
    return [link for link in links if not re.match(r"[a-z]+:", link)]


def _subparsers(parser):
    """{name: parser} of the subcommands a parser registers, read from its argparse actions."""
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def _parser_options(parser):
    """Every option string of a parser and of its own subcommands (./lab micro jmh|ring|echo)."""
    options = {o for action in parser._actions for o in action.option_strings if o not in ("-h", "--help")}
    for sub in _subparsers(parser).values():
        options |= _parser_options(sub)
    return options


def _commands_named_in_title(page):
    title = page.read_text().splitlines()[0]
    return re.findall(r"`\./lab ([a-z]+)", title)


def _documented_options(page):
    """The options in the first cell of the page's option tables (rows that start with `-...`)."""
    options = set()
    for row in re.findall(r"^\| `-.*$", page.read_text(), re.M):
        first_cell = row.strip("|").split(" | ")[0]
        options.update(re.findall(r"`(--?[\w-]+)", first_cell))
    return options


def test_the_readme_is_short_and_starts_with_the_two_commands():
    lines = README.read_text().splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines"
    start = lines.index("```bash")
    assert start < 30, f"the first bash block starts at line {start + 1}"
    commands = lines[start + 1:start + 3]
    assert [c.split("#")[0].strip() for c in commands] == ["./lab bench --quick", "./lab test"]
    for command in commands:
        comment = command.partition("#")[2]
        assert re.search(r"\d+.*min", comment), f"say what it does and how long: {command}"


@pytest.mark.parametrize("page", LINKED_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_a_file_that_exists(page):
    broken = []
    for link in _relative_links(page):
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        if not path.exists():
            broken.append(link)
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(f"{link} (no such heading)")
    assert not broken, broken


@pytest.mark.parametrize("page", RESULTS_PAGES, ids=lambda p: p.name)
def test_every_results_page_opens_with_question_command_verdict_and_status(page):
    lines = page.read_text().splitlines()
    assert lines[0].startswith("# ") and lines[1] == ""
    head = lines[2:6]
    assert [line.split(" ")[0] for line in head] == list(HEAD_LABELS), head
    assert all(line.split(" ", 1)[1].strip(" \\") for line in head), "a label with nothing after it"
    assert "`./lab " in head[1], "the command that produced the page"
    status = head[3].removeprefix("**Status:** ")
    superseded = SUPERSEDED.match(status)
    assert status == "current" or superseded, status
    if superseded:
        assert (RESULTS / superseded[1]).is_file(), status


def test_the_results_index_lists_every_page_with_the_status_the_page_gives():
    rows = re.findall(r"^\| .+ \| \[[^\]]+\]\(([\w.-]+\.md)\) \| (.+) \|$", RESULTS_INDEX.read_text(), re.M)
    listed = dict(rows)
    assert sorted(listed) == [p.name for p in RESULTS_PAGES]
    for page in RESULTS_PAGES:
        status = page.read_text().splitlines()[5].removeprefix("**Status:** ")
        page_says = SUPERSEDED.match(status)
        index_says = SUPERSEDED.match(listed[page.name])
        assert (page_says and page_says[1]) == (index_says and index_says[1]), page.name


def test_every_subcommand_has_a_page_and_the_index_links_every_page():
    registered = set(_subparsers(build_parser()))
    pages = {name: page for page in COMMANDS.glob("*.md") if page.name != "README.md"
             for name in _commands_named_in_title(page)}
    assert registered - set(pages) == set(), "subcommands without a page in docs/commands/"
    assert set(pages) - registered == set(), "pages of commands the parser does not have"
    index_links = set(_relative_links(COMMANDS / "README.md"))
    assert {page.name for page in pages.values()} <= index_links


@pytest.mark.parametrize("page", sorted(p for p in COMMANDS.glob("*.md") if p.name != "README.md"),
                         ids=lambda p: p.name)
def test_each_command_page_documents_exactly_the_options_of_its_parser(page):
    subcommands = _subparsers(build_parser())
    expected = set()
    for name in _commands_named_in_title(page):
        expected |= _parser_options(subcommands[name])
    documented = _documented_options(page)
    assert expected - documented == set(), "options the page leaves out"
    assert documented - expected == set(), "options the page documents that the parser does not have"


# A results page quotes its run's generated report between these markers instead of retyping figures.
QUOTE = re.compile(r"<!-- quoted from (\S+) -->\n(.*?)<!-- end of quote -->", re.S)


def test_quoted_report_lines_are_the_reports_own():
    """Each line a results page quotes is a line of the report.md it names, which ./lab report rebuilds
    from the committed data (test_report_rebuilds_committed.py): a quoted figure cannot drift from the
    data the way a retyped one did (issue 56)."""
    quoted = 0
    for page in RESULTS_PAGES:
        for source, block in QUOTE.findall(page.read_text()):
            report = set((page.parent / source).read_text().splitlines())
            for line in filter(str.strip, block.splitlines()):
                assert line in report, f"{page.name} quotes a line {source} does not hold: {line[:160]}"
                quoted += 1
    assert quoted, "no results page quotes its report (payara7.md does)"
