"""labkit's layers (labkit/__init__.py's LAYERS) import downward only, and its modules import each
other without a cycle, so any of them can be imported first.

For the cycle check only module-level imports count: an import inside a function runs when the
function is called, after every module has loaded. For the layers every import counts, wherever
it stands: a function that reaches up a layer is as much a dependency as a module that does."""
import ast
import subprocess
import sys
from pathlib import Path

from labkit import LAYERS, ROOT


def module_name(path, root):
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_level_imports(tree):
    """The import statements that run when the module loads (in if/try blocks too, not in functions)."""
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        pending.extend(child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt))


def import_graph(package_dir):
    """{module: the package's modules it imports at module level}, tests left out."""
    root = Path(package_dir).parent
    files = {module_name(path, root): path for path in Path(package_dir).rglob("*.py")
             if "tests" not in path.relative_to(root).parts}
    graph = {}
    for name, path in files.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        imported = set()
        for node in module_level_imports(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
                continue
            base = ".".join(package[:len(package) - node.level + 1]) if node.level else ""
            source = ".".join(part for part in (base, node.module) if part)
            imported.add(source)
            imported.update(f"{source}.{alias.name}" for alias in node.names)  # from . import module
        graph[name] = {module for module in imported if module in files and module != name}
    return graph


def find_cycle(graph):
    """One import cycle as [a, b, ..., a], or None."""
    state = {}  # module -> "open" while its imports are followed, "done" after

    def visit(module, path):
        state[module] = "open"
        for imported in sorted(graph[module]):
            if state.get(imported) == "open":
                return path[path.index(imported):] + [imported]
            if imported not in state:
                cycle = visit(imported, path + [imported])
                if cycle:
                    return cycle
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module, [module])
            if cycle:
                return cycle
    return None


def all_imports(package_dir):
    """[(module, imported module, line)] for every import of the package's own modules, at any depth
    of the code (functions too), tests left out; relative imports resolved."""
    root = Path(package_dir).parent
    found = []
    for path in sorted(Path(package_dir).rglob("*.py")):
        if "tests" in path.relative_to(root).parts:
            continue
        name = module_name(path, root)
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found += [(name, alias.name, node.lineno) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(package[:len(package) - node.level + 1]) if node.level else ""
                found.append((name, ".".join(part for part in (base, node.module) if part), node.lineno))
    top = Path(package_dir).name
    return [(module, imported, line) for module, imported, line in found
            if imported == top or imported.startswith(top + ".")]


def room(module):
    """A module's room: the first name below the package (labkit.measure.session -> measure); the
    package's own face (labkit/__init__.py) is ground."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def layer_violations(package_dir, layers):
    """Imports that go up or sideways between rooms: a room may import its own modules and those of
    any room in a lower layer, nothing else. `layers` lists the rooms of each layer, top first;
    a module in no listed room is a violation of its own."""
    rank = {name: len(layers) - i for i, rooms in enumerate(layers) for name in rooms}
    rank[None] = 0  # the package's face: ROOT and LAYERS, below everything
    problems = []
    for module, imported, line in all_imports(package_dir):
        mine, theirs = room(module), room(imported)
        if mine not in rank:
            problems.append(f"{module}: in no layer (add its room to LAYERS)")
        elif mine != theirs and rank.get(theirs, len(layers) + 1) >= rank[mine]:
            problems.append(f"{module}:{line} imports {imported} ({theirs} is not below {mine})")
    return sorted(set(problems))


def test_labkit_imports_only_downward():
    assert layer_violations(ROOT / "labkit", LAYERS) == []


def test_an_upward_or_sideways_import_is_a_violation(tmp_path):
    # A copy of labkit's own shape with three planted imports: a server kind reaching up into the
    # measurement layer (inside a function), one run reaching into another, and a room in no layer.
    package = tmp_path / "labkit"
    for folder in ("servers", "measure", "bench", "capacity", "ground", "stray"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "ground" / "errors.py").write_text("")
    (package / "measure" / "session.py").write_text("from labkit.ground import errors\nfrom labkit.servers import kind\n")
    (package / "servers" / "kind.py").write_text("from ..ground.errors import x\n\ndef later():\n"
                                                 "    from labkit.measure.session import drive\n")
    (package / "bench" / "runner.py").write_text("from labkit.measure import session\n")
    (package / "capacity" / "runner.py").write_text("from labkit.bench.runner import x\nfrom . import search\n")
    (package / "capacity" / "search.py").write_text("")
    (package / "stray" / "thing.py").write_text("from labkit.ground import errors\n")
    layers = (("bench", "capacity"), ("measure",), ("servers",), ("ground",))
    assert layer_violations(package, layers) == [
        "labkit.capacity.runner:1 imports labkit.bench.runner (bench is not below capacity)",
        "labkit.servers.kind:4 imports labkit.measure.session (measure is not below servers)",
        "labkit.stray.thing: in no layer (add its room to LAYERS)",
    ]


def test_labkit_has_no_import_cycle():
    graph = import_graph(ROOT / "labkit")
    assert {"labkit.cli", "labkit.servers.interface", "labkit.commands.run", "labkit.apps.cargotracker", "labkit.servers.appserver.server",
            "labkit.bench.runner"} <= set(graph)
    assert "labkit.servers.payara_micro" in graph["labkit.apps.cargotracker"]  # the graph sees absolute imports
    assert find_cycle(graph) is None


def test_no_labkit_module_is_above_400_lines():
    # Small modules with one job; tests aside.
    long = {str(path.relative_to(ROOT)): n for path in (ROOT / "labkit").rglob("*.py")
            if "tests" not in path.parts and (n := len(path.read_text().splitlines())) > 400}
    assert long == {}


def test_a_cycle_through_a_relative_import_is_found(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("try:\n    from .. import c\nexcept ImportError:\n    pass\n")
    (package / "c.py").write_text("import json\nfrom .a import x\n")
    (package / "lazy.py").write_text("def later():\n    from . import a\n")
    (package / "d.py").write_text("from . import lazy\n")
    graph = import_graph(package)
    assert graph["pkg.lazy"] == set() and graph["pkg.d"] == {"pkg", "pkg.lazy"}  # the package loads first
    assert find_cycle(graph) == ["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]


def test_the_modules_in_a_cycle_once_named_by_the_issue_import_first_in_a_fresh_interpreter():
    # commands/run.py -> cargotracker.py / payara_server.py -> back to run: each must load on its own.
    for module in ("labkit.apps.cargotracker", "labkit.servers.appserver.payara_server", "labkit.servers.appserver.glassfish", "labkit.commands.run"):
        result = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, stderr=subprocess.PIPE,
                                text=True, timeout=60)
        assert result.returncode == 0, (module, result.stderr)
