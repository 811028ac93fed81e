"""An error of the lab's own never shows a user a Python traceback: `./lab` prints one line that says
so and where the traceback went (a file under .lab/crashes/ with the command line and version), and
exits 1. A user's error (LabError) stays one line of its own, with no crash log."""
import pytest

from labkit import cli
from labkit.commands import report
from labkit.ground.errors import LabError


@pytest.fixture
def crash_logs(tmp_path, monkeypatch):
    folder = tmp_path / "crashes"
    monkeypatch.setattr(cli, "CRASH_LOGS", folder)
    return folder


def test_an_unexpected_error_is_one_line_and_a_log(crash_logs, monkeypatch, capsys):
    def broken(args):
        return {}["no such key"]
    monkeypatch.setattr(report, "run_report", broken)
    assert cli.main(["report", "somewhere"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    [log] = crash_logs.glob("*.log")
    assert err.startswith("lab report: unexpected error (KeyError: 'no such key')") and str(log) in err
    text = log.read_text()
    assert text.startswith("command: ./lab report somewhere\nversion: lab ")
    assert "Traceback (most recent call last)" in text and "in broken" in text


def test_a_users_error_is_its_own_line_without_a_crash_log(crash_logs, monkeypatch, capsys):
    def refused(args):
        raise LabError("no results folder at somewhere")
    monkeypatch.setattr(report, "run_report", refused)
    assert cli.main(["report", "somewhere"]) == 1
    assert capsys.readouterr().err == "lab report: no results folder at somewhere\n"
    assert not crash_logs.exists()
