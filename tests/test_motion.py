"""Motion in the display: what moves between two views, what is sent, and what is left on screen.

The renderer draws into a real pygame surface (SDL's dummy driver); the
animator runs on a clock the test turns, so no test depends on the machine's
speed.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from display.animator import Animator  # noqa: E402
from display.motion import DURATION, FRAME  # noqa: E402
from display.rect import Rect, bounding_box  # noqa: E402
from display.render import Renderer  # noqa: E402
from pyramid.console.table import Table  # noqa: E402
from pyramid.engine.board import Board  # noqa: E402
from pyramid.engine.deal import numbered_deal  # noqa: E402
from pyramid.view import Feedback, View  # noqa: E402
from pyramid.view_change import table_change, view_change  # noqa: E402

import samples  # noqa: E402
from fake_clock import FakeClock  # noqa: E402

SIZE = (480, 320)


class Recorder:
    """An animator over a real renderer, keeping the rectangles each frame sent."""

    def __init__(self) -> None:
        self.clock = FakeClock(100.0)
        self.renderer = Renderer(SIZE)
        self.frames: list[list[Rect]] = []
        self.animator = Animator(self.renderer, self.frames.append, clock=self.clock)
        self.shown: View | None = None

    def show(self, view: View, animate: bool = True) -> None:
        """Show ``view``, animated from the view before (as the frontend hands the change over)."""
        self.frames.clear()
        self.animator.show(view, view_change(self.shown, view) if animate else None)
        self.shown = view

    def run_out(self) -> None:
        """Let the clock run, frame by frame, until the animation is over."""
        while self.animator.due() is not None:
            self.clock.now = max(self.clock.now, self.animator.due() or 0.0)
            self.animator.tick()


def plain_frame(view: View) -> pygame.Surface:
    renderer = Renderer(SIZE)
    renderer.draw(view)
    return renderer.frame


def same_pixels(a: pygame.Surface, b: pygame.Surface) -> bool:
    return bytes(pygame.image.tobytes(a, "RGB")) == bytes(pygame.image.tobytes(b, "RGB"))


def first_moves() -> list[View]:
    """A deal, then the views after each pick and draw until two pairs are removed."""
    table = Table(Board(numbered_deal(5)))
    views = [View("game", table=table.view())]
    board, removed = table.board, 0
    while removed < 2:
        removal = next((move for move in board.legal_moves if move.kind == "remove"), None)
        if removal is None:
            table.pick("stock")
        else:
            for card in removal.cards:
                index = board.index_of(card)
                table.pick(index if index is not None else "waste")
            removed += 1
        views.append(View("game", table=table.view()))
    return views


def test_what_changed_is_read_from_the_cards() -> None:
    views = first_moves()
    assert table_change(None, views[0]).dealt, "a table coming on screen with a full pyramid is a deal"
    changes = [table_change(a, b) for a, b in zip(views, views[1:])]
    assert any(change.drawn is not None for change in changes)
    assert sum(1 for change in changes if change.removed) == 2
    assert not any(change.dealt for change in changes)
    assert not table_change(views[-1], views[-1]).anything, "the same view again: nothing happened"


def test_an_animation_ends_on_the_frame_drawn_without_motion() -> None:
    recorder = Recorder()
    for view in first_moves():
        recorder.show(view)
        assert recorder.animator.running, "each of these moves animates"
        recorder.run_out()
        assert same_pixels(recorder.renderer.frame, plain_frame(view))


def test_an_animation_lasts_at_most_a_quarter_second_then_nothing_is_due() -> None:
    recorder = Recorder()
    recorder.show(first_moves()[0])
    frames = 0
    while recorder.animator.due() is not None:
        recorder.clock.now = recorder.animator.due() or 0.0
        recorder.animator.tick()
        frames += 1
    assert recorder.clock.now - 100.0 <= 0.25 + FRAME
    assert frames >= 3, "frames come at a fixed rate while it runs"
    recorder.clock.now += 10
    assert recorder.animator.due() is None, "nothing moves: the loop may sleep"


def test_a_draw_sends_only_the_rectangles_the_card_crosses() -> None:
    views = first_moves()
    draw = next(i for i in range(1, len(views)) if table_change(views[i - 1], views[i]).drawn is not None)
    recorder = Recorder()
    recorder.show(views[draw - 1], animate=False)
    recorder.show(views[draw])
    recorder.run_out()
    table = recorder.renderer.layout.table(views[draw].table.rows)
    path = bounding_box([table.stock, table.waste]).inflate(table.card_w // 2)
    moving = recorder.frames[1:]  # the first frame also has what the view itself changed (the cursor)
    sent = [rect for frame in moving for rect in frame]
    assert len(moving) >= 3 and sent
    assert all(path.contains(rect) for rect in sent), "only the way from the stock to the waste is repainted"
    full = SIZE[0] * SIZE[1]
    assert max(sum(rect.area for rect in frame) for frame in moving) < full // 10


def test_finishing_at_once_draws_the_view_and_stops() -> None:
    views = first_moves()
    recorder = Recorder()
    recorder.show(views[0], animate=False)
    recorder.show(views[1])
    recorder.clock.now += DURATION / 3
    recorder.animator.tick()
    assert recorder.animator.running
    recorder.animator.finish()
    assert not recorder.animator.running and recorder.animator.due() is None
    assert same_pixels(recorder.renderer.frame, plain_frame(views[1]))


def test_a_refused_pair_shakes_the_cards_and_settles() -> None:
    view = samples.game_view()
    chosen = view.table.chosen
    assert chosen is not None
    recorder = Recorder()
    recorder.show(view, animate=False)
    refused = view._replace(feedback=Feedback("wrong", 1, targets=(chosen,)))
    recorder.show(refused)
    assert recorder.animator.running
    middle = []
    for step in range(1, 6):
        recorder.clock.now = 100.0 + step * DURATION / 7
        recorder.animator.tick()
        middle.append(not same_pixels(recorder.renderer.frame, plain_frame(view)))
    assert any(middle), "the refused card moves"
    recorder.run_out()
    assert same_pixels(recorder.renderer.frame, plain_frame(view))
    recorder.show(refused)
    assert not recorder.animator.running, "the same cue drawn again replays nothing"


@pytest.mark.parametrize("feedback", [Feedback("pair", 3, targets=(0,), points=5), Feedback("win", 4)])
def test_points_rise_and_a_win_bursts_over_the_table(feedback: Feedback) -> None:
    view = samples.end_view(cleared=True)
    recorder = Recorder()
    recorder.show(view, animate=False)
    recorder.show(view._replace(feedback=feedback))
    assert recorder.animator.running
    recorder.clock.now += DURATION / 4
    recorder.animator.tick()
    assert not same_pixels(recorder.renderer.frame, plain_frame(view))
    recorder.run_out()
    assert same_pixels(recorder.renderer.frame, plain_frame(view))


def test_without_motion_a_view_is_drawn_at_once() -> None:
    views = first_moves()
    recorder = Recorder()
    recorder.show(views[0], animate=False)
    recorder.show(views[1], animate=False)
    assert not recorder.animator.running and len(recorder.frames) == 1


def test_played_through_every_frame_is_drawn_and_the_last_is_the_view() -> None:
    views = first_moves()
    recorder = Recorder()
    recorder.show(views[0], animate=False)
    recorder.show(views[1])
    recorder.animator.play_through()
    assert len(recorder.frames) == round(DURATION / FRAME) + 1
    assert not recorder.animator.running
    assert same_pixels(recorder.renderer.frame, plain_frame(views[1]))


def test_a_deal_retried_is_dealt_again() -> None:
    views = first_moves()
    assert table_change(views[-1], views[0]).dealt, "the same deal from the start, after some removals"
    assert not table_change(views[0], views[0]).dealt


def test_back_on_the_same_table_after_the_rules_nothing_is_dealt_again() -> None:
    views = first_moves()
    recorder = Recorder()
    recorder.show(views[0])
    recorder.run_out()
    recorder.show(samples.help_view())
    recorder.show(views[0])
    assert recorder.animator.due() is None, "the table was on screen before the rules: no deal flies in"
    recorder.show(samples.help_view())
    recorder.show(View("game", table=Table(Board(numbered_deal(9))).view()))
    assert recorder.animator.due() is not None, "a new deal after the rules is dealt"


def test_a_card_landing_under_a_panel_is_left_under_it() -> None:
    """Issue 29 item 6: on the duel's end panels the pile's top card was drawn over the panel, undimmed.
    A card flying to its place arrives there before the animation ends; the frame after it drew the same
    card at the same place, under the panel's veil this time, and the renderer took it for unchanged."""
    from pyramid.view import PanelView

    from pyramid.console.duel.table import DuelTable
    from pyramid.engine.duel.board import DuelBoard

    board = DuelBoard.for_match(7)
    before = View("duel", table=DuelTable(board).view())
    board.push(next(move for move in board.legal_moves if move.kind == "place"))  # a card laid on the pile
    after = View("duel", table=DuelTable(board).view())
    assert table_change(before, after).laid is not None
    over = after._replace(panel=PanelView("Round 1: no card can be placed", ("Round 1: 255 · 255",), ("Continue",), 0))
    recorder = Recorder()
    recorder.show(before, animate=False)
    recorder.show(over)
    assert recorder.animator.running
    recorder.run_out()
    assert same_pixels(recorder.renderer.frame, plain_frame(over))


