"""A JSON thread dump of a server that stopped answering, and what it says about why.

`capture` runs `jcmd PID Thread.dump_to_file -format=json FILE` with the lab's JDK: unlike a
`jstack`-style dump it lists the virtual threads too, each with its stack, its state and, while
it runs, the carrier it is mounted on. `summarize` reads that JSON (JDK 21+; the carrier, state
and lock fields since JDK 25) into: how many virtual threads; what each carrier runs (its
virtual thread's top frames); the frames where most threads wait; and the likely cause:

- deadlock: threads that wait for a lock held by a thread that waits for theirs, in a cycle;
- carrier starvation: every carrier runs a virtual thread that does not park (it spins or
  computes), so no other virtual thread can run, not even the one that would let them go on;
- pinned: carriers held by virtual threads that block while mounted (they cannot unmount);
- unknown: none of these (the server may be short of CPU, in a long GC pause, or waiting elsewhere).
"""
import json
import re
from collections import Counter
from pathlib import Path

from labkit.ground.errors import LabError
from labkit.hosts.jvm import fetch, jcmd, remote_path

JCMD_TIMEOUT_S = 120
# Frames of the JDK itself: a thread's "code" is its first frame outside them.
JDK_PACKAGES = ("java.", "javax.", "jdk.", "sun.", "com.sun.")
TOP_FRAMES = 6
WAIT_SITES = 5


def capture(pid, java_home, path, host=None):
    """Writes the thread dump of `pid` (on `host`, this machine when None; `java_home` is the JDK
    there) to `path` here (a new file); returns {"file", "summary"} or {"error"}."""
    # Absolute: the server JVM, not jcmd, opens the file, from its own working directory.
    path = Path(path).resolve()
    target = remote_path(host, path, "dumps")
    try:
        returncode, output = jcmd(host, java_home, pid, ["Thread.dump_to_file", "-format=json", str(target)],
                                  JCMD_TIMEOUT_S)
        if returncode == 0:
            fetch(host, target, path)
    except OSError as e:
        return {"error": f"jcmd Thread.dump_to_file: {e}"}
    except LabError as e:
        return {"error": f"copying the dump from {host}: {e}"}
    if returncode != 0 or not path.is_file():
        return {"error": "jcmd Thread.dump_to_file: " + " ".join(output.split())[:300]}
    try:
        return {"file": str(path), "summary": summarize(json.loads(path.read_text()))}
    except (ValueError, KeyError, TypeError) as e:
        return {"file": str(path), "error": f"the dump could not be read: {e}"}


def method(frame):
    """'java.base/java.lang.Thread.sleep(Thread.java:509)' -> 'java.lang.Thread.sleep' (module and
    class-loader prefixes and the source position dropped)."""
    return frame.split("(", 1)[0].rsplit("/", 1)[-1]


def is_jdk(frame):
    return method(frame).startswith(JDK_PACKAGES)


def code_frame(stack):
    """The first frame outside the JDK (the application's or a library's), else the top frame."""
    for frame in stack:
        if not is_jdk(frame):
            return method(frame)
    return method(stack[0]) if stack else None


def threads_of(dump):
    """Every thread of the dump once, in container order."""
    seen, threads = set(), []
    for container in dump["threadDump"]["threadContainers"]:
        for thread in container.get("threads") or ():
            tid = str(thread.get("tid"))
            if tid not in seen:
                seen.add(tid)
                threads.append(thread)
    return threads


def _virtual(thread):
    return str(thread.get("virtual", "false")).lower() == "true"


def _carrier_tid(thread):
    carrier = thread.get("carrier")
    return str(carrier) if carrier is not None else None


def _pool_name(name):
    """'ForkJoinPool-1-worker-3' -> 'ForkJoinPool-1-worker-': the carriers of one scheduler share it."""
    return re.sub(r"\d+$", "", name or "")


def summarize(dump):
    threads = threads_of(dump)
    by_tid = {str(t.get("tid")): t for t in threads}
    virtual = [t for t in threads if _virtual(t)]
    mounted = [t for t in virtual if _carrier_tid(t)]
    carrier_tids = {_carrier_tid(t) for t in mounted}
    pools = {_pool_name(by_tid[tid].get("name")) for tid in carrier_tids if tid in by_tid}
    idle_carriers = [t for t in threads if not _virtual(t) and str(t.get("tid")) not in carrier_tids
                     and (_pool_name(t.get("name")) in pools or _is_carrier_thread(t))]
    carriers = []
    for thread in mounted:
        carrier = by_tid.get(_carrier_tid(thread)) or {}
        stack = thread.get("stack") or []
        carriers.append({"carrier": carrier.get("name") or f"#{_carrier_tid(thread)}",
                         "virtual_thread": f"#{thread.get('tid')}", "state": thread.get("state"),
                         "code": code_frame(stack), "frames": [method(f) for f in stack[:TOP_FRAMES]]})
    waiting_for_carrier = sum(1 for t in virtual if not _carrier_tid(t) and t.get("state") == "RUNNABLE")
    summary = {
        "runtime": dump["threadDump"].get("runtimeVersion"),
        "threads": len(threads),
        "virtual_threads": len(virtual),
        "carriers": carriers,
        "idle_carriers": len(idle_carriers),
        "waiting_for_carrier": waiting_for_carrier,
        "wait_sites": {"virtual": _wait_sites([t for t in virtual if not _carrier_tid(t)]),
                       "platform": _wait_sites([t for t in threads if not _virtual(t)
                                                and str(t.get("tid")) not in carrier_tids])},
    }
    summary["cause"] = _cause(threads, by_tid, carriers, summary)
    return summary


