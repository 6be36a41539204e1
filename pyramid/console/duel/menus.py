"""The way into a Pyramids duel: its menu, the players' names, the match number.

Everything is chosen with the arrows and ✓ (the console has no keyboard);
the opponent's level and the players' names are remembered in the settings.
Starting a duel replaces any saved one (an unfinished match against the
computer counts as lost, as an abandoned Pyramid deal does).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from pyramid.console.catalogue import say
from pyramid.console.wording import describe_notices, level_name, player_name
from pyramid.actions import Action, Kind
from pyramid.engine.duel.levels import LEVELS
from pyramid.console.duel.flow import (
    LEVEL_CHOICE,
    match_number_for,
    remembered_level,
    resume,
    saved_duel,
)
from pyramid.console.duel.help import PyramidsHelpKey, open_pyramids_help
from pyramid.engine.duel.match import Duel
from pyramid.saved.settings import DEFAULT_PLAYER_NAME
from pyramid.console.duel.screens import open_duel, over_saved_duel, start_duel
from pyramid.console.protocols import Console
from pyramid.console.screen import MenuScreen, NoticeScreen, Screen
from pyramid.console.widgets import NumberEntryScreen
from pyramid.view import Hit, MenuView, View


PLAYER_CHOICES = ("pyramids first player", "pyramids second player")
#: The catalogue keys of the names the hot-seat players start from.
DEFAULT_NAMES = ("duel.player_1", "duel.player_2")


def play_computer(session: Console, match_number: int | None = None) -> None:
    """A duel against the computer at the remembered level (``--game pyramids`` opens this)."""
    number = match_number_for(session, match_number)
    start_duel(session, Duel.against_computer(number, say("duel.you"), remembered_level(session)))


def _lobby() -> ModuleType:
    """The network screens, imported when first opened."""
    from pyramid.console.net import lobby

    return lobby


def continue_pyramids(session: Console) -> None:
    """Resume the saved duel exactly: the same player, the same move; a network match also rejoins its table."""
    saved = saved_duel(session)
    if saved is not None and "table" in saved.context:
        _lobby().resume_table(session, saved)
        return
    resumed = resume(session)
    if resumed is None:
        session.push(NoticeScreen(session, say("duel.cannot_resume"),
                                  describe_notices(session.store.take_notice()) or say("duel.other_version")))
        return
    open_duel(session, *resumed)


class PyramidsMenu(PyramidsHelpKey, MenuScreen):
    """Against the computer (◀ ▶ choose its level), two players, the match number, the rules."""

    name = "pyramids_menu"
    title_key = "menu.pyramids"
    remember = "pyramids"

    def __init__(self, session: Console) -> None:
        self.match_number: int | None = None
        super().__init__(session)

    #: The line that chooses the opponent, and the one that chooses the match (◀ ▶ act on them).
    OPPONENT_LINE, MATCH_LINE = 1, 3

    def lines(self) -> list[tuple[str, Callable[[], None]]]:
        session = self.session
        match = say("duel.random") if self.match_number is None else str(self.match_number)
        return [
            (say("duel.play_computer"), lambda: over_saved_duel(session, lambda: play_computer(session, self.match_number))),
            (say("duel.opponent", level=level_name(remembered_level(session))), lambda: self.sideways(1)),
            (say("duel.two_players"), lambda: over_saved_duel(session, self.ask_names)),
            (say("duel.match", match=match), lambda: session.push(MatchNumberScreen(session, self))),
            (say("duel.network"), lambda: _lobby().open_network_menu(session, self.match_number)),
            (say("menu.rules"), lambda: open_pyramids_help(session)),
        ]

    def items(self) -> list[str]:
        return [label for label, _ in self.lines()]

    def choose(self, index: int) -> None:
        self.lines()[index][1]()

    def sideways(self, direction: int) -> None:
        """◀ ▶ change the opponent's level, or put the match number back to random."""
        if self.selected == self.OPPONENT_LINE:
            level = LEVELS[(LEVELS.index(remembered_level(self.session)) + direction) % len(LEVELS)]
            self.session.remember_choice(LEVEL_CHOICE, level)
        elif self.selected == self.MATCH_LINE:
            self.match_number = None

    def footer(self) -> str:
        if self.selected == self.OPPONENT_LINE:
            return say("duel.opponent_keys")
        if self.selected == self.MATCH_LINE:
            return say("duel.match_keys")
        return say("duel.about")

    def ask_names(self) -> None:
        """Two players: the first name, then the second, then the duel (both remembered for the next duel)."""
        session = self.session

        def entry(seat: int, title: str, then: Callable[[str], None]) -> NameEntryScreen:
            def chosen(name: str) -> None:
                session.remember_choice(PLAYER_CHOICES[seat], name)
                then(name)

            default = say(DEFAULT_NAMES[seat])
            start = session.settings.menu_choices.get(PLAYER_CHOICES[seat], default)
            return NameEntryScreen(session, title, start, default, chosen)

        def second(first: str) -> None:
            session.push(entry(1, say("duel.second_player"), lambda name: self.two_players(first, name)))

        session.push(entry(0, say("duel.first_player"), second))

    def two_players(self, first: str, second: str) -> None:
        number = match_number_for(self.session, self.match_number)
        start_duel(self.session, Duel.pass_the_console(number, first, second))


