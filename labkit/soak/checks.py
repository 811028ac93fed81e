"""The soak's verdict rules, without I/O: from the /proc samples of one round, when threads and RSS
came back near their idle values after the load; from a round's record, which checks it passed."""
from labkit.measure.sampler import summarize_window

# "Back near idle": within this share of the idle value, or this absolute margin, whichever is larger.
NEAR_IDLE_SHARE = 0.10
NEAR_IDLE_THREADS = 10
NEAR_IDLE_RSS_MB = 64
FRESH_REQUEST_LIMIT_S = 1.0


def resource_checks(idle_samples, samples, load_began, load_ended):
    """Idle, peak and final OS threads and RSS, and when (seconds after the load) each came back
    near its idle value for good (None: not within the idle phase)."""
    idle = [s.server for s in idle_samples if s.server]
    during = [s for s in samples if s.server and load_began <= s.t <= load_ended]
    after = [s for s in samples if s.server and s.t > load_ended]
    if not idle or not after:
        return None
    idle_threads = sorted(r.threads for r in idle)[len(idle) // 2]
    idle_rss_mb = sorted(r.rss_kb for r in idle)[len(idle) // 2] / 1024
    result = {"threads": {"idle": idle_threads, "peak": max((s.server.threads for s in during), default=None),
                          "end": after[-1].server.threads},
              "rss_mb": {"idle": round(idle_rss_mb, 1),
                         "peak": round(max((s.server.rss_kb for s in during), default=0) / 1024, 1),
                         "end": round(after[-1].server.rss_kb / 1024, 1)}}
    thread_limit = idle_threads + max(NEAR_IDLE_THREADS, NEAR_IDLE_SHARE * idle_threads)
    rss_limit_mb = idle_rss_mb + max(NEAR_IDLE_RSS_MB, NEAR_IDLE_SHARE * idle_rss_mb)
    result["threads"]["back_after_s"] = back_near_idle([(s.t - load_ended, s.server.threads) for s in after], thread_limit)
    result["rss_mb"]["back_after_s"] = back_near_idle([(s.t - load_ended, s.server.rss_kb / 1024) for s in after],
                                                      rss_limit_mb)
    result["threads"]["limit"] = round(thread_limit, 1)
    result["rss_mb"]["limit"] = round(rss_limit_mb, 1)
    # The two share the machine's cores: what the load tool burns, the server could not have.
    window = summarize_window(samples, load_began, load_ended) or {}
    result["cpu_cores"] = {"server": (window.get("server") or {}).get("cpu_cores"),
                           "load_tool": (window.get("driver") or {}).get("cpu_cores")}
    result["load_t_s"] = [round(load_began, 3), round(load_ended, 3)]
    return result


def load_window(samples):
    """(first, last) sample time with the load tool attached: the load phase of a samples file."""
    attached = [s.t for s in samples if s.driver]
    return (attached[0], attached[-1]) if attached else None


def back_near_idle(series, limit):
    """The time of the first sample from which every later one stays at or below `limit`; None if
    the last one is still above."""
    back = None
    for t, value in series:
        if value <= limit:
            if back is None:
                back = round(max(t, 0.0), 1)
        else:
            back = None
    return back


def recheck(record, samples):
    """The round's record with its resource figures and checks derived again from its samples (as
    read back from raw/), the load phase as recorded or, in older records, where the load tool was
    attached; the record as it was when the samples show no load phase."""
    window = tuple((record.get("resources") or {}).get("load_t_s") or ()) or load_window(samples)
    if window:
        began, ended = window
        record["resources"] = resource_checks([s for s in samples if s.t <= began], samples, began, ended)
        record["checks"] = checks(record)
    return record


def checks(record):
    """Each check: True (passed), False (failed) or None (could not be measured)."""
    load = record.get("load") or {}
    resources = record.get("resources") or {}
    fresh = record.get("fresh_request") or {}
    return {
        "no_crash": record.get("alive"),
        "no_oom": None if record.get("oom") is None else not record["oom"],
        "load_measured": "failure" not in load if load else False,
        "threads_back": None if not resources else resources["threads"]["back_after_s"] is not None,
        "rss_back": None if not resources else resources["rss_mb"]["back_after_s"] is not None,
        "fresh_request_within_1s": (bool(fresh) and fresh.get("status") == 200
                                    and fresh["seconds"] <= FRESH_REQUEST_LIMIT_S),
    }
