"""Shared test set-up: make the hand-built deals importable and keep SDL off screen."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def pytest_configure(config: pytest.Config) -> None:
    """The run's one folder for the table servers' CA (tests/table_server.py), made by the controlling
    process before xdist starts its workers, which inherit its name."""
    if not hasattr(config, "workerinput") and "PYRAMID_TEST_AUTHORITY" not in os.environ:
        os.environ["PYRAMID_TEST_AUTHORITY"] = tempfile.mkdtemp(prefix="pyramid-authority-")
        config.add_cleanup(lambda: shutil.rmtree(os.environ.pop("PYRAMID_TEST_AUTHORITY"), ignore_errors=True))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``machine`` share one resource of the machine: under xdist (``--dist loadgroup``)
    they all run in one worker, one after the other."""
    for item in items:
        if item.get_closest_marker("machine") is not None:
            item.add_marker(pytest.mark.xdist_group("machine"))


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """A test that speaks another language leaves the console's catalogue English for the next one
    (the language is one for the whole process, like gettext's locale)."""
    yield
    from pyramid.console.catalogue import use_language

    use_language("en")


@pytest.fixture(autouse=True)
def restore_environment():
    """Undo what a test's code wrote into os.environ (SDL hints, drivers), so no later test inherits it."""
    saved = dict(os.environ)
    yield
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(autouse=True)
def data_directory(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Every test (and every console it starts) keeps its data in a directory of its own."""
    directory = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("PYRAMID_DATA_DIR", str(directory))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return directory


@pytest.fixture(params=["python", "compiled"])
def each_solver_core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test once with each solver core answering ``solve`` and ``DealSolver`` by default:
    the pure-Python reference (as where the compiled core does not load) and the compiled one."""
    from pyramid.engine.solver import compiled

    if request.param == "python":
        monkeypatch.setattr(compiled, "load", lambda: None)
    elif compiled.load() is None:
        pytest.fail("the compiled solver core does not load (./test.sh builds it; the log says why)")
    return str(request.param)
