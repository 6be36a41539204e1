"""How long the console waits for the save after a move (synchronous=FULL, one fsync).

Run: ``nice .venv/bin/python benchmarks/bench_store.py [DIRECTORY]`` (default: a
temporary directory; give one on the SD card to measure the card). Prints
milliseconds per save early and late in a long game, and their ratio: the
save appends one row, so the ratio stays near 1 however long the game.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from pyramid.engine.board import Move
from pyramid.engine.cards import format_cards
from pyramid.engine.deal import numbered_deal
from pyramid.saved.progress import Progress, replay
from pyramid.saved.database import DATABASE_NAME
from pyramid.saved.store import Store

LONG_GAME = 2000
SAMPLE = 100


def long_game() -> Progress:
    """Deal 1 with unlimited redeals, turning the stock round and round (every move legal)."""
    progress = Progress("pyramid", "retrohub", None, format_cards(numbered_deal(1)), deal_number=1)
    board = replay(progress)
    while len(progress.moves) < LONG_GAME:
        move = Move.draw() if board.stock else Move.redeal()
        board.push(move)
        progress = progress.with_move(move)
    return progress


def milliseconds_per_save(store: Store, game: Progress, plies: range) -> list[float]:
    times = []
    for ply in plies:
        state = replace(game, moves=game.moves[: ply + 1])
        start = time.perf_counter()
        store.save_progress(state)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(directory: Path) -> None:
    game = long_game()
    with Store.open(directory / DATABASE_NAME) as store:
        early = milliseconds_per_save(store, game, range(SAMPLE))
        milliseconds_per_save(store, game, range(SAMPLE, LONG_GAME - SAMPLE))
        late = milliseconds_per_save(store, game, range(LONG_GAME - SAMPLE, LONG_GAME))
        store.clear_progress("pyramid")
        start = time.perf_counter()
        store.save_progress(game)
        whole = (time.perf_counter() - start) * 1000
    print(f"directory: {directory}")
    print(f"save, moves 1-{SAMPLE}: median {statistics.median(early):.2f} ms, max {max(early):.2f} ms")
    print(f"save, moves {LONG_GAME - SAMPLE + 1}-{LONG_GAME}: median {statistics.median(late):.2f} ms,"
          f" max {max(late):.2f} ms")
    print(f"late/early ratio: {statistics.median(late) / statistics.median(early):.2f}")
    print(f"first save of a {LONG_GAME}-move game (after opening): {whole:.2f} ms")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(Path(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory() as temporary:
            main(Path(temporary))
