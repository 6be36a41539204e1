"""Which effect a change of view calls for: the view's new cue, else what the cards did."""

from __future__ import annotations

from pyramid.view_change import ViewChange

from .synth import Effect


def effect_for(view_change: ViewChange) -> Effect | None:
    """The effect to play for ``view_change`` (``None``: nothing to hear).

    A new cue (a wrong pair, a pair that scored, a win, a loss) says it; otherwise
    the cards do (:attr:`~pyramid.view_change.ViewChange.cards`): a removal or a card laid on the
    pile is a pair, then a draw, a redeal, the first card of a pair chosen.
    """
    if view_change.feedback is not None:
        return view_change.feedback.cue
    change = view_change.cards
    if change.removed or change.laid is not None:
        return "pair"
    if change.drawn is not None:
        return "draw"
    if change.redealt:
        return "redeal"
    if change.picked:
        return "pick"
    return None
