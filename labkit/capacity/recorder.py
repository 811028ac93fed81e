"""The record of a ./lab capacity run on disk: each window's point appended to points.jsonl as it is
measured, and at the end results.json, results.csv, the charts and report.md (report/rebuild.py)."""
from labkit.measure.results import CAPACITY_SCHEMA, write_json
from labkit.measure.session import PointLog
from labkit.capacity.report.rebuild import write_all


class CapacityRecorder(PointLog):
    """The run's record, written as it goes (points.jsonl) and in full at the end (results.json)."""

    def __init__(self, out_dir, config, env):
        super().__init__(out_dir, CAPACITY_SCHEMA, config, env, orders=[])

    def add_order(self, sleep, repeat, order):
        """The target order of a confirmation round (rotated from round to round)."""
        self.run["orders"].append({"sleep_min_ms": sleep.min_ms, "sleep_max_ms": sleep.max_ms, "repeat": repeat,
                                   "modes": list(order)})

    def add_reference(self, record):
        """A host-speed reference (measure/reference.py), kept in env.json as it is measured."""
        self.run["env"].setdefault("host_speed", []).append(record)
        write_json(self.out_dir / "env.json", self.run["env"])

    def finish(self, state, error=None):
        self._close(state, error)
        return write_all(self.run, self.out_dir)