def _is_carrier_thread(thread):
    return any("CarrierThread" in frame for frame in thread.get("stack") or ())


def _wait_sites(threads):
    """The code frames most of these threads stand in, with their count and commonest top frame."""
    groups = {}
    for thread in threads:
        stack = thread.get("stack") or []
        key = code_frame(stack) or "(no frames: not started yet)"
        group = groups.setdefault(key, {"frame": key, "threads": 0, "tops": Counter(), "states": Counter()})
        group["threads"] += 1
        group["tops"][method(stack[0]) if stack else "-"] += 1
        group["states"][thread.get("state") or "?"] += 1
    ranked = sorted(groups.values(), key=lambda g: -g["threads"])[:WAIT_SITES]
    return [{"frame": g["frame"], "threads": g["threads"], "top": g["tops"].most_common(1)[0][0],
             "state": g["states"].most_common(1)[0][0]} for g in ranked]


def _cause(threads, by_tid, carriers, summary):
    cycle = find_deadlock(threads)
    if cycle:
        names = " → ".join(f"#{tid} {by_tid[tid].get('name') or '(virtual)'}" for tid in cycle)
        return {"kind": "deadlock", "threads": [f"#{tid}" for tid in cycle],
                "text": f"{names} → back to the first; each waits for a lock the next one holds"}
    if not carriers:
        return {"kind": "unknown", "text": "no carrier runs a virtual thread and no deadlock was found: the server "
                                           "may be short of CPU, in a long GC pause, or waiting elsewhere (see where "
                                           "the threads wait)"}
    pinned = [c for c in carriers if c["state"] != "RUNNABLE"]
    running = [c for c in carriers if c["state"] == "RUNNABLE"]
    all_busy = summary["idle_carriers"] == 0
    waiting = summary["waiting_for_carrier"]
    if pinned and len(pinned) >= len(running):
        codes = Counter(c["code"] for c in pinned)
        return {"kind": "pinned", "frame": codes.most_common(1)[0][0],
                "text": f"{len(pinned)} of {len(carriers)} busy carriers hold a virtual thread that blocks "
                        f"while mounted ({_codes_text(codes)}), so it cannot give its carrier back"
                        + ("; no carrier is free" if all_busy else "")}
    if all_busy:
        codes = Counter(c["code"] for c in running)
        frame, count = codes.most_common(1)[0]
        same = count == len(running)
        where = f"in {frame}" if same else f"in different code ({_codes_text(codes)})"
        return {"kind": "carrier-starvation", "frame": frame if same else None,
                "text": f"all {len(carriers)} carriers run virtual threads {where} that do "
                        f"not park (they spin or compute), and {waiting} virtual threads wait for a carrier; "
                        f"virtual threads are not time-sliced, so none of them runs until a spinner gives up"}
    return {"kind": "unknown", "text": f"{summary['idle_carriers']} carriers are free and no deadlock was found: the "
                                       f"server may be short of CPU, in a long GC pause, or waiting elsewhere (see "
                                       f"where the threads wait)"}


def _codes_text(codes):
    return ", ".join(f"{count}× {frame}" for frame, count in codes.most_common())


def find_deadlock(threads):
    """A cycle of threads each waiting for a lock that the next one holds (monitors: blockedOn and
    monitorsOwned; java.util.concurrent locks: the park blocker's owner), as tids; or None."""
    owner_of = {}
    for thread in threads:
        for owned in thread.get("monitorsOwned") or ():
            for lock in owned.get("locks") or ():
                owner_of[lock] = str(thread.get("tid"))
    waits_for = {}
    for thread in threads:
        tid = str(thread.get("tid"))
        blocker = thread.get("parkBlocker")
        if thread.get("blockedOn") in owner_of:
            waits_for[tid] = owner_of[thread["blockedOn"]]
        elif isinstance(blocker, dict) and blocker.get("owner") is not None:
            waits_for[tid] = str(blocker["owner"])
    for start in waits_for:
        path, tid = [], start
        while tid in waits_for and tid not in path:
            path.append(tid)
            tid = waits_for[tid]
        if tid in path:
            return path[path.index(tid):]
    return None


def summary_lines(summary):
    """The summary as Markdown bullet lines (the report, and ./lab run's console)."""
    cause = summary["cause"]
    lines = [f"- Likely cause: **{cause['kind']}**: {cause['text']}.",
             f"- Threads: {summary['threads']}, of them {summary['virtual_threads']} virtual; "
             f"{summary['waiting_for_carrier']} virtual threads are runnable but wait for a carrier; "
             f"{len(summary['carriers'])} carriers busy, {summary['idle_carriers']} idle."]
    for carrier in summary["carriers"]:
        frames = " ← ".join(carrier["frames"]) or "(no frames)"
        lines.append(f"- Carrier {carrier['carrier']} runs virtual thread {carrier['virtual_thread']} "
                     f"({carrier['state']}): {frames}")
    for kind in ("virtual", "platform"):
        sites = summary["wait_sites"][kind]
        if sites:
            lines.append(f"- Where the {kind} threads wait: " + "; ".join(
                f"{s['threads']} in {s['frame']} ({s['state']}, top frame {s['top']})" for s in sites))
    return lines
