"""No committed result names where the machine that made it kept its files: every file under
docs/results/ (gzip-compressed ones read decompressed: records, samples, server logs) and every page
under docs/ is scanned for absolute paths under the folders a checkout, a home or a scratch space
live in. Such a path says nothing to a reader and changes with the machine, so a folder that holds
one would not rebuild the same elsewhere. The JDK's install path (/usr/lib/jvm/...) is a recorded
fact of the run, like its version, and is allowed."""
import gzip
import re

from labkit import ROOT

DOCS = ROOT / "docs"
# A path that starts at the root (not inside a URL, a relative path or a word) in one of these folders.
MACHINE_PATH = re.compile(r"(?<![\w.~:/-])/(?:work|root|home|tmp|mnt|srv)/[\w.-]+")
BINARY_SUFFIXES = {".png", ".jpg", ".jfr", ".bin", ".hgrm"}


def _text(path):
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
        if any(path.name.removesuffix(".gz").endswith(s) for s in BINARY_SUFFIXES - {".hgrm"}):
            return ""
    elif path.suffix in BINARY_SUFFIXES:
        return ""
    return data.decode("utf-8", errors="replace")


def machine_paths():
    """{file relative to the repository: the first machine path in it}."""
    found = {}
    for path in sorted(DOCS.rglob("*")):
        if not path.is_file():
            continue
        match = MACHINE_PATH.search(_text(path))
        if match:
            found[str(path.relative_to(ROOT))] = match.group(0)
    return found


def test_no_committed_result_or_page_holds_a_path_of_the_machine_that_made_it():
    assert machine_paths() == {}


def test_the_scan_finds_a_planted_path_in_a_compressed_log_and_ignores_relative_and_url_paths(tmp_path):
    log = tmp_path / "01-virtual.log.gz"
    log.write_bytes(gzip.compress(b"[INFO] deployed from /work/main/app/target/loomlab.war\n"))
    assert MACHINE_PATH.search(_text(log)).group(0) == "/work/main"
    assert MACHINE_PATH.search("--out /work/runs/overload-run2").group(0) == "/work/runs"
    assert MACHINE_PATH.search('"home": "/root/.loomlab/jdk"').group(0) == "/root/.loomlab"
    for fine in ("results/work/x", "https://example.org/home/page", "~/work/x", "./tmp/x", "/proc/stat",
                 "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java", "docs/results/tmp/x"):
        assert MACHINE_PATH.search(fine) is None, fine


GZIP_MAGIC = b"\x1f\x8b"


def compressed_twice(folder):
    """Files under `folder` whose gzip holds another gzip (a .gz compressed again on its way in): a
    report links the name with one .gz, and a reader's gunzip gives a file that is still compressed."""
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*.gz")
                  if path.name.endswith(".gz.gz") or gzip.decompress(path.read_bytes())[:2] == GZIP_MAGIC)


def test_no_committed_file_is_compressed_twice(tmp_path):
    assert compressed_twice(DOCS / "results") == []
    (tmp_path / "a.hgrm.gz").write_bytes(gzip.compress(gzip.compress(b"Value Percentile\n")))
    (tmp_path / "b.hgrm.gz").write_bytes(gzip.compress(b"Value Percentile\n"))
    assert compressed_twice(tmp_path) == ["a.hgrm.gz"]
