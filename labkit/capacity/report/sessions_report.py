"""report.md's table of a capacity run's servers: each fresh server's start, warm-up and log."""
from labkit.ground.formatting import markdown_table, number


def sessions_table(run):
    """The servers of the run, one row per session: its warm-up, the CPUs it was allowed, its log."""
    return markdown_table(["#", "target", "phase", "sleep", "ready in s", "warm-up s", "warm-up req/s per iteration",
                   "methods compiled per iteration", "settled", "warm-up ended", "CPUs allowed", "log"],
                  [[s["index"], s["mode"], s["phase"] + (f" r{s['repeat']}" if s.get("repeat") else "")
                    + (f", restart of #{s['restart_of']}" if s.get("restart_of") else ""),
                    f"{s['sleep_max_ms']} ms", s.get("start_s", "–"), (s.get("warmup") or {}).get("seconds", "–"),
                    ", ".join(number(v) for v in (s.get("warmup") or {}).get("iterations_ok_rps", [])),
                    _compiles_text(s.get("warmup") or {}),
                    "yes" if (s.get("warmup") or {}).get("settled") else "no", _warmup_end_text(s.get("warmup") or {}),
                    s.get("cpus_allowed") or "–", f"[log]({s['log']})" if s.get("log") else "–"]
                   for s in run["sessions"]])


def _compiles_text(warmup):
    """'4,210, 380, 12 (2.3/s)': each iteration's compiles, the last one's rate; '–' before the JIT rule."""
    iterations = warmup.get("iterations")
    if not iterations:
        return "–"
    text = ", ".join(number(i["compiles"]) for i in iterations)
    last = iterations[-1].get("compiles_per_s")
    return text + (f" ({number(last, 1)}/s)" if last is not None else "")


def _warmup_end_text(warmup):
    ended = warmup.get("ended")
    if ended is None:
        return "–"
    text = {"steady+jit": "steady, JIT quiet", "steady": "steady (no JIT count)"}.get(ended, ended)
    error = (warmup.get("jit") or {}).get("error")
    return text + (f": {error}" if error and ended == "steady" else "")
