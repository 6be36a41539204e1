"""The type check is part of the test command: ``mypy --strict`` stays clean on pyramid, display, input, audio.

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
    assert set(config["files"]) == {"pyramid", "display", "input", "audio"}
    assert all((ROOT / package / "py.typed").is_file() for package in config["files"])
