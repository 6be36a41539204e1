"""The Pyramids "Rules & controls" page, worded from the rules' own numbers."""

from __future__ import annotations

from pyramid.console.catalogue import say
from pyramid.console.help_text import Sections
from pyramid.console.protocols import Console
from pyramid.console.screen import HelpScreen
from pyramid.engine.duel.board import PYRAMIDS, DuelRules

def pyramids_help(rules: DuelRules = PYRAMIDS) -> Sections:
    """Rules and controls of the Pyramids duel, short enough for a 320x240 screen."""
    step = rules.placement_step
    points = say("duel_help.points_text", step=step, step2=2 * step, step3=3 * step, turn=rules.turn_cost,
                 bonus=rules.clear_bonus)
    return (
        (say("help.goal"), (say("duel_help.goal_text", rounds=rules.rounds),)),
        (say("duel_help.placing"), (say("duel_help.placing_text"),)),
        (say("help.points"), (points,)),
        (say("duel_help.joker"), (say("duel_help.joker_text", cost=rules.joker_cost),)),
        (say("duel_help.end"), (say("duel_help.end_text"),)),
        (say("help.controls"), (say("duel_help.controls_aim"), say("duel_help.controls_leave"))),
    )


def open_pyramids_help(session: Console) -> None:
    """Push the Pyramids rules, paged like Pyramid's."""
    session.push(HelpScreen(session, say("duel_help.title"), pyramids_help()))


class PyramidsHelpKey:
    """Mixed into every Pyramids screen: ``help`` opens the Pyramids rules, not Pyramid's."""

    session: Console

    def on_help(self) -> None:
        open_pyramids_help(self.session)
