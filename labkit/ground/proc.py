"""CPU time and peak resident memory of a running process, from /proc (Linux)."""
import os

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system CPU seconds so far (fields 14 and 15 of /proc/<pid>/stat), or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    # The command name (field 2) may contain spaces; the fields after its closing ')' are fixed.
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def peak_rss_kb(pid):
    """VmHWM, the kernel's high-water mark of resident memory, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class Watch:
    """Keeps the last /proc readings of a process, so they survive the process's exit."""

    def __init__(self, pid):
        self.pid = pid
        self.cpu_s = None
        self.peak_rss_kb = None

    def sample(self):
        cpu = cpu_seconds(self.pid)
        rss = peak_rss_kb(self.pid)
        if cpu is not None:
            self.cpu_s = cpu
        if rss is not None:
            self.peak_rss_kb = max(rss, self.peak_rss_kb or 0)
