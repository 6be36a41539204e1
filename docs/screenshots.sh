#!/usr/bin/env bash
# Regenerate the screenshots in docs/ through the console's own scripted mode.
# Run from the repository root: docs/screenshots.sh
set -eu
cd "$(dirname "$0")/.."
. scripts/venv.sh
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
# Deal 7 with one redeal: pair the queen with the ace, choose the 3, draw twice, aim at the waste.
script="right right ok right right right right ok left left left ok up up up up up up up ok ok down"
for size in 320x240 480x320 800x480 1920x1080; do
    PYRAMID_DATA_DIR="$data/$size" "$venv/bin/pyramid" --display headless --size "$size" \
        --game pyramid --redeals one --deal-number 7 --script "$script" \
        --screenshot "docs/screenshot-$size.png"
done
echo "docs/screenshot-<size>.png written"
# The French interface (--language fr): the same game at 480x320, the main menu and the first rules page at 320x240.
PYRAMID_DATA_DIR="$data/fr-game" "$venv/bin/pyramid" --display headless --size 480x320 --language fr \
    --game pyramid --redeals one --deal-number 7 --script "$script" --screenshot docs/screenshot-fr-480x320.png
PYRAMID_DATA_DIR="$data/fr-menu" "$venv/bin/pyramid" --display headless --size 320x240 --language fr \
    --script "" --screenshot docs/screenshot-fr-menu-320x240.png
PYRAMID_DATA_DIR="$data/fr-rules" "$venv/bin/pyramid" --display headless --size 320x240 --language fr \
    --script "help" --screenshot docs/screenshot-fr-rules-320x240.png
echo "docs/screenshot-fr-*.png written"
# The end panels and the statistics, at the smallest screen and on a TV: a deal the first-legal-move
# player loses although it could be won (so the panel offers the solution), and a few statistics.
"$venv/bin/python" - <<'PY'
import tempfile
from pathlib import Path

import pygame

from display.render import Renderer
from pyramid.actions import Action
from pyramid.console.catalogue import use_language
from pyramid.console.menus import StatisticsScreen, open_console
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import RETROHUB, Redeals
from pyramid.engine.solver import solve
from pyramid.saved.stats import GameResult
from pyramid.saved.store import Store

rules = RETROHUB.with_redeals(1)
number = next(n for n in range(1, 2000) if solve(Board(numbered_deal(n), rules)).verdict == "win"
              and (lambda b: [b.push(b.legal_moves[0]) for _ in iter(lambda: b.status() == "playing", False)]
                   and b.status() == "no_moves")(Board(numbered_deal(n), rules)))
with tempfile.TemporaryDirectory() as scratch:
    store = Store.open(Path(scratch) / "pyramid.db")
    session = Session(RETROHUB, DealChoice(number=number), store=store)
    open_console(session, "pyramid", Redeals(1))
    board = session.screen.table.board
    while board.status() == "playing":
        move = board.legal_moves[0]
        targets = session.screen.table.targets_of(move)
        for target in targets:
            session.handle(Action.tap(0, 0), lambda x, y, target=target: target)
    for variant, won in (("retrohub/one", False), ("classic/none", True), ("three-pass/two", True)):
        store.record_result(GameResult("pyramid", variant, won, 120), clear_progress=False)
    for size in ((320, 240), (1280, 720)):
        renderer = Renderer(size)
        renderer.draw(session.view())
        pygame.image.save(renderer.frame, f"docs/screenshot-end-{size[0]}x{size[1]}.png")
    use_language("fr")
    renderer = Renderer((320, 240))
    renderer.draw(session.view())
    pygame.image.save(renderer.frame, "docs/screenshot-fr-end-320x240.png")
    use_language("en")
    session.push(StatisticsScreen(session))
    renderer = Renderer((320, 240))
    renderer.draw(session.view())
    pygame.image.save(renderer.frame, "docs/screenshot-statistics-320x240.png")
    store.close()
