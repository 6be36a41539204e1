"""RetroHub verdicts against a stored reference, for every redeal choice.

``data/retrohub_verdicts.txt`` holds the verdicts of 400 numbered deals as the
solver gave them before its pruning was strengthened (an exhaustive search
with weaker pruning, independent of the rules added since). A pruning rule
that cut a winning line would turn one of these wins into a loss; a broken
line would fail the replay. Every tenth deal runs by default, all of them with
``PYRAMID_SLOW=1``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import REDEAL_CHOICES, preset
from pyramid.engine.solver import solve

#: Each test runs with each solver core: the compiled one and the Python reference it must equal.
pytestmark = pytest.mark.usefixtures("each_solver_core")

REFERENCE = Path(__file__).parent / "data" / "retrohub_verdicts.txt"
ALL_DEALS = os.environ.get("PYRAMID_SLOW") == "1"


def reference_verdicts() -> list[tuple[int, dict[str, str]]]:
    """(deal number, {redeal choice: "win" | "lose"}) for each stored deal."""
    deals = []
    for line in REFERENCE.read_text().splitlines():
        if line.startswith("#"):
            continue
        number, letters = line.split()
        verdicts = {choice: "win" if letter == "W" else "lose" for choice, letter in zip(REDEAL_CHOICES, letters)}
        deals.append((int(number), verdicts))
    return deals


def test_the_reference_covers_wins_and_losses_of_every_redeal_choice() -> None:
    deals = reference_verdicts()
    assert len(deals) == 400
    for choice in REDEAL_CHOICES:
        outcomes = {verdicts[choice] for _, verdicts in deals}
        assert outcomes == {"win", "lose"}, choice


@pytest.mark.parametrize("choice", list(REDEAL_CHOICES))
def test_verdicts_match_the_reference(choice: str) -> None:
    rules = preset("retrohub").with_redeals(REDEAL_CHOICES[choice])
    deals = reference_verdicts()
    checked = deals if ALL_DEALS else deals[::10]
    for number, verdicts in checked:
        board = Board(numbered_deal(number), rules)
        solution = solve(board)
        assert solution.verdict == verdicts[choice], f"deal {number}, redeals {choice}"
        for move in solution.moves:
            board.push(move)
        assert solution.verdict == "lose" or board.status() == "cleared", f"deal {number}, redeals {choice}"
