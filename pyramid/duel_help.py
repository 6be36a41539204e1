"""The Pyramids "Rules & controls" page, worded from the rules' own numbers."""

from __future__ import annotations

from .actions import Action
from .duel import PYRAMIDS, DuelRules
from .help_text import Sections
from .screen import Screen
from .view import Hit, TextView, View

CONTROLS: tuple[str, ...] = (
    "◀ ▶  previous / next target;  ▲ ▼  row above / below",
    "✓  place the card aimed at, turn the stock or play the joker",
    "Back or ✱  leave (the game is saved);  help  this page",
    "Touch or click a card, the stock or the joker to play it",
)


def pyramids_help(rules: DuelRules = PYRAMIDS) -> Sections:
    """Rules and controls of the Pyramids duel."""
    return (
        ("Goal", (
            f"Score more than your opponent over {rules.rounds} rounds played on the same deals.",
        )),
        ("Placing", (
            ("An uncovered pyramid card goes on the pile when it is one higher or one lower"
             " than the pile's top card; suits do not matter."),
            "The ace sits both above the king and below the 2.",
        )),
        ("Points", (
            (f"Placements in a row score {rules.placement_step}, {2 * rules.placement_step},"
             f" {3 * rules.placement_step}, … (the sequence counter)."),
            f"Turning a stock card costs {rules.turn_cost} and ends the sequence.",
            f"Clearing the pyramid scores {rules.clear_bonus} and deals the next round.",
        )),
        ("Joker", (
            (f"Once per round: any uncovered card goes on it. It costs {rules.joker_cost}"
             " and the sequence goes on."),
        )),
        ("End", ("The game ends when the round can no longer be cleared.",)),
        ("Controls", CONTROLS),
    )


class DuelHelpScreen(Screen):
    """The Pyramids rules; ✓, Back, ✱ or help closes it."""

    name = "help"

    def handle(self, action: Action, hit: Hit) -> None:
        if action.name in ("ok", "back", "star", "tap"):
            self.session.pop()

    def on_help(self) -> None:
        self.session.pop()

    def view(self) -> View:
        return View(self.name, text=TextView("Pyramids: rules & controls", pyramids_help()))
