"""Errors the user caused or can fix: printed as one clear line, never as a traceback."""


class LabError(Exception):
    """A problem to report to the user; exit code 2 for usage, 1 otherwise."""

    def __init__(self, message, exit_code=1):
        super().__init__(message)
        self.exit_code = exit_code


class UsageError(LabError):
    def __init__(self, message):
        super().__init__(message, exit_code=2)
