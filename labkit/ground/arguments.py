"""Argument types shared by the ./lab commands (argparse `type=` functions): one check, one message.

A bad value raises argparse.ArgumentTypeError, which argparse turns into the command's usage line
and exit code 2. `name` repeats the option in the message where the tests and users look for
"--duration must be in 1..3600" rather than argparse's own "argument --duration:" prefix alone.
"""
import argparse
import math
import re

from labkit.ground.errors import UsageError


def port_number(text):
    try:
        port = int(text)
    except ValueError:
        raise UsageError(f"--port must be a number in 1..65535, was '{text}'") from None
    if not 1 <= port <= 65535:
        raise UsageError(f"--port must be in 1..65535, was {port}")
    return port


def single_line(text):
    """An option value that ends up in a generated file, one setting a line (a pre-boot command file,
    an asadmin multimode file): a line break there would add a command of its own, so it is refused."""
    if "\n" in text or "\r" in text:
        raise argparse.ArgumentTypeError(f"must be a single line, was {text!r}")
    return text


def _prefix(name):
    return f"{name} " if name else ""


def whole_number(low, high=None, name=None, unit="a whole number"):
    """A type for an integer in low..high (no upper bound when high is None); 1_000 is accepted.
    `unit` names what is expected in the message, e.g. "whole seconds"."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_prefix(name)}must be {unit}, was '{text}'") from None
        if value < low or (high is not None and value > high):
            bounds = f">= {low}" if high is None else f"in {low}..{high}"
            raise argparse.ArgumentTypeError(f"{_prefix(name)}must be {bounds}, was {value}")
        return value
    return parse


def decimal_number(low, high, name=None):
    """A type for a float in low..high (NaN and infinities fail the bounds)."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_prefix(name)}must be a number, was '{text}'") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{_prefix(name)}must be in {low:g}..{high:g}, was {value:g}")
        return value
    return parse


def positive_number(name=None):
    """A type for a finite number above 0 (a factor, a rate)."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_prefix(name)}must be a number, was '{text}'") from None
        if not 0 < value < math.inf:
            raise argparse.ArgumentTypeError(f"{_prefix(name)}must be above 0, was {value:g}")
        return value
    return parse


def percentage(low, high, name=None):
    """A type for a percentage in low..high, written 5 or 5%; the value is the fraction (0.05)."""
    def parse(text):
        try:
            value = float(text.strip().rstrip("%"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_prefix(name)}takes a percentage (e.g. 5%), was '{text}'") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{_prefix(name)}must be in {low:g}..{high:g} %, was {value:g}")
        return value / 100
    return parse


def positive_seconds(text):
    """A duration in (0, 3600] seconds, written 15, 2.5 or 2.5s."""
    try:
        value = float(text.rstrip("s"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds (e.g. 15 or 2.5), was '{text}'") from None
    if not 0 < value <= 3600 or math.isnan(value):
        raise argparse.ArgumentTypeError(f"seconds must be in (0, 3600], was '{text}'")
    return value


def name_list(text):
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError("expected a comma-separated list of names")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"a name is given twice in '{text}'")
    return names


def run_name(text):
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", text):
        raise argparse.ArgumentTypeError(f"name may hold letters, digits, '.', '_' and '-' (max 64), was '{text}'")
    return text
