"""Best score reachable, side by side with the independent peer (issue 33): scores and times.

Command (from the repository root)::

    nice -n 10 .venv/bin/python benchmarks/bench_best_score.py [--deals 40] [--budget 120]
        [--core compiled|python] [--skip-peer]
    nice -n 10 .venv/bin/python benchmarks/bench_best_score.py --summary [--deals 1500]
        [--presets three-pass retrohub] [--python-deals 20]

``--summary`` (issue 51's table): the best score of each of the first ``--deals`` reference deals
under each preset of ``--presets``, by the compiled core, then by the pure Python one on the first
``--python-deals`` of them in the same run: per preset and core, the total, the p99, the slowest,
the deals over a second and the slowest five; every line replayed to its score. No peer.

The first ``--deals`` reference deals of ``tests/data/msc-1500/`` under Three passes: our
search (:func:`pyramid.engine.solver.best_score.best_score` by ``--core``, the compiled one by
default; ``--budget`` seconds a deal, past which it says "unknown") and the peer's (``../shared/peer/peer-best-score.sh``, Java: mchung94's
``ScoreChallengeSolver``) in the same run. Per deal: both scores and lengths (the peer's counts
its line to the end of the game) and times; then the totals, the ratio, the slowest deal and
whether every score is equal. Exits non-zero when a score differs (from the peer's in this run, or
from its score recorded in ``tests/data/msc-1500/best-scores.txt``) or a line does not replay.
Times are wall-clock milliseconds, ours measured here and the peer's as it prints them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))
sys.path.insert(1, str(REPOSITORY / "tests"))  # the reference deals (tests/reference.py)

from pyramid.engine.board import Board  # noqa: E402
from pyramid.engine.cards import parse_deal  # noqa: E402
from pyramid.engine.rules import preset  # noqa: E402
from pyramid.engine.solver import Core  # noqa: E402
from pyramid.engine.solver.best_score import BestScore, best_score  # noqa: E402
from pyramid.solve_cli import BEST_SCORE_BYTES  # noqa: E402
from reference import RULES_PRESET, ReferenceDeal, reference_deals, write_decks  # noqa: E402

PEER = REPOSITORY.parent / "shared" / "peer" / "peer-best-score.sh"


def ours(decks: list[ReferenceDeal], budget: float, core: Core, preset_name: str = RULES_PRESET,
         quiet: bool = False) -> list[tuple[BestScore, float]]:
    rules, answers = preset(preset_name), []
    for number, deck in enumerate(decks, start=1):
        board = Board(parse_deal(deck.deal), rules)
        started = time.perf_counter()
        answer = best_score(board, max_seconds=budget, core=core, max_bytes=BEST_SCORE_BYTES)
        seconds = time.perf_counter() - started
        game = board.copy()
        for move in answer.moves:
            game.push(move)
        if answer.verdict == "best" and game.score != answer.score:
            raise SystemExit(f"deal {number}: the line scores {game.score}, not {answer.score}")
        answers.append((answer, seconds))
        if not quiet:
            print(f"  ours {number}: {answer.verdict} {answer.score} {len(answer.moves)} {seconds * 1000:.0f} ms",
                  file=sys.stderr, flush=True)
    return answers


def summary(decks: list[ReferenceDeal], presets: list[str], python_deals: int, budget: float) -> None:
    """Issue 51's table: per preset and core, the total, p99, slowest, deals over 1 s, the slowest five."""
    print(f"| preset / core | deals | total s | p99 ms | max ms | over 1 s | slowest five (deal: ms) |")
    print("|---|---|---|---|---|---|---|")
    for name in presets:
        for core, count in (("compiled", len(decks)), ("python", min(python_deals, len(decks)))):
            if not count:
                continue
            answers = ours(decks[:count], budget, core, name, quiet=True)  # type: ignore[arg-type]
            times = sorted((seconds, number) for number, (_, seconds) in enumerate(answers, start=1))
            ms = [seconds * 1000 for seconds, _ in times]
            p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
            slowest = ", ".join(f"{number}: {seconds * 1000:.0f}" for seconds, number in times[::-1][:5])
            unknown = sum(answer.verdict != "best" for answer, _ in answers)
            print(f"| {name} / {core} | {count} | {sum(ms) / 1000:.1f} | {p99:.0f} | {ms[-1]:.0f} | "
                  f"{sum(value > 1000 for value in ms)} | {slowest}{f' ({unknown} unknown)' if unknown else ''} |",
                  flush=True)


def peer(decks: list[ReferenceDeal]) -> dict[int, tuple[int, int, float]] | None:
    """INDEX → (score, length, seconds) as the peer prints them; ``None`` without it or Java."""
    if not shutil.which("javac") or not PEER.is_file():
        print(f"peer: not run (needs {PEER} and Java: apt-get install default-jdk-headless libtrove3-java "
              "libjackson2-databind-java)", file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory() as folder:
        path = write_decks(Path(folder) / "decks.txt", decks)
        run = subprocess.run(["bash", str(PEER), str(path)], capture_output=True, text=True,
                             env={**os.environ, "TMPDIR": folder})
    if run.returncode:
        raise SystemExit(f"the peer failed: {run.stderr[-1000:]}")
    found = {}
    for line in run.stdout.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[0].isdigit():
            found[int(fields[0])] = (int(fields[1]), int(fields[2]), int(fields[3]) / 1000)
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--budget", type=float, default=120.0, help="seconds a deal for our search")
    parser.add_argument("--core", choices=["compiled", "python"], default="compiled")
    parser.add_argument("--skip-peer", action="store_true")
    parser.add_argument("--summary", action="store_true", help="issue 51's table, without the peer")
    parser.add_argument("--presets", nargs="*", default=[RULES_PRESET, "retrohub"])
    parser.add_argument("--python-deals", type=int, default=20)
    args = parser.parse_args(argv)
    decks = list(reference_deals()[: args.deals])
    if args.summary:
        summary(decks, args.presets, args.python_deals, args.budget)
        return 0
    theirs = None if args.skip_peer else peer(decks)
    mine = ours(decks, args.budget, args.core)
    print("| deal | ours | length | ms | peer | length | ms |")
    print("|---|---|---|---|---|---|---|")
    differ = 0
    for number, (deck, (answer, seconds)) in enumerate(zip(decks, mine), start=1):
        score = str(answer.score) if answer.verdict == "best" else "unknown"
        row = f"| {number} | {score} | {len(answer.moves)} | {seconds * 1000:.0f} |"
        recorded = {deck.best_score} - {None}  # the peer's score in tests/data, where it was run
        if theirs is not None:
            their_score, their_length, their_seconds = theirs[number]
            row += f" {their_score} | {their_length} | {their_seconds * 1000:.0f} |"
            recorded.add(their_score)
        differ += answer.verdict == "best" and bool(recorded - {answer.score})
        print(row)
    total = sum(seconds for _, seconds in mine)
    unknown = sum(answer.verdict != "best" for answer, _ in mine)
    print(f"\nours: {total:.1f} s in all, slowest {max(seconds for _, seconds in mine):.1f} s, "
          f"{unknown} unknown past {args.budget:.0f} s")
    if theirs is not None:
        their_total = sum(seconds for _, _, seconds in theirs.values())
        print(f"peer: {their_total:.1f} s in all, slowest {max(s for _, _, s in theirs.values()):.1f} s; "
              f"ours / peer = {total / their_total:.2f}; scores differ on {differ} deals")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
