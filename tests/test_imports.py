"""The modules' imports run one way (issue 20 item 3, "Done when"): read from the source, not imported.

Every module under ``solver/`` and ``bots/`` is parsed with :mod:`ast`; the imports it runs are
collected wherever they stand (module level, inside functions and classes, under ``try``), except
those under ``if TYPE_CHECKING:``, which never run. Each is resolved to a module of the repository:

* ``import a.b.c`` and ``from a.b.c import name`` (``name`` not a module) are edges to ``a.b.c``;
* ``from a.b import c`` where ``a.b.c`` is a module is an edge to ``a.b.c`` (not to ``a.b``);
* relative forms are resolved against the importing module's package first.

Parent packages are not edges: importing ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py``
first, but those inits are infrastructure (``bots.gcbc.heuristic`` importing its sibling as
``from bots.gcbc import rollout`` is not a cycle through ``bots/gcbc/__init__.py``). A package's
``__init__`` that imports something is an edge like any other module's. Imports by name at run time
(``importlib.import_module`` of a registry string) are not edges: the registries hold data.

Then: no module under ``solver`` imports ``bots``; no module under ``solver.games`` imports
``solver.belief``, ``solver.search`` or ``solver.plan``; and the graph has no cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "bots")
#: What a game may not import: the layers built on top of games.
ABOVE_GAMES = ("solver.belief", "solver.search", "solver.plan")


@dataclass(frozen=True)
class Import:
    """One import statement of a repository module, resolved to the repository module it runs."""

    source: str  # the importing module
    target: str  # the imported repository module
    line: int
    text: str  # the statement as written

    def __str__(self) -> str:
        return f"{self.source} -> {self.target}   ({module_path(self.source)}:{self.line}: {self.text})"


def module_name(path: Path) -> str:
    """``solver/core/game.py`` -> ``solver.core.game``; a package's ``__init__.py`` -> the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def repository_modules(root: Path = ROOT) -> dict[str, Path]:
    """Module name -> source file, for every ``.py`` file under the packages (build output aside)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                modules[module_name(path)] = path
    return modules


MODULES = repository_modules()


def module_path(name: str) -> str:
    return str(MODULES[name].relative_to(ROOT)) if name in MODULES else name


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def run_time_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of ``tree`` that can run, in source order (``if TYPE_CHECKING:`` bodies
    skipped, their ``else`` kept)."""
    if isinstance(tree, ast.Import | ast.ImportFrom):
        yield tree
        return
    if isinstance(tree, ast.If) and _is_type_checking(tree.test):
        for node in tree.orelse:
            yield from run_time_imports(node)
        return
    for child in ast.iter_child_nodes(tree):
        yield from run_time_imports(child)


def resolve(source: str, node: ast.Import | ast.ImportFrom, modules: dict[str, Path]) -> list[str]:
    """The repository modules one import statement of module ``source`` runs (parents excluded)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in modules]
    if node.level:
        is_package = modules[source].name == "__init__.py"
        package = source.split(".") if is_package else source.split(".")[:-1]
        base = package[: len(package) - (node.level - 1)]
        stem = ".".join(base + ([node.module] if node.module else []))
    else:
        stem = node.module or ""
    targets = []
    for alias in node.names:
        submodule = f"{stem}.{alias.name}"
        if submodule in modules:
            targets.append(submodule)
        elif stem in modules:
            targets.append(stem)
    return list(dict.fromkeys(targets))


def import_graph(modules: dict[str, Path] = MODULES) -> list[Import]:
    """Every run-time import between repository modules."""
    edges: list[Import] = []
    for source, path in modules.items():
        text = path.read_text()
        lines = text.splitlines()
        for node in run_time_imports(ast.parse(text, filename=str(path))):
            for target in resolve(source, node, modules):
                if target != source:
                    edges.append(Import(source, target, node.lineno, lines[node.lineno - 1].strip()))
    return edges


def cycles(edges: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:  # recursion depth is bounded by the module count (a few hundred)
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def describe_cycles(edges: list[Import]) -> str:
    """Each cycle's modules and the import lines that close it."""
    out = []
    for component in cycles(edges):
        members = set(component)
        out.append("cycle: " + ", ".join(component))
        out += [f"    {e}" for e in edges if e.source in members and e.target in members]
    return "\n".join(out)


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


EDGES = import_graph()


# --- the rules -------------------------------------------------------------------------------------
def test_the_engine_never_imports_the_front_end() -> None:
    wrong = [str(e) for e in EDGES if _under(e.source, "solver") and _under(e.target, "bots")]
    assert not wrong, "solver imports bots:\n" + "\n".join(wrong)


def test_games_import_no_belief_search_or_plan() -> None:
    wrong = [str(e) for e in EDGES if _under(e.source, "solver.games")
             and any(_under(e.target, layer) for layer in ABOVE_GAMES)]
    assert not wrong, "a game imports a layer above games:\n" + "\n".join(wrong)


def test_no_import_cycle() -> None:
    found = describe_cycles(EDGES)
    assert not found, "import cycles at run time:\n" + found


# --- the reader itself --------------------------------------------------------------------------------
def _graph_of(tmp_path: Path, files: dict[str, str]) -> list[Import]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    modules = {}
    for path in sorted(tmp_path.rglob("*.py")):
        parts = list(path.relative_to(tmp_path).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    edges: list[Import] = []
    for source, path in modules.items():
        for node in run_time_imports(ast.parse(path.read_text())):
            targets = [t for t in resolve(source, node, modules) if t != source]
            edges += [Import(source, t, node.lineno, "") for t in targets]
    return edges


def test_reader_resolves_forms_and_skips_type_checking(tmp_path: Path) -> None:
    edges = _graph_of(tmp_path, {
        "p/__init__.py": "from p import a\n",
        "p/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p import b\n"
                  "else:\n    import p.c\n",
        "p/b.py": "def f():\n    from . import a\n    from .c import thing\n",
        "p/c.py": "from p import d\n",
        "p/d.py": "try:\n    from p.sub.e import x\nexcept ImportError:\n    pass\n",
        "p/sub/__init__.py": "",
        "p/sub/e.py": "from .. import d\nfrom ..sub import e\n",
    })
    got = {(e.source, e.target) for e in edges}
    assert got == {("p", "p.a"), ("p.a", "p.c"), ("p.b", "p.a"), ("p.b", "p.c"), ("p.c", "p.d"),
                   ("p.d", "p.sub.e"), ("p.sub.e", "p.d")}
    assert cycles(edges) == [["p.d", "p.sub.e"]]


def test_reader_finds_no_cycle_in_a_tree(tmp_path: Path) -> None:
    files = {"q/__init__.py": "from q import x\n", "q/x.py": "import q.y\n", "q/y.py": ""}
    edges = _graph_of(tmp_path, files)
    assert cycles(edges) == [] and {(e.source, e.target) for e in edges} == {("q", "q.x"), ("q.x", "q.y")}


def test_every_module_is_read() -> None:
    assert "solver.core.game" in MODULES and "bots.registry" in MODULES and "solver" in MODULES
    assert any(e.source == "bots.registry" and e.target == "solver.games" for e in EDGES)

