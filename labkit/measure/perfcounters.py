"""HotSpot's performance counters of a running JVM, read with the JDK's own `jcmd PID PerfCounter.print`.

jcmd prints the counters the JVM keeps in its shared hsperfdata memory, one `name=value` line each
after a `PID:` line; string values are quoted. ./lab capacity reads the JIT's compile count
(COMPILES) between warm-up iterations. A JVM started with -XX:-UsePerfData has none: the reading
then says why instead.
"""

from labkit.ground.command import last_lines
from labkit.hosts.jvm import jcmd

# Methods the JIT has compiled since the JVM started (C1 and C2, on-stack replacement included).
COMPILES = "sun.ci.totalCompiles"
TIMEOUT_S = 30


def parse(text):
    """{name: int | str} of jcmd PerfCounter.print's output; lines that are not `name=value` are skipped."""
    counters = {}
    for line in (text or "").splitlines():
        name, equals, value = line.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name or any(c.isspace() for c in name):
            continue
        if len(value) >= 2 and value[0] == value[-1] == '"':
            counters[name] = value[1:-1]
            continue
        try:
            counters[name] = int(value)
        except ValueError:
            counters[name] = value
    return counters


def read(java_home, pid, timeout_s=TIMEOUT_S, host=None):
    """(counters, None) of the JVM `pid` (on `host`, this machine when None), or (None, why) when jcmd
    could not give them."""
    try:
        returncode, output = jcmd(host, java_home, pid, ["PerfCounter.print"], timeout_s)
    except OSError as e:
        return None, f"jcmd PerfCounter.print: {e}"
    counters = parse(output) if returncode == 0 else {}
    if not counters:
        return None, f"jcmd PerfCounter.print (exit {returncode}): {last_lines(output)}"
    return counters, None


def read_counter(java_home, pid, name, timeout_s=TIMEOUT_S, host=None):
    """(value, None) of one integer counter, or (None, why)."""
    counters, error = read(java_home, pid, timeout_s, host)
    if counters is None:
        return None, error
    value = counters.get(name)
    if not isinstance(value, int):
        return None, f"jcmd PerfCounter.print: no integer counter {name}"
    return value, None


