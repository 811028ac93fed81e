"""The warm-up of a fresh ./lab capacity server: closed-model vegeta iterations until its throughput
stops rising and its JIT has gone quiet (steadiness.warmup_end), or the cap is reached."""
import time

from labkit.ground.errors import LabError
from labkit.load.tools import LoadSpec
from labkit.measure import perfcounters
from labkit.measure.session import drive, feed_of, host_of, server_jdk
from labkit.measure.steadiness import WARMUP_ENDS, settled, warmup_end
from labkit.capacity.context import DRIVER, remove_raw_results


def warm_up(context, server, path, label, response_bytes):
    """Closed-model iterations (vegeta with warmup_concurrency workers) until the throughput stops
    rising and the JIT has gone quiet (steadiness.warmup_end), or warmup_max_s is reached. The JIT's
    compile count is read with jcmd between iterations; when that fails the throughput alone decides,
    as it did before the JIT rule, and the error is recorded. Returns the session's warm-up record."""
    config = context.config
    url = server.base_url + path
    iterations, began = [], time.monotonic()
    ended = None if config.warmup_max_s > 0 else "none"
    compiles_before, jit_error = (compiles(context, server) if ended is None else (None, None))
    read_at = time.monotonic()
    while ended is None:
        spec = LoadSpec(url=url, concurrency=config.warmup_concurrency, duration_s=config.warmup_iteration_s,
                        timeout_s=max(30.0, config.timeout_s or 0), requests=context.scenario.requests,
                        side_file_prefix=context.raw / f"{label}.warmup{len(iterations) + 1}")
        run = drive(DRIVER, context.executable, spec, server.pid, context.out_dir, config.sample_interval_s,
                    response_bytes, cpus=config.setup.cpus, feed=feed_of(server),
                    load_hosts=config.setup.load_hosts)
        if run["load"] is None:
            raise LabError(f"warm-up of {label} failed: {run['failure']}")
        remove_raw_results(run["side_files"])
        compiles_after, error = compiles(context, server)
        jit_error = jit_error or error
        now = time.monotonic()
        compiled = (compiles_after - compiles_before
                    if compiles_after is not None and compiles_before is not None else None)
        iterations.append({"ok_rps": round(run["load"].ok_rps, 1), "compiles": compiled,
                           "compiles_per_s": round(compiled / (now - read_at), 1) if compiled is not None else None,
                           "seconds": round(now - read_at, 1)})
        compiles_before, read_at = compiles_after, now
        ended = warmup_end([i["ok_rps"] for i in iterations], [i["compiles_per_s"] for i in iterations], now - began,
                           config.warmup_min_s, config.warmup_max_s, config.warmup_jit_rate)
    seconds = round(time.monotonic() - began, 1)
    context.timing["warmup_s"].append(seconds)
    throughputs = [i["ok_rps"] for i in iterations]
    result = {"seconds": seconds, "iterations_ok_rps": throughputs, "iterations": iterations,
              "settled": settled(throughputs), "ended": ended,
              "jit": {"counter": perfcounters.COMPILES, "quiet_per_s": config.warmup_jit_rate,
                      "error": jit_error},
              "concurrency": config.warmup_concurrency, "iteration_s": config.warmup_iteration_s}
    counts = ", ".join("?" if i["compiles"] is None else f"{i['compiles']:,}" for i in iterations)
    context.log(f"  warmed up in {seconds:.0f} s: {', '.join(f'{t:,.0f}' for t in throughputs)} req/s per "
                f"{config.warmup_iteration_s} s iteration; methods compiled {counts}; ended: {WARMUP_ENDS[ended]}"
                + (f"  [JIT count: {jit_error}]" if jit_error else ""))
    return result


def compiles(context, server):
    """(methods the server's JIT has compiled so far, None) or (None, why)."""
    if not context.java_home:
        return None, "no JDK to run jcmd"
    return perfcounters.read_counter(server_jdk(server, context.java_home), server.pid, perfcounters.COMPILES,
                                     host=host_of(server))

