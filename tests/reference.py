"""The reference deals in ``tests/data/msc-1500/``: facts about 1,500 deals found by independent
solvers, which the project's own tests and benchmarks hold its solver to (the README beside the
files says where each figure comes from and under what licence).

They live in the repository so that a bare clone tests what CI tests; ``../shared`` is needed only
to run the peer programs themselves beside ours.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "data" / "msc-1500"
DECKS = FOLDER / "decks.txt.gz"
LENGTHS = FOLDER / "solution-lengths.txt"
BEST_SCORES = FOLDER / "best-scores.txt"
#: Their rules: Microsoft Solitaire Collection's, the ``three-pass`` preset.
RULES_PRESET = "three-pass"


@dataclass(frozen=True)
class ReferenceDeal:
    """One reference deal and what is known of it under :data:`RULES_PRESET`."""

    number: int
    """From 1, as the files and the peers count them."""
    deal: str
    """52 cards in the notation of SPEC.md section 6: the pyramid top to bottom, then the stock."""
    length: int
    """The shortest solution's steps (a draw, a recycle or a removal each); 0: cannot be cleared."""
    best_score: int | None
    """The best score the independent best-score solver found; ``None`` where it was not run."""

    @property
    def winnable(self) -> bool:
        return self.length > 0


@cache
def reference_deals() -> tuple[ReferenceDeal, ...]:
    """All 1,500, in order; a file that does not match the others is an error, not fewer deals."""
    with gzip.open(DECKS, "rt", encoding="ascii") as stream:
        decks = stream.read().splitlines()
    lengths = [int(word) for word in LENGTHS.read_text(encoding="ascii").split()]
    if len(decks) != len(lengths):
        raise ValueError(f"{DECKS.name} has {len(decks)} deals, {LENGTHS.name} {len(lengths)} lengths")
    scores = best_scores()
    if any(number > len(decks) for number in scores):
        raise ValueError(f"{BEST_SCORES.name} names a deal past {len(decks)}")
    return tuple(ReferenceDeal(number, deck, length, scores.get(number))
                 for number, (deck, length) in enumerate(zip(decks, lengths), start=1))


def best_scores() -> dict[int, int]:
    """Deal number → the independent solver's best score (``#`` starts a comment)."""
    scores: dict[int, int] = {}
    for line in BEST_SCORES.read_text(encoding="ascii").splitlines():
        fields = line.split("#", 1)[0].split()
        if fields:
            number, score = (int(field) for field in fields)
            scores[number] = score
    return scores


def write_decks(path: Path, deals: list[ReferenceDeal]) -> Path:
    """``deals`` one a line in a plain text file, as the peer programs and ``pyramid solve`` read them."""
    path.write_text("".join(deal.deal + "\n" for deal in deals), encoding="ascii")
    return path
