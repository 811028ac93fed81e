"""The thread modes, read from domain-config/ (domain-config/README.md describes the files).

A mode is a folder of domain-config/ with a pre-boot-commands.asadmin (virtual, virtual-reusing), or
a size of a template folder `<family>-N` whose file says {N} where the size goes (platform-N gives
platform-8, platform-4000, ...; virtual-N gives virtual-4000). A mode's complete pre-boot file is its
own lines, then domain-config/shared-limits.asadmin: every server of the lab gets that rendered file
(Payara Micro as it is, Payara Server and GlassFish translated by labkit/appserver, the Docker images
and Maven's Arquillian runs through `python3 -m labkit.servers.modes render`).

What the lab knows of a mode is read from its rendered commands, never written down a second time:
virtual when Grizzly's pool class comes from one of the lab's pool jars (virtual-pool's, or Grizzly 5's
executor in grizzly5-pool's), bounded by max-thread-pool-size unless its class ignores that setting;
the description is the file's first line, `# Mode NAME: description`.

Standard library only: the Docker images run this module without the lab's venv.
"""
import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from labkit import ROOT
from labkit.ground.errors import LabError, UsageError

DOMAIN_CONFIG = ROOT / "domain-config"
PREBOOT = "pre-boot-commands.asadmin"
SHARED_LIMITS = "shared-limits.asadmin"
# A template folder's name ends with TEMPLATE_SUFFIX; its files say PLACEHOLDER where the size goes.
TEMPLATE_SUFFIX = "-N"
PLACEHOLDER = "{N}"
# `#! key: value` lines of a template (its range, its standard sizes): read here, not rendered.
DIRECTIVE = re.compile(r"#!\s*(?P<key>[^:]+?)\s*:\s*(?P<value>.*?)\s*")
HEADER = re.compile(r"#\s*Mode\s+(?P<name>\S+):\s*(?P<description>.+?)\.?\s*")
# Mode names are lower case; this also keeps paths (../x, a/b) out of the folder lookup.
MODE_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
SIZED_NAME = re.compile(r"(?P<family>[a-z]+(?:-[a-z]+)*)-(?P<size>\d+)")

POOL = "configs.config.server-config.thread-pools.thread-pool.http-thread-pool."
GRIZZLY_POOL = "org.glassfish.grizzly.threadpool.GrizzlyExecutorService"
VIRTUAL_POOL_PACKAGE = "dev.loomlab.virtualpool."
# The pool libraries a mode may name, by their classes' package; each serves on virtual threads and is
# a jar the server must be given (ground/build.py: POOL_JARS): the lab's pool (virtual-pool/) and
# Grizzly 5's executor for Payara's Grizzly 4 (grizzly5-pool/, the comparison mode upstream-virtual-N).
POOL_LIBRARIES = {VIRTUAL_POOL_PACKAGE: "virtual-pool", "dev.loomlab.grizzly5pool.": "grizzly5-pool"}
# virtual-pool's classes that ignore max-thread-pool-size (virtual-pool/README.md); Grizzly's own
# pool, BoundedVirtualThreadPool and Grizzly 5's executor are bounded by it.
UNBOUNDED_POOLS = frozenset(VIRTUAL_POOL_PACKAGE + name for name in ("VirtualThreadPool", "ReusingVirtualThreadPool"))


@dataclass(frozen=True)
class Mode:
    name: str
    description: str
    virtual: bool
    # Requests that may run at once: None when unbounded. Used for Little's-law ceilings.
    max_concurrent: int | None
    # The complete pre-boot file: the mode's own lines, then the shared limits.
    preboot: str = field(repr=False)
    # The file it was rendered from (domain-config/platform-N/pre-boot-commands.asadmin for platform-8).
    source: Path = field(repr=False)
    # N of a template's mode (8 for platform-8); None for a mode of its own folder.
    size: int | None = None
    # The pool library (POOL_LIBRARIES) whose jar the server needs; None for Grizzly's own pool.
    pool_library: str | None = None


