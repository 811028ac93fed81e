"""What the parts of one ./lab capacity run share: its options, targets and scenario, the load tool,
the record it writes, the JDK that reads the servers (jcmd, JFR), the console, and the timings the
ETA is computed from. The runner makes it once; sessions, warm-ups and windows take it. Also what
every vegeta run of the capacity loop shares: the driver and what is left of its raw output."""
from dataclasses import dataclass, field
from pathlib import Path

from labkit.load.tools import DRIVERS

# Every warm-up and window of a capacity run is a vegeta run: fixed rates (open model), each request's
# latency from its intended start.
DRIVER = DRIVERS["vegeta"]


def remove_raw_results(paths):
    """Raw vegeta result files are large (tens of MB per window): the histograms keep what counts."""
    for path in paths:
        if str(path).endswith(".vegeta.bin"):
            Path(path).unlink(missing_ok=True)


def _no_timings():
    return {"reference_s": [], "start_s": [], "warmup_s": [], "step_s": [], "search_windows": [],
            "confirm_windows": []}


@dataclass(frozen=True)
class RunContext:
    config: object                # CapacityConfig
    targets: dict                 # mode -> target (servers/registry.py)
    scenario: object              # what each request asks for (load/scenarios.py)
    executable: str               # vegeta
    recorder: object              # CapacityRecorder: where sessions and points go
    java_home: str | None = None  # jcmd and JFR; None: no full GC, compile count or GC figures
    log: object = print
    # Measured so far, for the ETA: server starts and warm-ups (s), windows (s), windows per search and
    # per confirmation round. Added to as the run goes.
    timing: dict = field(default_factory=_no_timings)

    @property
    def out_dir(self):
        return Path(self.recorder.out_dir)

    @property
    def raw(self):
        """Where each window's samples and the load tool's output go."""
        return self.out_dir / "raw"
