"""Why a window missed its goal: the limit, named in words a Payara user acts on, with the figures
that show it, or "none found" when nothing crossed its threshold. Pure: it reads one point record
(labkit/measure/session.py's figures, JFR's, the load tool's) and what the run knew about it.

Every load tool stops at the number. A capacity of 2,850 req/s means one thing when the server's CPU
was full (more cores lift it) and another when GC pauses ate the goal's slack with the CPU half idle
(more cores do not): the limit is what carries a figure from one machine to another.

The checks, in the order a verdict names them (the first crossed is the window's limit; the others
crossed are named beside it, as they may have added to it):
- load tool: it ran short of CPU or sent late (flags client-bound, driver-behind) or lost a load
  host: then the window measured the load tool, not the server;
- HTTP pool: a bounded pool's Little's-law ceiling (its threads ÷ the time each request holds one)
  at or below the rate asked;
- sockets: connections refused or reset, listen-queue overflows where the run counted them;
- GC, old and young apart, and ZGC's allocation stalls: pauses (or stalls) longer than the goal's
  slack that kept the percentile's share of the window's requests past the goal, or half of it where
  the window's own tail made up the rest (gc_limits.py says how, and against which committed windows
  the lines were drawn);
- CPU: the server's busy cores against the cores it may use (steal counted as busy), or the
  machine's CPUs saturated when the server shares them; with the window's JFR execution samples,
  the methods most often on top of the stacks, so "CPU" says where the time went;
- pinning: virtual threads pinned to their carrier (JFR jdk.VirtualThreadPinned) for a sizeable
  part of the window;
- locks: contended monitor enters (JFR, recorded with --jfr-locks);
- JIT: the window's server was still compiling: more methods a second than a settled warm-up allows
  (steadiness.JIT_QUIET_PER_S) and for a sizeable share of its CPU time (JIT_CPU_SHARE), from JFR's
  jdk.CompilerStatistics across the window, named with the compile time and the second most of it
  fell in; or the session's first window after a warm-up that ended at its cap. The compiler
  threads share the server's CPUs with the requests; a trickle of small compiles does not count.
A check whose figures the record does not hold is "not recorded", never "not crossed".
"""

from labkit.measure.gc_limits import gc_checks, stall_check
from labkit.measure.steadiness import JIT_QUIET_PER_S  # one rule for a warm-up and a window

# The server counts as CPU-bound at this share of the cores it may use: on one pinned CPU the
# windows that missed had a median of 0.67 and a 90th percentile of 0.89 busy cores, those that met
# 0.48 and 0.75 (the committed runs above).
CPU_BUSY_SHARE = 0.85
# A bounded pool is the limit when the rate asked reaches this share of its ceiling.
POOL_CEILING_SHARE = 0.95
# The methods a CPU verdict names from the window's execution samples (measure/jfr.py), most sampled first.
PROFILE_FRAMES = 3
# Pinned virtual threads are the limit when they were pinned this share of the window or more.
PINNED_SHARE = 0.01
# Compiling is the JIT's limit only when it also took this share of the server's CPU time in the window:
# a fresh jdk-virtual server at 100 req/s compiled 7.3 methods a second (above the warm-up's line) in
# 54 ms of a 3 s window, 0.9 % of its two cores, which limits nothing.
JIT_CPU_SHARE = 0.05
# Contended monitor enters (recorded with --jfr-locks) are the limit when at least this many threads
# waited for a monitor at any moment on average: the lock, not the pool, serialised the requests.
BLOCKED_THREADS = 1.0

LOAD_TOOL_FLAGS = ("client-bound", "driver-behind", "load-host-lost")
CHECK_ORDER = ("load-tool", "pool", "sockets", "gc-old", "gc-young", "gc-stall", "cpu", "pinning", "locks", "jit")
NONE_FOUND = "none found"


def count_cpus(cpu_list):
    """How many CPUs a list such as "1", "0-1" or "0,2-3" names; None without one."""
    if not cpu_list:
        return None
    total = 0
    for part in str(cpu_list).split(","):
        low, _, high = part.strip().partition("-")
        total += int(high) - int(low) + 1 if high else 1
    return total


