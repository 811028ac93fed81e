"""/proc of a process on another host, read there: one shell loop over one ssh connection prints the
process's stat, status and io and the machine's /proc/stat every interval, and a thread here keeps
the latest reading. The sampler takes the server's figures from it as it takes a local process's
from /proc, parsed by the same parsers (labkit/ground/proc.py).

One connection for the whole life of the server: no ssh process starts per sample, and none is
reaped inside a measured window (the load tool's CPU is the rusage of the lab's children there).
"""
import threading
import time
from dataclasses import dataclass

from labkit.ground import proc

# $1: pid, $2: seconds between readings. Each reading: a "@@ EPOCH" line, then sections.
LOOP = r"""
pid=$1; every=$2
while :; do
  echo "@@ $(date +%s.%N)"
  echo "@@stat"; cat /proc/$pid/stat 2>/dev/null
  echo "@@status"; cat /proc/$pid/status 2>/dev/null
  echo "@@io"; cat /proc/$pid/io 2>/dev/null
  echo "@@cpu"; grep '^cpu' /proc/stat
  echo "@@end"
  sleep $every
done
"""


@dataclass(frozen=True)
class Reading:
    """One reading of the loop: when it was taken (the host's clock) and the files' texts."""
    epoch: float
    stat: str
    status: str
    io: str
    cpu: str

    @property
    def process_stat(self):
        return proc.parse_stat(self.stat) if self.stat.strip() else None

    @property
    def process_status(self):
        return proc.parse_status(self.status) if self.status.strip() else None

    @property
    def cpu_table(self):
        return proc.parse_cpu_times(self.cpu)

    @property
    def read_bytes(self):
        for line in self.io.splitlines():
            if line.startswith("rchar:"):
                return int(line.split(":", 1)[1])
        return None


def parse_readings(lines):
    """Readings from the loop's output lines (an iterable of str), as they complete."""
    epoch, section, texts = None, None, {}
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("@@ "):
            epoch, section, texts = float(line[3:]), None, {}
        elif line == "@@end":
            if epoch is not None:
                yield Reading(epoch, texts.get("stat", ""), texts.get("status", ""), texts.get("io", ""),
                              texts.get("cpu", ""))
            epoch = None
        elif line.startswith("@@"):
            section = line[2:]
        elif section:
            texts[section] = texts.get(section, "") + line + "\n"


class RemoteProcFeed:
    """The latest /proc reading of `pid` on `host` (an SshHost), every `interval` seconds."""

    def __init__(self, host, pid, interval=0.5):
        self.host = host
        self.pid = pid
        self.interval = interval
        self._latest = None
        self._lock = threading.Lock()
        self._process = None
        self._thread = None
        self.readings = 0

    def start(self, wait_s=10):
        self._process = self.host.stream(["sh", "-c", LOOP, "procfeed", str(self.pid), str(self.interval)])
        self._thread = threading.Thread(target=self._read, name="procfeed", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + wait_s
        while self.latest() is None and time.monotonic() < deadline and self._process.poll() is None:
            time.sleep(0.05)
        return self

    def _read(self):
        for reading in parse_readings(self._process.stdout):
            with self._lock:
                self._latest = reading
                self.readings += 1

    def latest(self):
        with self._lock:
            return self._latest

    def process_alive(self):
        """Whether the process was there, and not a zombie, at the latest reading."""
        reading = self.latest()
        stat = reading.process_stat if reading else None
        return stat is not None and not stat.exited

    def stop(self):
        if self._process is not None:
            self.host.stop(self._process, grace_s=2)
        if self._thread is not None:
            self._thread.join(timeout=5)

