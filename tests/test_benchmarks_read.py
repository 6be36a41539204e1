"""Every name a benchmark imports from the console exists (issue 48: benchmarks/bench_net_console.py
imported ``TableService`` inside a function for two issues after it was gone, and nothing noticed).

The benchmarks are run by hand, not by the suite; their imports, at any depth (a benchmark often
imports inside the function that needs pygame or a thread), are read with ``ast`` and resolved here.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = ("pyramid", "display", "input", "audio")
BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py"))


def imported_names(path: Path) -> list[tuple[str, str, int]]:
    """(module, name, line) of each ``from OURS… import name`` in ``path``, at any depth."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] in OURS:
            found += [(node.module or "", alias.name, node.lineno) for alias in node.names]
    return found


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda path: path.name)
def test_what_a_benchmark_imports_exists(path: Path) -> None:
    missing = []
    for module, name, line in imported_names(path):
        try:
            loaded = importlib.import_module(module)
        except ImportError as error:
            missing.append(f"{path.name}:{line} {module}: {error}")
            continue
        if not hasattr(loaded, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                missing.append(f"{path.name}:{line} {module} has no {name}")
    assert missing == []


def test_the_reader_finds_function_level_imports() -> None:
    names = {(module, name) for module, name, _ in imported_names(ROOT / "benchmarks" / "bench_net_console.py")}
    assert ("pyramid.console.net.tables", "Tables") in names
