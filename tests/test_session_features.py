"""Console features over a real store file: continue, statistics, settings, assists, deals."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from pyramid.actions import Action
from pyramid.engine.board import Board, Move
from pyramid.engine.cards import format_cards, parse_deal
from pyramid.engine.daily import daily_challenge
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import RETROHUB
from pyramid.console import dealing, game_flow
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice, PressSeen
from pyramid.console.session import Session
from pyramid.saved.store import Store

from deals import build_deal, clearable_deal
from console_steps import play, choose, tap_move
from fake_clock import FakeClock

DAY = datetime.date(2026, 11, 30)
# Lost at once: every partner of the base row is covered and no king is free.
HOPELESS = build_deal(["3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "Kd", "Kh", "Ks", "Ac", "Ad",
                       "Ah", "As", "2c", "2d", "2h", "2s", "9s", "Kc"]
                      + ["Tc", "Td", "Th", "Ts", "9c", "9d", "9h"], [])


def new_session(path: Path, deal: str | None = None, number: int | None = None) -> Session:
    session = Session(None, DealChoice(cards=parse_deal(deal) if deal else None, number=number),
                      store=Store.open(path / "pyramid.db"), today=lambda: DAY)
    open_console(session)
    return session


def test_continue_resumes_exactly_after_a_restart(tmp_path: Path) -> None:
    session = new_session(tmp_path, clearable_deal())
    state = play(session, "ok ok ok ok right ok up up up up up up up ok ok")
    session.store.close()
    again = new_session(tmp_path)
    menu = again.state()
    assert menu["menu"]["items"][0] == "Continue" and menu["menu"]["selected"] == 0
    resumed = play(again, "ok")
    for key in ("pyramid", "stock", "waste", "score", "redeals_left", "deal"):
        assert resumed["game"][key] == state["game"][key]


def test_star_leaves_but_keeps_the_game_for_continue(tmp_path: Path) -> None:
    session = new_session(tmp_path, clearable_deal())
    before = play(session, "ok ok ok")
    assert play(session, "star")["menu"]["items"][0] == "Continue"
    assert play(session, "ok")["game"]["pyramid"] == before["game"]["pyramid"]


def test_results_go_into_the_statistics_per_variant(tmp_path: Path) -> None:
    session = new_session(tmp_path, HOPELESS)
    state = play(session, "ok ok")
    assert state["screen"] == "game_over"
    stats = session.store.stats("pyramid", "retrohub/none")
    assert (stats.played, stats.won, stats.current_streak) == (1, 0, 0)
    assert session.store.load_progress("pyramid") is None, "a finished game is not offered to continue"
    state = play(session, "ok")
    assert state["screen"] == "menu" and state["menu"]["items"][0] == "New game"


def test_a_replaced_saved_game_counts_as_lost(tmp_path: Path) -> None:
    session = new_session(tmp_path, clearable_deal())
    play(session, "ok ok star")
    choose(session, "New game")
    assert play(session, "down ok")["screen"] == "redeal_choice"  # "New game" in the confirmation
    play(session, "ok")  # a new deal over the saved one
    assert session.store.stats("pyramid", "retrohub/none").played == 1


def test_a_game_in_progress_is_never_lost_by_one_press(tmp_path: Path) -> None:
    """New game over a saved game asks first; back on the menu the highlight is on Continue."""
    session = new_session(tmp_path, clearable_deal())
    play(session, "ok ok right ok star")  # a game with a move, left: it is saved
    state = session.state()
    assert state["menu"]["items"][state["menu"]["selected"]] == "Continue"
    saved = session.store.load_progress("pyramid")
    state = choose(session, "New game")
    assert state["screen"] == "confirm" and state["menu"] == {"items": ["No", "New game"], "selected": 0}
    view = session.view()
    # Issue 47: it says which game ("Start a new game?" alone did not).
    assert saved is not None and saved.deal_number is None  # a deal given by its cards: the variant names it
    moves = f"{len(saved.moves)} move{'' if len(saved.moves) == 1 else 's'}"
    assert view.panel is not None and view.panel.lines == (f"Your game in progress (Pyramid, {moves}) will count as lost.",)
    play(session, "ok")  # No: nothing changes
    assert session.store.load_progress("pyramid") == saved
    assert session.store.stats("pyramid", "retrohub/none").played == 0
    play(session, "up ok")  # from "New game" back up to Continue, and in
    assert session.state()["screen"] == "game"
    play(session, "star")
    state = session.state()
    assert state["menu"]["items"][state["menu"]["selected"]] == "Continue", "one more ✓ resumes, never deals"
    # A new game started from the menu, then left: the highlight is on its Continue line too.
    choose(session, "New game")
    play(session, "down ok ok star")
    state = session.state()
    assert state["menu"]["items"][state["menu"]["selected"]] == "Continue"
    assert session.store.load_progress("pyramid") != saved


def test_statistics_screen_and_reset_with_confirmation(tmp_path: Path) -> None:
    session = new_session(tmp_path, HOPELESS)
    play(session, "ok ok ok")
    choose(session, "Statistics")
    view = session.view()
    assert view.screen == "statistics"
    assert any("Played 1, won 0" in line for _, lines in view.text.sections for line in lines)
    assert play(session, "ok")["menu"] == {"items": ["No", "Reset"], "selected": 0}
    play(session, "ok")  # No
    assert session.store.stats("pyramid", "retrohub/none").played == 1
    play(session, "ok down ok")  # Reset
    assert session.store.all_stats() == [] or session.store.stats("pyramid", "retrohub/none").played == 0


def test_settings_change_the_view_and_survive_a_restart(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    state = choose(session, "Settings")
    assert state["screen"] == "settings"
    assert state["menu"]["items"][0] == "Card letters: The language's (J Q K)"
    assert session.view().letters == "english"
    state = play(session, "right right down right")
    assert state["menu"]["items"][:2] == ["Card letters: French (V D R)", "Suit colours: four"]
    assert session.view().letters == "french" and session.view().four_colour
    session.store.close()
    again = new_session(tmp_path)
    assert again.view().letters == "french"


@pytest.mark.parametrize("language, letters, values", [
    ("en", "english", "Aces count 1, number cards their number, J 11, Q 12, K 13."),
    ("fr", "french", "L'as vaut 1, une carte son chiffre, V 11, D 12, R 13."),
    ("de", "german", "Ein Ass zählt 1, eine Zahlenkarte ihre Zahl, B 11, D 12, K 13.")])
def test_out_of_the_box_the_court_cards_show_the_languages_letters_and_the_rules_say_their_values(
        tmp_path: Path, language: str, letters: str, values: str) -> None:
    """Issue 47, item 3: every language showed V D R, and no page said what the court cards are worth."""
    from pyramid.console.catalogue import say, use_language

    session = new_session(tmp_path)
    try:
        session.change_setting("language", language)
        assert session.view().letters == letters
        state = choose(session, say("menu.rules"))
        texts = [line for page in session.screen.pages for _, lines in page for line in lines]  # type: ignore[attr-defined]
        assert values in texts, texts
        assert state["screen"] == "help"
    finally:
        use_language("en")


def test_redeal_question_starts_on_the_chosen_default(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    choose(session, "Settings")
    play(session, "down down right star")
    assert choose(session, "New game")["menu"] == {
        "items": ["No redeal", "One redeal", "Unlimited redeals"], "selected": 1}


def test_hint_marks_the_game_assisted_and_points_at_a_winning_move(tmp_path: Path) -> None:
    session = new_session(tmp_path, clearable_deal())
    play(session, "ok ok")
    state = play(session, "help down ok")
    view = session.view()
    assert view.table.status_line.startswith("Hint: ")
    assert view.table.hint and state["game"]["cursor"] is not None
    assert session.store.load_progress("pyramid").assisted
    screen = session.screen
    while screen.table.board.status() == "playing":  # type: ignore[attr-defined]
        board = screen.table.board  # type: ignore[attr-defined]
        move = [m for m in board.legal_moves if m.kind == "remove"][0]
        for card in move.cards:
            session.handle(Action.tap(0, 0), lambda x, y, i=board.index_of(card): i)
    assert session.state()["screen"] == "game_over"
    stats = session.store.stats("pyramid", "retrohub/none")
    assert stats.assisted_won == 1 and stats.won == 0 and stats.played == 0


def test_undo_takes_back_one_move_and_is_saved(tmp_path: Path) -> None:
    session = new_session(tmp_path, clearable_deal())
    before = play(session, "ok ok")
    after = play(session, "ok")
    assert after["game"]["score"] == 5
    state = play(session, "help down down ok")
    assert state["game"]["pyramid"] == before["game"]["pyramid"] and state["game"]["score"] == 0
    saved = session.store.load_progress("pyramid")
    assert saved.moves == () and saved.assists == {"undo": 1}


def greedy_loss(rules) -> tuple[int, list[Move]]:
    """A deal the solver wins but the "first legal move" player loses, and that player's moves."""
    from pyramid.engine.solver import solve

    for number in range(1, 2000):
        board = Board(numbered_deal(number), rules)
        while board.status() == "playing":
            board.push(board.legal_moves[0])
        if board.status() == "no_moves" and solve(Board(numbered_deal(number), rules)).verdict == "win":
            return number, list(board.move_stack)
    raise AssertionError("no such deal in the first 2000")


