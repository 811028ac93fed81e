"""labkit's modules import each other without a cycle, so any of them can be imported first.

Only module-level imports count: an import inside a function runs when the function is called,
after every module has loaded (the target and scenario registries load theirs that way)."""
import ast
import subprocess
import sys
from pathlib import Path

from labkit import ROOT


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


def test_labkit_has_no_import_cycle():
    graph = import_graph(ROOT / "labkit")
    assert {"labkit.cli", "labkit.servers.interface", "labkit.commands.run", "labkit.apps.cargotracker", "labkit.servers.appserver.server",
            "labkit.bench.runner"} <= set(graph)
    assert "labkit.servers.payara_micro" in graph["labkit.apps.cargotracker"]  # the graph sees relative imports
    assert find_cycle(graph) is None


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