class NameEntryScreen(PyramidsHelpKey, Screen):
    """Typing a name with arrows only: ▲ ▼ change the letter, ◀ ▶ pick the letter, ✓ done.

    It starts from ``start``; ``then`` receives the name (``default`` when
    left blank) after this screen has closed, and remembers it where its
    caller keeps names (the hot-seat duel's players, the player's own name in
    Settings).
    """

    name = "name_entry"
    #: The letters ▲ ▼ go through: the accented ones too, for French names ("Zoé", "François").
    LETTERS = " ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzéèêëàâçîïôûüÉÈÇ0123456789-'"
    LENGTH = 12
    takes_text = True

    def __init__(self, session: Console, title: str, start: str, default: str, then: Callable[[str], None]) -> None:
        super().__init__(session)
        self.title = title
        self.default = default
        self.then = then
        start = "".join(c for c in start if c in self.LETTERS)[: self.LENGTH]
        self.letters = list(start.ljust(self.LENGTH))
        self.position = min(len(start), self.LENGTH - 1)
        #: The name is still the one it started from: a letter typed first replaces it, as in a
        #: selected text field ("Player" + "Ann" made "PlayerAnn", issue 47); any other key keeps it.
        self.untouched = True

    @property
    def text(self) -> str:
        return "".join(self.letters).strip()

    def handle(self, action: Action, hit: Hit) -> None:
        if action.kind is Kind.TYPE and action.text in self.LETTERS and self.untouched:
            self.letters, self.position = [" "] * self.LENGTH, 0
        self.untouched = False
        if action.kind is Kind.TYPE and action.text in self.LETTERS:  # a keyboard types the name
            self.letters[self.position] = action.text
            self.position = min(self.position + 1, self.LENGTH - 1)
        elif action.kind is Kind.ERASE:  # Backspace deletes the letter before the one aimed at
            at = self.position - 1 if self.letters[self.position] == " " and self.position else self.position
            self.letters = self.letters[:at] + self.letters[at + 1:] + [" "]
            self.position = at
        elif action.kind in (Kind.UP, Kind.DOWN):
            letter = self.LETTERS.index(self.letters[self.position])
            step = 1 if action.kind is Kind.UP else -1
            self.letters[self.position] = self.LETTERS[(letter + step) % len(self.LETTERS)]
        elif action.kind in (Kind.LEFT, Kind.RIGHT):
            self.position = (self.position + (1 if action.kind is Kind.RIGHT else -1)) % self.LENGTH
        elif action.kind in (Kind.OK, Kind.TAP):
            chosen = " ".join(self.text.split()) or self.default
            self.session.pop()
            self.then(chosen)
        elif action.kind in (Kind.BACK, Kind.STAR):
            self.session.pop()

    def shown(self) -> str:
        """The name with the letter being changed in brackets; past the name's end, where the next letter
        goes, a "_" (not "[ ]")."""
        end = max(len("".join(self.letters).rstrip()), self.position + 1)
        return "".join(("_" if c == " " and i >= len(self.text) else f"[{c}]") if i == self.position else c
                       for i, c in enumerate(self.letters[:end]))

    def view(self) -> View:
        return View(self.name, menu=MenuView(self.title, (self.shown(),), 0,
                                             say("name.keys")))

    def menu_state(self) -> dict[str, object]:
        return {"items": [self.text], "selected": 0}


def your_name(session: Console) -> NameEntryScreen:
    """Settings → "Your name": the name other consoles see at a network table, stored in the settings."""
    def chosen(name: str) -> None:
        session.change_setting("player_name", DEFAULT_PLAYER_NAME if name == player_name(DEFAULT_PLAYER_NAME) else name)

    shown = player_name(DEFAULT_PLAYER_NAME)
    return NameEntryScreen(session, say("settings.your_name"), player_name(session.settings.player_name), shown, chosen)


class MatchNumberScreen(PyramidsHelpKey, NumberEntryScreen):
    """The match number, typed like a deal number; ✓ takes it back to the Pyramids menu."""

    name = "match_number"
    title_key = "duel.match_number"

    def __init__(self, session: Console, menu: PyramidsMenu) -> None:
        super().__init__(session)
        self.menu = menu

    def accept(self, number: int) -> None:
        self.menu.match_number = number
        self.session.pop()
