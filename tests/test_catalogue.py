"""One catalogue per language: the same messages in each, every screen speaking the chosen one, none cut off.

The tour below opens every kind of screen the console has (menus, pages, the
tables of both games, their panels, the network screens) in every language of
:data:`pyramid.languages.LANGUAGES`, and checks each view of a language other
than English for text that is still English (a message of the English catalogue,
its fields filled in with anything) and each view of every language, drawn at
320x240, for text the renderer had to shorten with "…". A language added is
checked by every test here without a line changed.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import string
import subprocess
import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from types import ModuleType

import pygame
import pytest

from deals import build_deal, clearable_deal
from display.render import Renderer
from pyramid.actions import Action
from pyramid.console import catalogue
from pyramid.console.catalogue import en, say, say_count, use_language
from pyramid.console.catalogue.plurals import CATEGORIES
from pyramid.console.duel import menus as duel_menus
from pyramid.console.duel.help import open_pyramids_help
from pyramid.console.dealing import DealingScreen
from pyramid.console.game_screen import AssistPanel, GameScreen, RedealChoice, DealRequest, start_pyramid
from pyramid.console.menus import (ControlsScreen, DealNumberScreen, SettingsScreen, StatisticsScreen,
                                   SystemScreen, VariantMenu, open_console)
from pyramid.console.net import lobby, wording
from pyramid.console.protocols import DealChoice
from pyramid.console.screen import HelpScreen, NoticeScreen
from pyramid.console.session import Session
from pyramid.console.widgets import ConfirmScreen
from pyramid.console.wording import describe_notices, played_won
from pyramid.engine.cards import parse_deal
from pyramid.engine.duel.ai import LEVELS
from pyramid.engine.rules import PRESETS
from pyramid.net.events import InviteReceived, ServerState
from pyramid.net.server.account import ServerAccount
from pyramid.net.views import TableAt
from pyramid.saved.notices import StoreNotice
from pyramid.saved.stats import DailyPlay, GameResult
from pyramid.saved.store import Store
from pyramid.view import View

from console_steps import parse_script

DAY = datetime.date(2026, 12, 1)
# Lost at once: every partner of the base row is covered and no king is free.
HOPELESS = build_deal(["3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "Kd", "Kh", "Ks", "Ac", "Ad",
                       "Ah", "As", "2c", "2d", "2h", "2s", "9s", "Kc"]
                      + ["Tc", "Td", "Th", "Ts", "9c", "9d", "9h"], [])
#: Words that are the same in English and another language (a French or German screen may show them).
SHARED_WORDS = {"OK", "Joker", "Points", "Score", "Solution", "Pyramides", "Table", "Match", "Pause", "A", "port",
                "Pyramids", "System", "Software", "Hardware", "Computer", "Port", "Par", "Live", "points",
                "November"}
#: Every language but English, whose screens must show no English.
TRANSLATIONS = [language for language in catalogue.LANGUAGES if language != "en"]


def catalogue_of(language: str) -> ModuleType:
    return import_module(f"pyramid.console.catalogue.{language}")


def fields_of(message: str) -> list[str]:
    return sorted(field for _, field, _, _ in string.Formatter().parse(message) if field)


def english_key(key: str, counted: set[str]) -> str:
    """The English key a message translates: a counted message's form (``few``, ``many``…) is its
    family's ``other`` form, whatever forms the language has (tests/test_plurals.py)."""
    family, _, form = key.rpartition(".")
    return f"{family}.other" if family in counted and form in CATEGORIES else key


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_language_has_every_message_with_the_same_fields(language: str) -> None:
    messages = catalogue_of(language).MESSAGES
    counted = {key.rpartition(".")[0] for key in en.MESSAGES if key.endswith(".other")}
    assert {english_key(key, counted) for key in messages} == {english_key(key, counted) for key in en.MESSAGES}
    for key, message in messages.items():
        english = en.MESSAGES.get(key) or en.MESSAGES[english_key(key, counted)]
        assert fields_of(english) == fields_of(message), key
        assert message.strip() == message, key