def window_limits(record, goal_ms=None, percentile="p99", service_ms=None, server_cpus=None, warm=None,
                  past_goal_share=None):
    """{limit, also, checks, not_recorded} for one window: `limit` is the first check crossed (or
    NONE_FOUND), `also` the others crossed, `checks` {name: {crossed, words, evidence}} for every
    check whose figures were recorded, `not_recorded` the others. `goal_ms` and `service_ms` give the
    GC checks their slack (your requests: their own p50 at low load); `server_cpus` is how many CPUs
    the server may use (its Cpus_allowed_list); `warm` False when its warm-up ended unsettled;
    `past_goal_share` the share of its requests slower than the goal (from its histogram)."""
    window_s = _window_s(record)
    checks = {
        "load-tool": _load_tool(record),
        "pool": _pool(record),
        "sockets": _sockets(record),
        **gc_checks(record, goal_ms, service_ms, percentile, window_s, _busy_share(record, server_cpus),
                    past_goal_share),
        "gc-stall": stall_check(record, goal_ms, service_ms, percentile),
        "cpu": _cpu(record, server_cpus),
        "pinning": _pinning(record, window_s),
        "locks": _locks(record, window_s),
        "jit": _jit(record, warm, server_cpus),
    }
    recorded = {name: checks[name] for name in CHECK_ORDER if checks.get(name) is not None}
    crossed = [name for name, check in recorded.items() if check["crossed"]]
    if "cpu" in crossed:
        # Pauses that cross only because a busy CPU drains their backlog slowly: the CPU leads them.
        behind = [name for name in crossed if recorded[name]["evidence"].get("by_backlog")]
        crossed = [name for name in crossed if name not in behind]
        crossed[crossed.index("cpu") + 1:crossed.index("cpu") + 1] = behind
    return {"limit": crossed[0] if crossed else NONE_FOUND, "also": crossed[1:], "checks": recorded,
            "not_recorded": [name for name in CHECK_ORDER if checks.get(name) is None]}


def limit_words(limits):
    """One line: the limit and its figures, the others crossed after it; "none found" said plainly."""
    if limits["limit"] == NONE_FOUND:
        return (f"none found: no check crossed its threshold ({', '.join(limits['checks'])} checked"
                + (f"; not recorded: {', '.join(limits['not_recorded'])}" if limits["not_recorded"] else "") + ")"
                + _below_the_lines(limits["checks"]))
    named = [limits["limit"], *limits["also"]]
    return "; ".join(f"{name}: {limits['checks'][name]['words']}" for name in named)


def _below_the_lines(checks):
    """What a window with no limit found still showed below the lines: stretches of full CPU (an
    average under its line hides them), a concurrent collector's cycles and the JIT's compiling, as
    evidence for the reader."""
    seen = []
    full = ((checks.get("cpu") or {}).get("evidence") or {}).get("full") or {}
    if full.get("longest"):
        seen.append(f"the CPU full for {full['seconds']:.1f} s, the longest stretch "
                    f"{full['longest'][0]:.1f}–{full['longest'][1]:.1f} s in")
    for kind in ("gc-young", "gc-old"):
        cycles = ((checks.get(kind) or {}).get("evidence") or {}).get("concurrent")
        if cycles:
            seen.append(f"{kind[3:]} collections running concurrently for {cycles['seconds']:.1f} s, the longest "
                        f"{cycles['longest'][0]:.1f}–{cycles['longest'][1]:.1f} s in")
    jit = (checks.get("jit") or {}).get("evidence") or {}
    if jit.get("compiles"):
        seen.append(f"the JIT compiling {jit['compiles']:,} methods, {jit['compile_ms']:,} ms")
    return f"; below the lines: {'; '.join(seen)}" if seen else ""


# ---- the checks: each None when the record lacks its figures ------------------------------------

def _window_s(record):
    window = record.get("window") or {}
    return (record.get("capacity") or {}).get("window_s") or window.get("wall_s") or \
        (record.get("load") or {}).get("duration_s")


