"""`./lab report DIR` rebuilds committed results folders exactly: one bench, one capacity and one
soak folder from docs/results/, copied, rebuilt, and their report.md, results.csv and record
(results.json / soak.json, compared decompressed) byte for byte as committed. The charts are left
out: matplotlib may draw the same chart in other bytes."""
import gzip
import shutil

import pytest

from labkit import ROOT
from labkit.cli import main

RESULTS = ROOT / "docs" / "results"


# matplotlib 3.9 calls pyparsing APIs that pyparsing 3.3 deprecates: noise, not a defect here.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("folder, record", [
    ("cargotracker-explained/tail", "results.json.gz"),     # ./lab bench
    ("capacity/s2000-g1young", "results.json.gz"),          # ./lab capacity
    ("overload/run1-shared-cpus", "soak.json.gz"),          # ./lab soak, from before soak.json named its schema
])
def test_lab_report_rebuilds_a_committed_folder_byte_for_byte(tmp_path, capsys, folder, record):
    committed = RESULTS / folder
    copy = tmp_path / "folder"
    shutil.copytree(committed, copy)
    # Start from the record alone, so every file compared below is written by the rebuild.
    for name in ("report.md", "results.csv"):
        (copy / name).unlink(missing_ok=True)
    assert main(["report", str(copy)]) == 0
    assert f"rebuilt {copy / 'report.md'}" in capsys.readouterr().out
    assert (copy / "report.md").read_bytes() == (committed / "report.md").read_bytes()
    if (committed / "results.csv").is_file():
        assert (copy / "results.csv").read_bytes() == (committed / "results.csv").read_bytes()
    assert gzip.decompress((copy / record).read_bytes()) == gzip.decompress((committed / record).read_bytes())
    plain = record.removesuffix(".gz")
    assert not (copy / plain).exists(), f"a committed folder stays compressed: no {plain} beside {record}"