@dataclass(frozen=True)
class Template:
    family: str            # "platform" for domain-config/platform-N/
    source: Path
    sizes: range           # the N it accepts
    standard: tuple        # the sizes the lab lists among its modes

    @property
    def form(self):
        return self.family + TEMPLATE_SUFFIX

    def describe(self):
        return f"{self.form} (N from {self.sizes.start} to {self.sizes[-1]})"


def settings(preboot):
    """The `set` lines of a pre-boot file as dotted name -> value; a later line wins, as in asadmin."""
    found = {}
    for line in preboot.splitlines():
        line = line.strip()
        if line.startswith("set "):
            name, _, value = line[len("set "):].strip().partition("=")
            found[name] = value
    return found


def find_mode(name, config_dir=DOMAIN_CONFIG):
    """The mode `name`, rendered; None when no folder or template of domain-config/ gives it. A
    template's name with a size it does not accept is a UsageError that says what it accepts."""
    if not isinstance(name, str) or not MODE_NAME.fullmatch(name):
        return None
    source = config_dir / name / PREBOOT
    if source.is_file():
        return _mode(name, source, None, config_dir)
    sized = SIZED_NAME.fullmatch(name)
    template = templates(config_dir).get(sized["family"]) if sized else None
    if template is None:
        return None
    digits = sized["size"]
    size = int(digits)
    if str(size) != digits:
        raise UsageError(f"mode {name}: write the size without leading zeros ({template.family}-{size})")
    if size not in template.sizes:
        raise UsageError(f"mode {name}: {template.describe()}")
    return _mode(name, template.source, size, config_dir)


def payara_mode(name):
    mode = find_mode(name)
    if mode is None:
        raise UsageError(f"unknown mode '{name}'; choose one of: {choices()}")
    return mode


def choices(config_dir=DOMAIN_CONFIG):
    """The standard modes, then the templates: what to offer after an unknown name."""
    text = ", ".join(standard_modes(config_dir))
    forms = [template.describe() for template in templates(config_dir).values()]
    return text + ("; or any " + ", ".join(forms) if forms else "")


def standard_modes(config_dir=DOMAIN_CONFIG):
    """The modes the lab lists (./lab run --help, the targets registered up front, docker/compose.yaml):
    every mode folder, and each template's standard sizes, in the order of their folders."""
    names = []
    for folder in _mode_folders(config_dir):
        if folder.name.endswith(TEMPLATE_SUFFIX):
            template = _read_template(folder)
            names += [f"{template.family}-{size}" for size in template.standard]
        else:
            names.append(folder.name)
    return {name: find_mode(name, config_dir) for name in names}


def templates(config_dir=DOMAIN_CONFIG):
    """The template folders of domain-config/ by family ("platform" for platform-N/)."""
    found = (_read_template(folder) for folder in _mode_folders(config_dir) if folder.name.endswith(TEMPLATE_SUFFIX))
    return {template.family: template for template in found}


def _mode_folders(config_dir):
    return sorted(path.parent for path in config_dir.glob(f"*/{PREBOOT}"))


def _read_template(folder):
    source = folder / PREBOOT
    where = _shown(source)
    directives = {}
    for line in source.read_text().splitlines():
        directive = DIRECTIVE.fullmatch(line)
        if directive:
            directives[directive["key"].lower()] = directive["value"]
    sizes = re.fullmatch(r"(\d+)\.\.(\d+)", directives.get("n", ""))
    if not sizes or not 1 <= int(sizes[1]) <= int(sizes[2]):
        raise LabError(f"{where}: a template needs the line '#! N: LOW..HIGH' (1 <= LOW <= HIGH)")
    accepted = range(int(sizes[1]), int(sizes[2]) + 1)
    listed = directives.get("standard sizes", "").replace(",", " ").split()
    if not all(size.isdigit() and int(size) in accepted for size in listed):
        raise LabError(f"{where}: '#! standard sizes:' takes numbers from {accepted.start} to {accepted[-1]}")
    return Template(folder.name[:-len(TEMPLATE_SUFFIX)], source, accepted, tuple(int(size) for size in listed))