def test_plurals_follow_each_languages_rule() -> None:
    assert say_count("table.redeals_left", 1) == "1 redeal left"
    assert say_count("table.redeals_left", 0) == "0 redeals left"
    use_language("fr")
    assert say_count("table.redeals_left", 0) == "0 redonne restante"
    assert say_count("table.redeals_left", 2) == "2 redonnes restantes"
    use_language("de")
    assert say_count("table.stock_cards", 1, redeals="") == "1 Karte · "
    assert say_count("table.stock_cards", 0, redeals="") == "0 Karten · "


def test_an_unknown_key_or_language_is_named() -> None:
    with pytest.raises(KeyError, match="'menu.nothing'.*'en'"):
        say("menu.nothing")
    with pytest.raises(ValueError, match="'tlh'"):
        use_language("tlh")


def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    """Literal keys in the console's code (``say("…")``) and the families built from codes."""
    root = Path(catalogue.__file__).parents[2]  # the pyramid package
    named = set()
    for path in root.rglob("*.py"):
        if "catalogue" not in path.parts:
            named |= set(re.findall(r'say(?:_count)?\(\s*"([a-z0-9_.-]+)"', path.read_text()))
    plural = {key.rsplit(".", 1)[0] for key in en.MESSAGES if key.endswith((".one", ".other"))}
    missing = {key for key in named if key not in en.MESSAGES and key not in plural}
    assert not missing
    store = (root / "saved" / "store.py").read_text() + (root / "saved" / "database.py").read_text()
    told = {f"store.{key}" for key in re.findall(r'StoreNotice\.of\(\s*"([a-z_]+)"', store)}
    told |= {f"store.not_saved.{what}" for what in re.findall(r'self\._write\(\s*"([a-z_]+)"', store)}
    told |= {f"store.{key}" for key in ("unresumable_left", "directory_afresh")}  # chosen by a condition
    assert len(told) > 15 and told <= set(en.MESSAGES)
    families = ([f"variant.{name}" for name in PRESETS] + [f"variant.{name}.line" for name in PRESETS]
                + [f"level.{level}" for level in LEVELS] + [f"month.{month}" for month in range(1, 13)])
    assert all(key in en.MESSAGES for key in families)


# -- the tour -------------------------------------------------------------------------------------
Step = Callable[[Session], None]


def play(script: str) -> Step:
    return lambda session: [session.handle(action) for action in parse_script(script)] and None


def push(make: Callable[[Session], object]) -> Step:
    return lambda session: session.push(make(session))  # type: ignore[arg-type]


def system_on_a_tv(session: Session) -> None:
    """The System page of a console on a TV (issue 49): the adapter, its addresses, the TV that answered."""
    from pyramid.system.cec.adapter import AdapterInfo
    from pyramid.system.cec.service import CecStatus

    status = CecStatus(AdapterInfo("/dev/cec0", "vc4_hdmi", "vc4-hdmi-0", 0x1F), "1.0.0.0", 4, True,
                       "BRAVIA 4K GB", "08:00:46")
    session.cec_statuses = lambda: (status,)
    session.push(SystemScreen(session))
    text = session.view().text
    assert text is not None and any("08:00:46" in line for _, lines in text.sections for line in lines)


class FollowingNetwork:
    """The network of a console with a table server, as the friends' board uses it: it follows boards."""

    def follow_daily(self, boards: object) -> None:
        self.boards = boards


def friends_board(session: Session) -> None:
    """Issue 50: the day's board among friends, its results proven already (one aided, one lost, the player's own)."""
    from pyramid.console.friends_board import FriendsBoardScreen
    from pyramid.console.net.friends import ServerFriends
    from pyramid.console.net.tables import Tables
    from pyramid.console.protocols import Followed
    from pyramid.net.daily_result import DailyResult, ProvenResult
    from pyramid.net.events import DailyResultSeen
    from pyramid.saved.stats import PyramidVariant

    session.tables = Tables(lambda name: FollowingNetwork(), server=SERVER)  # type: ignore[arg-type,return-value]
    session.friends = ServerFriends(session)
    variant = PyramidVariant("retrohub", 0)
    session.push(FriendsBoardScreen(session, Followed(DAY, variant), False, 45))
    for account, won, score, moves, seconds, aided in (("ann", True, 505, 45, 83, False), ("dee", True, 505, 46, 100, True),
                                                        ("bob", False, 40, 10, 50, False)):
        result = DailyResult(DAY, variant, account.title(), won, score, moves, seconds, aided, ())
        session.post_event(DailyResultSeen(ProvenResult(account, result)))