def test_no_ring_is_drawn_round_a_place_whose_card_has_not_landed() -> None:
    """Issue 29 item 12: while a deal came in, the cursor showed round an empty slot before its card landed."""
    from display import theme
    from display.render import target_rect

    view = first_moves()[0]
    recorder = Recorder()
    recorder.show(view)  # a table coming on screen: every card flies in from the stock
    assert recorder.animator.running and view.table is not None and view.table.cursor is not None
    table = recorder.renderer.layout.table(view.table.rows)
    ring = target_rect(table, view.table.cursor).inflate(recorder.renderer._art_for(table)[1].cursor_margin)
    frame = recorder.renderer.frame
    edge = [tuple(frame.get_at((x, ring.y + 1)))[:3] for x in range(ring.x, ring.x + ring.w)]
    assert not any(all(abs(a - b) <= 12 for a, b in zip(colour, theme.CURSOR)) for colour in edge)
    recorder.run_out()
    frame = recorder.renderer.frame
    edge = [tuple(frame.get_at((x, ring.y + 1)))[:3] for x in range(ring.x, ring.x + ring.w)]
    assert any(all(abs(a - b) <= 12 for a, b in zip(colour, theme.CURSOR)) for colour in edge)  # once landed


def test_a_cleared_pyramid_is_celebrated_for_more_than_a_second_and_a_press_ends_it() -> None:
    """Issue 29: the burst was gone within 220 ms."""
    from display.motion import WIN_DURATION

    view = samples.end_view(cleared=True)
    recorder = Recorder()
    recorder.show(view, animate=False)
    recorder.show(view._replace(feedback=Feedback("win", 1)))
    started = recorder.clock.now
    recorder.run_out()
    assert recorder.clock.now - started >= 1.0 and WIN_DURATION <= 2.0
    assert same_pixels(recorder.renderer.frame, plain_frame(view))
    recorder.show(view._replace(feedback=Feedback("win", 2)))
    recorder.clock.now += 0.3
    recorder.animator.tick()
    assert recorder.animator.running, "still celebrating after 0.3 s"
    recorder.animator.finish()  # a press
    assert not recorder.animator.running and same_pixels(recorder.renderer.frame, plain_frame(view))


