"""The Pyramids duel in the console, in-process over a real store file.

The person's moves come from the engine's own good player, turned into the
picks a player makes (a tap on a card, the stock or the joker), so whole
matches play through the real screens.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from pyramid.actions import Action
from pyramid.engine.duel.board import DuelBoard, DuelMove
from pyramid.engine.duel.ai import opponent_for, play_match
from pyramid.console.wording import describe_level
from pyramid.console.duel.screens import DuelScreen
from pyramid.saved.progress import Progress
from pyramid.console.menus import open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.saved.database import SCHEMA_VERSION
from pyramid.saved.store import Store
from pyramid.view import Target

from console_steps import parse_script

#: The good player clears the first round of this match (so a round panel shows).
MATCH = 16


def new_session(path: Path, number: int | None = None) -> Session:
    session = Session(None, DealChoice(number=number), rng=random.Random(5), store=Store.open(path / "pyramid.db"))
    open_console(session)
    return session


def press(session: Session, script: str) -> dict:
    for action in parse_script(script):
        session.handle(action)
    return session.state()


def choose(session: Session, label: str) -> dict:
    """Move the menu selection onto the line starting with ``label`` and take it."""
    items = session.screen.menu_state()["items"]
    index = next(i for i, item in enumerate(items) if item.startswith(label))
    session.screen.selected = index  # type: ignore[attr-defined]
    return press(session, "ok")


def target_of(board: DuelBoard, move: DuelMove) -> Target:
    if move.kind == "turn":
        return "stock"
    if move.kind == "joker":
        return "joker"
    assert move.card is not None
    index = board.index_of(move.card)
    assert index is not None
    return index


def tap(session: Session, target: Target) -> None:
    session.handle(Action.tap(1, 1), lambda x, y: target)


def play_game(session: Session, level: str = "good", stop_after: int | None = None) -> DuelBoard:
    """Play the duel game on screen as the ``level`` player would, closing round panels with ✓."""
    screen = session.screen
    assert isinstance(screen, DuelScreen)
    player, played = opponent_for(level, 3), 0
    while not screen.finished and (stop_after is None or played < stop_after):
        if screen.cleared_round is not None:
            press(session, "ok")
            continue
        tap(session, target_of(screen.board, player.choose(screen.board)))
        played += 1
    return screen.board


def start_against_computer(session: Session, level: str) -> dict:
    choose(session, "Pyramids")
    session.screen.selected = 1  # type: ignore[attr-defined]
    while not session.state()["menu"]["items"][1].endswith(level):
        press(session, "right")
    return choose(session, "Play the computer")


def test_main_menu_leads_to_the_pyramids_menu_and_its_rules(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    state = choose(session, "Pyramids")
    assert state["screen"] == "pyramids_menu"
    assert state["menu"]["items"] == ["Play the computer", "Opponent: good", "Two players", "Match: random",
                                      "Play on the network", "Rules & controls"]
    assert choose(session, "Rules & controls")["screen"] == "help"
    headings = []
    for _ in range(4):
        headings += [heading for heading, _ in session.view().text.sections]
        press(session, "right")
    assert {"Goal", "Placing", "Points", "Joker", "End", "Controls"} <= set(headings)
    assert press(session, "ok")["screen"] == "pyramids_menu"


def test_opponent_level_changes_with_arrows_and_is_remembered(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    choose(session, "Pyramids")
    session.screen.selected = 1  # type: ignore[attr-defined]
    assert press(session, "right")["menu"]["items"][1] == "Opponent: expert"
    assert press(session, "right")["menu"]["items"][1] == "Opponent: casual"
    session.store.close()
    again = new_session(tmp_path)
    assert choose(again, "Pyramids")["menu"]["items"][1] == "Opponent: casual"


def test_match_number_is_typed_with_arrows(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    choose(session, "Pyramids")
    assert choose(session, "Match")["screen"] == "match_number"
    state = press(session, "left up ok")  # 0000001 -> 0000011
    assert state["menu"]["items"][3] == "Match: 11"
    state = choose(session, "Play the computer")
    assert state["game"]["match"] == 11 and state["game"]["rules"] == "pyramids"


def test_table_targets_stock_joker_and_uncovered_cards(tmp_path: Path) -> None:
    session = new_session(tmp_path, MATCH)
    state = start_against_computer(session, "casual")
    game = state["game"]
    assert state["screen"] == "duel" and game["round"] == 1 and game["streak"] == 0
    assert game["joker_available"] is True and len(game["pile"]) == 1 and game["cursor"] == game["pyramid"][6][0]
    screen = session.screen
    assert isinstance(screen, DuelScreen)
    assert screen.table.targets()[:2] == ["stock", "joker"]
    computer = screen.run.computer_game()  # waits for the background game: then its total is the score to beat
    table = session.view().table
    assert table.joker == "available" and table.title == f"Match {MATCH} · round 1/5"  # the number to pass on
    assert table.detail == f"Sequence 0 · beat {computer.total}"
    session.screen.table.cursor = "joker"  # type: ignore[attr-defined]
    assert session.view().table.status_line == "Joker: -50, then any uncovered card goes on it", "its cost, before"


def test_a_card_that_does_not_fit_is_explained(tmp_path: Path) -> None:
    session = new_session(tmp_path, MATCH)
    start_against_computer(session, "casual")
    board = session.screen.board  # type: ignore[attr-defined]
    misfit = next(i for i in board.uncovered_indices() if not board.fits(board.pyramid[i]))
    tap(session, misfit)
    assert " does not fit on " in session.view().table.status_line
    assert session.state()["game"]["moves"] == []


def test_joker_is_armed_then_spent_and_drawn_so(tmp_path: Path) -> None:
    session = new_session(tmp_path, MATCH)
    start_against_computer(session, "casual")
    tap(session, "joker")
    assert session.view().table.joker == "armed"
    assert "stock" not in session.screen.table.targets()  # type: ignore[attr-defined]
    tap(session, "stock")
    assert session.view().table.status_line == "Place a card on the joker first."
    board = session.screen.board  # type: ignore[attr-defined]
    tap(session, board.uncovered_indices()[0])
    state = session.state()["game"]
    assert state["moves"][0] == "joker" and state["streak"] == 1 and session.view().table.joker == "spent"
    # Issue 47: the joker turned grey without a word why.
    assert session.view().table.status_line == "The joker is used: it comes back next round."
    tap(session, "joker")
    assert session.view().table.status_line == "The joker is used for this round."


def test_whole_match_against_the_computer_counts_per_level_and_replays_its_game(tmp_path: Path) -> None:
    session = new_session(tmp_path, MATCH)
    start_against_computer(session, "casual")
    screen = session.screen
    assert isinstance(screen, DuelScreen)
    seen_round_panel = False
    player = opponent_for("good")
    while not screen.finished:
        if screen.cleared_round is not None:
            panel = session.view().panel
            assert panel is not None and panel.title.startswith("Round 1 cleared, +")
            seen_round_panel = True
            press(session, "ok")
            continue
        tap(session, target_of(screen.board, player.choose(screen.board)))
    assert seen_round_panel and session.state()["screen"] == "duel_over"
    mine = screen.board.score
    computer = play_match(MATCH, "casual")
    state = press(session, "ok")
    assert state["screen"] == "duel_result"
    assert state["game"]["duel"]["results"][1]["round_scores"] == list(computer.round_scores)
    panel = session.view().panel
    assert panel.title == ("You win!" if mine > computer.total else "The computer wins")
    assert panel.lines[0] == f"You: {mine} · Computer: {computer.total}"
    stats = session.store.stats("pyramids", "casual")
    assert (stats.played, stats.won, stats.best_score) == (1, int(mine > computer.total), mine)
    assert session.store.load_progress("pyramids") is None
    assert describe_level("casual") == "Pyramids against the casual computer"

    assert press(session, "ok")["screen"] == "replay"  # watch the computer's game
    press(session, " ".join(["right"] * len(computer.moves)))
    assert session.view().table.score_label == f"Score {computer.total}"
    assert press(session, "back")["screen"] == "duel_result"
    assert press(session, "down ok")["screen"] == "pyramids_menu"


def test_power_cut_mid_duel_resumes_exactly(tmp_path: Path) -> None:
    session = new_session(tmp_path, MATCH)
    start_against_computer(session, "good")
    play_game(session, stop_after=30)
    before = session.state()["game"]
    session.store.close()  # the power goes; nothing else is written
    again = new_session(tmp_path)
    menu = again.state()["menu"]
    assert menu["items"][0] == "Continue Pyramids"
    resumed = press(again, "ok")["game"]
    for key in ("pyramid", "stock", "pile", "score", "round", "streak", "joker_available", "moves", "duel"):
        assert resumed[key] == before[key]


def test_two_players_pass_the_console_and_resume_the_second_turn(tmp_path: Path) -> None:
    session = new_session(tmp_path, MATCH)
    choose(session, "Pyramids")
    assert choose(session, "Two players")["screen"] == "name_entry"
    state = press(session, "left left left left left left left down down ok")  # "l" of "Player 1" to "j"
    assert state["screen"] == "name_entry"
    first = session.store.settings().menu_choices["pyramids first player"]
    assert first == "Pjayer 1"
    state = press(session, "ok")  # the second keeps its default
    assert state["screen"] == "duel_turn"
    assert session.view().panel.lines[0] == f"Pass the console to {first}."
    assert press(session, "ok")["game"]["player"] == first
    first_board = play_game(session)
    assert session.view().panel.items == ("Next player",)
    state = press(session, "ok")
    assert state["screen"] == "duel_turn" and state["game"]["player"] == "Player 2"
    assert state["game"]["moves"] == [] and state["game"]["duel"]["results"][0]["round_scores"] == first_board.round_scores()

    session.store.close()  # a power cut while the console is being passed
    again = new_session(tmp_path)
    state = press(again, "ok")
    assert state["screen"] == "duel_turn" and state["game"]["player"] == "Player 2"
    press(again, "ok")
    second_board = play_game(again, "casual")
    state = press(again, "ok")
    assert state["screen"] == "duel_result"
    panel = again.view().panel
    totals = (first_board.score, second_board.score)
    expected = "A tie" if totals[0] == totals[1] else f"{(first, 'Player 2')[totals[1] > totals[0]]} wins!"
    assert panel.title == expected and panel.items == ("Back to the menu", "Rematch")
    assert again.store.load_progress("pyramids") is None
    # Issue 29: two players on one console are counted, each under their own name.
    stats = {s.variant: s for s in again.store.all_stats() if s.game == "pyramids-local"}
    assert set(stats) == {first, "Player 2"} and all(one.played == 1 for one in stats.values())
    assert stats[first].best_score == totals[0] and stats["Player 2"].best_score == totals[1]
    assert stats[first].won == (totals[0] > totals[1]) and stats["Player 2"].won == (totals[1] > totals[0])


def test_starting_another_duel_counts_the_unfinished_one_as_lost(tmp_path: Path) -> None:
    session = new_session(tmp_path, MATCH)
    start_against_computer(session, "casual")
    play_game(session, stop_after=3)
    press(session, "star")
    state = choose(session, "Play the computer")
    assert state["screen"] == "confirm" and state["menu"] == {"items": ["No", "New duel"], "selected": 0}
    assert press(session, "ok")["screen"] == "pyramids_menu"  # No: nothing is lost
    assert session.store.stats("pyramids", "casual").played == 0
    choose(session, "Play the computer")
    assert press(session, "down ok")["screen"] == "duel"
    stats = session.store.stats("pyramids", "casual")
    assert (stats.played, stats.won, stats.best_score) == (1, 0, None)


def test_version_2_store_migrates_and_the_pyramid_game_keeps_an_empty_context(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Store.open(path) as store:
        store.save_progress(Progress("pyramid", "retrohub", 1, "x" * 10, ("draw",)))
    with sqlite3.connect(path) as old:  # back to schema 2: the context column and the daily table did not exist
        old.execute("ALTER TABLE progress DROP COLUMN context")
        old.execute("DROP TABLE daily_deals")
        old.execute("ALTER TABLE stats DROP COLUMN old_best_score")
        old.execute("DROP TABLE bests")
        old.execute("DROP TABLE daily_shares")
        old.execute("DROP TABLE deal_scores")
        old.execute("PRAGMA user_version = 2")
    with Store.open(path, replayers={}) as store:
        assert store._connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        saved = store.load_progress("pyramid")
        assert saved is not None and saved.moves == ("draw",) and saved.context == {}


def test_help_on_any_pyramids_screen_opens_the_pyramids_rules(tmp_path: Path) -> None:
    session = new_session(tmp_path, MATCH)
    choose(session, "Pyramids")
    assert press(session, "help")["screen"] == "help"
    assert session.view().text.title == "Pyramids: rules & controls"  # type: ignore[union-attr]
    press(session, "help")
    choose(session, "Play the computer")
    before = session.state()["game"]
    press(session, "help")
    assert session.view().text.title == "Pyramids: rules & controls"  # type: ignore[union-attr]
    assert press(session, "ok")["game"] == before


def test_a_rematch_deals_a_new_match_against_the_same_opponent(tmp_path: Path) -> None:
    session = new_session(tmp_path, MATCH)
    start_against_computer(session, "casual")
    screens = [screen.name for screen in session.stack]
    play_game(session, "casual")
    state = press(session, "ok")
    assert state["screen"] == "duel_result" and state["menu"]["items"][-1] == "Rematch"
    state = press(session, "down down ok")
    assert state["screen"] == "duel" and state["game"]["match"] != MATCH and state["game"]["moves"] == []
    assert session.screen.run.computer_level == "casual"  # type: ignore[attr-defined]
    assert [screen.name for screen in session.stack] == screens, "the finished duel made way"
    assert session.store.stats("pyramids", "casual").played == 1


def test_the_computers_total_to_beat_shows_as_soon_as_it_is_known(tmp_path: Path) -> None:
    """Issue 29 item 12: "to beat: N" appeared only after the player's first key: the computer's game
    was worked out beside the loop, and nothing woke the loop when it was done."""
    import queue

    from pyramid.console.thinking import Thinker

    posted: queue.SimpleQueue[object] = queue.SimpleQueue()
    session = Session(None, DealChoice(number=MATCH), rng=random.Random(5), store=Store.open(tmp_path / "p.db"),
                      thinker=Thinker(posted.put))
    open_console(session)
    start_against_computer(session, "expert")
    session.post_event(posted.get(timeout=60))  # the thread's news wakes the main loop: nothing pressed
    computer = session.screen.run.computer_game()  # type: ignore[attr-defined]
    assert session.view().table.detail == f"Sequence 0 · beat {computer.total}"


def test_small_ones_of_the_duel_and_the_entry_screens(tmp_path: Path) -> None:
    """Issue 29 item 12: U in a duel did nothing and said nothing; "Player 1[ ]"; the number screen did
    not say how to leave."""
    session = new_session(tmp_path, MATCH)
    start_against_computer(session, "casual")
    press(session, "undo")
    assert session.view().table.status_line == "A duel takes no move back."
    press(session, "hint")
    assert session.view().table.status_line == "A duel gives no hints."
    press(session, "star")
    choose(session, "Two players")
    press(session, "down ok")  # a duel is saved: "Start a new duel?" - New duel
    assert session.view().menu.items == ("Player 1_",)  # where the next letter goes, not "[ ]"
    press(session, "left")
    assert session.view().menu.items == ("Player [1]",)
    press(session, "back back")
    choose(session, "Deal number")
    assert session.view().menu.items == ("[1]",) and session.view().menu.footer.endswith("Back leaves")


def test_two_players_on_one_console_see_whose_turn_it_is(tmp_path: Path) -> None:
    """Issue 47, item 12: the board never said whose turn it was (the name was squeezed into the
    detail line); now the status line says it, until a message has something to say."""
    session = new_session(tmp_path, MATCH)
    choose(session, "Pyramids")
    choose(session, "Two players")
    press(session, "ok ok")  # both default names
    press(session, "ok")  # "Pass the console to Player 1": start
    table = session.view().table
    assert table is not None and table.status_line == "Player 1's turn"
    assert "Player 1" not in table.detail
    press(session, "undo")
    assert session.view().table.status_line == "A duel takes no move back."  # type: ignore[union-attr]