def game(deal: str, script: str = "") -> Step:
    def deal_it(session: Session) -> None:
        session.fixed_deal = DealChoice(cards=parse_deal(deal))
        start_pyramid(session, 1)
        play(script)(session)
    return deal_it


def invite(session: Session) -> None:
    session.push(lobby.InviteScreen(session, InviteReceived("Ann", "127.0.0.1", 47312, 12)))


def hint_then_help(session: Session) -> None:
    game(clearable_deal())(session)
    assert isinstance(session.screen, GameScreen)
    session.screen.give_hint()


def with_stats(session: Session) -> None:
    session.store.record_result(GameResult("pyramid", "retrohub/one", True, 420, False, True), daily=DailyPlay(DAY))
    session.store.record_result(GameResult("pyramids", "good", False, -40, False, True))
    session.push(StatisticsScreen(session))


def duel_played(session: Session) -> None:
    """A whole duel against the computer, played as its own good player would; then its results."""
    from pyramid.console.duel.screens import DuelScreen
    from pyramid.engine.duel.ai import opponent_for

    duel_menus.play_computer(session, 7)
    screen = session.screen
    assert isinstance(screen, DuelScreen)
    player = opponent_for("good", 3)
    while not screen.finished:
        if screen.cleared_round is not None:
            session.handle(Action("ok"))
            continue
        move = player.choose(screen.board)
        target = ("stock" if move.kind == "turn" else "joker" if move.kind == "joker"
                  else screen.board.index_of(move.card))  # type: ignore[arg-type]
        session.handle(Action.tap(1, 1), lambda x, y: target)
    session.handle(Action("ok"))


def duel_joker_to_beat(session: Session) -> None:
    """A duel against the computer, its game known (a score to beat), the joker on the pile."""
    from pyramid.console.duel.screens import DuelScreen

    duel_menus.play_computer(session, 7)
    screen = session.screen
    assert isinstance(screen, DuelScreen)
    screen.run.computer_game()  # worked out beside the player's game: waited for here
    session.handle(Action.tap(1, 1), lambda x, y: "joker")
    assert screen.board.joker_armed


def network_duel_alone(session: Session) -> None:
    """The player's game at a table nobody has sat at yet."""
    from pyramid.console.net.match import NetDuelRun
    from pyramid.net.link import MatchLink

    run = NetDuelRun(session, MatchLink("host", 12, "good"), "Anne-Sophie", lambda: None, lambda: None)
    session.push(run.game_screen())


def network_duel_under_way(session: Session) -> None:
    """The player's game at a table, the opponent a few moves in (a name as long as the console allows)."""
    from pyramid.console.net.match import NetDuelRun
    from pyramid.engine.duel.ai import play_match
    from pyramid.net.link import MatchLink
    from pyramid.net.opponent import OpponentReplay

    theirs = [str(move) for move in play_match(12, "good").moves[:30]]
    link = MatchLink("host", 12, "good", opponent_name="Marie-Claire",
                     opponent=OpponentReplay.from_json({"match": 12, "moves": theirs}))
    run = NetDuelRun(session, link, "Anne-Sophie", lambda: None, lambda: None)
    for move in play_match(12, "good").moves[:3]:  # a few of this player's own moves, a sequence going
        run.board.push(move)
    session.push(run.game_screen())


def opponent_left_the_match(session: Session) -> None:
    """The match the opponent left mid-round: the panel that says it is won (issue 47, item 4)."""
    from pyramid.net import events

    network_duel_under_way(session)
    screen = session.screen
    screen.run.on_left(events.OpponentLeft("left"))  # type: ignore[attr-defined]
    screen.news()


