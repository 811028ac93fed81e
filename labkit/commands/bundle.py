"""./lab bundle: the lab as one .tar.gz for a machine without network, JDK or Maven (labkit/bundle/)."""
from pathlib import Path

from labkit import ROOT, is_bundle
from labkit.bundle import wheels
from labkit.bundle.make import make_bundle
from labkit.ground.errors import UsageError
from labkit.ground.jdk import find_java_home

OUT = ROOT / "target" / "bundle"


def python_lines(text):
    """--python 3.11,3.12: Python lines (3.10 or later) to carry wheels for."""
    lines = [line.strip() for line in text.split(",") if line.strip()]
    for line in lines:
        major, _, minor = line.partition(".")
        if not (major == "3" and minor.isdigit() and int(minor) >= 10):
            raise UsageError(f"--python {text}: '{line}' is not a Python line of 3.10 or later (e.g. 3.12)")
    if not lines:
        raise UsageError("--python: give at least one Python line (e.g. 3.12)")
    return tuple(dict.fromkeys(lines))


def register(subparsers):
    p = subparsers.add_parser(
        "bundle", help="pack the lab for a machine without network, JDK or Maven: one .tar.gz",
        description="Builds what is missing, then packs a JDK runtime (jlink), the Payara Micro jars, the WAR and "
                    "pool jars, the baselines, vegeta and bombardier, and labkit with its Python wheels into "
                    "target/bundle/loomlab-VERSION-linux-x86_64.tar.gz. Unpacked on an x86-64 Linux machine with "
                    "Python 3.10+, its ./lab runs bench, capacity and run with nothing downloaded.")
    p.add_argument("--out", type=Path, default=OUT, metavar="DIR",
                   help="the folder the .tar.gz is written to (default target/bundle)")
    p.add_argument("--python", type=str, default=",".join(wheels.PYTHONS), metavar="3.X[,3.Y...]",
                   help="the Python lines to carry wheels for, this machine's always among them "
                        f"(default {','.join(wheels.PYTHONS)}: those without a wheel for every pin are left out)")
    p.set_defaults(run=run)


def run(args):
    # This machine's line always comes along: the bundle is made and can be tried with it.
    pythons = tuple(dict.fromkeys((*python_lines(args.python), wheels.local_python())))
    if is_bundle(ROOT):
        raise UsageError(f"{ROOT} is a bundle already: make bundles in a clone")
    archive, manifest = make_bundle(args.out, find_java_home(), pythons)
    size_mib = archive.stat().st_size / 2 ** 20
    python = manifest["python"]
    print(f"wrote {archive} ({size_mib:,.0f} MiB): JDK {manifest['jdk']['runtime_version']}, "
          f"Payara Micro {', '.join(manifest['payara_micro'].values())}, wheels for Python "
          f"{', '.join(python['carried'])} (glibc {python['glibc'] or 'any'}+)")
    for line, why in python["not_carried"].items():
        print(f"  no wheels for Python {line}: {why}")
    print(f"unpack it anywhere and run its ./lab (tar -xzf {archive.name} && cd {archive.name[:-len('.tar.gz')]} "
          "&& ./lab bench --quick)")
    return 0