def _load_tool(record):
    flags = set(record.get("flags") or ())
    resources = record.get("resources") or {}
    driver = resources.get("driver") or {}
    load = record.get("load") or {}
    if not driver and not load:
        return None
    raised = [flag for flag in LOAD_TOOL_FLAGS if flag in flags]
    evidence = {"cpu_cores": driver.get("cpu_cores"), "schedule_lag_max_ms": load.get("schedule_lag_max_ms"),
                "flags": raised, **({"quota_cores": driver["quota_cores"]} if driver.get("quota_cores") else {})}
    parts = []
    if driver.get("cpu_cores") is not None:
        quota = f" (its cgroup's CPU quota: {driver['quota_cores']:.2f} of a core)" if driver.get("quota_cores") else ""
        parts.append(f"it used {driver['cpu_cores']:.2f} of a core{quota}")
    if load.get("schedule_lag_max_ms") is not None:
        parts.append(f"sent requests up to {load['schedule_lag_max_ms']:,.0f} ms late")
    if "load-host-lost" in raised:
        parts.append("a load host was lost")
    words = ", ".join(parts) or "its own figures were not recorded"
    if raised:
        words += f" ({', '.join(raised)}): the window measured the load tool, not the server"
    return {"crossed": bool(raised), "evidence": evidence, "words": words}


def _pool(record):
    ceiling = (record.get("derived") or {}).get("ceiling_rps")
    bound = record.get("max_concurrent")
    rate = record.get("rate")
    if bound is None:
        return {"crossed": False, "evidence": {"max_concurrent": None},
                "words": "the pool is unbounded (busy threads against a maximum: not recorded)"}
    if ceiling is None or rate is None:
        return None
    crossed = rate >= POOL_CEILING_SHARE * ceiling
    return {"crossed": crossed, "evidence": {"max_concurrent": bound, "ceiling_rps": ceiling, "rate": rate},
            "words": f"{bound:,} threads at a time serve at most {ceiling:,.0f} req/s at this service time "
                     f"(Little's law); {rate:,} req/s were asked"
                     + (": the pool queued the rest" if crossed else "")}


def _sockets(record):
    load = record.get("load")
    if not load:
        return None
    errors = load.get("errors") or {}
    refused, reset = errors.get("connect") or 0, errors.get("reset") or 0
    overflows = record.get("listen_overflows")
    evidence = {"connect_errors": refused, "resets": reset, "listen_overflows": overflows}
    crossed = bool(refused or reset or overflows)
    parts = [f"{refused:,} connections refused", f"{reset:,} reset"]
    parts.append("listen-queue overflows not recorded" if overflows is None else f"{overflows:,} listen-queue overflows")
    return {"crossed": crossed, "evidence": evidence, "words": ", ".join(parts)}


def _server_cpu(record, server_cpus):
    """(busy cores with steal counted as busy, the cores it may use, steal share), or None unrecorded."""
    resources = record.get("resources") or {}
    server = resources.get("server") or {}
    machine = resources.get("machine") or {}
    cpus = server_cpus or machine.get("cpus")
    if server.get("cpu_cores") is None or not cpus:
        return None
    steal = machine.get("server_cpus_steal_share") or 0.0
    return server["cpu_cores"] + steal * cpus, cpus, steal


def _busy_share(record, server_cpus):
    """The server's busy share of the CPUs it may use (steal counted as busy), at most 1; None unrecorded."""
    figures = _server_cpu(record, server_cpus)
    return None if figures is None else min(1.0, figures[0] / figures[1])


def _cpu(record, server_cpus):
    figures = _server_cpu(record, server_cpus)
    if figures is None:
        return None
    busy, cpus, steal = figures
    resources = record.get("resources") or {}
    server = resources.get("server") or {}
    machine = resources.get("machine") or {}
    shared = server_cpus is None or server_cpus >= (machine.get("cpus") or 0)
    saturated = "cpu-saturated" in (record.get("flags") or ()) and shared
    crossed = busy >= CPU_BUSY_SHARE * cpus or saturated
    profile = (record.get("jfr") or {}).get("cpu_profile") or {}
    top = profile.get("top") or []
    words = (f"the server used {server['cpu_cores']:.2f} of its {cpus} core{'s' if cpus != 1 else ''}"
             + (f", steal {steal * 100:.1f} %" if steal else "")
             + (" (the machine's CPUs, shared with the load tool, saturated)" if saturated else "")
             + (f"; on top of its {profile['samples']:,} JFR execution samples: "
                + ", ".join(f"{entry['frame']} {entry['share'] * 100:.0f} %" for entry in top[:PROFILE_FRAMES])
                if top else ""))
    full = server.get("cpu_full") or {}
    if full.get("longest"):
        words += (f"; full for {full['seconds']:.1f} s of the window, the longest stretch "
                  f"{full['longest'][0]:.1f}–{full['longest'][1]:.1f} s in")
    return {"crossed": crossed, "evidence": {"server_cores": server["cpu_cores"], "cpus": cpus, "steal_share": steal,
                                             "machine_saturated": saturated,
                                             **({"profile_top": top} if top else {}),
                                             **({"full": full} if full else {})}, "words": words}