def calendar_with_days(session: Session) -> None:
    """The daily deals' calendar with a day won in par and a day played, then one aimed at."""
    from pyramid.console.game_screen import daily_calendar
    from pyramid.engine.daily import daily_challenge

    for back, won in ((1, True), (2, False)):
        day = DAY - datetime.timedelta(days=back)
        moves = daily_challenge(day, "retrohub").par
        session.store.record_result(GameResult("pyramid", "retrohub/none", won, 100),
                                    daily=DailyPlay(day, moves=moves))
    daily_calendar(session)
    play("left")(session)


def king_tut_fanned(session: Session) -> None:
    """King Tut after two draws: the waste's three cards fanned."""
    from pyramid.engine.deal import MAX_DEAL_NUMBER
    from pyramid.engine.rules import preset

    session.rules = preset("king-tut")
    session.fixed_deal = DealChoice(number=MAX_DEAL_NUMBER)  # the longest title a deal number makes
    start_pyramid(session, None)
    board = session.screen.board  # type: ignore[attr-defined]
    for _ in range(2):
        board.push(next(move for move in board.legal_moves if move.kind == "draw"))


def looking_for_a_deal(session: Session) -> DealingScreen:
    """The screen of a search for a winnable deal, past the moment it says so."""
    screen = DealingScreen(session, lambda dealt: None)
    screen.since -= 1.0
    return screen


def finding_a_best_score(session: Session) -> DealingScreen:
    """The screen of a search for a deal's best score (a score challenge), past the moment it says so."""
    from pyramid.console.dealing import BEST_SCORE

    screen = DealingScreen(session, lambda found: None, BEST_SCORE)
    screen.since -= 1.0
    return screen


def solution_replayed(session: Session) -> None:
    """The replay of a won deal's solution, a few steps in."""
    from pyramid.console.replay import ReplayScreen
    from pyramid.console.table import Table
    from pyramid.engine.board import Board
    from pyramid.engine.rules import RETROHUB
    from pyramid.engine.solver import solve

    board = Board(parse_deal(clearable_deal()), RETROHUB.with_redeals(1))
    session.push(ReplayScreen(session, Table(board), solve(board).moves, say("end.solution")))
    play("right right")(session)


SERVER = ServerAccount("tables.example.org", 8883, "ann", Path("/etc/pyramid/server/password"))
UNREACHABLE = ServerState(SERVER.address, "unreachable", "[Errno 111] Connection refused")

