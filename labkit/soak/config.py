"""What a soak runs: its options (SoakConfig, as soak.json's `config` records them) and --capacity,
the rate each target sustained, from a number, a list or a results file of ./lab bench or ./lab capacity."""
import statistics
from dataclasses import dataclass
from pathlib import Path

from labkit.ground.errors import UsageError
from labkit.load.tools import MAX_CONNECTIONS_OPEN_MODEL
from labkit.measure.results import read_json
from labkit.measure.server_setup import ServerSetup
from labkit.soak.checks import FRESH_REQUEST_LIMIT_S, NEAR_IDLE_RSS_MB, NEAR_IDLE_SHARE, NEAR_IDLE_THREADS

DRIVER = "vegeta"
SETTLE_S = 5  # quiet seconds after the warm-up whose samples define "idle"


@dataclass(frozen=True)
class SoakConfig:
    modes: tuple
    capacity: dict          # mode -> requests per second it sustained
    factor: float = 2.0
    load_s: int = 60
    idle_s: int = 60
    warmup_s: int = 20
    sleep_ms: int = 100
    timeout_s: float = 10.0
    # How each server starts and where (port, JVM options, --cpus, the hosts).
    setup: ServerSetup = ServerSetup()
    repeats: int = 3
    max_connections: int = None    # the load tool's connection bound; None: the driver's default
    name: str = "soak"
    out_dir: Path | None = None

    def rate(self, mode):
        return max(1, round(self.capacity[mode] * self.factor))

    @property
    def path(self):
        return f"/api/sleep?ms={self.sleep_ms}"

    def to_dict(self):
        setup = self.setup
        return {"modes": list(self.modes), "capacity_rps": self.capacity, "factor": self.factor,
                "load_s": self.load_s, "idle_s": self.idle_s, "warmup_s": self.warmup_s,
                "sleep_ms": self.sleep_ms, "timeout_s": self.timeout_s,
                "port": setup.port, "jvm_options": list(setup.jvm_options), "driver": DRIVER, "repeats": self.repeats,
                "jvm_defaults": setup.jvm_defaults, "cpus": setup.cpus.to_dict() if setup.cpus else None,
                "max_connections": self.max_connections or MAX_CONNECTIONS_OPEN_MODEL,
                "near_idle": {"share": NEAR_IDLE_SHARE, "threads": NEAR_IDLE_THREADS, "rss_mb": NEAR_IDLE_RSS_MB},
                "fresh_request_limit_s": FRESH_REQUEST_LIMIT_S}


def parse_capacity(text, modes, sleep_ms=None):
    """--capacity: N (req/s, every mode), MODE=N,MODE=N, or a results.json of ./lab bench or ./lab
    capacity (per mode: the capacity found, else the highest 2xx rate measured; only figures measured
    with the same sleep when `sleep_ms` is given: capacity depends on it)."""
    path = Path(text)
    if text.endswith((".json", ".json.gz")):
        if not path.is_file():
            raise UsageError(f"--capacity {text}: no such file")
        try:
            capacity = capacity_from_results(read_json(path), sleep_ms)
        except (ValueError, OSError) as e:
            raise UsageError(f"--capacity {text}: not a results file ({e})") from None
    elif "=" in text:
        capacity = {}
        for item in text.split(","):
            mode, _, value = item.partition("=")
            capacity[mode.strip()] = _rate(value, f"--capacity {item}")
    else:
        value = _rate(text, f"--capacity {text}")
        capacity = {mode: value for mode in modes}
    missing = [m for m in modes if m not in capacity]
    if missing:
        at = f" at a {sleep_ms} ms sleep" if sleep_ms is not None and text.endswith((".json", ".json.gz")) else ""
        raise UsageError(f"--capacity gives no rate for {', '.join(missing)}{at} (has: {', '.join(capacity) or 'none'})")
    return {m: capacity[m] for m in modes}


def _rate(text, what):
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{what}: a rate in requests per second, e.g. 1500") from None
    if not value > 0:
        raise UsageError(f"{what}: the rate must be above 0")
    return value


def capacity_from_results(run, sleep_ms=None):
    """mode -> req/s from a results.json: a capacity run's summary, else the best 2xx rate of a bench
    (the median of a point's repeats)."""
    def same_sleep(record):
        return sleep_ms is None or (record.get("sleep_min_ms"), record.get("sleep_max_ms")) == (sleep_ms, sleep_ms)
    found = {}
    for row in run.get("summary") or []:
        value = row.get("capacity_rps") if isinstance(row, dict) else None
        if isinstance(value, dict):
            value = value.get("median")
        if value and same_sleep(row):
            found[row["mode"]] = max(found.get(row["mode"], 0), float(value))
    if found:
        return found
    # A bench: per target, its best point, each point the median of its repeats (one lucky repeat
    # does not set the load). Targets are named without their --heap suffix, so a bench that ran a
    # target at several heaps gives no single rate for it.
    repeats, heaps = {}, {}
    for point in run.get("points") or []:
        ok_rps = (point.get("load") or {}).get("ok_rps")
        if ok_rps and same_sleep(point):
            target = point.get("target") or point["mode"]
            heaps.setdefault(target, set()).add(point.get("heap"))
            key = (target, point.get("heap"), point.get("driver"), point.get("scenario"), point.get("concurrency"),
                   point.get("rate"))
            repeats.setdefault(key, []).append(float(ok_rps))
    for (target, *_), rates in repeats.items():
        if len(heaps[target]) == 1:
            found[target] = max(found.get(target, 0), statistics.median(rates))
    return found