def test_lost_deal_says_if_it_was_winnable_and_shows_the_solution(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_flow, "SOLVER_SECONDS", 60.0)  # the flow is tested, not the budget (a loaded CI machine)
    number, moves = greedy_loss(RETROHUB.with_redeals(1))
    session = new_session(tmp_path, number=number)
    play(session, "ok down ok")
    for move in moves:
        tap_move(session, move)
    view = session.view()
    assert view.screen == "game_over" and view.panel.title == "No move left"
    assert "could be won from the start" in " ".join(view.panel.lines)
    assert view.panel.items == ("Back to the menu", "Watch the solution", "Undo the last move", "Play again",
                                "Retry this deal")
    state = play(session, "down ok")
    assert state["screen"] == "replay"
    for _ in range(120):
        play(session, "right")
    assert session.screen.table.board.status() == "cleared"  # type: ignore[attr-defined]
    assert play(session, "back")["screen"] == "game_over"


def test_variant_choice_is_remembered(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    state = choose(session, "Variant")
    assert state["screen"] == "variant_choice" and state["menu"]["items"][0] == "Pyramid"
    state = play(session, "down ok")
    assert "Variant: Classic" in state["menu"]["items"]
    session.store.close()
    assert new_session(tmp_path).rules.name == "classic"


def test_deal_number_and_daily_deal(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    state = choose(session, "Deal number")
    assert state["screen"] == "deal_number" and state["menu"]["items"] == ["1"]
    state = play(session, "up left up ok ok")  # 1 -> 2, then tens digit 1: deal 12
    assert state["screen"] == "game"
    assert state["game"]["deal"] == " ".join(map(str, numbered_deal(12)))
    session = new_session(tmp_path / "other")
    state = choose(session, "Daily deal")  # no redeal question: the par is for the preset's own redeals
    assert state["game"]["deal"] == " ".join(map(str, numbered_deal(daily_challenge(DAY, "retrohub").number)))
    assert session.view().table.title == f"Daily · {DAY.day} {DAY:%B}", "the daily deal says so, with its date"
    play(session, "star")
    assert choose(session, "Continue")["screen"] == "game"
    assert session.view().table.title.startswith("Daily · "), "and still after Continue"


def test_winnable_deals_only_deals_a_deal_the_solver_wins(tmp_path: Path) -> None:
    from pyramid.engine.solver import solve

    session = new_session(tmp_path)
    choose(session, "Settings")
    state = choose(session, "Winnable deals only")
    assert "Winnable deals only: on" in state["menu"]["items"] and session.settings.winnable_only
    play(session, "star")
    choose(session, "New game")
    play(session, "ok")
    rules = session.screen.table.board.rules  # type: ignore[attr-defined]
    number = session.screen.run.progress.deal_number  # type: ignore[attr-defined]
    assert solve(Board(numbered_deal(number), rules)).verdict == "win", "a deal proven live"


def test_winnable_deals_only_falls_back_on_the_shipped_list_when_the_live_search_finds_none(
        tmp_path: Path, monkeypatch) -> None:
    from pyramid.engine.winnable import winnable_deal_numbers

    monkeypatch.setattr(dealing, "WINNABLE_LIVE_SECONDS", 0.0)  # a console too slow to prove one in time
    session = new_session(tmp_path)
    session.change_setting("winnable_only", True)
    choose(session, "New game")
    play(session, "ok")
    rules = session.screen.table.board.rules  # type: ignore[attr-defined]
    assert session.screen.run.progress.deal_number in winnable_deal_numbers(rules)  # type: ignore[attr-defined]


def test_system_page_shows_version_and_addresses(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    session.display_description = "headless 480x320"
    choose(session, "Settings")
    state = choose(session, "System")
    assert state["screen"] == "system"
    sections = dict(session.view().text.sections)
    assert sections["Software"][0].startswith("Pyramid console ")
    assert sections["Network"] and sections["Hardware"] == ("Display: headless 480x320",)
    session.speak("fr")
    assert dict(session.view().text.sections)["Matériel"] == ("Écran : headless 480x320",)  # issue 29: no English
    assert sections["Data"] == (str(tmp_path / "pyramid.db"),)
    assert sections["Table server"] == ("None set (the settings file's [network] server)",)
    assert play(session, "back")["screen"] == "settings"


def test_system_page_shows_the_table_server_and_the_account(tmp_path: Path) -> None:
    """Issue 47, item 14: the owner helping a newcomer had nowhere to read the server and account."""
    from pyramid.net.server.account import ServerAccount

    session = new_session(tmp_path)
    session.tables.server = ServerAccount("tables.example.org", 8883, "ann", Path("/etc/pyramid/server/password"),
                                          Path("/etc/pyramid/server/ca.crt"))
    choose(session, "Settings")
    choose(session, "System")
    sections = dict(session.view().text.sections)  # type: ignore[union-attr]
    assert sections["Table server"] == ("mqtts://tables.example.org:8883", "Account: ann")


def test_controls_screen_shows_each_press_and_leaves_on_back_twice(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    presses: list[PressSeen] = []
    session.input_log = lambda: presses
    session.input_devices = lambda: ["USB Remote", "GPIO 22"]
    choose(session, "Settings")
    assert choose(session, "Controls")["screen"] == "controls"
    for action, device in (("up", "USB Remote"), ("ok", "GPIO 22"), ("back", "USB Remote")):
        presses.append(PressSeen(action, device))
        session.handle(Action(action))
    sections = dict(session.view().text.sections)
    assert sections["Last presses, newest first"][:2] == ("Back from 'USB Remote'", "✓ from 'GPIO 22'")
    assert sections["Devices"] == ("USB Remote", "GPIO 22")
    presses.append(PressSeen("tap:12,34", "touchscreen"))
    session.input_devices = lambda: ["keyboard", "GPIO 22"]
    session.speak("fr")  # issue 29: "ok depuis 'keyboard'" was English in French
    sections = dict(session.view().text.sections)
    assert sections["Dernières touches, la plus récente d'abord"][0] == "Toucher en 12,34 depuis l'écran tactile"
    assert sections["Appareils"] == ("Clavier", "GPIO 22")
    session.speak("en")
    assert session.state()["screen"] == "controls", "a single Back is shown, not obeyed"
    session.handle(Action("back"))
    assert session.state()["screen"] == "settings"


@pytest.mark.parametrize(("language", "device", "press"), [
    ("en", "TV remote (HDMI-CEC)", "▶ from the TV's remote"),
    ("fr", "Télécommande du téléviseur (HDMI-CEC)", "▶ depuis la télécommande du téléviseur"),
    ("de", "Fernbedienung des Fernsehers (HDMI-CEC)", "▶ (Fernbedienung des Fernsehers)"),
])
def test_the_controls_page_words_a_tvs_remote(tmp_path: Path, language: str, device: str, press: str) -> None:
    """A TV's remote (input.hub.TV_REMOTE), not the HDMI adapter's kernel name ("vc4-hdmi-0")."""
    from input.hub import TV_REMOTE

    session = new_session(tmp_path)
    session.input_log = lambda: [PressSeen("right", TV_REMOTE)]
    session.input_devices = lambda: [TV_REMOTE]
    choose(session, "Settings")
    choose(session, "Controls")
    session.speak(language)
    last_presses, devices = (lines for _, lines in session.view().text.sections[:2])
    assert (last_presses[0], devices) == (press, (device,))


def test_statistics_of_every_variant_are_reached_page_by_page_and_legible_at_320x240(tmp_path: Path) -> None:
    """Eleven Pyramid variants and three duel levels: each heading on some page, each page whole."""
    from display.layout import MIN_TEXT_PX, Layout
    from display.text import text_width
    from pyramid.saved.stats import GameResult

    session = new_session(tmp_path)
    variants = ["retrohub/none", "retrohub/one", "retrohub/unlimited", "classic/none", "par/two", "relaxed/none",
                "three-pass/two", "king-tut/unlimited", "overlap/none", "six-rows/none", "spanish/none"]
    for variant in variants:
        session.store.record_result(GameResult("pyramid", variant, True, 300), clear_progress=False)
        session.store.record_result(GameResult("pyramid", variant, False, 10, assisted=True), clear_progress=False)
    for level in ("casual", "good", "expert"):
        session.store.record_result(GameResult("pyramids", level, False, -20), clear_progress=False)
    choose(session, "Statistics")
    layout = Layout((320, 240), measure=text_width)
    headings: list[str] = []
    for page in range(20):
        view = session.view()
        assert view.text is not None
        placed = layout.text(view.text)
        assert placed.complete and placed.body_px >= MIN_TEXT_PX, f"page {page + 1} is cut or tiny"
        headings += [heading for heading, _ in view.text.sections]
        if f"page {page + 1} of {page + 1}" in view.text.footer or "page" not in view.text.footer:
            break
        play(session, "right")
    assert "Pyramid, no redeal" in headings and "Spanish deck, no redeal" in headings
    assert "Pyramids against the expert computer" in headings and len(set(headings)) == 14
    assert "✓ reset" in session.view().text.footer
    assert play(session, "ok")["menu"] == {"items": ["No", "Reset"], "selected": 0}, "the reset is one press away"


def test_a_hint_on_a_deal_that_cannot_be_won_says_so_and_still_suggests_the_best_move(tmp_path: Path) -> None:
    """Deal 1 without a redeal cannot be won (the solver proves it): the hint says so plainly
    — "cannot be cleared", not "no longer", at the first move — and points at a legal move."""
    session = new_session(tmp_path, number=1)
    choose(session, "New game")
    play(session, "ok")  # No redeal
    board = session.screen.table.board  # type: ignore[attr-defined]
    from pyramid.engine.solver import solve

    assert solve(board.copy(), max_seconds=30).verdict == "lose"
    play(session, "help down ok")
    view = session.view()
    assert view.table.status_line.startswith("This deal cannot be cleared. Best move: "), view.table.status_line
    assert view.table.hint and view.table.cursor == view.table.hint[0]
    assert session.store.load_progress("pyramid").assisted
    for target in view.table.hint:  # play the suggested move
        session.handle(Action.tap(0, 0), lambda x, y, target=target: target)
    assert board.move_stack, "the suggested move was playable"
    play(session, "help down ok")
    assert session.view().table.status_line.startswith("This deal cannot be cleared from here. Best move: ")


def test_undo_and_hint_take_one_press_each_and_undo_goes_on_back(tmp_path: Path) -> None:
    """The direct buttons (U / H, a gamepad's X / Y, a held Back): no panel to open, as often as wanted."""
    session = new_session(tmp_path, clearable_deal())
    start = play(session, "ok ok")
    play(session, "ok")  # the king leaves
    for move in [m for m in session.screen.table.board.legal_moves if m.kind == "remove"][:1]:  # type: ignore
        tap_move(session, move)
    played = len(session.screen.table.board.move_stack)  # type: ignore[attr-defined]
    assert played == 2
    state = play(session, "undo undo")
    assert state["screen"] == "game" and state["game"]["pyramid"] == start["game"]["pyramid"]
    assert session.store.load_progress("pyramid").assists == {"undo": 2}
    assert session.view().table.status_line == "Assisted game · 0 moves"
    play(session, "undo")
    assert session.view().table.status_line == "Nothing to undo."
    play(session, "hint")
    view = session.view()
    assert view.screen == "game" and view.table.status_line.startswith("Hint: ") and view.table.hint


def test_the_end_panel_goes_on_undo_the_last_move_play_again_retry(tmp_path: Path) -> None:
    number, moves = greedy_loss(RETROHUB.with_redeals(1))
    session = new_session(tmp_path, number=number)
    play(session, "ok down ok")
    for move in moves:
        tap_move(session, move)
    assert session.view().screen == "game_over"
    assert session.store.stats("pyramid", "retrohub/one").played == 1
    # Undo the last move: the game goes on, assisted; its count is taken back until it is over again.
    items = session.state()["menu"]["items"]
    state = play(session, " ".join(["down"] * items.index("Undo the last move")) + " ok")
    assert state["screen"] == "game" and len(state["game"]["pyramid"]) == 7
    assert session.store.load_progress("pyramid").assisted
    assert session.store.stats("pyramid", "retrohub/one").played == 0
    tap_move(session, moves[-1])
    assert session.view().screen == "game_over"
    stats = session.store.stats("pyramid", "retrohub/one")
    assert (stats.played, stats.assisted_played) == (0, 1), "one game, counted once, assisted"
    assert session.store.load_progress("pyramid") is None, "over again: nothing to continue"
    # Retry this deal: the same cards again, the same redeals, a fresh game.
    items = session.state()["menu"]["items"]
    state = play(session, " ".join(["down"] * items.index("Retry this deal")) + " ok")
    assert state["screen"] == "game" and state["game"]["deal"] == format_cards(numbered_deal(number))
    assert state["game"]["redeals_left"] == 1 and session.screen.run.progress.deal_number == number  # type: ignore
    assert len(session.stack) == 2, "the finished game made way for the new one"
    # Play again: another deal at once.
    for move in moves:
        tap_move(session, move)
    items = session.state()["menu"]["items"]
    state = play(session, " ".join(["down"] * items.index("Play again")) + " ok")
    assert state["screen"] == "game" and state["game"]["deal"] != format_cards(numbered_deal(number))
    assert len(session.stack) == 2


def test_the_variant_menu_says_in_a_line_what_each_variant_is(tmp_path: Path) -> None:
    from display.layout import Layout
    from display.text import text_width
    from pyramid.engine.rules import PRESETS

    session = new_session(tmp_path)
    choose(session, "Variant")
    footers = []
    for _ in PRESETS:
        view = session.view()
        assert view.menu is not None and view.menu.footer
        layout = Layout((320, 240), measure=text_width).menu(view.menu)
        assert layout.footer is not None and text_width(view.menu.footer, layout.footer_px) <= layout.footer.w, \
            f"{view.menu.footer!r} is cut at 320x240"
        footers.append(view.menu.footer)
        play(session, "down")
    assert len(set(footers)) == len(PRESETS)
    names = list(PRESETS)  # what "Three passes" and "Par" mean, the lines the player asked about
    assert "three passes" in footers[names.index("three-pass")].lower() and "twice" in footers[names.index("par")]


def test_the_solution_plays_by_itself_at_a_readable_pace_each_pair_highlighted_first(tmp_path: Path) -> None:
    number, moves = greedy_loss(RETROHUB.with_redeals(1))
    session = new_session(tmp_path, number=number)
    now = [1000.0]
    session.clock = lambda: now[0]
    play(session, "ok down ok")
    for move in moves:
        tap_move(session, move)
    assert play(session, "down ok")["screen"] == "replay"
    replay = session.screen
    first = replay.moves[0]  # type: ignore[attr-defined]
    view = session.view()
    assert view.table.hint == replay.table.targets_of(first), "the next move is shown before it is played"  # type: ignore
    assert "✓ pause" in view.table.status_line
    due = session.due()
    assert due is not None and due > now[0], "it plays by itself, at a pace"
    session.tick()
    assert replay.step == 0, "not before its time"  # type: ignore[attr-defined]
    now[0] = due
    session.tick()
    assert replay.step == 1  # type: ignore[attr-defined]
    pace = session.due() - now[0]
    play(session, "up")  # faster
    assert session.due() - now[0] < pace
    play(session, "ok")  # pause
    assert session.due() is None and "✓ play" in session.view().table.status_line
    play(session, "right left right")  # steps by hand while paused
    assert replay.step == 2 and session.due() is None  # type: ignore[attr-defined]
    play(session, "ok")
    while session.due() is not None:  # played to the end by itself
        now[0] = session.due()
        session.tick()
    assert replay.table.board.status() == "cleared"  # type: ignore[attr-defined]
    assert "Done in" in session.view().table.status_line


def test_a_daily_deal_finished_counts_for_the_daily_streak_shown_at_the_end_and_in_the_statistics(
        tmp_path: Path) -> None:
    session = new_session(tmp_path, HOPELESS)  # the daily deal, dealt as this hopeless one: over at once
    state = choose(session, "Daily deal")  # dealt at once: no redeal question for the daily deal
    assert state["screen"] == "game_over"
    assert "Daily deals: 1 day in a row, 0 won" in session.view().panel.lines
    assert session.store.daily_results() == {DAY: False}
    play(session, "ok")  # back to the menu
    choose(session, "Statistics")
    sections = dict(session.view().text.sections)
    assert sections["Daily deals"] == ("1 played, 0 won", "In a row: 1 played, 0 won", "Best: 1 played, 0 won")


def test_a_hint_clears_the_chosen_card_so_ok_on_the_hinted_card_starts_its_pair(tmp_path: Path) -> None:
    """Issue 29 item 2: with 6♦ chosen, a hint of "2♦ + J♠" left 6♦ chosen, and ✓ on 2♦ then said
    "6♦ + 2♦ make 8, not 13" with a buzz."""
    session = new_session(tmp_path, clearable_deal())
    play(session, "ok ok hint")
    hinted = session.screen.hint  # type: ignore[attr-defined]
    board = session.screen.board  # type: ignore[attr-defined]
    other = next(i for i in board.uncovered_indices() if i not in hinted
                 and all(board.pyramid[i].rank + board.pyramid[j].rank != 13 for j in hinted if isinstance(j, int)))
    session.handle(Action.tap(0, 0), lambda x, y: other)  # a card the hint is not about, chosen
    assert session.state()["game"]["chosen"] is not None
    state = play(session, "hint")
    assert state["game"]["chosen"] is None
    play(session, "ok")  # on the hinted card, where the hint put the cursor
    assert "not 13" not in session.view().table.status_line
    assert session.feedback is None or session.feedback.cue != "wrong"


def test_a_game_lost_then_undone_and_won_is_one_assisted_win(tmp_path: Path) -> None:
    """Issue 29 item 8: a game lost, undone back to its start and then won showed "Pyramid cleared" while
    the statistics kept the loss (unassisted, though undo followed) and never the win."""
    from pyramid.engine.solver import solve

    rules = RETROHUB.with_redeals(1)
    number, moves = greedy_loss(rules)
    session = new_session(tmp_path, number=number)
    play(session, "ok down ok")
    for move in moves:
        tap_move(session, move)
    assert session.view().screen == "game_over"
    assert session.store.stats("pyramid", "retrohub/one").played == 1  # counted as soon as it is over
    items = session.state()["menu"]["items"]
    play(session, " ".join(["down"] * items.index("Undo the last move")) + " ok")
    play(session, " ".join(["undo"] * (len(moves) - 1)))
    assert session.state()["game"]["score"] == 0 and len(session.screen.board.move_stack) == 0  # type: ignore
    for move in solve(Board(numbered_deal(number), rules)).moves:
        tap_move(session, move)
    assert session.view().panel.title.startswith("Pyramid cleared")
    stats = session.store.stats("pyramid", "retrohub/one")
    assert (stats.played, stats.won, stats.assisted_played, stats.assisted_won) == (0, 0, 1, 1)
    assert stats.current_streak == 0 and stats.best_score is None


def test_a_solution_is_watched_at_about_three_moves_a_second() -> None:
    """Issue 29: watching a solution started at a move a second."""
    from pyramid.console import replay

    assert 0.25 <= replay.PACES[replay.START_PACE] <= 0.4
    assert replay.START_PACE + 1 < len(replay.PACES), "▼ still makes it slower"


def test_a_game_that_cannot_go_on_says_why_first(tmp_path: Path) -> None:
    """Issue 29: the "No move left" panel said the score and the verdict, never why the game stopped."""
    session = new_session(tmp_path, HOPELESS)
    play(session, "ok ok")
    view = session.view()
    assert view.panel.title == "No move left"
    assert view.panel.lines[0] == f"The {sum(1 for card in session.screen.board.pyramid if card)} cards left cannot leave"  # type: ignore[attr-defined]


def test_moves_are_counted_on_the_table_and_a_win_gives_moves_time_and_a_new_best(tmp_path: Path) -> None:
    """Issue 29 ("time and moves"): a move counter on the table, the time with the timer on (off by
    default), and the end panel's moves, time and what a win bettered (here the shorter line scores
    more too: tests/test_deal_bests.py has the score against the moves)."""
    from pyramid.engine.solver import solve

    clock = FakeClock(1000.0)
    session = new_session(tmp_path, number=13)  # won under RetroHub with one redeal, a shorter line than the verdict's
    session.clock = clock
    assert not session.settings.timer
    play(session, "ok down ok")  # one redeal
    board = session.screen.board  # type: ignore[attr-defined]
    assert session.view().table.status_line == "0 moves"
    line = solve(Board(board.deal, board.rules)).moves
    played = Board(board.deal, board.rules)
    for move in line:
        played.push(move)
    assert played.status() == "cleared" and played.score > 0
    tap_move(session, line[0])
    assert session.view().table.status_line == "1 move"
    session.change_setting("timer", True)
    clock.now += 65
    assert session.view().table.status_line == "1 move · 1:05"
    assert session.screen.due() is not None, "the timer wakes the loop each second"  # type: ignore[attr-defined]
    play(session, "help")
    clock.now += 600  # ten minutes in the pause menu: not play
    play(session, "ok")  # Resume
    assert session.view().table.status_line == "1 move · 1:05"
    for move in line[1:]:
        tap_move(session, move)
    assert session.view().panel.lines[0] == f"{len(line)} moves · 1:05"  # no best before: nothing new
    assert session.store.best_of("pyramid", "retrohub/one", 13) == (13, len(line), 65, played.score)
    # The same deal again, in fewer moves and more points: a new best.
    shorter = solve(Board(board.deal, board.rules), optimal=True).moves
    assert len(shorter) < len(line), "the verdict's line is not the shortest here"
    replayed = Board(board.deal, board.rules)
    for move in shorter:
        replayed.push(move)
    assert replayed.score > played.score, "and the shortest line scores more"
    items = session.state()["menu"]["items"]
    play(session, " ".join(["down"] * items.index("Retry this deal")) + " ok")
    for move in shorter:
        tap_move(session, move)
    assert session.view().panel.lines[:2] == ("New best score for this deal!", f"{len(shorter)} moves · 0:00")
    assert session.store.best_of("pyramid", "retrohub/one", 13).moves == len(shorter)  # type: ignore[union-attr]


def test_an_assisted_win_says_it_is_counted_apart(tmp_path: Path) -> None:
    """Issue 47, item 8: a win after a hint was counted as assisted with no word of it on its panel,
    and the statistics' "won 0" surprised."""
    from pyramid.engine.solver import solve

    session = new_session(tmp_path, clearable_deal())
    play(session, "ok ok")
    play(session, "help down ok")  # a hint: the game is assisted now
    board = session.screen.board  # type: ignore[attr-defined]
    assert not board.move_stack
    for move in solve(Board(board.deal, board.rules)).moves:
        tap_move(session, move)
    panel = session.view().panel
    assert panel is not None and board.status() == "cleared"
    assert "Assisted: counted apart from unaided wins" in panel.lines
    stats = session.store.stats("pyramid", "retrohub/none")
    assert (stats.won, stats.assisted_won) == (0, 1)


def test_ok_on_a_hinted_card_plays_the_hints_whole_move(tmp_path: Path) -> None:
    """Issue 47 ("hints that finish the pair"): ✓ on the hinted card chose it alone, and the player went
    looking for its partner; now it plays the move the hint names, whatever it is, move after move."""
    from pyramid.engine.solver import solve

    session = new_session(tmp_path, clearable_deal())
    play(session, "ok ok")
    board = session.screen.board  # type: ignore[attr-defined]
    line = solve(Board(board.deal, board.rules)).moves
    for played in range(len(line)):
        play(session, "hint")
        move = session.screen.run.verdicts.solve(board.copy()).moves[0]  # type: ignore[attr-defined]
        assert session.view().table.hint, session.view().table.status_line  # type: ignore[union-attr]
        before = len(board.move_stack)
        play(session, "ok")
        assert len(board.move_stack) == before + 1 and board.move_stack[-1] == move, (played, move)
        if board.status() != "playing":
            break
    assert board.status() == "cleared"


def test_h_again_shows_the_next_hint_and_after_all_of_them_the_first(tmp_path: Path) -> None:
    """Issue 47 ("H again shows the next hint, not the same one"): each H in the same position shows
    another move that wins too, then, once every winning move was shown, the first again; a move played
    starts over with the new position's first hint."""
    from pyramid.engine.solver import solve

    session = new_session(tmp_path, clearable_deal())
    play(session, "ok ok")
    screen = session.screen
    board = screen.board  # type: ignore[attr-defined]
    winning = []
    for move in board.legal_moves:
        board.push(move)
        if solve(board.copy()).verdict == "win":
            winning.append(move)
        board.pop()
    assert len(winning) >= 2, "a position with a choice of winning moves"
    shown = []
    for press in range(len(winning) + 1):
        play(session, "hint")
        shown.append(screen.hints_shown[1][-1])  # type: ignore[attr-defined]
        line = session.view().table.status_line  # type: ignore[union-attr]
        assert line.startswith("Hint: " if press in (0, len(winning)) else "This wins too: "), (press, line)
        assert session.view().table.hint == screen.table.targets_of(shown[-1])  # type: ignore[attr-defined,union-attr]
    assert sorted(map(str, shown[:-1])) == sorted(map(str, winning)) and shown[-1] == shown[0]
    play(session, "ok")  # plays the first hint, shown again
    assert board.move_stack == [shown[0]]
    play(session, "hint")
    assert session.view().table.status_line.startswith("Hint: ")  # type: ignore[union-attr]


def test_h_again_on_a_lost_deal_shows_another_move(tmp_path: Path) -> None:
    session = new_session(tmp_path, number=1)
    choose(session, "New game")
    play(session, "ok")  # No redeal: deal 1 cannot be won
    play(session, "hint")
    first = session.view().table.hint  # type: ignore[union-attr]
    play(session, "hint")
    assert session.view().table.status_line.startswith("Another move: ")  # type: ignore[union-attr]
    assert session.view().table.hint and session.view().table.hint != first  # type: ignore[union-attr]


def test_the_controls_page_names_backspace_as_the_back_it_is(tmp_path: Path) -> None:
    """Issue 47, item 13: Backspace was listed as "Erase" while the page said "Press Back twice to leave",
    and two Backspaces did leave it: it is Back wherever nothing is typed."""
    session = new_session(tmp_path)
    presses: list[PressSeen] = []
    session.input_log = lambda: presses
    choose(session, "Settings")
    choose(session, "Controls")
    presses.append(PressSeen("erase", "keyboard"))
    session.handle(Action("erase"))
    assert dict(session.view().text.sections)["Last presses, newest first"][0] == \
        "Back (erases while typing) from the keyboard"
    presses.append(PressSeen("erase", "keyboard"))
    session.handle(Action("erase"))
    assert session.state()["screen"] == "settings", "Back twice, as the page says"