#: (name, how to get there from the main menu, how many pages to look at).
TOUR: list[tuple[str, Step, int]] = [
    ("main menu", lambda session: None, 1),
    ("variants", push(VariantMenu), 1),
    ("deal number", push(DealNumberScreen), 1),
    ("statistics, none", push(StatisticsScreen), 1),
    ("statistics", with_stats, 9),
    ("settings", push(SettingsScreen), 1),
    ("controls", push(ControlsScreen), 1),
    ("system", push(SystemScreen), 1),
    ("system on a TV's HDMI-CEC bus", system_on_a_tv, 1),
    ("a day among friends", friends_board, 1),
    ("a week among friends", lambda session: (friends_board(session), play("right")(session)) and None, 1),
    ("rules", push(lambda session: HelpScreen(session)), 9),
    ("redeal question", push(lambda session: RedealChoice(session, DealRequest())), 1),
    ("looking for a winnable deal", push(looking_for_a_deal), 1),
    ("finding a deal's best score", push(finding_a_best_score), 1),
    ("no best score found", push(lambda session: NoticeScreen(session, say("game.no_best_score_title"),
                                                               say("game.no_best_score"))), 1),
    ("game", game(clearable_deal(), "ok down ok"), 1),
    ("hint", hint_then_help, 1),
    ("assists", lambda session: (game(clearable_deal())(session),
                                 session.push(AssistPanel(session, session.screen))) and None, 1),  # type: ignore[arg-type]
    ("no move left", game(HOPELESS), 1),
    ("new game question", lambda session: (game(clearable_deal())(session), session.pop(),
                                           play("down ok")(session)) and None, 1),
    ("notice", push(lambda session: NoticeScreen(session, say("notice.not_saved"), say("duel.other_version"))), 1),
    ("saved data notice", push(lambda session: NoticeScreen(session, say("notice.saved_data"), describe_notices([
        StoreNotice.of("damaged", reason="file is not a database", aside="pyramid.db.damaged-20261201-101500",
                       stats=3, settings=1, days=0),
        StoreNotice.of("unresumable_kept", reason="saved move 2 'Kd+Kd'", aside="unresumable-pyramid.json")]))), 1),
    ("confirm", push(lambda session: ConfirmScreen(session, say("statistics.reset_question"),
                                                   say("statistics.reset"), lambda: None)), 1),
    ("pyramids menu", push(duel_menus.PyramidsMenu), 1),
    ("pyramids rules", open_pyramids_help, 9),
    ("name entry", push(duel_menus.your_name), 1),
    ("duel", lambda session: duel_menus.play_computer(session, 7), 1),
    ("duel, the joker on the pile, a score to beat", duel_joker_to_beat, 1),
    ("a table's game, nobody seated", network_duel_alone, 1),
    ("a table's game under way", network_duel_under_way, 1),
    ("two players", lambda session: (session.push(duel_menus.PyramidsMenu(session)),
                                     play("down down ok ok ok")(session)) and None, 1),
    ("duel results", duel_played, 1),
    ("duel results, then the computer's game", lambda session: (duel_played(session), play("ok right")(session))
     and None, 1),
    ("solution", solution_replayed, 1),
    ("joining", push(lambda session: lobby.JoiningScreen(session, TableAt("192.168.1.20", 47312))), 1),
    ("joining a table on the server", push(lambda session: lobby.JoiningScreen(
        session, TableAt("ann", 0, "server"), "Anne-Sophie")), 1),
    ("no table server", push(lambda session: NoticeScreen(session, wording.server_line(None, None),
                                                          wording.server_detail(None, None))), 1),
    ("the table server cannot be reached", push(lambda session: NoticeScreen(
        session, wording.server_line(SERVER, UNREACHABLE), wording.server_detail(SERVER, UNREACHABLE))), 1),
    ("table", push(lambda session: lobby.TableScreen(session, from_menu=False)), 1),
    ("join by address", push(lobby.JoinAddressScreen), 1),
    ("invite", invite, 1),
    ("daily deals calendar", calendar_with_days, 1),
    ("the opponent left the match", opponent_left_the_match, 1),
    ("king tut", king_tut_fanned, 1),
]


def tour(tmp_path: Path, language: str) -> dict[str, list[View]]:
    """Every stop of :data:`TOUR` in ``language``: its views, page by page."""
    seen: dict[str, list[View]] = {}
    for number, (name, step, pages) in enumerate(TOUR):
        store = Store.open(tmp_path / f"{language}-{number}.db")
        store.set_setting("language", language)
        session = Session(None, DealChoice(), store=store, today=lambda: DAY)
        open_console(session)
        step(session)
        views = [session.view()]
        for _ in range(pages - 1):  # ▶ turns the page; on the last one it changes nothing
            session.handle(Action("right"))
            if session.view() != views[-1]:
                views.append(session.view())
        seen[name] = views
        store.close()
    return seen


def texts(view: View) -> list[str]:
    """Every piece of text ``view`` puts on screen."""
    found: list[str] = [view.notice]
    if view.menu:
        found += [view.menu.title, *view.menu.items, view.menu.footer]
    if view.panel:
        found += [view.panel.title, *view.panel.lines, *view.panel.items]
    if view.text:
        found += [view.text.title, view.text.footer]
        for heading, paragraphs in view.text.sections:
            found += [heading, *paragraphs]
    if view.table:
        table = view.table
        found += [table.title, table.detail, table.status_line, table.stock_label, table.score_label]
    if view.calendar:
        page = view.calendar
        found += [page.title, *page.weekdays, page.detail, page.footer]
    return [text for text in found if text]


def english_patterns(language: str) -> list[re.Pattern[str]]:
    """Each English message that ``language`` says differently, its fields matching anything."""
    patterns, translated = [], catalogue_of(language).MESSAGES
    for key, message in en.MESSAGES.items():
        parts = re.split(r"\{[^}]*\}", message)
        if message == translated[key] or not set(re.findall(r"[A-Za-z]{3,}", "".join(parts))) - SHARED_WORDS:
            continue
        patterns.append(re.compile(".*".join(re.escape(part) for part in parts)))
    return patterns


