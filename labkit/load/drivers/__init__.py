"""LoomLab's load-generator drivers: bombardier, ab, wrk (closed model) and vegeta (open model)
behind one interface.

Each driver builds its tool's command line from a LoadSpec and reads the tool's output back into
one LoadResult (record.py), so the harness never looks at a tool's own text. Add a tool by
writing a Driver subclass in its own module and listing its DRIVER here.
"""
from labkit.load.drivers import ab, bombardier, vegeta, wrk
from labkit.load.drivers.base import TOOLS_BIN, Driver, DriverOutputError, LoadSpec, ToolMissing, redacted
from labkit.load.drivers.record import ErrorCounts, Latency, LoadResult

DRIVERS = {driver.name: driver for driver in (bombardier.DRIVER, ab.DRIVER, wrk.DRIVER, vegeta.DRIVER)}

__all__ = ["DRIVERS", "TOOLS_BIN", "Driver", "DriverOutputError", "ErrorCounts", "Latency", "LoadResult",
           "LoadSpec", "ToolMissing", "redacted"]
