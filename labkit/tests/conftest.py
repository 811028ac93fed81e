"""Shared pytest settings for the lab's tests."""


def pytest_configure(config):
    # ./lab test --quick deselects these (-m "not server"): the seconds-long loop while developing.
    config.addinivalue_line(
        "markers", "server: starts a server or another JVM from the build (Payara Micro or Server, a baseline, "
                   "the echo or memory experiment); minutes, not seconds")
