"""Measurement: a server session, sampling, watchdog, JFR, thread dumps, results."""