@pytest.fixture(scope="module")
def tours(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[View]]]:
    path = tmp_path_factory.mktemp("tour")
    tours = {language: tour(path, language) for language in catalogue.LANGUAGES}
    use_language("en")
    return tours


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_the_tour_sees_every_screen_differently_in_each_language(tours: dict[str, dict[str, list[View]]],
                                                                 language: str) -> None:
    assert len(tours[language]) == len(TOUR)
    for name, views in tours["en"].items():
        translated = tours[language][name]
        assert views[0].screen == translated[0].screen, name
        assert texts(views[0]) != texts(translated[0]), name


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_no_translated_screen_shows_english(tours: dict[str, dict[str, list[View]]], language: str) -> None:
    patterns = english_patterns(language)
    for name, views in tours[language].items():
        for view in views:
            for text in texts(view):
                english = [pattern.pattern for pattern in patterns if pattern.fullmatch(text)]
                assert not english, f"{name}: {text!r} is English"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_no_words_are_the_same_as_in_english(tours: dict[str, dict[str, list[View]]], language: str) -> None:
    """Text built outside the catalogue (a name the engine made, a label kept from a menu) reads the same in every
    language: only names, numbers, cards, paths and the commands an owner types may."""
    for name, views in tours["en"].items():
        for english, translated in zip(views, tours[language][name]):
            same = set(texts(english)) & set(texts(translated))
            worded = {text for text in same if not text.startswith(("ssh ", "/"))
                      and set(re.findall(r"[A-Za-z]{3,}", text)) - SHARED_WORDS}
            assert not worded, f"{name}: {worded} not translated"


@pytest.mark.parametrize("language", catalogue.LANGUAGES)
def test_nothing_is_cut_off_at_320x240(tours: dict[str, dict[str, list[View]]], language: str) -> None:
    pygame.font.init()
    renderer = Renderer((320, 240))
    for name, views in tours[language].items():
        for view in views:
            for _, key in renderer.scene_for(view):
                if key[0] == "text":
                    shown = str(key[1])
                    assert not shown.endswith("…") or shown[:-1] + "…" in texts(view), \
                        f"{language} {name}: {shown!r} cut off"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_network_sentences_are_translated_too(language: str) -> None:
    use_language(language)
    sentences = [wording.join_failed(reason) for reason in wording.JOIN_FAILURES + ("other",)]
    sentences += [wording.void(reason) for reason in wording.VOID_REASONS + ("other",)]
    sentences += [wording.left("Ann", reason) for reason in ("closed", "timeout", "void", "left")]
    sentences += [wording.not_answering("Ann"), wording.back("Ann"), wording.progress("Ann", 2, 40, False),
                  wording.progress("Ann", 5, 90, True), wording.invite_sent("Ann", True),
                  wording.invite_sent("Ann", False), wording.listen_failed(47312), wording.discovery_failed(),
                  wording.table_line("Ann", 12, "expert", 1), wording.table_line("Ann", 12, "wizard", 0)]
    patterns = english_patterns(language)
    for sentence in sentences:
        assert not [pattern.pattern for pattern in patterns if pattern.fullmatch(sentence)], sentence
    assert wording.table_line("Ann", 12, "wizard", 0).count("wizard") == 1  # a level from a peer, as it came


# -- choosing the language ------------------------------------------------------------------------
def console(tmp_path: Path, *args: str, settings: str | None = None) -> tuple[dict, str]:
    """Run the console headless; its final state and what it said on standard error."""
    command = [sys.executable, "-m", "pyramid", "--display", "headless", "--dump-state", str(tmp_path / "s.json")]
    if settings is not None:
        (tmp_path / "pyramid.toml").write_text(settings)
        command += ["--settings", str(tmp_path / "pyramid.toml")]
    environment = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYRAMID_DATA_DIR": str(tmp_path / "data")}
    result = subprocess.run([*command, *args], capture_output=True, text=True, timeout=120, env=environment)
    assert result.returncode == 0, result.stderr
    return json.loads((tmp_path / "s.json").read_text()), result.stderr


