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
def test_a_committed_run_gets_its_full_cpu_stretches_from_its_samples(tmp_path, capsys):
    """limits/s100-g1 was recorded before windows held their full-CPU stretches: `./lab report` reads
    them from the committed /proc samples, so `virtual`'s "none found" says what showed below the lines;
    without the samples it says nothing of them."""
    copy = tmp_path / "folder"
    shutil.copytree(RESULTS / "limits" / "s100-g1", copy)
    assert main(["report", str(copy)]) == 0
    line = next(l for l in (copy / "report.md").read_text().splitlines() if "(window 026-virtual" in l)
    assert line.endswith("none found: no check crossed its threshold (load-tool, pool, sockets, gc-old, gc-young, "
                         "gc-stall, cpu, pinning checked; not recorded: locks, jit); below the lines: the CPU full "
                         "for 2.5 s, the longest stretch 1.0–3.0 s in"), line
    shutil.rmtree(copy / "samples")
    assert main(["report", str(copy)]) == 0
    line = next(l for l in (copy / "report.md").read_text().splitlines() if "(window 026-virtual" in l)
    assert "below the lines" not in line


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
