"""Shared pytest settings for the lab's tests."""
import pytest


def pytest_configure(config):
    # ./lab test --quick deselects these (-m "not server"): the seconds-long loop while developing.
    config.addinivalue_line(
        "markers", "server: starts a server or another JVM from the build (Payara Micro or Server, a baseline, "
                   "the echo or memory experiment); minutes, not seconds")


@pytest.fixture(autouse=True)
def no_lab_crashed():
    """No ./lab run of any test met an unexpected error: each one writes a crash log (labkit/cli.py)
    instead of a traceback, so a new log fails the test that caused it, whatever it asserted."""
    from labkit.cli import CRASH_LOGS
    before = set(CRASH_LOGS.glob("*.log"))
    yield
    new = sorted(set(CRASH_LOGS.glob("*.log")) - before)
    if new:
        pytest.fail("./lab met an unexpected error: " + "\n\n".join(f"{path}:\n{path.read_text()}" for path in new))
