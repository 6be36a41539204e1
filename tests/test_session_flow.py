"""The console's game flow without a display: screens, menus, cursor, picking."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramid.actions import Action
from pyramid.engine.cards import parse_deal
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.console.menus import open_console
from pyramid.engine.rules import Redeals
from pyramid.view import MenuHit

from deals import build_deal, clearable_deal
from console_steps import choose, play


def session_with(deal: str) -> Session:
    session = Session(deal=DealChoice(cards=parse_deal(deal)))
    open_console(session)
    return session


def test_menu_then_redeal_choice_then_game() -> None:
    session = session_with(clearable_deal())
    state = session.state()
    assert state["screen"] == "menu" and state["menu"]["selected"] == 0 and state["game"] is None
    state = play(session, "ok")
    assert state["screen"] == "redeal_choice"
    assert state["menu"]["items"] == ["No redeal", "One redeal", "Unlimited redeals"]
    state = play(session, "down down down ok")  # wraps round to "No redeal"
    assert state["screen"] == "game" and state["game"]["redeals_left"] == 0
    assert state["menu"] is None


def test_unlimited_redeals_are_null_in_the_state() -> None:
    state = play(session_with(clearable_deal()), "ok up ok")
    assert state["game"]["redeals_left"] is None


def test_back_and_star_go_one_screen_up_on_menus() -> None:
    session = session_with(clearable_deal())
    assert play(session, "ok back")["screen"] == "menu"
    assert play(session, "ok star")["screen"] == "menu"
    assert play(session, "back star")["screen"] == "menu", "the main menu stays"


def test_help_changes_nothing_and_closes_with_back_star_or_ok() -> None:
    session = session_with(clearable_deal())
    before = play(session, "down")
    for closer in ("back", "star", "ok", "help"):
        assert play(session, "help")["screen"] == "help"
        assert play(session, closer) == before


def test_help_in_a_game_pauses_it_and_changes_nothing() -> None:
    session = session_with(clearable_deal())
    before = play(session, "ok ok right")
    for closer in ("back", "star", "ok", "help"):
        state = play(session, "help")
        assert state["screen"] == "assists"
        assert state["menu"]["items"] == ["Resume", "Hint", "Undo", "Restart this deal", "New game", "Rules & controls"]
        assert play(session, closer) == before
    assert play(session, "help up ok")["screen"] == "help", "the last line shows the rules"
    assert play(session, "back")["screen"] == "assists"
    assert play(session, "star") == before


def test_cursor_only_lands_on_targets_and_ok_on_stock_stays_there() -> None:
    session = session_with(clearable_deal())
    state = play(session, "ok ok")
    assert state["game"]["cursor"] == "Kc", "play starts on the left of the base row"
    seen = set()
    for _ in range(12):
        seen.add(play(session, "right")["game"]["cursor"])
    assert seen == {"stock", "Kc", "Ac", "Qc", "2c", "Jc", "3c", "Tc"}
    play(session, "up up up up up up up")
    assert session.state()["game"]["cursor"] == "stock"
    state = play(session, "ok")
    assert state["game"]["cursor"] == "stock" and len(state["game"]["waste"]) == 1
    assert play(session, "down")["game"]["cursor"] == "waste"


def test_picking_pairs_kings_and_changing_the_chosen_card() -> None:
    session = session_with(clearable_deal())
    play(session, "ok ok")
    state = play(session, "ok")  # Kc leaves alone
    assert state["game"]["pyramid"][6][0] is None and state["game"]["score"] == 5
    assert state["game"]["cursor"] == "Ac", "the cursor moves to the nearest target"
    state = play(session, "ok")
    assert state["game"]["chosen"] == "Ac", "the picked card is chosen (greyed)"
    state = play(session, "right right ok")
    assert state["game"]["chosen"] == "2c", "a non-pair: the second card becomes chosen"
    state = play(session, "ok")
    assert state["game"]["chosen"] is None, "picking the chosen card again cancels it"
    state = play(session, "left left ok right ok")
    assert state["game"]["chosen"] is None and state["game"]["score"] == 15


def test_back_cancels_the_chosen_card_else_leaves() -> None:
    session = session_with(clearable_deal())
    play(session, "ok ok right ok")
    state = play(session, "back")
    assert state["screen"] == "game" and state["game"]["chosen"] is None
    assert play(session, "back")["screen"] == "menu"


def test_a_chosen_waste_card_is_unchosen_when_covered_but_pyramid_card_stays() -> None:
    session = session_with(clearable_deal())
    play(session, "ok ok right ok")  # choose Ac
    for _ in range(8):
        play(session, "up")
    state = play(session, "ok")  # draw
    assert state["game"]["chosen"] == "Ac", "a chosen pyramid card stays chosen while drawing"
    state = play(session, "down ok")
    assert state["game"]["waste"] == ["Ah"] and state["game"]["chosen"] == "Ah"
    state = play(session, "up ok")
    assert state["game"]["waste"][-1] == "2h"
    assert state["game"]["chosen"] is None, "a chosen waste card is unchosen when covered"


def test_clearing_shows_the_end_panel_and_returns_to_menu() -> None:
    session = session_with(clearable_deal())
    play(session, "ok ok")
    table = session.screen.table  # type: ignore[attr-defined]
    while table.board.status() == "playing":
        move = [m for m in table.board.legal_moves if m.kind == "remove"][0]
        for card in move.cards:
            table.pick(table.board.index_of(card))
    view = session.view()
    assert view.screen == "game_over" and view.panel.title == "Pyramid cleared, 420 points"
    assert session.state()["game"]["status"] == "cleared"
    assert play(session, "ok")["screen"] == "menu"


def test_taps_pick_menu_lines_and_cards() -> None:
    session = session_with(clearable_deal())
    session.handle(Action.tap(1, 1), lambda x, y: MenuHit(0))
    session.handle(Action.tap(1, 1), lambda x, y: MenuHit(1))
    assert session.state()["game"]["redeals_left"] == 1
    session.handle(Action.tap(5, 5), lambda x, y: 21)
    assert session.state()["game"]["pyramid"][6][0] is None
    session.handle(Action.tap(5, 5), lambda x, y: "stock")
    assert len(session.state()["game"]["waste"]) == 1


def test_no_move_left_panel() -> None:
    upper = ["3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "Kd", "Kh", "Ks", "Ac", "Ad", "Ah",
             "As", "2c", "2d", "2h", "2s", "9s", "Kc"]
    base = ["Tc", "Td", "Th", "Ts", "9c", "9d", "9h"]
    session = session_with(build_deal(upper + base, []))
    state = play(session, "ok ok")
    assert state["screen"] == "game_over" and state["game"]["status"] == "no_moves"
    assert session.view().panel.title == "No move left"
    assert play(session, "star")["screen"] == "menu"


def test_overlap_rule_lets_the_player_pick_a_card_with_the_one_covering_it() -> None:
    from pyramid.engine.rules import preset

    # Base row: Kc first, then 9c over... index 15 (row 5, col 0) is covered by 21 and 22.
    pyramid = ["Ks", "Kh", "Kd", "Qs", "Qh", "Qd", "Js", "Jh", "Jd", "Ts", "Th", "Td", "9s", "9h", "9d",
               "4c", "8s", "8h", "8d", "7s", "7h", "Kc", "9c", "2c", "3c", "5c", "6c", "7c"]
    session = Session(preset("overlap"), DealChoice(cards=parse_deal(build_deal(pyramid, []))))
    open_console(session, "pyramid", Redeals(None))
    session.handle(Action.tap(0, 0), lambda x, y: 21)  # Kc leaves: 15 (4c) is now covered by 9c only
    table = session.screen.table  # type: ignore[attr-defined]
    assert 15 in table.targets(), "a card covered only by an uncovered card can be picked"
    session.handle(Action.tap(0, 0), lambda x, y: 15)
    assert session.state()["game"]["chosen"] == "4c"
    session.handle(Action.tap(0, 0), lambda x, y: 22)
    state = session.state()["game"]
    assert state["pyramid"][5][0] is None and state["pyramid"][6][1] is None, "4c and 9c left together"


def test_rules_are_paged_and_every_page_is_reachable() -> None:
    session = session_with(clearable_deal())
    play(session, "help")
    pages = []
    for _ in range(6):
        view = session.view()
        pages.append(view.text.sections)
        play(session, "right")
    distinct = list(dict.fromkeys(pages))
    assert len(distinct) >= 2 and view.text.footer.startswith("◀ ▶ page")
    headings = [heading for page in distinct for heading, _ in page]
    assert headings == ["Goal", "Cards", "Pairs", "Stock", "Points", "Controls"]
    play(session, "left left left left left left")
    assert session.view().text.sections == distinct[0], "◀ goes back to the first page"


def test_the_stock_label_always_says_what_is_left() -> None:
    from pyramid.console.table import stock_label

    assert stock_label(20, 1, False) == "1 redeal left"
    assert stock_label(20, 2, False) == "2 redeals left"
    assert stock_label(20, 0, False) == "No redeal left", "the label never vanishes"
    assert stock_label(20, None, False) == "∞ redeals"
    assert stock_label(7, 0, True) == "7 cards · No redeal left", "a face-up stock shows no count badge: say it"


@pytest.mark.parametrize("preset", ["classic", "three-pass"])
def test_a_face_up_stock_tells_its_count(preset: str) -> None:
    from pyramid.engine.rules import preset as rules_of

    session = Session(rules_of(preset), DealChoice(number=3))
    open_console(session, "pyramid", Redeals(rules_of(preset).redeals))
    view = session.view()
    assert view.table is not None and view.table.stock_face_up is not None
    assert view.table.stock_label.startswith(f"{view.table.stock_count} cards · ")


def test_a_keyboard_types_a_deal_number_and_backspace_deletes_there_but_leaves_elsewhere() -> None:
    from pyramid.engine.deal import numbered_deal

    session = session_with(" ".join(map(str, numbered_deal(1))))
    state = play(session, " ".join(["down"] * 3) + " ok")  # Deal number
    assert state["screen"] == "deal_number"
    state = play(session, "type:4 type:2 type:7 erase type:1")
    assert state["screen"] == "deal_number" and state["menu"]["items"] == ["421"], "erase deleted the 7"
    assert play(session, "erase erase erase erase")["screen"] == "deal_number", "Backspace never leaves here"
    assert play(session, "type:9")["menu"]["items"] == ["9"]
    assert play(session, "back")["screen"] == "menu", "a remote's Back still leaves"
    # Elsewhere a keyboard's Backspace is Back, and typing does nothing.
    state = play(session, "type:x down down ok")  # typing on the menu does nothing; Variant
    assert state["screen"] == "variant_choice"
    assert play(session, "erase")["screen"] == "menu"


def test_a_keyboard_types_a_name() -> None:
    from pyramid.console.duel.menus import NameEntryScreen

    session = session_with(clearable_deal())
    names: list[str] = []
    session.push(NameEntryScreen(session, "Your name", "", "Player", names.append))
    play(session, "type:A type:n type:n type:e erase type:i ok")
    assert names == ["Anni"]


def test_the_pause_menu_restarts_the_deal_or_deals_a_new_one_each_asked_first() -> None:
    """Issue 29: the pause menu had neither; each replaces the game in progress, so each asks."""
    session = session_with(clearable_deal())
    before = play(session, "ok ok")
    deal = before["game"]["deal"]
    play(session, "ok")  # a first move
    state = play(session, "help down down down ok")  # Restart this deal
    assert state["screen"] == "confirm" and session.view().panel.title == "Restart this deal?"
    assert play(session, "ok")["screen"] == "game", "No: the game goes on as it was"
    assert session.state()["game"]["pyramid"] != before["game"]["pyramid"]
    state = play(session, "help down down down ok down ok")  # Restart this deal - yes
    assert state["screen"] == "game" and state["game"]["deal"] == deal and state["game"]["score"] == 0
    assert len(session.stack) == 2, "the new game took the old one's place"
    state = play(session, "help down down down down ok")  # New game
    assert state["screen"] == "confirm" and session.view().panel.title == "Start a new game?"


def test_the_rules_page_names_the_variant_it_explains(tmp_path: Path) -> None:
    """Issue 47, item 13: "Rules & controls" never said which variant's rules these were."""
    from pyramid.console.catalogue import say
    from pyramid.engine.rules import preset
    from pyramid.saved.store import Store

    session = Session(preset("overlap"), DealChoice(), store=Store.open(tmp_path / "pyramid.db"))
    open_console(session)
    choose(session, say("menu.rules"))
    assert session.view().text.title == "Overlap: rules & controls"  # type: ignore[union-attr]
