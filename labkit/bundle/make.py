"""Makes a bundle: builds what is missing, stages the clone's files, the JDK runtime and the wheels in a
folder, writes BUNDLE.json (what it carries and from which commit), and packs the folder as .tar.gz."""
import json
import shutil
from datetime import datetime, timezone

from labkit import BUNDLE_MANIFEST, __version__
from labkit.bundle import contents, runtime, wheels
from labkit.ground.build import ensure_benchmarks_jar, ensure_built, pom_property
from labkit.ground.command import run_command
from labkit.ground.errors import LabError
from labkit.ground.machine import jdk_release
from labkit.load.drivers import DRIVERS
from labkit.load.tools import ensure_tools, tool_version
from labkit.measure.env import git_state
from labkit.servers.baselines import ensure_baselines_built

PLATFORM = "linux-x86_64"


def bundle_name():
    return f"loomlab-{__version__}-{PLATFORM}"


def make_bundle(out_dir, java_home, pythons=wheels.PYTHONS, log=print):
    """Writes out_dir/loomlab-VERSION-linux-x86_64.tar.gz; returns its path and the manifest."""
    ensure_built(log=log)
    ensure_baselines_built(log=log)
    ensure_benchmarks_jar(log=log)
    executables = ensure_tools(contents.TOOLS, log=log)
    name = bundle_name()
    out_dir.mkdir(parents=True, exist_ok=True)
    # Staged in a folder of its own: a bundle unpacked beside the archive keeps its name and stays.
    staging = out_dir / ".staging"
    stage = staging / name
    archive = out_dir / f"{name}.tar.gz"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        log(f"staging {stage}")
        contents.copy_clone_files(stage, {DRIVERS[n].executable_name: executables[n] for n in contents.TOOLS})
        log(f"linking a JDK {jdk_release(java_home).get('JAVA_VERSION', '?')} runtime from {java_home} (jlink)")
        runtime.link_runtime(java_home, stage / "jdk")
        log("downloading the Python packages' wheels (pyproject.toml's pins)")
        carried, refused = wheels.download_all(stage / "wheels", pythons, log)
        # The launcher names the lines it carries when pip finds no wheel for the machine's Python.
        (stage / "wheels" / "PYTHONS").write_text(" ".join(carried) + "\n")
        manifest = manifest_of(stage, java_home, executables, carried, refused)
        (stage / BUNDLE_MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        log(f"packing {archive}")
        pack(stage, archive)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return archive, manifest


def manifest_of(stage, java_home, executables, carried, refused):
    """BUNDLE.json: the lab's version and commit, the JDK runtime, the Payara Micro lines, the tools,
    the Python lines with wheels (and why the others have none), the glibc the wheels need."""
    release = jdk_release(stage / "jdk")
    return {
        "lab": __version__,
        "made_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "git": git_state(),
        "platform": PLATFORM,
        "jdk": {"version": release.get("JAVA_VERSION"), "runtime_version": release.get("JAVA_RUNTIME_VERSION"),
                "implementor": release.get("IMPLEMENTOR"), "linked_from": str(java_home)},
        "payara_micro": {"6": pom_property("payara.version"), "7": pom_property("payara7.version")},
        "tools": {name: tool_version(name, path) for name, path in executables.items()},
        "python": {"carried": carried, "not_carried": refused, "glibc": wheels.glibc_needed(stage / "wheels")},
        "commands": ["bench", "capacity", "run", "soak", "report", "compare"],
        "targets": "the Payara Micro 6 and 7 modes and the JDK, Helidon and Vert.x baselines; Payara Server, "
                   "GlassFish and CargoTracker are downloaded and built by a clone with network, not carried",
    }


def pack(stage, archive):
    """The staged folder as one .tar.gz, its top folder the bundle's name."""
    partial = archive.with_name(archive.name + ".partial")
    result = run_command(["tar", "-C", stage.parent, "-czf", partial, stage.name], timeout=None, merged=True)
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        raise LabError(f"tar failed: {result.stdout.strip()[-500:]}")
    partial.replace(archive)
