"""The bench's view of the load-tool drivers (labkit/drivers, one module per tool): finding or
building each tool, and its version for env.json."""

from labkit import ROOT
from labkit.ground.command import run_command
from labkit.load.drivers import DRIVERS, DriverOutputError, LoadResult, LoadSpec, ToolMissing, redacted
from labkit.load.drivers.record import PERCENTILES, new_histogram
from labkit.load.drivers.vegeta import MAX_CONNECTIONS as MAX_CONNECTIONS_OPEN_MODEL
from labkit.ground.errors import LabError

INSTALL_SCRIPTS = ROOT / "ab-scripts"
# Tools the lab builds itself from the Go module proxy when Go is there, and the script that does it.
GO_INSTALLERS = {"bombardier": INSTALL_SCRIPTS / "install-bombardier.sh", "vegeta": INSTALL_SCRIPTS / "install-vegeta.sh"}

__all__ = ["DRIVERS", "DriverOutputError", "LoadResult", "LoadSpec", "MAX_CONNECTIONS_OPEN_MODEL", "PERCENTILES",
           "ToolMissing", "ensure_tools", "new_histogram", "redacted", "tool_version"]


def ensure_tools(names, log=print):
    """The executable of every driver named, or a LabError with one line per missing tool.
    bombardier and vegeta are built from the Go module proxy when Go is there, like ./lab builds the WAR."""
    executables, missing = {}, []
    for name in names:
        driver = DRIVERS[name]
        try:
            executables[name] = driver.find_executable()
        except ToolMissing as missing_tool:
            if name in GO_INSTALLERS and _go_available():
                log(f"{name} is missing: building it once with {GO_INSTALLERS[name].relative_to(ROOT)}")
                _build(name)
                executables[name] = driver.find_executable()
            else:
                missing.append(str(missing_tool))
    if missing:
        raise LabError("\n".join(missing))
    return executables


def tool_version(name, executable):
    """The tool's first version line, for env.json."""
    try:
        result = run_command(DRIVERS[name].version_command(executable), timeout=10, merged=True)
    except LabError:
        return "unknown"
    lines = [l.strip() for l in result.stdout.splitlines() if l.strip()]
    return lines[0] if lines else "unknown"


def _go_available():
    try:
        return run_command(["go", "version"], timeout=20).returncode == 0
    except LabError:
        return False


def _build(name):
    script = GO_INSTALLERS[name]
    result = run_command(["bash", script], timeout=None, merged=True)
    if result.returncode != 0:
        tail = "\n".join(result.stdout.splitlines()[-10:])
        raise LabError(f"building {name} failed ({script.name}):\n{tail}")
