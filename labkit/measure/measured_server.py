"""One measured server, the same way for every run (./lab bench, capacity, soak and the host-speed
reference): started as the run's ServerSetup says (measure/server_setup.py), its session record opened with
what every record holds (pid, command, the CPUs it may use, seconds to start), JFR recorded in its
JVM on its own host when the run asks, and closed once, whatever happened: a recording in a JVM the
lab did not start ended, the server stopped, its log kept and its record handed to the run.

    with MeasuredServer.start(target, setup, record={"index": 1, ...}, out_dir=out, log_label="01-virtual",
                              on_close=recorder.add_session) as measured:
        measured.record_jfr(java_home, raw, note)
        ... measure against measured.server ...
"""
import time

from labkit.measure.jfr import JfrRecorder
from labkit.measure.session import cpus_allowed, host_of, keep_log, server_jdk, start_server


class MeasuredServer:
    """A started server and its session record. `out_dir` and `log_label`: the log is kept as
    servers/<log_label>.log there when it closes (record["log"]); `on_close(record)`: called once
    the server has stopped."""

    def __init__(self, server, record=None, out_dir=None, log_label=None, on_close=None):
        self.server = server
        self.record = {} if record is None else record
        self.out_dir, self.log_label, self.on_close = out_dir, log_label, on_close
        self.jfr = None
        self.closed = False

    @classmethod
    def start(cls, target, setup, heap=None, record=None, **closing):
        """Starts `target` (with a --heap size when given) and opens its record: `record`'s own fields
        first, then pid, command, cpus_allowed and start_s."""
        began = time.monotonic()
        server = start_server(target, setup, heap)
        measured = cls(server, record, **closing)
        measured.record.update(pid=server.pid, command=server.printable_command(), cpus_allowed=cpus_allowed(server),
                               start_s=round(time.monotonic() - began, 1))
        return measured

    def record_jfr(self, java_home, settings_dir, note, **options):
        """Starts a JFR recording in the server's JVM (`options`: locks=, profile=, as JfrRecorder
        takes them), with the JDK that reaches it; `note(text)` says why when it cannot, and the record
        keeps that reason (jfr_error). Returns the recorder."""
        server = self.server
        self.jfr = JfrRecorder(server.pid, java_home, settings_dir=settings_dir, host=host_of(server),
                               server_java_home=server_jdk(server, java_home), refused=server.jfr_refused, **options)
        if not self.jfr.start():
            note(self.jfr.error)
        self.record["jfr_error"] = self.jfr.error
        return self.jfr

    def close(self):
        """Once: ends the recording of a server the lab did not start (its JVM goes on serving), stops
        the server, keeps its log and hands the record on."""
        if self.closed:
            return
        self.closed = True
        try:
            if self.jfr is not None and self.server.external:
                self.jfr.stop()
        finally:
            self.server.stop()
            if self.out_dir is not None and self.log_label:
                self.record["log"] = keep_log(self.server, self.out_dir, self.log_label)
            if self.on_close is not None:
                self.on_close(self.record)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