def test_a_rows_bonus_rises_apart_from_the_removals_points() -> None:
    """Issue 47: "+25" at the cards, "+150 row" above them (Microsoft shows each row's bonus as won)."""
    view = View("game", table=samples.played_table(7, removals=30).view("Deal 7"))
    plain, with_bonus = Recorder(), Recorder()
    for recorder, feedback in ((plain, Feedback("pair", 3, targets=(27,), points=5)),
                               (with_bonus, Feedback("pair", 3, targets=(27,), points=5, bonus="+150 row"))):
        recorder.show(view, animate=False)
        recorder.show(view._replace(feedback=feedback))
        recorder.clock.now += DURATION / 4
        recorder.animator.tick()
    assert not same_pixels(plain.renderer.frame, with_bonus.renderer.frame), "the bonus is drawn too"


def test_the_frontend_works_out_a_change_once_for_the_motion_and_the_sound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 48: the animator and the sound each read the change between two views from the cards
    (``table_change``, the most complex function of the project), twice a frame."""
    from display.headless import HeadlessDisplay
    from pyramid.app import frontend as frontend_module
    from pyramid.app.frontend import Frontend, Liveliness
    from pyramid.view_change import view_change as real

    calls: list[object] = []
    monkeypatch.setattr(frontend_module, "view_change", lambda before, after: calls.append(after) or real(before, after))
    heard: list[object] = []
    shown = Frontend(HeadlessDisplay(SIZE))
    shown.liveliness = Liveliness(motion=lambda: True, sound=lambda: True, play_through=True)
    shown.start_sound = lambda: None  # type: ignore[method-assign]
    shown.player = type("Ear", (), {"hear": lambda self, change, volume: heard.append(change)})()  # type: ignore[assignment]
    views = first_moves()
    for view in views[:4]:
        shown.show(view)
    assert len(calls) == 3 and len(heard) == 3, "the first view has nothing before it; then one change a view"
    assert [change.after for change in heard] == views[1:4]  # type: ignore[attr-defined]
