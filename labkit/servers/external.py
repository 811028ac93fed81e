"""A server the lab did not start (`--url URL`): a staging Payara, or anything that speaks HTTP.

The lab loads it as any target, but starts, restarts and stops nothing: every repeat and round
meets the same running server (the report says so). What it measures about the server comes
from what the server exposes: MicroProfile Metrics at /metrics (labkit/measure/metrics.py) when it
answers there, and /proc and jcmd through ssh when `--server-ssh HOST --server-pid PID` name the
JVM (labkit/hosts). Every figure it cannot take is named in the report, with the reason.
"""
import os
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from labkit.ground.errors import LabError, UsageError
from labkit.servers.interface import LabServer
from labkit.servers.registry import Target

TARGET_NAME = "url"


def check_url(text):
    """An http(s)://host[:port][/prefix] URL, or a UsageError that says what is wrong."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--url {text}: write http://HOST[:PORT][/PREFIX], e.g. http://staging.example:8080")
    if parts.query or parts.fragment:
        raise UsageError(f"--url {text}: no query or fragment: the requests give their own paths")
    try:
        parts.port
    except ValueError:
        raise UsageError(f"--url {text}: the port is not a number in 1..65535") from None
    return text.strip().rstrip("/")


class ExternalServer(LabServer):
    """The running server at `url`; `on` (an SshHost) and `pid` name its JVM for /proc and jcmd."""
    process = None
    external = True

    def __init__(self, url, on=None, pid=None, java_home=None, info_path="/api/info", full_gc=True, jfr=True):
        """`full_gc`, `jfr`: whether the lab may run jcmd GC.run after the warm-up and each window, and
        record JFR, in that JVM (--no-server-gc, --no-server-jfr turn them off)."""
        self.url = check_url(url)
        self.full_gc_refused = None if full_gc else "--no-server-gc: no full GC forced on your server"
        self.jfr_refused = None if jfr else "--no-server-jfr: no JFR recording on your server"
        parts = urlsplit(self.url)
        self.scheme = parts.scheme
        self.host, self.port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        self.prefix = parts.path
        self.info_path = info_path
        self.log_path = Path(os.devnull)  # its log is the server's own: nothing here to keep
        self.java_home = java_home
        self._server_java_home = java_home
        self._pid = pid
        if on is not None:
            self.on = on

    @property
    def base_url(self):
        return f"{self.scheme}://{self.host}:{self.port}{self.prefix}"

    @property
    def pid(self):
        return self._pid

    def start(self):
        """Checks that something answers at the URL (any HTTP status); starts nothing."""
        try:
            urllib.request.urlopen(self.base_url + "/", timeout=10).close()
        except urllib.error.HTTPError:
            pass  # it answered
        except OSError as e:
            raise LabError(f"nothing answers at {self.url}: {getattr(e, 'reason', e)}") from None
        # Its /proc over ssh when its JVM runs on another host; here the sampler reads /proc itself (None).
        self.proc_feed = self.on.proc_feed(self._pid) if self._pid is not None else None
        if self.proc_feed is not None and not self.proc_feed.process_alive():
            self.stop()
            raise LabError(f"--server-pid {self._pid}: no such process on {self.on}")
        return self

    def stop(self):
        """Leaves the server running; only stops reading its /proc."""
        if self.proc_feed is not None:
            self.proc_feed.stop()
            self.proc_feed = None

    def printable_command(self):
        return f"(not started by the lab: {self.url})"


def url_target(url, on=None, pid=None, java_home=None, full_gc=True, jfr=True):
    """The target of --url: one server, never restarted."""
    def start(port=None, jvm_options=(), jvm_defaults=True, **ignored):
        return ExternalServer(url, on=on, pid=pid, java_home=java_home, full_gc=full_gc, jfr=jfr).start()
    return Target(TARGET_NAME, f"your server at {url} (not started by the lab: never restarted)", None, start)
