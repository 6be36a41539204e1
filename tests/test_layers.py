"""The layers, read from the code: no import cycle, and every package imports only downwards.

The import graph is built from the source with ``ast``: every ``import`` and
``from … import`` counts, at module level or inside a function (a function-local
import is still a dependency, only a later one) or under ``if TYPE_CHECKING:``
(a type-only import never runs, but a reader still has to know the module it
names: a cycle through one is a cycle in the design). docs/architecture.md draws
the layers this test enforces.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Iterator, NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pyramid", "display", "input", "audio")
#: Libraries that touch hardware or the screen: never in the engine, the flow or the saved data.
HARDWARE = ("pygame", "gpiozero", "lgpio", "evdev")
#: What display/ and input/ may read of pyramid/: the view and action contracts, cards, geometry.
CONTRACTS = ("pyramid.view", "pyramid.view_change", "pyramid.sizes", "pyramid.actions", "pyramid.errors",
             "pyramid.engine.cards", "pyramid.engine.tableau")


class Import(NamedTuple):
    source: str  # the importing module, dotted
    target: str  # the module imported, dotted (a package's __init__ is the package's name)
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth (under ``if TYPE_CHECKING:`` too)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """The imports of module ``name``, resolved to dotted module names (relative ones too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [Import(name, alias.name, node.lineno) for alias in node.names]
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            base = ".".join(anchor + ([base] if base else []))
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            found.append(Import(name, submodule if submodule in modules else base, node.lineno))
    return found


def project_graph() -> tuple[dict[str, Path], list[Import]]:
    modules = project_modules()
    edges = [edge for name, path in modules.items() for edge in imports_of(name, path, modules)]
    return modules, edges


def within(module: str, *prefixes: str) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def cycles(modules: dict[str, Path], edges: list[Import]) -> list[list[str]]:
    """Strongly connected groups of more than one module, or a module importing itself (Tarjan)."""
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for edge in edges:
        if edge.target in modules:
            graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph[node]:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def violations(edges: list[Import], layer: str, allowed: tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    """Imports from ``layer`` of anything in ``forbidden`` that is not in ``allowed``."""
    return [f"{edge.source}:{edge.line} imports {edge.target}" for edge in edges
            if within(edge.source, layer) and within(edge.target, *forbidden) and not within(edge.target, *allowed)]


GRAPH = project_graph()


def test_the_graph_is_read_from_the_code() -> None:
    """A sanity check of the reader itself: known edges of each kind are found."""
    modules, edges = GRAPH
    pairs = {(edge.source, edge.target) for edge in edges}
    assert ("pyramid.engine.board", "pyramid.engine.cards") in pairs  # module level
    assert ("pyramid.console.menus", "pyramid.console.game_screen") in pairs  # function-local
    assert ("display.render", "display.layout") in pairs  # relative
    assert ("pyramid.console.protocols", "pyramid.saved.store") in pairs  # under TYPE_CHECKING
    assert len(modules) > 60


def test_no_import_cycle() -> None:
    assert cycles(*GRAPH) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    modules = {"a": Path("a.py"), "b": Path("b.py"), "c": Path("c.py")}
    edges = [Import("a", "b", 1), Import("b", "c", 1), Import("c", "a", 1)]
    assert cycles(modules, edges) == [["a", "b", "c"]]
    assert cycles(modules, edges[:2]) == []


@pytest.mark.parametrize("layer, allowed, forbidden", [
    # The engine: the standard library and the root error only.
    ("pyramid.engine", ("pyramid.engine", "pyramid.errors"), ("pyramid", "display", "input", "audio") + HARDWARE),
    # Saved data: the engine below it, nothing of the flow, the system, the screen or the devices (the
    # list of languages, which the player's setting is checked against, is a base module like the errors).
    ("pyramid.saved", ("pyramid.saved", "pyramid.engine", "pyramid.errors", "pyramid.languages", "pyramid.durable"),
     ("pyramid", "display", "input", "audio") + HARDWARE),
    # Durable files: a base module of the standard library only, for every layer that writes a file.
    ("pyramid.durable", (), ("pyramid", "display", "input", "audio") + HARDWARE),
    # System glue stands alone, but for the root error its failures are told with.
    ("pyramid.system", ("pyramid.system", "pyramid.errors"), ("pyramid", "display", "input", "audio") + HARDWARE),
    # The flow is UI-neutral: no display, no input, no app, no hardware.
    ("pyramid.console", ("pyramid",), ("pyramid.app", "pyramid.options", "pyramid.scripting", "display", "input",
                                       "audio") + HARDWARE),
    # The renderer and the devices read the contracts only: never the flow or the saved data.
    ("display", CONTRACTS, ("pyramid", "audio")),
    ("input", CONTRACTS, ("pyramid", "display", "audio")),
    # Sound reads the view contract only, like the display, and knows nothing of the screen or the devices.
    ("audio", CONTRACTS, ("pyramid", "display", "input")),
])
def test_each_layer_imports_only_downwards(layer: str, allowed: tuple[str, ...], forbidden: tuple[str, ...]) -> None:
    assert violations(GRAPH[1], layer, allowed, forbidden) == []


def test_the_network_layer_stays_below_the_flow() -> None:
    forbidden = ("pyramid.console", "pyramid.app", "display", "input", "audio") + HARDWARE
    assert violations(GRAPH[1], "pyramid.net", (), forbidden) == []


def test_only_the_app_imports_display_input_and_audio() -> None:
    importers = {edge.source for edge in GRAPH[1]
                 if within(edge.target, "display", "input", "audio") and within(edge.source, "pyramid")}
    assert all(within(importer, "pyramid.app") for importer in importers) and importers


def test_the_network_tables_know_no_screen() -> None:
    """``console/net/tables.py`` is the network's state: which screen shows is ``lobby``'s business
    (issue 28). It reads the console's wording and the protocols beside ``Console``, nothing else of it."""
    console_imports = {edge.target for edge in GRAPH[1]
                       if edge.source == "pyramid.console.net.tables" and within(edge.target, "pyramid.console")}
    assert console_imports <= {"pyramid.console.wording", "pyramid.console.net.wording", "pyramid.console.catalogue",
                               "pyramid.console.protocols"}
    assert "pyramid.console.protocols" in console_imports  # the reader sees it: the check can fail


def test_the_consoles_protocols_know_no_screen_class() -> None:
    """Issue 48: ``Console``, ``NetworkTables`` and ``TableRun`` lived beside the screen classes; in
    their own module they name no screen module, so anything can read them without the screens."""
    targets = {edge.target for edge in GRAPH[1] if edge.source == "pyramid.console.protocols"}
    assert "pyramid.saved.store" in targets, "the reader sees its imports: the check can fail"
    assert {target for target in targets if within(target, "pyramid.console")} <= {"pyramid.console.thinking"}


def test_the_stores_queries_use_the_database_without_its_migrations() -> None:
    """Issue 48: ``saved/store.py`` was the queries and the database's life in 1,000 lines. The queries
    open the file through ``saved/database.py`` and never touch its schema's steps."""
    names = {alias.name for node in _import_nodes(ast.parse((ROOT / "pyramid/saved/store.py").read_text()))
             if isinstance(node, ast.ImportFrom) and node.module == "pyramid.saved.database" for alias in node.names}
    assert "open_database" in names, "the reader sees the store's imports: the check can fail"
    assert not names & {"MIGRATIONS", "SCHEMA_VERSION", "migrate"}
    source = (ROOT / "pyramid/saved/store.py").read_text()
    assert "ALTER TABLE" not in source and "PRAGMA user_version" not in source and "CREATE TABLE" not in source


def test_the_durable_write_helper_exists_once() -> None:
    """Issue 48: the directory sync was written twice (the store, the scripted mode)."""
    writers = [path for path in (ROOT / "pyramid").rglob("*.py")
               if "O_DIRECTORY" in path.read_text(encoding="utf-8")]
    assert writers == [ROOT / "pyramid/durable.py"]


def reached_from(start: str, edges: list[Import]) -> set[str]:
    """Every module ``start`` imports, directly or through the project's other modules (libraries included)."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
    seen, todo = set(), [start]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


#: What carries a match (sockets, an event loop, threads): the match's rules know none of it.
TRANSPORT = ("asyncio", "socket", "selectors", "ssl", "threading", "concurrent", "aiomqtt", "paho", "zeroconf")


def test_the_match_core_knows_no_socket_loop_or_thread() -> None:
    """Issue 48: the match's state and the asyncio loop serving it were one class under a lock. The
    rules (``net/match_state.py``) take a message or a tick and return what to send and tell; nothing
    they import, however far, opens a socket, runs a loop or starts a thread."""
    reached = reached_from("pyramid.net.match_state", GRAPH[1])
    assert "pyramid.engine.duel.board" in reached, "the walk follows the project's modules: the check can fail"
    assert "asyncio" in reached_from("pyramid.net.link", GRAPH[1]), "the carrier is seen using asyncio"
    assert sorted(module for module in reached if within(module, *TRANSPORT)) == []
