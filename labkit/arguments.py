"""Argument types shared by the ./lab commands (argparse `type=` functions): one check, one message."""
import argparse

from .errors import UsageError


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
