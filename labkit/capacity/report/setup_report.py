"""report.md's setup table of a capacity run: the machine, JDK, load tool and CPUs, and the run's
rules in words (goal, sleeps, windows, young collections, warm-up, search, confirmation)."""
from labkit.ground.formatting import number
from labkit.measure.env import git_row, where_rows
from labkit.capacity.between import TIME_WAIT_LIMIT
from labkit.capacity.config import WARMUP_SLEEP_MAX_MS
from labkit.capacity.verdicts import HOST_REST_S, STEAL_AGAIN_SHARE


def setup_rows(run):
    """The setup table's rows: (what, how), as report.md and report.html show them."""
    env, config = run["env"], run["config"]
    tools = ", ".join(t["version"] for t in env["tools"].values())
    cpus = config.get("cpus")
    pinning = (f"server on CPU {cpus['server']}, load tool on CPU {cpus['driver']} (--cpus; each process's "
               f"allowed CPUs are in the sessions table)" if cpus else "not pinned: server and load tool share every CPU")
    return [
        *where_rows(env),
        ("Load tool", f"vegeta ({tools}): open model, requests due at a fixed rate, latency from each request's "
                      f"intended start"),
        ("CPUs", pinning),
        git_row(env),
        ("Goal", f"{config['goal_text']}, and no failed request"),
        ("Sleeps", ", ".join(f"{s['sleep_min_ms']} ms (goal {s['goal_ms']:g} ms, timeout {s['timeout_s']:g} s, "
                             f"pre-roll {s.get('preroll_s', config.get('preroll_s'))} s)" for s in config["sleeps"])),
        ("Windows", f"{config['duration_s']} s measured after the sleep's pre-roll at the same rate, "
                    f"in one vegeta run with at most twice the connections the goal allows in flight (a request waiting "
                    f"for one waits inside its latency); requests due in the window count; before it, a wait while "
                    f"more than {TIME_WAIT_LIMIT:,} client sockets to the server are in TIME_WAIT; a window the load tool could not drive "
                    f"(flags client-bound and driver-behind) is measured once more (`-again`) after they drain, and one that "
                    f"missed the goal while the hypervisor took more than {STEAL_AGAIN_SHARE:.0%} of the server's CPUs "
                    f"(steal) once more after {HOST_REST_S} s; after each window a full GC (`jcmd GC.run`), "
                    f"so every window starts from the same heap, not from the garbage of the warm-up or of an "
                    f"overloaded window before it, then {config['cooldown_s']} s or more of rest (until the "
                    f"server's CPU is quiet)"),
        ("Young collections", _gc_rule_text(config)),
        ("Warm-up", f"before any window on a fresh server: closed-model iterations of {config['warmup_iteration_s']} s "
                    f"at {config['warmup_concurrency']} connections until the last 3 agree within ±5 %"
                    + (f" and {_jit_iterations_text(config)} compiled at most {config['warmup_jit_rate']:g} methods per second "
                       f"(`sun.ci.totalCompiles`, jcmd; without a count the throughput alone decides)"
                       if config.get("warmup_jit_rate") is not None else "")
                    + f", at least {config.get('warmup_min_s', 0)} s, at most {config['warmup_max_s']} s; then a full "
                      f"GC and the same rest as between windows"
                    + (f"; a longer sleep warms up on the same endpoint at {WARMUP_SLEEP_MAX_MS} ms, so the warm-up "
                       f"reaches the rates the windows offer"
                       if any(s["sleep_max_ms"] > WARMUP_SLEEP_MAX_MS for s in config["sleeps"]) else "")),
        ("Search", f"from {number(config['start_rate'])} req/s doubling until a window misses the goal, then "
                   f"bisection to {config['resolution'] * 100:g} % (at most {number(config['max_rate'])} req/s)"),
        ("Confirmation", f"{config['repeats']} rounds; in each every target on a fresh server, warmed up, "
                         + _walk_text(config) + "; target order rotated per round: " + "; ".join(
                             f"{o['sleep_max_ms']} ms r{o['repeat']}: {', '.join(o['modes'])}" for o in run["orders"])),
    ]


def _jit_iterations_text(config):
    """Which warm-up iterations had to be JIT-quiet: the settled ones, or in runs before that rule the last."""
    return f"each of the last {config['warmup_jit_iterations']}" if config.get("warmup_jit_iterations") else "the last"


def _walk_text(config):
    step, walk = f"{config['resolution'] * 100:g} %", config.get("confirm_walk_steps")
    if walk is None:  # runs made before the walk: a round only went down
        return f"one window at its found rate (a miss is retried {step} lower, twice at most)"
    limit = (f"up until a window misses (at most {number(config['max_rate'])} req/s), down {walk} steps at most"
             if config.get("confirm_walk_up") else f"{walk} steps at most")
    return (f"a walk from its found rate: {step} higher after a window that met the goal, {step} lower after one "
            f"that missed, until the verdict turns, {limit} (the round's capacity: the highest rate "
            f"it held)" + (", once per goal" if config.get("goals") else ""))


def _gc_rule_text(config):
    needed = config.get("min_young_gcs")
    if needed is None:
        return "no rule (a run made before it): a window counted on its goal alone, whatever its collections"
    if needed == 0:
        return "no rule (--min-young-gcs 0): a window counts on its goal alone"
    return (f"a window counts as meeting the goal only with at least {needed} young collections in it (JFR), so its "
            f"percentile holds the pauses of the steady state (after the full GC a window starts with an empty young "
            f"generation); one that met the goal with fewer is measured again at the same rate for twice as long "
            f"(window id `-wNNs`), up to {config['max_window_s']} s, where it counts, flagged `few-gcs`; on the "
            f"search's doubling ramp (before its first miss) a window that met the goal counts whatever its collections: "
            f"it only sends the search higher, and the bisection and confirmation keep the rule; a window "
            f"that missed the goal missed it whatever its collections; without a count (no JFR) a window counts on "
            f"its goal alone, flagged `gcs-unknown`")