def test_the_option_the_players_choice_and_the_settings_file_choose_the_language(tmp_path: Path) -> None:
    state, _ = console(tmp_path, "--script", "", settings='[console]\nlanguage = "fr"\n')
    assert state["menu"]["items"][0] == "Nouvelle partie"
    state, _ = console(tmp_path, "--language", "en", "--script", "", settings='[console]\nlanguage = "fr"\n')
    assert state["menu"]["items"][0] == "New game"
    # Settings → Langue, ◀ to English: kept with the player's data, it wins over the file from then on.
    settings, _ = console(tmp_path, "--script", "down down down down down down down ok", settings='[console]\nlanguage = "fr"\n')
    line = next(i for i, item in enumerate(settings["menu"]["items"]) if item.startswith("Langue : Français"))
    state, _ = console(tmp_path, "--script", "down down down down down down down ok " + "down " * line + "left",
                       settings='[console]\nlanguage = "fr"\n')
    assert state["menu"]["items"][line] == "Language: English"
    state, _ = console(tmp_path, "--script", "", settings='[console]\nlanguage = "fr"\n')
    assert state["menu"]["items"][0] == "New game"


def test_a_wrong_language_in_the_settings_file_is_told_and_english_spoken(tmp_path: Path) -> None:
    state, said = console(tmp_path, "--script", "", settings='[console]\nlanguage = "klingon"\n')
    assert state["menu"]["items"][0] == "New game"
    assert "console.language 'klingon'" in said and f"use one of {', '.join(catalogue.LANGUAGES)};" in said
    state, said = console(tmp_path, "--script", "", settings='console = "fr"\n')
    assert state["menu"]["items"][0] == "New game" and "'console' must be a table" in said
    state, said = console(tmp_path, "--script", "", settings='[console]\nlangage = "fr"\n')
    assert state["menu"]["items"][0] == "New game" and "unknown setting console.langage" in said


#: Fields that hold a count of games or days, often 0 or 1: the word after them agrees with them.
COUNTS = {"played", "won", "count"}


@pytest.mark.parametrize("language", catalogue.LANGUAGES)
def test_a_count_is_followed_by_a_word_only_where_the_word_agrees_with_it(language: str) -> None:
    """Issue 29 item 9: "1 jouées, 1 gagnées". A count field followed by a word must be worded by
    ``say_count`` (a ``.one`` / ``.other`` pair) or passed in already worded ("count.played")."""
    wrong = []
    for key, message in catalogue_of(language).MESSAGES.items():
        for _, field, _, _ in string.Formatter().parse(message):
            if field in COUNTS and not (field == "count" and key.endswith((".one", ".other"))):
                after = message.split("{" + field + "}", 1)[1]
                if re.match(r"\s*[^\W\d_]", after):
                    wrong.append(key)
    assert not wrong


def test_french_counts_agree() -> None:
    use_language("fr")
    assert say("statistics.daily_total", **played_won(1, 0)) == "1 jouée, 0 gagnée"
    assert say("statistics.daily_total", **played_won(3, 2)) == "3 jouées, 2 gagnées"


@pytest.mark.parametrize("language", catalogue.LANGUAGES)
def test_a_name_starting_with_a_vowel_elides_the_word_before_it(language: str) -> None:
    """Issue 29 item 9: "Table de Anne-Sophie" for "Table d'Anne-Sophie"."""
    elisions = catalogue_of(language).ELISIONS
    use_language(language)
    checked = 0
    for key, message in catalogue_of(language).MESSAGES.items():
        for word, elided in elisions.items():
            for field in re.findall(rf"\b{word} \{{(\w+)\}}", message):  # a repr is quoted: no elision
                said = say(key, **{name: "Anne-Sophie" for name in fields_of(message)})
                assert f"{elided}Anne-Sophie" in said and f"{word} Anne-Sophie" not in said, key
                assert f"{word} Bob" in say(key, **{name: "Bob" for name in fields_of(message)}), key
                checked += 1
    assert checked or not elisions
    if language == "fr":
        assert say("net.table_of", host="Anne-Sophie", match=3) == "Table d'Anne-Sophie · match 3"
