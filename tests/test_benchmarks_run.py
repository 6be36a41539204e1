"""The solver's benchmarks that other benchmarks lean on run end to end on a few deals.

bench_hints.py and bench_two_passes.py called ``bench_solver.reference_deals`` with the arguments of
a helper that had become ``deals_for``: both died before their first row, and the import check
(test_benchmarks_read.py) could not tell, the name being still there. A few deals each, a few seconds.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("command, row", [
    (["bench_hints.py", "--deals", "8", "--hardest", "1", "--hints", "3", "three-pass"], "| three-pass |"),
    (["bench_two_passes.py", "--deals", "2", "--slowest", "1", "classic"], "| 1 | win |"),
], ids=["bench_hints", "bench_two_passes"])
def test_a_solver_benchmark_prints_its_rows(command: list[str], row: str) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / command[0]), *command[1:]], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert row in run.stdout, run.stdout
