"""Which effect a change of view calls for: the view's new cue, else what the cards did."""

from __future__ import annotations

from pyramid.view import View, table_change

from .synth import Effect


def effect_for(before: View | None, after: View) -> Effect | None:
    """The effect to play for going from ``before`` to ``after`` (``None``: nothing to hear).

    A new cue (a wrong pair, a pair that scored, a win, a loss) says it; otherwise
    the cards do (:func:`pyramid.view.table_change`): a removal or a card laid on the
    pile is a pair, then a draw, a redeal, the first card of a pair chosen.
    """
    feedback = after.feedback
    if feedback is not None and (before is None or before.feedback != feedback):
        return feedback.cue
    change = table_change(before, after)
    if change.removed or change.laid is not None:
        return "pair"
    if change.drawn is not None:
        return "draw"
    if change.redealt:
        return "redeal"
    if change.picked:
        return "pick"
    return None
