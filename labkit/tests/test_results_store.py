"""measure/results.py's results folders on disk: which file holds a run (plain as written, .gz as
committed), what schema it has (an old soak.json has none), and the compressed copy written back."""
import gzip
import json

import pytest

from labkit.measure.results import (
    BENCH_SCHEMA,
    RESULTS_JSON,
    SOAK_JSON,
    SOAK_SCHEMA,
    StoredRun,
    stored_file,
)


def test_the_first_name_the_folder_holds_wins_and_its_plain_file_before_the_compressed_one(tmp_path):
    assert stored_file(tmp_path, RESULTS_JSON, SOAK_JSON) is None
    (tmp_path / "soak.json.gz").write_bytes(gzip.compress(b"{}"))
    assert stored_file(tmp_path, RESULTS_JSON, SOAK_JSON) == tmp_path / "soak.json.gz"
    (tmp_path / "results.json.gz").write_bytes(gzip.compress(b"{}"))
    assert stored_file(tmp_path, RESULTS_JSON, SOAK_JSON) == tmp_path / "results.json.gz"
    (tmp_path / "results.json").write_text("{}")
    assert stored_file(tmp_path, RESULTS_JSON, SOAK_JSON) == tmp_path / "results.json"


@pytest.mark.parametrize("name, record, schema", [
    ("results.json", {"schema": BENCH_SCHEMA}, BENCH_SCHEMA),
    ("results.json", {}, None),                       # a results.json must say what it is
    ("soak.json", {}, SOAK_SCHEMA),                   # written before soak.json named its schema
    ("soak.json.gz", {}, SOAK_SCHEMA),
    ("soak.json", {"schema": "loomlab.soak/2"}, "loomlab.soak/2"),
])
def test_a_stored_runs_schema_is_its_own_else_a_soak_json_is_a_soak(tmp_path, name, record, schema):
    text = json.dumps(record).encode()
    (tmp_path / name).write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    stored = StoredRun.read(tmp_path / name)
    assert stored.schema == schema
    assert stored.run == record, "reading adds nothing to the record"
    assert stored.name == name.removesuffix(".gz") and stored.compressed == name.endswith(".gz")


def test_a_file_that_is_not_json_raises_what_the_command_turns_into_an_error(tmp_path):
    (tmp_path / "results.json.gz").write_bytes(b"not gzip")
    with pytest.raises((ValueError, OSError, EOFError)):
        StoredRun.read(tmp_path / "results.json.gz")
