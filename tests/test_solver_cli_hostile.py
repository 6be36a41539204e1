"""``pyramid solve`` against hostile input and runaway searches (issue 13, item 12).

A file that is not text, or has no end, is one line; workers never outnumber
the deals or the cores; ``--budget`` and ``--max-memory`` turn a search that
would run away into the verdict ``unknown``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pyramid.engine.cards import format_cards
from pyramid.engine.deal import numbered_deal
from pyramid.solve_cli import MAX_INPUT_BYTES, main, parse_memory, worker_count

REPO = Path(__file__).resolve().parents[1]
#: Deal 2 with unlimited redeals, optimal: over 20 s and 500 MB, far beyond the budgets below.
RUNAWAY = format_cards(numbered_deal(2))
QUICK = format_cards(numbered_deal(3))  # lost at once


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    (line,) = err.strip().splitlines()
    return line


def test_a_binary_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.bin"
    path.write_bytes(bytes(range(256)) * 4)
    assert main([str(path)]) == 2
    assert "not UTF-8" in one_line(capsys)


def test_an_endless_file_is_refused_at_the_size_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["/dev/zero"]) == 2
    assert f"larger than {MAX_INPUT_BYTES >> 20} MiB" in one_line(capsys)


def test_a_line_far_too_long_for_a_deal_is_not_quoted_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.txt"
    path.write_text("Ac " * 100_000 + "\n")
    assert main([str(path)]) == 2
    line = one_line(capsys)
    assert "line 1" in line and len(line) < 300


def test_a_directory_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path)]) == 2
    assert "cannot read" in one_line(capsys)


def test_workers_never_outnumber_the_deals_or_the_cores() -> None:
    cores = len(os.sched_getaffinity(0))
    assert worker_count(100, 2) == min(2, cores)
    assert worker_count(1000, 10_000) == cores
    assert worker_count(1, 50) == 1


@pytest.mark.parametrize(("text", "value"), [("512M", 512 << 20), ("2G", 2 << 30), ("64m", 64 << 20),
                                             ("100000000", 100_000_000)])
def test_memory_sizes(text: str, value: int) -> None:
    assert parse_memory(text) == value


@pytest.mark.parametrize("text", ["", "lots", "-5M", "1T5", "0", "1K"])
def test_bad_memory_sizes_are_one_line(text: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(QUICK + "\n")
    assert main(["--max-memory", text, str(path)]) == 2
    assert "--max-memory" in one_line(capsys)


@pytest.mark.parametrize("budget", ["0", "-1", "nan", "inf", "soon"])
def test_bad_budgets_are_one_line(budget: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(QUICK + "\n")
    assert main(["--budget", budget, str(path)]) == 2
    assert "--budget" in one_line(capsys)


def solve_command(*args: str, deals: list[str]) -> list[list[str]]:
    result = subprocess.run([sys.executable, "-m", "pyramid", "solve", *args, "-"], input="\n".join(deals) + "\n",
                            capture_output=True, text=True, timeout=300, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return [line.split() for line in result.stdout.splitlines()]


def test_a_time_budget_gives_unknown_and_the_next_deal_is_still_solved() -> None:
    lines = solve_command("--redeals", "unlimited", "--optimal", "--budget", "0.5", deals=[RUNAWAY, QUICK])
    assert [line[:3] for line in lines] == [["1", "unknown", "0"], ["2", "lose", "0"]]


def test_a_memory_limit_gives_unknown_and_the_next_deal_is_still_solved() -> None:
    lines = solve_command("--redeals", "unlimited", "--optimal", "--max-memory", "150M", deals=[RUNAWAY, QUICK])
    assert [line[:3] for line in lines] == [["1", "unknown", "0"], ["2", "lose", "0"]]
