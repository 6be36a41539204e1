"""A process saving a game move by move is killed with SIGKILL at random moments.

After each kill the database must pass ``PRAGMA integrity_check`` and hold
exactly the last save the child reported as committed, or the one it was
writing when it died — never an older one, never a mix. The last step of each
game records the result and ends the saved game in one transaction, so the
statistics and the saved game must always agree.

20 trials in the normal run, 200 with ``PYRAMID_SLOW=1``. One database serves
all the trials of a run, so each child also opens (and recovers) the file its
killed predecessor left. Run as a script, this file is the child.
"""

from __future__ import annotations

import datetime
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyramid.engine.cards import format_cards
from pyramid.engine.deal import numbered_deal
from pyramid.saved.progress import Progress, replay
from pyramid.saved.stats import GameResult
from pyramid.saved.database import DATABASE_NAME, integrity_check
from pyramid.saved.store import Store

ROOT = Path(__file__).resolve().parent.parent
STARTED = datetime.datetime(2026, 11, 30, 12, 0, tzinfo=datetime.timezone.utc)
VARIANT = "crash-test"
MAX_STEPS = 120
#: The kill comes up to this many seconds after the child reported a chosen step: inside the next saves.
KILL_DELAY = 0.003
#: A quarter of the children are killed this soon after starting, before or while opening the store.
EARLY_WINDOW = 0.25


def saves_of_one_game(seed: int) -> list[Progress]:
    """The successive saved states of a random game, with undos (assists) among the moves."""
    rng = random.Random(seed)
    progress = Progress(
        "pyramid", "retrohub", None, format_cards(numbered_deal(seed)), started=STARTED, deal_number=seed
    )
    board = replay(progress)
    saves = [progress]
    while len(saves) < MAX_STEPS and board.legal_moves:
        if progress.moves and rng.random() < 0.15:
            board.pop()
            progress = progress.without_last_move().with_assist("undo")
        else:
            move = rng.choice(board.legal_moves)
            board.push(move)
            progress = progress.with_move(move)
        saves.append(progress)
    return saves


def child(path: Path, seed: int) -> None:
    """Open the store as the console does, save each state, then finish the game; report each commit."""
    saves = saves_of_one_game(seed)
    store = Store.open(path)
    store.load_progress("pyramid")
    print("open", flush=True)
    for step, progress in enumerate(saves):
        store.save_progress(progress)
        print(step, flush=True)
    store.record_result(GameResult("pyramid", VARIANT, won=False, assisted=False))
    print(len(saves), flush=True)


Snapshot = tuple[Progress | None, int]


def observe(path: Path) -> Snapshot:
    if path.exists():  # a child killed while starting may not have created it
        assert integrity_check(path) == ["ok"]
    with Store.open(path) as store:
        assert not store.notices
        return store.load_progress("pyramid"), store.stats("pyramid", VARIANT).played


def run_trials(tmp_path: Path, trials: int) -> None:
    path = tmp_path / "data" / DATABASE_NAME
    rng = random.Random(2026)
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    before: Snapshot = (None, 0)
    outcomes = {"killed while starting": 0, "killed while saving": 0, "finished": 0}
    for trial in range(trials):
        seed = 1000 + trial
        saves = saves_of_one_game(seed)
        process = subprocess.Popen(
            [sys.executable, __file__, str(path), str(seed)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment,
        )
        assert process.stdout is not None and process.stderr is not None
        committed = []
        if rng.random() < 0.25:
            time.sleep(rng.uniform(0, EARLY_WINDOW))
        else:
            assert process.stdout.readline() == "open\n", process.stderr.read()
            target = rng.randrange(-1, len(saves))
            while not committed or committed[-1] < target:
                line = process.stdout.readline()
                assert line, process.stderr.read()
                committed.append(int(line))
            time.sleep(rng.uniform(0, KILL_DELAY))
        process.send_signal(signal.SIGKILL)
        process.wait()
        committed += [int(line) for line in process.stdout.read().split() if line != "open"]
        error = process.stderr.read()
        assert process.returncode in (0, -signal.SIGKILL), error
        last = committed[-1] if committed else -1

        # After step k the store holds saves[k]; after the final step, no game and one more played.
        def after(step: int) -> Snapshot:
            if step < 0:
                return before
            if step < len(saves):
                return saves[step], before[1]
            return None, before[1] + 1

        seen = observe(path)
        assert seen in (after(last), after(last + 1)), f"trial {trial}: committed up to step {last}"
        before = seen
        if last == len(saves):
            outcomes["finished"] += 1
        else:
            outcomes["killed while saving" if committed else "killed while starting"] += 1
    print(f"{trials} trials: {outcomes}")
    assert outcomes["killed while saving"] > 0


def test_sigkill_during_saves_keeps_every_committed_move(tmp_path: Path) -> None:
    run_trials(tmp_path, 20)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("PYRAMID_SLOW") != "1", reason="long run: set PYRAMID_SLOW=1")
def test_sigkill_during_saves_long_run(tmp_path: Path) -> None:
    run_trials(tmp_path, 200)


if __name__ == "__main__":
    child(Path(sys.argv[1]), int(sys.argv[2]))
