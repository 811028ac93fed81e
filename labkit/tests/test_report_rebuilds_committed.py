"""`./lab report DIR` rebuilds committed results folders exactly: one bench, one capacity and one
soak folder from docs/results/, copied, rebuilt, and their report.md, results.csv and record
(results.json / soak.json, compared decompressed) byte for byte as committed. The charts are left
out: matplotlib may draw the same chart in other bytes."""
import gzip
import json
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


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_lab_report_never_rewrites_the_record_it_reads(tmp_path, capsys):
    """A record without a field the code now derives (here the capacity's limit, made after the run)
    gets it in report.md, computed in memory; the record itself stays byte for byte as it was, and no
    plain copy appears beside a compressed one (issue 56)."""
    copy = tmp_path / "folder"
    shutil.copytree(RESULTS / "capacity" / "s2000-g1young", copy)
    run = json.loads(gzip.decompress((copy / "results.json.gz").read_bytes()))
    for row in run["summary"]:
        row.pop("limit", None)
    older = gzip.compress(json.dumps(run).encode(), mtime=0)
    (copy / "results.json.gz").write_bytes(older)
    assert main(["report", str(copy)]) == 0
    assert (copy / "results.json.gz").read_bytes() == older and not (copy / "results.json").exists()
    assert "limit (rounds it stopped)" in (copy / "report.md").read_text()
    plain = tmp_path / "plain"
    shutil.copytree(copy, plain)
    (plain / "results.json.gz").unlink()
    (plain / "results.json").write_text(json.dumps(run))
    assert main(["report", str(plain)]) == 0
    assert (plain / "results.json").read_text() == json.dumps(run)