PY
echo "docs/screenshot-end-*.png, docs/screenshot-fr-end-320x240.png and docs/screenshot-statistics-320x240.png written"
# Issue 47's screens at 320x240 and 1280x720: the daily deals' calendar in every language (a day won
# in par, a day played, the day aimed at), King Tut's waste fanned, Overlap's ring round the part of a
# card that shows, the Spanish club, and the panel of a network match the opponent left.
"$venv/bin/python" - <<'PY'
import datetime
import random

import pygame

from display.render import Renderer
from pyramid.actions import Action
from pyramid.console.catalogue import use_language
from pyramid.console.game_screen import daily_calendar, start_pyramid
from pyramid.console.menus import open_console
from pyramid.console.net.match import NetDuelRun
from pyramid.console.protocols import DealChoice
from pyramid.console.session import Session
from pyramid.engine.daily import daily_challenge
from pyramid.engine.duel.ai import play_match
from pyramid.engine.rules import preset
from pyramid.engine.tableau import pyramid_geometry
from pyramid.net import events
from pyramid.net.link import MatchLink
from pyramid.net.opponent import OpponentReplay
from pyramid.saved.stats import DailyPlay, GameResult
from pyramid.saved.store import Store

SIZES = ((320, 240), (1280, 720))
TODAY = datetime.date(2026, 12, 6)


def shoot(session: Session, name: str) -> None:
    for size in SIZES:
        renderer = Renderer(size)
        renderer.draw(session.view())
        pygame.image.save(renderer.frame, f"docs/screenshot-{name}-{size[0]}x{size[1]}.png")


def console(rules: str, language: str = "en", number: int | None = None) -> Session:
    store = Store.in_memory()
    store.set_setting("language", language)
    session = Session(preset(rules), DealChoice(number=number), store=store, today=lambda: TODAY)
    open_console(session)
    return session


for language in ("en", "fr", "de"):
    session = console("three-pass", language)
    for back, won, extra, best in ((1, True, 0, True), (2, False, 0, False), (3, True, 4, False), (5, True, 0, False)):
        day = TODAY - datetime.timedelta(days=back)
        challenge = daily_challenge(day, "three-pass")
        score = (challenge.score_par or 0) if best else 300
        session.store.record_result(GameResult("pyramid", "three-pass/two", won, score),
                                    daily=DailyPlay(day, moves=challenge.par + extra, score=score))
    daily_calendar(session)
    session.handle(Action("left"))
    shoot(session, f"calendar-{language}")
use_language("en")

session = console("king-tut", number=7)
start_pyramid(session, None)
board = session.screen.board
for _ in range(2):
    board.push(next(move for move in board.legal_moves if move.kind == "draw"))
shoot(session, "king-tut")

session = console("overlap", number=1)
start_pyramid(session, 0)
board, covers = session.screen.board, pyramid_geometry(7)[1]
rng = random.Random(1)
while True:
    under = [t for t in session.screen.table.targets()
             if isinstance(t, int) and any(board.pyramid[i] is not None for i in covers[t])]
    if under:
        session.screen.table.cursor = under[0]
        break
    removals = [move for move in board.legal_moves if move.kind == "remove"]
    board.push(rng.choice(removals or board.legal_moves))
shoot(session, "overlap")

session = console("spanish", number=7)
start_pyramid(session, 0)
shoot(session, "spanish")

session = console("retrohub")
theirs = [str(move) for move in play_match(12, "good").moves[:20]]
link = MatchLink("host", 12, "good", opponent_name="Bob", opponent=OpponentReplay.from_json({"match": 12, "moves": theirs}))
run = NetDuelRun(session, link, "Ann", lambda: None, lambda: None)
for move in play_match(12, "good").moves[:3]:
    run.board.push(move)
session.push(run.game_screen())
run.on_left(events.OpponentLeft("left"))
session.screen.news()
shoot(session, "opponent-left")
PY
echo "docs/screenshot-calendar-*, king-tut-*, overlap-*, spanish-*, opponent-left-* written"