def _mode(name, source, size, config_dir):
    """Renders the mode and reads its facts from the result."""
    where = _shown(source)
    own = "\n".join(line for line in source.read_text().splitlines() if not DIRECTIVE.fullmatch(line))
    if size is not None:
        own = own.replace(PLACEHOLDER, str(size))
    left = re.search(r"\{\w+\}", own)
    if left:
        raise LabError(f"{where}: {left[0]} is replaced only in a template folder (<family>{TEMPLATE_SUFFIX}), "
                       f"and only {PLACEHOLDER}")
    header = HEADER.fullmatch(own.splitlines()[0] if own else "")
    if not header or header["name"] != name:
        form = name if size is None else f"{name[:-len(str(size))]}{PLACEHOLDER}"
        raise LabError(f"{where}: the first line must be '# Mode {form}: <description>'")
    shared_file = config_dir / SHARED_LIMITS
    shared = shared_file.read_text()
    twice = sorted(settings(own).keys() & settings(shared).keys())
    if twice:
        raise LabError(f"{where} sets {twice[0]}, which {_shown(shared_file)} sets for every mode")
    preboot = (own.rstrip("\n") + f"\n\n# ---- {_shown(shared_file)}: the same in every mode ----\n"
               + shared.rstrip("\n") + "\n")
    values = settings(preboot)
    virtual, bound = pool_facts(name, values, where)
    return Mode(name, header["description"], virtual, bound, preboot, source, size,
                library_of(values.get(POOL + "classname", GRIZZLY_POOL)))


def library_of(pool_class):
    """The pool library (POOL_LIBRARIES) a pool class comes from; None for a class of the server's."""
    return next((library for package, library in POOL_LIBRARIES.items() if pool_class.startswith(package)), None)


def pool_facts(name, values, where):
    """(virtual?, bound or None) of the HTTP pool the commands configure."""
    pool_class = values.get(POOL + "classname", GRIZZLY_POOL)
    virtual = library_of(pool_class) is not None
    if pool_class in UNBOUNDED_POOLS:
        return virtual, None
    size = values.get(POOL + "max-thread-pool-size", "")
    if not size.isdigit() or int(size) < 1:
        raise LabError(f"{where}: mode {name} runs {pool_class}, which max-thread-pool-size bounds: "
                       f"set it to 1 or more")
    return virtual, int(size)


def _shown(path):
    """A path as messages and rendered files show it: relative to the repository when inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


PAYARA_MODES = standard_modes()


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m labkit.servers.modes",
                                     description="The lab's thread modes, read from domain-config/.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="the standard modes (name, threads, bound, description) and the templates")
    render = commands.add_parser("render", help="a mode's complete pre-boot file: its own lines, then the shared limits")
    render.add_argument("modes", nargs="+", metavar="MODE", help="e.g. virtual, platform-4000, platform-8")
    render.add_argument("--out", metavar="DIR",
                        help="write DIR/MODE/pre-boot-commands.asadmin for each MODE (default: print the one MODE's file)")
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            for mode in PAYARA_MODES.values():
                bound = "unbounded" if mode.max_concurrent is None else f"at most {mode.max_concurrent}"
                print(f"{mode.name:<16} {'virtual' if mode.virtual else 'platform':<9} {bound:<16} {mode.description}")
            print("any size of: " + ", ".join(template.describe() for template in templates().values()))
            return 0
        modes = [payara_mode(name) for name in args.modes]  # every name checked before a file is written
        if args.out is None:
            if len(modes) != 1:
                raise UsageError("one MODE prints its file; several need --out DIR")
            sys.stdout.write(modes[0].preboot)
            return 0
        for mode in modes:
            path = Path(args.out) / mode.name / PREBOOT
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(mode.preboot)
        print(f"rendered {', '.join(mode.name for mode in modes)} into {args.out}")
        return 0
    except UsageError as e:
        parser.error(str(e))  # the usage line and exit 2
    except LabError as e:
        print(f"{parser.prog}: {e}", file=sys.stderr)
        return e.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
