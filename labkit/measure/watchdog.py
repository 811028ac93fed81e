"""The liveness watchdog: while a server is under load (or served by ./lab run), a probe request
every second on a connection of its own; a probe unanswered for `stall_after_s` means the server
stalled.

A closed-model load tool cannot show a stall (its connections simply wait), and a server whose
carriers are all taken by spinning virtual threads answers nothing at all while its process looks
busy. The probe is a new connection each time with its own timeout, so it never queues behind the
load tool's connections. Any HTTP answer, whatever its status, counts: the server got a request
thread to run. A refused connection is no stall (the server is gone; the caller sees the process
exit) and is counted apart, as `failed`.

On a stall, `on_stall(stall)` runs in the watchdog's thread before `stalled` is set, so the thread
dump is taken while the load that caused the stall is still on; its return value is kept as
stall["dump"].
"""
import http.client
import threading
import time
from urllib.parse import urlsplit

PROBE_PATH = "/api/info"
PROBE_INTERVAL_S = 1.0
# A healthy server under heavy load (c=6000 at 2 s on a pool of 4000, a cold JVM on 2 cores) can
# queue a request for seconds; a stalled one answers nothing for as long as the stall lasts. Long
# sleeps queue longer: STALL_SLEEPS x the longest sleep when that is more. Many connections queue
# longer too: the probe's connection waits behind every connection the load tool opened, and a
# healthy server drains them at no less than FLOOR_RPS (GlassFish platform-4000 at c=12000, 100 ms:
# its probe 1 s into the warm-up got no answer in 10 s, and the window then measured 6,248 req/s).
DEFAULT_STALL_AFTER_S = 10.0
STALL_SLEEPS = 3
FLOOR_RPS = 200


def stall_after_s(longest_sleep_ms, given=None, connections=0):
    """The probe timeout for a load of `connections` whose longest sleep is `longest_sleep_ms`: `given`
    (--stall-after) when set, else the longest of the default, STALL_SLEEPS sleeps and the time to
    drain `connections` queued requests at FLOOR_RPS."""
    if given is not None:
        return float(given)
    return max(DEFAULT_STALL_AFTER_S, STALL_SLEEPS * longest_sleep_ms / 1000.0, connections / FLOOR_RPS)


class Watchdog:
    def __init__(self, base_url, stall_after_s=DEFAULT_STALL_AFTER_S, on_stall=None, path=PROBE_PATH,
                 interval_s=PROBE_INTERVAL_S):
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.path = path
        self.stall_after_s = stall_after_s
        self.interval_s = interval_s
        self.on_stall = on_stall
        self.stalled = threading.Event()
        self.stall = None
        self.probes = self.answered = self.failed = 0
        self.slowest_s = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="loomlab-watchdog", daemon=True)
        self._began = None

    def start(self):
        self._began = time.monotonic()
        self._thread.start()
        return self

    def stop(self):
        """Stops probing; returns once a probe under way and a stall's on_stall have finished."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def record(self):
        """What the watchdog saw, for the point record."""
        return {"probe": f"GET {self.path}", "interval_s": self.interval_s, "stall_after_s": self.stall_after_s,
                "probes": self.probes, "answered": self.answered, "failed": self.failed,
                "slowest_s": round(self.slowest_s, 3), "stall": self.stall}

    def _watch(self):
        next_probe = time.monotonic()
        while not self._stop.is_set():
            sent = time.monotonic()
            outcome = self._probe()
            self.probes += 1
            if outcome == "answered":
                self.answered += 1
                self.slowest_s = max(self.slowest_s, time.monotonic() - sent)
            elif outcome == "failed":
                self.failed += 1
            else:
                # Even when the load has just ended: the server did not answer for stall_after_s.
                self._stalled(sent)
                return
            # A slow answer delays the next probe rather than bunching the ones after it.
            next_probe = max(next_probe + self.interval_s, time.monotonic())
            self._stop.wait(next_probe - time.monotonic())

    def _probe(self):
        return probe_once(self.host, self.port, self.path, self.stall_after_s)

    def _stalled(self, sent):
        self.stall = {"probe_sent_s": round(sent - self._began, 1),
                      "detected_s": round(time.monotonic() - self._began, 1),
                      "waited_s": self.stall_after_s, "answered_before": self.answered}
        try:
            if self.on_stall:
                self.stall["dump"] = self.on_stall(self.stall)
        finally:
            self.stalled.set()


def probe_once(host, port, path, timeout_s):
    """One GET of `path` on a connection of its own: "answered" (any HTTP answer), "timeout" (no answer
    in timeout_s) or "failed" (refused, reset, not HTTP)."""
    return timed_probe(host, port, path, timeout_s)[0]


def timed_probe(host, port, path, timeout_s):
    """probe_once's outcome and, when answered, the milliseconds from connecting to the answer's end
    (else None): what ./lab capacity compares with a server's idle latency after a collapse."""
    began = time.perf_counter()
    connection = http.client.HTTPConnection(host, port, timeout=timeout_s)
    try:
        connection.request("GET", path, headers={"Connection": "close"})
        response = connection.getresponse()
        response.read()
        return "answered", (time.perf_counter() - began) * 1000
    except TimeoutError:
        return "timeout", None
    except (OSError, http.client.HTTPException):
        return "failed", None
    finally:
        connection.close()
