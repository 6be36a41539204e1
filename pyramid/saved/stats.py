"""Statistics per game and variant, and how one finished game changes them.

Pure data and arithmetic, so the rules below are tested without a database;
:mod:`pyramid.saved.store` only loads and saves :class:`Stats`.

The key is generic: ``game`` is ``"pyramid"``, ``"pyramids"`` (the duel),
:data:`NETWORK_GAME` (a duel at a network table) or :data:`LOCAL_GAME` (two
players on one console), ``variant`` is whatever distinguishes comparable games
— the rules preset for Pyramid, the opponent's skill level for the duel, the
opponent's name at a network table, the player's own name on one console.

**Assisted games are counted apart.** A game in which the player used an
assist (hint, undo, …) goes to ``assisted_played`` / ``assisted_won`` only: it
is not a win, it does not count as played, it neither extends nor breaks a
streak, and its score is not a best score. The plain figures thus always
describe unaided play, and using a hint never costs the player a streak.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal, NamedTuple

from pyramid.engine.rules import REDEAL_CHOICES, format_redeals

#: The statistics game of Pyramids matches played at network tables (variant: the opponent's name).
NETWORK_GAME = "pyramids-net"
#: The statistics game of Pyramids duels of two players on one console (variant: each player's name:
#: both are counted, each with their own result).
LOCAL_GAME = "pyramids-local"


class DealBest(NamedTuple):
    """A numbered deal won: in how many moves, in how many seconds of play, with what score (None: a
    best recorded before scores were kept with it)."""

    deal: int
    moves: int
    seconds: int
    score: int | None = None


#: What a win of a deal bettered: it is the deal's first win, or it beat the best on the score, or on
#: moves at an equal score, or on time at equal score and moves.
Improvement = Literal["first", "score", "moves", "time"]


def improvement(new: DealBest, best: DealBest | None, higher_is_better: bool = True) -> Improvement | None:
    """What ``new`` betters in the deal's ``best`` so far, or None: best means the score first (higher,
    or lower where ``higher_is_better`` is false), then fewer moves, then less time (docs/rules.md,
    "Bests"). A best recorded without a score is compared on moves and time only."""
    if best is None:
        return "first"
    if new.score is not None and best.score is not None and new.score != best.score:
        return "score" if (new.score > best.score) == higher_is_better else None
    if new.moves != best.moves:
        return "moves" if new.moves < best.moves else None
    return "time" if new.seconds < best.seconds else None


@dataclass(frozen=True)
class GameResult:
    """How one game ended, as the session reports it.

    ``higher_is_better`` says how scores compare: points (RetroHub, the duel)
    are better high, "cards left in the pyramid" (Classic) is better low.
    """

    game: str
    variant: str
    won: bool
    score: int | None = None
    assisted: bool = False
    higher_is_better: bool = True


@dataclass(frozen=True)
class Stats:
    """The record of one (game, variant): unaided figures, then assisted ones; ``old_best_score``, a
    best score made under scoring values since replaced (Three passes before Microsoft's row values),
    kept to be shown apart and never compared with scores of today's values."""

    game: str
    variant: str
    played: int = 0
    won: int = 0
    best_score: int | None = None
    current_streak: int = 0
    best_streak: int = 0
    assisted_played: int = 0
    assisted_won: int = 0
    old_best_score: int | None = None

    @property
    def win_rate(self) -> float | None:
        """Unaided wins per unaided game played (0.0 … 1.0); ``None`` before the first game."""
        return self.won / self.played if self.played else None

    def after(self, result: GameResult) -> "Stats":
        """These statistics with ``result`` counted (see the module note on assisted games)."""
        if (result.game, result.variant) != (self.game, self.variant):
            raise ValueError(
                f"result for {result.game!r}/{result.variant!r} recorded into {self.game!r}/{self.variant!r}"
            )
        if result.assisted:
            return replace(
                self,
                assisted_played=self.assisted_played + 1,
                assisted_won=self.assisted_won + result.won,
            )
        streak = self.current_streak + 1 if result.won else 0
        return replace(
            self,
            played=self.played + 1,
            won=self.won + result.won,
            best_score=_better_score(self.best_score, result.score, result.higher_is_better),
            current_streak=streak,
            best_streak=max(self.best_streak, streak),
        )


def _better_score(best: int | None, score: int | None, higher_is_better: bool) -> int | None:
    if score is None:
        return best
    if best is None:
        return score
    return max(best, score) if higher_is_better else min(best, score)


class PyramidVariant(NamedTuple):
    """The statistics key of a Pyramid game: its preset and the redeal allowance chosen.

    Stored as text, ``"retrohub/one"``: the preset name, a slash, the redeal
    word of :data:`~pyramid.engine.rules.REDEAL_CHOICES`. Games of one preset
    with different redeals are not comparable, so each has its own record.
    """

    preset: str
    redeals: int | None

    @property
    def redeals_word(self) -> str:
        return format_redeals(self.redeals)

    @property
    def key(self) -> str:
        return f"{self.preset}/{self.redeals_word}"

    @classmethod
    def parse(cls, key: str) -> "PyramidVariant | None":
        """The variant a stored key names, or ``None`` for keys of another form."""
        preset, slash, word = key.partition("/")
        if not slash or word not in REDEAL_CHOICES:
            return None
        return cls(preset, REDEAL_CHOICES[word])


class DailyPlay(NamedTuple):
    """A game of the daily deal of ``day``, as it is counted for that day: ``late`` when it was dealt
    after its day (from the calendar: it marks the day, never a streak), ``moves`` when it was won
    unaided (the calendar's "won in par"), ``score`` of an unaided game of a variant that scores points
    (its "best score reached")."""

    day: datetime.date
    late: bool = False
    moves: int | None = None
    score: int | None = None


class DailyRecord(NamedTuple):
    """How the daily deal of one day went under one variant, over every game of it: won unaided, the
    fewest moves of an unaided win, the best score of an unaided game, and whether it was first played
    after its day (then it counts in no streak)."""

    won: bool
    moves: int | None = None
    score: int | None = None
    late: bool = False


class DailyStreaks(NamedTuple):
    """Days in a row on which the daily deal was played, and won (now, and the best runs)."""

    played: int = 0
    won: int = 0
    best_played: int = 0
    best_won: int = 0


def daily_streaks(days: Mapping[datetime.date, bool], today: datetime.date) -> DailyStreaks:
    """The streaks of ``days`` (date → won) as of ``today``.

    The current streaks count back from today: they run back from the last day
    played on or before today, and are broken once a whole day has passed
    without the daily deal. Days after today are left out of them, so one row
    dated 2099 (a clock that was wrong once) does not hold them at 1 for ever
    (issue 26). A clock set back before every day played breaks nothing: the
    streaks are then read as of the last day played, so a wrong date never
    costs a player a streak. The best runs count every day.
    """
    if not days:
        return DailyStreaks()
    ordered = sorted(days)
    best_played = best_won = run_played = run_won = 0
    runs: dict[datetime.date, tuple[int, int]] = {}
    previous: datetime.date | None = None
    for day in ordered:
        consecutive = previous is not None and (day - previous).days == 1
        run_played = run_played + 1 if consecutive else 1
        run_won = (run_won + 1 if consecutive else 1) if days[day] else 0
        best_played, best_won = max(best_played, run_played), max(best_won, run_won)
        runs[day] = run_played, run_won
        previous = day
    past = [day for day in ordered if day <= today]
    last = past[-1] if past else ordered[-1]
    if past and (today - last).days > 1:  # a day went by without the daily deal
        return DailyStreaks(0, 0, best_played, best_won)
    return DailyStreaks(*runs[last], best_played, best_won)
