"""./lab run's foreground loop, whatever the server: it serves until it exits, Ctrl-C, or the
watchdog finds it stalled (no answer to a probe on a connection of its own); then the thread dump
is saved beside the server's log, its summary printed, and the server stopped."""
import time
from datetime import datetime
from pathlib import Path

from labkit.measure.threaddump import capture, summary_lines
from labkit.measure.watchdog import DEFAULT_STALL_AFTER_S, Watchdog


def serve(server, product, stall_after_s=DEFAULT_STALL_AFTER_S):
    """Returns ./lab run's exit code once the started `server` (a labkit.servers.interface.ServerHandle) is gone
    or stalled (always 1: it should have served until Ctrl-C). The caller's `with server:` stops it."""
    def dump(stall):
        path = Path(server.log_path).parent / f"stall-{datetime.now():%Y%m%d-%H%M%S}.threads.json"
        print(f"no answer to the watchdog's probe for {stall['waited_s']:g} s: thread dump to {path}", flush=True)
        return capture(server.pid, getattr(server, "server_java_home", server.java_home), path,
                       host=getattr(server, "on", None))

    print(f"Ctrl-C stops the server; so does a stall (no answer to a probe for {stall_after_s:g} s), after a "
          f"thread dump.", flush=True)
    # With your WARs (--war) the probe is the lab's probe WAR beside them (server.info_path).
    with Watchdog(server.base_url, stall_after_s, on_stall=dump,
                  path=server.info_path) as watchdog:
        while server.process.poll() is None and not watchdog.stalled.is_set():
            time.sleep(0.5)
    if watchdog.stall:
        result = watchdog.stall.get("dump") or {}
        print(f"{product} stalled: it answered nothing for {watchdog.stall['waited_s']:g} s; stopping it.")
        for line in summary_lines(result["summary"]) if result.get("summary") else [f"- {result.get('error')}"]:
            print(line)
        print(f"thread dump: {result.get('file') or '-'}; log: {server.log_path}; how to read a stall: "
              f"docs/bring-your-own-app.md", flush=True)
        return 1
    print(f"{product} exited with code {server.process.returncode}; see {server.log_path}")
    return 1
