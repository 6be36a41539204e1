"""How the console words cards, moves and variants, for both games.

One place, so Pyramid's hints, the duel's refusals ("3♠ does not fit on Q♦")
and the statistics headings name things the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from pyramid.actions import Action, Kind
from pyramid.console.catalogue import knows, say, say_count
from pyramid.engine.cards import FACE_LETTERS, SPANISH_SUITS, SUIT_SIGNS, Card, CardLetters
from pyramid.engine.rules import PRESETS

if TYPE_CHECKING:
    from pyramid.engine.board import Move
    from pyramid.saved.notices import StoreNotice

def variant_title(preset: str) -> str:
    """The name of rules preset ``preset`` as menus and titles show it ("Pyramid", "Three passes")."""
    return say(f"variant.{preset}") if preset in PRESETS else preset


def variant_line(preset: str) -> str:
    """The one line on ``preset`` under the Variant menu (docs/rules.md, "Variants", says it all)."""
    return say(f"variant.{preset}.line") if preset in PRESETS else ""


def player_name(name: str) -> str:
    """The player's name as the console shows and sends it: the default one ("Player") in the language spoken."""
    from pyramid.saved.settings import DEFAULT_PLAYER_NAME

    return say("settings.default_name") if name == DEFAULT_PLAYER_NAME else name


def level_name(level: str) -> str:
    """A computer player's level as the player reads it ("good"); one not known (from a peer) as it came."""
    return say(f"level.{level}") if knows(f"level.{level}") else level


def month_name(month: int) -> str:
    """``12`` → "December" (as the daily deal's title says the date)."""
    return say(f"month.{month}")


def card_name(card: Card, letters: CardLetters) -> str:
    """``Qd`` → "Q♦" with English letters, "D♦" with French or German ones; a Spanish card by its
    number and its suit's sign, as its face shows it ("11" and a coin)."""
    if card.suit in SPANISH_SUITS:
        return str(card.rank) + SUIT_SIGNS[card.suit]
    rank = FACE_LETTERS[letters].get(card.rank) or (say("card.ace") if card.rank == 1 else str(card.rank))
    return rank + SUIT_SIGNS[card.suit]


def describe_move(move: Move, letters: CardLetters) -> str:
    """A Pyramid move as a hint says it: "turn the stock", "D♦ + A♠"."""
    if move.kind == "draw":
        return say("move.draw")
    if move.kind == "redeal":
        return say("move.redeal")
    return " + ".join(card_name(card, letters) for card in move.cards)


def describe_level(level: str) -> str:
    """The statistics heading of the duel against the computer at ``level``."""
    return say("statistics.against_computer", level=level_name(level))


def describe_variant(game: str, variant: str) -> str:
    """A statistics heading: "retrohub/one" → "Pyramid, one redeal"; "good" → "Pyramids against …"; a network match names the opponent."""
    from pyramid.saved.stats import LOCAL_GAME, NETWORK_GAME, PyramidVariant  # loaded with the statistics

    if game == "pyramids":
        return describe_level(variant)
    if game == NETWORK_GAME:
        return say("statistics.against_network", name=variant)
    if game == LOCAL_GAME:
        return say("statistics.two_players", name=variant)
    parsed = PyramidVariant.parse(variant)
    if parsed is None:
        return variant_title(variant)
    return say("statistics.variant_redeals", variant=variant_title(parsed.preset),
               redeals=say(f"statistics.redeals.{parsed.redeals_word}"))


def describe_notice(notice: StoreNotice) -> str:
    """What the store found (:class:`~pyramid.saved.notices.StoreNotice`), as the player reads it."""
    details = dict(notice.details)
    kept = [say_count(f"store.kept.{part}", count) for part in ("stats", "settings", "days")
            if isinstance(count := details.pop(part, 0), int) and count]
    sentence = say(notice.key, **details)
    if kept:
        listed = kept[0]
        for part in kept[1:]:
            listed = say("store.and", first=listed, second=part)
        sentence += " " + say("store.kept_from_it", kept=listed)
    return sentence


def describe_notices(notices: Sequence[StoreNotice]) -> str:
    """Several notices, one per line (a notice screen shows them together)."""
    return "\n".join(describe_notice(notice) for notice in notices)


def played_won(played: int, won: int) -> dict[str, str]:
    """The fields ``played`` and ``won`` of a message, each worded with its own count ("1 jouée, 2 gagnées")."""
    return {"played": say_count("count.played", played), "won": say_count("count.won", won)}


#: The input sources that name themselves with a word (others, a remote or a GPIO pin, by their own name):
#: the SDL sources' and every TV's remote (input.hub.TV_REMOTE).
WORDED_DEVICES = ("keyboard", "mouse", "touchscreen", "tv_remote")


def device_line(device: str) -> str:
    """A connected input device as the Controls page lists it: a source that names itself with a word
    ("keyboard") in the player's words, any other (a remote, "GPIO 22") by its own name."""
    return say(f"devices.{device}") if device in WORDED_DEVICES else device


def press_line(action: str, device: str) -> str:
    """A press as the Controls page lists it: the action and where it came from, in the player's words
    ("✓ depuis le clavier"); a device that names itself ("GPIO 22", a remote) is quoted as it is."""
    seen = Action.parse(action)
    if seen.kind is Kind.TAP:
        worded = say("action.tap", x=seen.x, y=seen.y)
    elif seen.kind is Kind.TYPE:
        worded = say("action.type", text=seen.text)
    else:
        worded = say(f"action.{seen.kind.value}")
    source = say(f"device.{device}") if device in WORDED_DEVICES else repr(device)
    return say("controls.press", action=worded, device=source)


def clock_time(seconds: int) -> str:
    """A game's time as a clock shows it: "1:05", "1:02:03"."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
