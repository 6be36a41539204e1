"""Command-line options of the console, parsed into one plain value.

Every bad option ends in a one-line message naming the problem (no usage
dump, no traceback), because these lines end up in bug reports and in the
journal of a console that has no keyboard.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

import argparse
import re
from typing import TYPE_CHECKING, Literal, NamedTuple, NoReturn, Sequence

from pyramid.net.limits import DEFAULT_PORT
from pyramid.scripting import Step, parse_steps
from pyramid.engine.cards import Card, Deck, parse_deal
from pyramid.engine.deal import MAX_DEAL_NUMBER
from pyramid.engine.errors import UnknownPresetError
from pyramid.errors import PyramidError
from pyramid.languages import LANGUAGES

if TYPE_CHECKING:
    from pyramid.net.views import TableAt
from pyramid.sizes import parse_size
from pyramid.engine.rules import PRESETS, REDEAL_CHOICES, Redeals, preset

GAMES = ("pyramid", "pyramids")
ON_OFF = ("on", "off")
#: ``--power-off``: how the main menu's "Power off" line halts the machine (``none``: no such line).
POWER_OFF_METHODS = ("none", "logind")
#: An hour: longer than any test or demo needs, and far from what the clock's wait can take.
MAX_SCRIPT_DELAY_MS = 3_600_000


class OptionError(PyramidError):
    """A command-line option that cannot be used; the message names it."""


class TableRequest(NamedTuple):
    """``--table``: open a table at once (``host`` None), or join the one at ``host``:``port``, or
    (``via`` "server") the table the player or account ``host`` opened on the table server."""

    host: str | None = None
    port: int | None = None
    via: Literal["lan", "server"] = "lan"

    @property
    def opens(self) -> bool:
        return self.host is None

    @property
    def where(self) -> "TableAt | None":
        """The table to join (None: open one)."""
        from pyramid.net.views import TableAt

        return None if self.host is None else TableAt(self.host, self.port or 0, self.via)


class Options(NamedTuple):
    display: str | None = None
    size: tuple[int, int] | None = None
    game: str | None = None
    rules: str | None = None
    #: ``None``: ask "Redeal the stock?" (or the preset's own), as the menus do.
    redeals: Redeals | None = None
    deal: tuple[Card, ...] | None = None
    deal_number: int | None = None
    script: tuple[Step, ...] | None = None
    script_delay_ms: int = 0
    trace: str | None = None
    dump_state: str | None = None
    screenshot: str | None = None
    settings: str | None = None
    inputs: tuple[str, ...] = ()
    self_test: bool = False
    table: TableRequest | None = None
    #: ``--table-port`` (None: the settings file's port) and ``--table-address`` (None: the LAN interfaces).
    table_port: int | None = None
    table_address: str | None = None
    #: ``--name``: the player's name for this run only.
    name: str | None = None
    #: ``--motion`` / ``--sound`` / ``--language`` for this run (``None``: the settings'; off in scripted mode).
    motion: bool | None = None
    sound: bool | None = None
    language: str | None = None
    #: ``--power-off logind``: the main menu offers "Power off" (the appliance's unit passes it).
    power_off: str = "none"

    @property
    def scripted(self) -> bool:
        """Scripted mode plays a fixed list of actions and exits (tests, demos, bug reports)."""
        return self.script is not None or bool(self.dump_state or self.screenshot)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """argparse quotes arguments as they were typed: control characters are escaped to keep one line."""
        raise OptionError(re.sub(r"[\x00-\x1f\x7f]", lambda match: repr(match.group())[1:-1], message))


def _size(text: str) -> tuple[int, int]:
    try:
        return parse_size(text, "--size")
    except ValueError as error:
        raise OptionError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pyramid", description="Pyramid solitaire console.",
                     epilog="`pyramid solve --help` for the solver.")
    parser.add_argument("--display",
                        help="window | headless | kmsdrm | fbdev[:/dev/fbN] | auto "
                             "(default: the settings file's choice, else auto)")
    parser.add_argument("--size", help="screen size WIDTHxHEIGHT (window and headless)")
    parser.add_argument("--game", choices=GAMES, help="skip the main menu and open this game")
    parser.add_argument("--rules", help=f"rules preset: {', '.join(PRESETS)} (default: the last one chosen)")
    parser.add_argument("--redeals", choices=tuple(REDEAL_CHOICES), help="with --game: deal at once")
    deal = parser.add_mutually_exclusive_group()
    deal.add_argument("--deal", help="the 52 cards of the deal, in the notation of docs/rules.md")
    deal.add_argument("--deal-number", type=int, help=f"numbered deal 1..{MAX_DEAL_NUMBER}")
    parser.add_argument("--script", help="actions to play, e.g. 'ok down ok tap:120,80' (and wait, wait:joined, "
                                         "wait:done with --table; wait:shared, wait:friends:N with a table server)")
    parser.add_argument("--script-delay", type=int, default=0, metavar="MS", help="pause after each action")
    parser.add_argument("--trace", metavar="FILE.jsonl", help="write the state before and after each action")
    parser.add_argument("--dump-state", metavar="FILE.json", help="write the final state")
    parser.add_argument("--screenshot", metavar="FILE.png", help="save the final frame")
    parser.add_argument("--settings", metavar="FILE.toml", help="hardware settings file")
    parser.add_argument("--input", default="", help="extra input sources: gpio,evdev")
    parser.add_argument("--table", metavar="open|join:HOST:PORT|join:server:HOST_NAME",
                        help="open a Pyramids table, or join one (on the home network, or the table server's), at once")
    parser.add_argument("--table-port", type=int, metavar="P",
                        help=f"with --table open: the port to listen on (default: the settings file's, else {DEFAULT_PORT}; "
                             "0 picks a free one)")
    parser.add_argument("--table-address", metavar="A", help="with --table open: the address to listen on "
                                                             "(default: the LAN interfaces)")
    parser.add_argument("--name", help="the player's name for this run (shown at the table)")
    parser.add_argument("--motion", choices=ON_OFF, help="animate moves for this run (default: the settings'; "
                                                         "off in scripted mode)")
    parser.add_argument("--sound", choices=ON_OFF, help="play sound effects for this run (default: the settings'; "
                                                        "off in scripted mode)")
    parser.add_argument("--language", choices=list(LANGUAGES), help="the interface language for this run "
                                                              "(default: the settings', else en)")
    parser.add_argument("--power-off", choices=POWER_OFF_METHODS, default="none",
                        help="logind: offer Power off in the main menu (the appliance's service)")
    parser.add_argument("--self-test", action="store_true", help="check the installation and exit")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    return parser


def _table(text: str) -> TableRequest:
    """``open``, ``join:HOST:PORT`` (an IPv6 host in brackets: ``join:[fe80::1]:47312``) or
    ``join:server:HOST_NAME`` (the player's name, or its account, on the table server)."""
    if text == "open":
        return TableRequest()
    if text.startswith("join:server:"):
        from pyramid.net.errors import ProtocolError
        from pyramid.net.protocol import check_name

        try:
            return TableRequest(check_name(text[len("join:server:"):]), 0, "server")
        except ProtocolError:
            raise OptionError(f"invalid --table {text!r}: join:server: names the host's player (1 to 32"
                              " characters) or its account on the table server") from None
    where = text[len("join:"):] if text.startswith("join:") else None
    host, colon, port = (where or "").rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not colon or not host or not port.isdigit() or not 1 <= int(port) <= 65535 or any(c.isspace() for c in host):
        raise OptionError(f"invalid --table {text!r}: use open, join:HOST:PORT (port 1..65535) or join:server:HOST_NAME")
    return TableRequest(host, int(port))


def _name(text: str) -> str:
    from pyramid.net.errors import ProtocolError
    from pyramid.net.protocol import check_name

    try:
        return check_name(text)
    except ProtocolError:
        raise OptionError(f"invalid --name {text!r}: 1 to 32 characters, no control characters,"
                          " no spaces at either end") from None


def _check_numbers(args: argparse.Namespace) -> None:
    """The options that say a number, each within its range; --redeals only with --game."""
    if args.redeals and not args.game:
        raise OptionError("--redeals needs --game (it chooses the redeals of the game it opens)")
    if args.deal_number is not None and not 1 <= args.deal_number <= MAX_DEAL_NUMBER:
        raise OptionError(f"invalid --deal-number {args.deal_number}: use 1..{MAX_DEAL_NUMBER}")
    if not 0 <= args.script_delay <= MAX_SCRIPT_DELAY_MS:
        raise OptionError(f"invalid --script-delay {args.script_delay}: from 0 to {MAX_SCRIPT_DELAY_MS} (an hour)")


def _check_table(args: argparse.Namespace, table: TableRequest | None) -> None:
    """The table's options go together: --table plays numbered Pyramids matches, --table-port and
    --table-address only where a table opens."""
    if args.game == "pyramid" and table is not None:
        raise OptionError("--table plays Pyramids: it cannot go with --game pyramid")
    if (args.table_port is not None or args.table_address is not None) and (table is None or not table.opens):
        raise OptionError("--table-port and --table-address go with --table open")
    if args.table_port is not None and not 0 <= args.table_port <= 65535:
        raise OptionError(f"invalid --table-port {args.table_port}: use 0..65535 (0 picks a free one)")
    if args.deal is not None and table is not None:
        raise OptionError("--table deals numbered matches: use --deal-number")


def _deal(text: str, deck: Deck) -> tuple[Card, ...]:
    try:
        return parse_deal(text, deck)
    except PyramidError as error:
        raise OptionError(f"invalid --deal: {error}") from None


def _script(text: str) -> tuple[Step, ...]:
    try:
        return tuple(parse_steps(text))
    except PyramidError as error:
        raise OptionError(f"invalid --script: {error}") from None


def parse_options(argv: Sequence[str]) -> tuple[Options, bool]:
    """Parse ``argv``; returns the options and whether ``--version`` was asked."""
    args = build_parser().parse_args(list(argv))
    try:
        rules = preset(args.rules or "retrohub")
    except UnknownPresetError as error:
        raise OptionError(str(error)) from None
    redeals = Redeals(REDEAL_CHOICES[args.redeals]) if args.redeals else None
    _check_numbers(args)
    deal = _deal(args.deal, rules.deck) if args.deal is not None else None
    table = _table(args.table) if args.table is not None else None
    _check_table(args, table)
    script = _script(args.script) if args.script is not None else None
    options = Options(
        display=args.display,
        size=_size(args.size) if args.size else None,
        game="pyramids" if table is not None else args.game,
        rules=args.rules,
        redeals=redeals,
        deal=deal,
        deal_number=args.deal_number,
        script=script,
        script_delay_ms=args.script_delay,
        trace=args.trace,
        dump_state=args.dump_state,
        screenshot=args.screenshot,
        settings=args.settings,
        inputs=tuple(part for part in args.input.split(",") if part),
        self_test=args.self_test,
        table=table,
        table_port=args.table_port,
        table_address=args.table_address,
        name=_name(args.name) if args.name is not None else None,
        motion=None if args.motion is None else args.motion == "on",
        sound=None if args.sound is None else args.sound == "on",
        language=args.language,
        power_off=args.power_off,
    )
    return options, args.version