def _pinning(record, window_s):
    jfr = record.get("jfr") or {}
    if not jfr.get("available") or jfr.get("pinned_events") is None or not window_s:
        return None
    pinned_ms = jfr.get("pinned_total_ms") or 0.0
    share = pinned_ms / (window_s * 1000)
    crossed = jfr["pinned_events"] > 0 and share >= PINNED_SHARE
    return {"crossed": crossed, "evidence": {"events": jfr["pinned_events"], "total_ms": pinned_ms,
                                             "share_of_window": round(share, 5)},
            "words": f"{jfr['pinned_events']:,} pinned virtual threads, {pinned_ms:,.0f} ms in all"}


def _jit(record, warm, server_cpus):
    """Still compiling (JFR's compile totals across the window) or not warm (its warm-up ended at its
    cap); None when neither was recorded."""
    jit = (record.get("jfr") or {}).get("jit")
    if jit is None and warm is None:
        return None
    evidence, words, crossed = {}, [], False
    if jit and jit.get("seconds"):
        per_s = jit["compiles"] / jit["seconds"]
        cpus = server_cpus or ((record.get("resources") or {}).get("machine") or {}).get("cpus") or 1
        share = jit["compile_ms"] / (jit["seconds"] * 1000 * cpus)
        busiest = max(jit.get("per_second") or [[0, 0, 0]], key=lambda second: second[2])
        crossed = per_s > JIT_QUIET_PER_S and share >= JIT_CPU_SHARE
        evidence.update(compiles=jit["compiles"], compiles_per_s=round(per_s, 2), compile_ms=jit["compile_ms"],
                        share_of_cores=round(share, 4), busiest_second=busiest)
        # HotSpot counts a compilation's elapsed time: on a full CPU it holds the waits for the CPU too.
        words.append(f"the JIT compiled {jit['compiles']:,} methods in the window ({per_s:.1f}/s; a settled warm-up "
                     f"compiles at most {JIT_QUIET_PER_S:g}/s), {jit['compile_ms']:,} ms compiling by the "
                     f"compiler's clock ({share * 100:.1f} % of the window on its {cpus} core{'s' if cpus != 1 else ''}; "
                     f"elapsed time, which a full CPU stretches)"
                     + (f", {busiest[2]:,} ms of it in the second ending {busiest[0]:g} s in" if busiest[2] else ""))
    if warm is not None:
        evidence["warm"] = warm
        crossed = crossed or not warm
        if not warm:
            words.append("the server was not warm: its warm-up ended at its cap (--warmup-max) before its "
                         "throughput and the JIT settled")
    return {"crossed": crossed, "evidence": evidence, "words": "; ".join(words) or "warm"}


def _locks(record, window_s):
    locks = (record.get("jfr") or {}).get("locks")
    if not locks or not window_s:
        return None
    monitor = locks.get("monitor_enter") or {}
    blocked_ms = monitor.get("total_ms") or 0.0
    # Blocked thread-time over the window: how many threads waited for a monitor at any moment.
    waiting = blocked_ms / (window_s * 1000)
    # Where the waiting was: the code site that blocked longest (jfr.blocking_site), as the CPU check names frames.
    site = ((monitor.get("top_sites") or [{}])[0]).get("site")
    return {"crossed": waiting >= BLOCKED_THREADS, "evidence": {"monitor_enters": monitor.get("count") or 0,
                                                                "blocked_ms": blocked_ms, "threads_waiting": round(waiting, 3),
                                                                "top_site": site},
            "words": f"{monitor.get('count') or 0:,} contended monitor enters, {waiting:.2f} threads waiting "
                     f"for a monitor at any moment on average" + (f", most of the wait at {site}" if site else "")}
