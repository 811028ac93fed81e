"""The point record of a ./lab capacity window, without I/O: the bench's layout (measure/results.py)
plus the capacity fields (phase, rate, goal, verdict), built from the window and its load run; the
figures derived from it; and how its GC figures read in a line (the console and report.md).
"""
from labkit.ground.formatting import number
from labkit.measure.results import flags
from labkit.measure.session import window_record
from labkit.measure.steadiness import not_steady, series_stats
from labkit.capacity.context import DRIVER
from labkit.capacity.verdicts import meets_goal


def _identity(index, point_id, session_index, window):
    """The fields that say which window a record is, first in every record."""
    return {"index": index, "id": point_id, "session": session_index, "mode": window.mode, "driver": DRIVER.name}


def window_point(context, index, point_id, session_index, window, run, spec):
    """The record of a window the load tool ran (`run`, from measure.session.drive, of `spec`); its
    capacity.passed is set by verdicts.judge once the window's young collections are known."""
    config = context.config
    load = run["load"]
    record = {
        **_identity(index, point_id, session_index, window),
        "scenario": context.scenario.name, "phase": window.phase, "step": window.step,
        "repeat": window.repeat, "rate": window.rate, "concurrency": None,
        "sleep_min_ms": window.sleep.min_ms, "sleep_max_ms": window.sleep.max_ms, "depth": config.depth,
        "timeout_s": spec.timeout_s, "service_time_s": window.sleep.mean_ms / 1000.0,
        "max_concurrent": context.targets[window.mode].max_concurrent,
        "window": window_record("steady", spec.window[0], spec.window[1], epoch_s=list(spec.window),
                                preroll_s=config.preroll_for(window.sleep),
                                note="requests due in the window, inside one vegeta run after its pre-roll"),
        "command": run["command"],
        "load": load.to_dict() if load else None,
        "failure": run["failure"],
        "resources": run["resources"],
        **({"load_hosts": run["load_hosts"]} if run.get("load_hosts") else {}),
        "files": {"samples": f"raw/{point_id}.samples.csv", "output": f"raw/{point_id}.out"},
    }
    record["derived"] = derived(record)
    record["steadiness"] = series_stats(load.per_second_ok) if load else None
    record["flags"] = flags(record)
    if load and not_steady(load.per_second_ok):
        record["flags"].append("not-steady")
    record["capacity"] = {"goal_ms": window.goal_ms, "percentile": config.goal.percentile,
                          "met_goal": meets_goal(record, config.goal.percentile, window.goal_ms)}
    return record


def failed_point(context, index, point_id, session_index, window, why):
    """The record of a window that could not be run: it missed the goal, and says why."""
    config = context.config
    return {**_identity(index, point_id, session_index, window),
            "phase": window.phase, "step": window.step, "repeat": window.repeat, "rate": window.rate,
            "sleep_min_ms": window.sleep.min_ms, "sleep_max_ms": window.sleep.max_ms, "load": None, "failure": why,
            "flags": ["failed"], "files": {},
            "capacity": {"goal_ms": window.goal_ms, "percentile": config.goal.percentile, "met_goal": False,
                         "young_gcs": None, "min_young_gcs": config.min_young_gcs,
                         "window_s": window.window_s, "verdict": "missed", "passed": False}}


def derived(record):
    """CPU per request (server CPU ms per 2xx answer) and the Little's-law ceiling of the target."""
    load = record.get("load") or {}
    server = (record.get("resources") or {}).get("server") or {}
    cores, ok_rps = server.get("cpu_cores"), load.get("ok_rps")
    # Your own requests have no service time the lab set (0): their pool's ceiling is not known.
    ceiling = (record["max_concurrent"] / record["service_time_s"]
               if record.get("max_concurrent") and record.get("service_time_s") else None)
    return {
        # cores ÷ req/s, both over the same window: the server's CPU time per answered request.
        "cpu_ms_per_request": round(cores / ok_rps * 1000, 4) if cores is not None and ok_rps else None,
        "ceiling_rps": round(ceiling, 1) if ceiling else None,
    }


def gc_pauses_text(jfr):
    """'3 (2 young, longest 52.1 ms); VM operation G1CollectForAllocation 52.1 ms' from a window's JFR
    figures (runs made before the young count: '3 (longest 52.1 ms)')."""
    if not jfr or not jfr.get("available"):
        return "–"
    young = f"{jfr['young_gc_count']} young, " if jfr.get("young_gc_count") is not None else ""
    text = f"{jfr['gc_count']} ({young}longest {number(jfr['gc_pause_max_ms'], 1)} ms)"
    if jfr.get("vm_operation_max"):
        text += f"; VM operation {jfr['vm_operation_max']} {number(jfr['vm_operation_max_ms'], 1)} ms"
    return text
