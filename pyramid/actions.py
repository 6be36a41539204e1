"""The small set of actions every input source produces (docs/rules.md, "Controls").

Keyboards, buttons, remotes, gamepads and touchscreens all end up as one of
these, so the game flow never knows where a press came from. Notation (used by
the scripted mode): ``up down left right ok back star help undo hint`` and
``tap:X,Y``. ``undo`` and ``hint`` are the assists within one press (a key or
button of their own, or a long press of Back on a handheld); screens without
assists ignore them. A keyboard also types: ``type:X`` is the character X
typed (digits on the number screens, letters in a name) and ``erase`` its
Backspace, which deletes a typed character there and means ``back`` anywhere
else.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

from enum import Enum
from typing import NamedTuple

from pyramid.errors import InvalidActionError

BUTTONS = ("up", "down", "left", "right", "ok", "back", "star", "help", "undo", "hint", "erase")
#: The characters a keyboard may type (into a number or a name).
TYPABLE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -'")
#: Actions that repeat while held (docs/rules.md, "Controls": the arrows).
REPEATING = frozenset(("up", "down", "left", "right"))


class Kind(Enum):
    """What an action is: one of the buttons, a tap (with where) or a typed character (with which).

    Screens compare kinds (``action.kind is Kind.OK``), never names: a misspelt
    kind is an error the type check finds, a misspelt name was a comparison that
    was silently never true. The values are the notation's words.
    """

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    OK = "ok"
    BACK = "back"
    STAR = "star"
    HELP = "help"
    UNDO = "undo"
    HINT = "hint"
    ERASE = "erase"
    TAP = "tap"
    TYPE = "type"


#: The kinds by their word in the notation.
KINDS = {kind.value: kind for kind in Kind}
#: The four arrows (what moves a cursor or a highlight).
ARROWS = frozenset((Kind.UP, Kind.DOWN, Kind.LEFT, Kind.RIGHT))


class _ActionValue(NamedTuple):
    kind: Kind
    x: int
    y: int
    text: str


class Action(_ActionValue):
    """One action: a button, a tap with a screen position, or a typed character (its :class:`Kind`).

    A named tuple (immutable, cheap to define before the first frame),
    checked when it is made.
    """

    __slots__ = ()

    def __new__(cls, name: "str | Kind", x: int = 0, y: int = 0, text: str = "") -> "Action":
        kind = name if isinstance(name, Kind) else KINDS.get(name)
        if kind is None:
            raise InvalidActionError(f"unknown action {name!r} (use one of {', '.join(BUTTONS)}, tap:X,Y or type:C)")
        if kind is Kind.TYPE and (len(text) != 1 or text not in TYPABLE):
            raise InvalidActionError(f"cannot type {text!r}: one letter, digit, space, - or '")
        return super().__new__(cls, kind, x, y, text)

    @classmethod
    def typed(cls, character: str) -> "Action":
        return cls("type", text=character)

    @classmethod
    def tap(cls, x: int, y: int) -> "Action":
        return cls("tap", int(x), int(y))

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Read ``"ok"`` or ``"tap:12,34"``; raise :class:`InvalidActionError` quoting ``text``."""
        if text.strip().startswith("type:"):
            return cls.typed(text.strip()[5:])
        word = text.strip().lower()
        if word.startswith("tap:"):
            try:
                x_text, y_text = word[4:].split(",")
                return cls.tap(int(x_text), int(y_text))
            except ValueError:
                raise InvalidActionError(f"invalid action {text!r}: expected tap:X,Y with whole numbers") from None
        if word not in BUTTONS:
            raise InvalidActionError(f"invalid action {text!r} (use one of {', '.join(BUTTONS)} or tap:X,Y)")
        return cls(word)

    def __str__(self) -> str:
        if self.kind is Kind.TYPE:
            return f"type:{self.text}"
        return f"tap:{self.x},{self.y}" if self.kind is Kind.TAP else self.kind.value
