"""The type check is part of the test command: ``mypy --strict`` stays clean on pyramid, display, input, audio
and the device's release tool.

The configuration (strict mode, the packages, the untyped hardware libraries)
is in pyproject.toml's ``[tool.mypy]``, so ``python -m mypy`` alone runs the
same check by hand.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_strict_is_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_strict_on_the_four_packages() -> None:
    """The check above means something only while the configuration asks for it."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    packages = {"pyramid", "display", "input", "audio"}
    assert set(config["files"]) == packages | {"firmware/opt/pyramid/bin/pyramid-release"}
    assert all((ROOT / package / "py.typed").is_file() for package in packages)


def test_an_action_compared_with_a_word_is_a_type_error(tmp_path: Path) -> None:
    """Screens compare an action's :class:`~pyramid.actions.Kind` (issue 28): a comparison with a
    word, the old way, could be misspelt and silently never true; now the check above refuses it."""
    screen = tmp_path / "screen_by_words.py"
    screen.write_text("from pyramid.actions import Action, Kind\n\n\n"
                      "def chosen(action: Action) -> bool:\n"
                      "    return action.kind is Kind.OK or action.kind == 'ok' or action.kind in ('tap',)\n",
                      encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir",
                             str(tmp_path / "cache"), str(screen)], cwd=ROOT, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 1
    refused = [line for line in result.stdout.splitlines() if "[comparison-overlap]" in line]
    assert [line.split(":")[1] for line in refused] == ["5", "5"], result.stdout
