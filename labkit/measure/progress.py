"""What ./lab bench prints while it runs: plan, point i/N with mode and ETA, live req/s, and the
summary table at the end. On a terminal the live line is rewritten in place; in a log (CI) a
live line is printed every few seconds instead."""
import sys
import time

from labkit.ground.formatting import number
from labkit.measure.row_text import flags_text, metric, sleep_text
from labkit.measure.plan import format_duration

LOG_LIVE_EVERY_S = 5.0


class Progress:
    def __init__(self, total_points, stream=None):
        self.stream = stream or sys.stdout
        self.tty = self.stream.isatty()
        self.total = total_points
        self._live_shown = False
        self._last_log_live = 0.0

    def _print(self, text):
        if self._live_shown:
            self.stream.write("\r\033[K")
            self._live_shown = False
        print(text, file=self.stream, flush=True)

    def _prefix(self, point):
        width = len(str(self.total))
        return f"[{point.index:>{width}}/{self.total}] {point.mode} c={point.level.concurrency} r{point.repeat}"

    def plan(self, sessions, points, estimate_s, out_dir):
        self._print(f"bench: {points} points on {len(sessions)} server starts, about {format_duration(estimate_s)}; "
                    f"results in {out_dir}")

    def session_starting(self, session, target, port):
        self._print(f"starting {session.label}: {target.description} on port {port}")

    def session_ready(self, seconds, pid, info):
        request = (info or {}).get("request") or {}
        java = ((info or {}).get("java") or {}).get("version", "?")
        self._print(f"  ready in {seconds:.1f} s (pid {pid}, Java {java}, request thread virtual={request.get('virtual')})")

    def note(self, text):
        self._print("  " + text)

    def phase(self, point, text, eta_s):
        self._print(f"{self._prefix(point)}  {text}  (ETA {format_duration(eta_s)})")

    def live(self, point, what, elapsed_s, planned_s, rps, eta_s):
        rate = f"~{number(rps)} req/s" if rps is not None else "~? req/s"
        line = (f"{self._prefix(point)}  {what} {min(elapsed_s, planned_s):.0f}/{planned_s:.0f} s  {rate}  "
                f"ETA {format_duration(eta_s)}")
        if self.tty:
            self.stream.write("\r\033[K" + line)
            self.stream.flush()
            self._live_shown = True
        elif time.monotonic() - self._last_log_live >= LOG_LIVE_EVERY_S:
            self._last_log_live = time.monotonic()
            print(line, file=self.stream, flush=True)

    def point_done(self, point, record, eta_s):
        load = record.get("load")
        if not load:
            self._print(f"{self._prefix(point)}  FAILED: {record.get('failure')}")
            return
        derived = record["derived"]
        server = (record.get("resources") or {}).get("server") or {}
        driver = (record.get("resources") or {}).get("driver") or {}
        latency = load.get("latency_ms") or {}
        flags = f"  [{', '.join(record['flags'])}]" if record["flags"] else ""
        self._print(f"{self._prefix(point)}  {number(load['ok_rps'])} req/s  p99 {number(latency.get('p99'))} ms  "
                    f"eff {number(derived['efficiency'], 2)}  server CPU {number(server.get('cpu_cores'), 2)}  "
                    f"driver CPU {number(driver.get('cpu_cores'), 2)}  RSS {number(server.get('rss_peak_mb'))} MB  "
                    f"errors {load['errors']['total']}{flags}  (ETA {format_duration(eta_s)})")

    def summary_table(self, rows, several_drivers):
        headers = ["mode"] + (["driver"] if several_drivers else []) + [
            "c", "sleep ms", "req/s median [min-max]", "eff", "p50 ms", "p99 ms", "p99.9 ms",
            "CPU cores", "RSS MB", "threads", "errors", "flags"]
        lines = []
        for row in rows:
            lines.append([row["mode"]] + ([row["driver"]] if several_drivers else []) + [
                str(row["concurrency"]), sleep_text(row), metric(row, "ok_rps"),
                metric(row, "efficiency", 2, spread=False), metric(row, "latency_p50_ms", spread=False),
                metric(row, "latency_p99_ms", spread=False), metric(row, "latency_p999_ms", spread=False),
                metric(row, "server_cpu_cores", 2, spread=False), metric(row, "rss_peak_mb", spread=False),
                metric(row, "threads_max", spread=False), number(row["errors_total"]), flags_text(row)])
        widths = [max(len(h), *(len(l[i]) for l in lines)) if lines else len(h) for i, h in enumerate(headers)]
        self._print("")
        self._print("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
        self._print("  ".join("-" * w for w in widths))
        for line in lines:
            self._print("  ".join(v.ljust(w) for v, w in zip(line, widths)).rstrip())
