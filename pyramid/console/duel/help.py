"""The Pyramids "Rules & controls" page, worded from the rules' own numbers."""

from __future__ import annotations

from pyramid.console.help_text import Sections
from pyramid.console.screen import Console, HelpScreen
from pyramid.engine.duel.board import PYRAMIDS, DuelRules

CONTROLS: tuple[str, ...] = (
    "◀ ▶ ▲ ▼  aim;  ✓  play the card, the stock or the joker aimed at",
    "Back or ✱  leave (the game is saved);  touch a card to play it",
)


def pyramids_help(rules: DuelRules = PYRAMIDS) -> Sections:
    """Rules and controls of the Pyramids duel, short enough for a 320x240 screen."""
    step = rules.placement_step
    placing = ("An uncovered card goes on the pile when it is one higher or lower, in any suit;"
               " the ace is next to both the king and the 2.")
    points = (f"Cards placed in a row score {step}, {2 * step}, {3 * step}, …; turning the stock costs"
              f" {rules.turn_cost} and ends the run; a cleared pyramid scores {rules.clear_bonus}"
              " and deals the next round.")
    return (
        ("Goal", (f"Beat your opponent's total over {rules.rounds} rounds dealt alike to both.",)),
        ("Placing", (placing,)),
        ("Points", (points,)),
        ("Joker", (f"Once a round, for {rules.joker_cost}: any uncovered card goes on it, and the run goes on.",)),
        ("End", ("The game ends when the round can no longer be cleared.",)),
        ("Controls", CONTROLS),
    )


def open_pyramids_help(session: Console) -> None:
    """Push the Pyramids rules, paged like Pyramid's."""
    session.push(HelpScreen(session, "Pyramids: rules & controls", pyramids_help()))


class PyramidsHelpKey:
    """Mixed into every Pyramids screen: ``help`` opens the Pyramids rules, not Pyramid's."""

    session: Console

    def on_help(self) -> None:
        open_pyramids_help(self.session)
