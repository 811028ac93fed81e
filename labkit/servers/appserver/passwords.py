"""Admin passwords: read from a user's file or a Docker secret, generated, written owner-only."""
import os
import secrets
from pathlib import Path

from labkit.ground.errors import UsageError

WELL_KNOWN_DEFAULTS = ("admin", "adminadmin", "changeit", "password")


def read_password_file(path):
    """A password file as a user or Docker secret gives it: the first line, or AS_ADMIN_PASSWORD=..."""
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise UsageError(f"--admin-password-file {path}: {e.strerror}") from None
    password = None
    for line in text.splitlines():
        if line.startswith("AS_ADMIN_PASSWORD="):
            password = line.split("=", 1)[1]
            break
    if password is None:
        password = text.splitlines()[0] if text.splitlines() else ""
    password = password.strip()
    if len(password) < 8:
        raise UsageError(f"--admin-password-file {path}: the password must have at least 8 characters")
    if password.lower() in WELL_KNOWN_DEFAULTS:
        raise UsageError(f"--admin-password-file {path}: that is a well-known default password; choose another")
    return password


def generate_password():
    return secrets.token_urlsafe(18)


def write_secret(path, text):
    """Writes text to a file only its owner can read (created so, never briefly world-readable)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
