"""The compiled solver core against the pure-Python reference (issue 27).

The Python searches are the reference: on every preset and redeal setting, from whole deals
and from random positions of random games, the core must give the same verdicts, and every
line it finds must replay through the engine to a won table. Budgets cut a search short at
every depth: the core then answers "unknown" or the true verdict, and what it kept from the
cut search must never change a later answer (the marks of an unfinished walk are taken back).
The 1,500 reference deals' verdicts (three passes) must agree. A fuzz target feeds the entry
points random bytes: a deal and a position, or a clean refusal.

``PYRAMID_TEST_CORE_LIBRARY=PATH`` tests another build of the core (the sanitized one:
``test_the_sanitized_core_passes_the_differential_test`` runs this module that way).
"""

from __future__ import annotations

import ctypes
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reference import RULES_PRESET, reference_deals

from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import PRESETS, REDEAL_CHOICES, Rules, preset
from pyramid.engine.solver import DealSolver, solve
from pyramid.engine.solver import build_core, compiled
from pyramid.engine.solver.best_score import BestScoreSearch, best_score
from pyramid.engine.solver.budget import Budget
from pyramid.engine.solver.compiled import CompiledCore, CoreUnavailable, open_library
from pyramid.engine.solver.position import Position

ROOT = Path(__file__).resolve().parents[1]
SANITIZED = os.environ.get("PYRAMID_TEST_CORE_LIBRARY")
VERDICTS = {compiled.WIN: "win", compiled.LOSE: "lose"}
#: Deal 35 of these rules takes the core some 320,000 nodes (0.25 s here).
HARD = preset("six-rows").with_redeals(1)
KING_TUT = preset("king-tut").with_redeals(None)
#: The tables the optimal-line comparison gives the core: some mid-game positions need much of the
#: console's 128 MiB for their shortest line, or more (RetroHub with two redeals, deal 3245 after 10
#: random plies, seed 0: 514,440 nodes, 96-112 MiB; 128-144 MiB before A* kept each key once); past
#: its bound the core says so (tested below).
SHORTEST_BYTES = 1 << 30


@pytest.fixture(scope="module")
def library() -> ctypes.CDLL:
    """The core under test: the one built for this machine, or ``PYRAMID_TEST_CORE_LIBRARY``'s."""
    if SANITIZED:
        return open_library(Path(SANITIZED))
    if shutil.which("cc") is None:
        pytest.skip("no C compiler here: the pure-Python solver runs (scripts/venv.sh installs gcc)")
    built = compiled.load()
    if built is None:
        pytest.fail("the compiled core does not load (./test.sh builds it; the log says why)")
    return built


def random_position(rules: Rules, number: int, plies: int, seed: int) -> Board:
    """Deal ``number`` after up to ``plies`` random legal moves (fewer when the game ends first)."""
    board = Board(numbered_deal(number, rules.deck), rules)
    chooser = random.Random(seed)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves or board.status() != "playing":
            break
        board.push(chooser.choice(moves))
    return board


def core_verdict(library: ctypes.CDLL, board: Board, probe: int | None) -> tuple[str, Board]:
    """The core's verdict on ``board``, and the board after its line (checked to replay)."""
    pos = Position(board)
    answer = CompiledCore(pos, library).verdict(pos.start_pm, pos.start_live, pos.start_q, pos.start_r,
                                                None, None, None, probe)
    after = board.copy()
    for token in answer.tokens:
        after.push(pos.move_of(token))  # raises when a move is not legal
    return VERDICTS.get(answer.result, "unknown"), after


def rules_of(name: str, choice: str) -> Rules:
    return preset(name).with_redeals(REDEAL_CHOICES[choice])


every_rule = st.tuples(st.sampled_from(list(PRESETS)), st.sampled_from(list(REDEAL_CHOICES)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule=every_rule, number=st.integers(1, 100_000), plies=st.integers(0, 45), seed=st.integers(0, 2**32),
       probe=st.one_of(st.none(), st.integers(0, 2_000)))
def test_the_core_gives_the_reference_verdict_and_a_line_that_wins(
        library: ctypes.CDLL, rule: tuple[str, str], number: int, plies: int, seed: int, probe: int | None) -> None:
    """With the last pass (or the two-pass search) joining after any probe (one-card draws), or the
    plain search alone; and through ``solve``."""
    board = random_position(rules_of(*rule), number, plies, seed)
    if board.status() != "playing":
        return
    reference = solve(board, core="python").verdict
    verdict, after = core_verdict(library, board, probe)
    assert verdict == reference, board.fen()
    if verdict == "win":
        assert after.status() == "cleared", board.fen()
    if SANITIZED:
        return  # solve() loads the core built for this machine, not the sanitized one
    answer = solve(board, core="compiled")
    assert answer.verdict == reference, board.fen()
    for move in answer.moves:
        board.push(move)
    assert reference == "lose" or board.status() == "cleared", board.fen()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule=every_rule, number=st.integers(1, 100_000), plies=st.integers(10, 45), seed=st.integers(0, 2**32))
@example(rule=("retrohub", "two"), number=3245, plies=10, seed=0)  # about 100 MiB of tables (SHORTEST_BYTES)
def test_the_core_finds_lines_as_short_as_the_reference(
        library: ctypes.CDLL, rule: tuple[str, str], number: int, plies: int, seed: int) -> None:
    """A* in the core (after its verdict, with the tables it filled): the same optimal length as the
    Python A*, and a line that replays to a won table. (Positions from mid-game: the Python A* takes
    seconds on some whole deals.)"""
    board = random_position(rules_of(*rule), number, plies, seed)
    if board.status() != "playing":
        return
    reference = solve(board, core="python", optimal=True)
    pos = Position(board)
    core = CompiledCore(pos, library, SHORTEST_BYTES)
    start = (pos.start_pm, pos.start_live, pos.start_q, pos.start_r)
    verdict = core.verdict(*start, None, None, None, None)
    assert VERDICTS[verdict.result] == reference.verdict, board.fen()
    if reference.verdict != "win":
        return
    answer = core.shortest(*start, None, None, None)
    assert answer.result == compiled.WIN and len(answer.tokens) == reference.steps, board.fen()
    for token in answer.tokens:
        board.push(pos.move_of(token))
    assert board.status() == "cleared"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule=every_rule, number=st.integers(1, 100_000), plies=st.integers(0, 20), seed=st.integers(0, 2**32),
       cuts=st.lists(st.integers(1, 3_000), min_size=1, max_size=6), probe=st.one_of(st.none(), st.integers(0, 500)))
def test_a_search_cut_short_at_any_depth_never_changes_a_later_answer(
        library: ctypes.CDLL, rule: tuple[str, str], number: int, plies: int, seed: int, cuts: list[int],
        probe: int | None) -> None:
    board = random_position(rules_of(*rule), number, plies, seed)
    if board.status() != "playing":
        return
    reference = solve(board, core="python").verdict
    pos = Position(board)
    core = CompiledCore(pos, library)
    start = (pos.start_pm, pos.start_live, pos.start_q, pos.start_r)
    for cut in sorted(cuts):
        answer = core.verdict(*start, cut, None, None, probe)
        assert VERDICTS.get(answer.result, "unknown") in ("unknown", reference), board.fen()
        assert answer.nodes <= cut + 1
    final = core.verdict(*start, None, None, None, probe).result
    if final == compiled.FULL:  # past the core's byte bound: so must a fresh core be, or the searches
        # cut short took the room
        assert CompiledCore(pos, library).verdict(*start, None, None, None, probe).result == compiled.FULL, board.fen()
        return
    assert VERDICTS[final] == reference, board.fen()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule=every_rule, number=st.integers(1, 100_000), seed=st.integers(0, 2**32),
       cut=st.integers(1, 2_000))
def test_a_deal_solver_answers_every_position_of_a_game_as_the_reference(
        library: ctypes.CDLL, rule: tuple[str, str], number: int, seed: int, cut: int) -> None:
    """One core for the whole game, questions cut short in between: what it keeps is only proofs."""
    rules = rules_of(*rule)
    board = Board(numbered_deal(number, rules.deck), rules)
    deal_solver = DealSolver(board, core="compiled")
    chooser = random.Random(seed)
    while board.status() == "playing" and len(board.move_stack) < 30:
        deal_solver.solve(board, max_nodes=cut)
        answer = deal_solver.solve(board)
        assert answer.verdict == solve(board, core="python").verdict, board.fen()
        replay = board.copy()
        for move in answer.moves:
            replay.push(move)
        assert answer.verdict == "lose" or replay.status() == "cleared", board.fen()
        board.push(chooser.choice(board.legal_moves))


def test_the_optimal_lengths_of_the_first_100_reference_deals_are_the_published_ones() -> None:
    if compiled.load() is None:
        pytest.fail("the compiled core does not load")
    rules = preset(RULES_PRESET)
    for reference in reference_deals()[:100]:
        board = Board(reference.deal, rules)
        answer = solve(board, optimal=True, core="compiled")
        assert answer.steps == reference.length and answer.optimal, f"deal {reference.number}"
        for move in answer.moves:
            board.push(move)
        assert not reference.winnable or board.status() == "cleared", f"deal {reference.number}"


def test_the_verdicts_of_the_1500_reference_deals_agree(library: ctypes.CDLL) -> None:
    assert len(reference_deals()) == 1500
    rules = preset(RULES_PRESET)
    for reference in reference_deals():
        verdict, after = core_verdict(library, Board(reference.deal, rules), None)
        assert verdict == ("win" if reference.winnable else "lose"), f"deal {reference.number}"
        assert verdict == "lose" or after.status() == "cleared", f"deal {reference.number}"


def test_past_its_memory_bound_a_question_is_unknown_and_the_next_core_answers(library: ctypes.CDLL) -> None:
    board = Board(numbered_deal(35), HARD)  # 320,000 nodes and 48 MB
    pos = Position(board)
    small = CompiledCore(pos, library, byte_bound=4 << 20)
    answer = small.verdict(pos.start_pm, pos.start_live, pos.start_q, pos.start_r, None, None, None)
    assert answer.result == compiled.FULL and small.full() and small.bytes() <= 4 << 20
    assert small.verdict(pos.start_pm, pos.start_live, pos.start_q, pos.start_r, None, None, None).result \
        == compiled.FULL, "a full core stays full"
    assert VERDICTS[CompiledCore(pos, library).verdict(
        pos.start_pm, pos.start_live, pos.start_q, pos.start_r, None, None, None).result] \
        == solve(board, core="python").verdict


def test_a_table_the_bound_keeps_from_growing_fills_up_before_the_question_is_unknown(library: ctypes.CDLL) -> None:
    """A table grows when half full; where growing would pass the byte bound it fills to seven eighths
    first (King Tut, unlimited redeals, numbered deal 151: lost in 3.9 million nodes within 128 MiB)."""
    board = Board(numbered_deal(25, KING_TUT.deck), KING_TUT)  # 92,000 nodes, 5.5 MiB
    pos = Position(board)
    start = (pos.start_pm, pos.start_live, pos.start_q, pos.start_r)
    roomy = CompiledCore(pos, library, byte_bound=1 << 30)
    verdict = roomy.verdict(*start, None, None, None).result
    needed = roomy.bytes()
    tight = CompiledCore(pos, library, byte_bound=needed - 1)
    assert tight.verdict(*start, None, None, None).result == verdict and not tight.full()
    assert tight.bytes() < needed
    assert VERDICTS[verdict] == solve(board, core="python").verdict


def test_a_search_called_off_stops_at_the_first_yes(library: ctypes.CDLL) -> None:
    board = Board(numbered_deal(35), HARD)
    pos = Position(board)
    looks: list[int] = []

    def cancelled() -> bool:
        looks.append(1)
        return len(looks) >= 2

    answer = CompiledCore(pos, library).verdict(pos.start_pm, pos.start_live, pos.start_q, pos.start_r,
                                                None, None, cancelled)
    assert answer.result == compiled.OVER and len(looks) == 2


def test_the_core_searches_without_the_gil(library: ctypes.CDLL) -> None:
    """ctypes.CDLL (not PyDLL) lets go of the GIL for a call: the console draws while a hint is searched."""
    assert isinstance(library, ctypes.CDLL) and not isinstance(library, ctypes.PyDLL)


@settings(max_examples=400, deadline=None)
@given(deal=st.binary(min_size=ctypes.sizeof(compiled.DealRecord), max_size=ctypes.sizeof(compiled.DealRecord)),
       position=st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(-2**31, 2**31 - 1),
                          st.integers(-2**31, 2**31 - 1)), probe=st.integers(-2**63, 2**63 - 1))
def test_random_bytes_make_a_deal_and_a_position_or_a_clean_refusal(
        library: ctypes.CDLL, deal: bytes, position: tuple[int, int, int, int], probe: int) -> None:
    """The fuzz target of the core's entry points (the verdict, the best score with a scoring made of
    the same bytes): anything in, a bounded answer or a refusal out."""
    record = compiled.DealRecord.from_buffer_copy(deal)
    handle = library.core_new(ctypes.byref(record), 1 << 22)
    if not handle:
        return  # refused: not a deal the core can hold
    try:
        nodes = ctypes.c_int64(0)
        result = library.core_verdict(handle, *position, probe, probe & 1, 2_000, -1.0, compiled.Cancelled(0), ctypes.byref(nodes))
        assert result in (compiled.WIN, compiled.LOSE, compiled.OVER, compiled.FULL, compiled.BAD)
        assert 0 <= nodes.value <= 2_001
        assert 0 <= library.core_line(handle, None, 0) <= 100_000
        scoring = compiled.ScoringRecord.from_buffer_copy((deal * 2)[: ctypes.sizeof(compiled.ScoringRecord)])
        gain = ctypes.c_int64(0)
        result = library.core_best_score(handle, ctypes.byref(scoring), *position, 2_000, -1.0, compiled.Cancelled(0),
                                         ctypes.byref(gain), ctypes.byref(nodes))
        assert result in (compiled.WIN, compiled.OVER, compiled.FULL, compiled.BAD)
        assert 0 <= nodes.value <= 2_001 and 0 <= gain.value <= 1_000_000
    finally:
        library.core_free(handle)


def test_asking_for_the_compiled_core_where_it_does_not_load_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "load", lambda: None)
    board = Board(numbered_deal(1), preset("retrohub"))
    with pytest.raises(CoreUnavailable):
        solve(board, core="compiled")
    with pytest.raises(CoreUnavailable):
        best_score(late_game(preset("three-pass"), 1, 1, 8), core="compiled")
    assert solve(board).verdict == solve(board, core="python").verdict  # the default falls to Python, logged


def test_a_core_built_from_another_source_is_refused(tmp_path: Path) -> None:
    if shutil.which("cc") is None:
        pytest.skip("no C compiler here")
    sources = tmp_path / "core"
    shutil.copytree(ROOT / "pyramid/engine/solver/core", sources)
    with open(sources / "entry.c", "a") as changed:
        changed.write("\n/* changed */\n")
    library = tmp_path / "core.so"
    build_core.build(library, sources=sources)  # the digest of the changed sources, not the package's
    with pytest.raises(CoreUnavailable, match="another core/"):
        open_library(library)
    with pytest.raises(CoreUnavailable, match="not built"):
        open_library(tmp_path / "missing.so")
    garbage = tmp_path / "garbage.so"
    garbage.write_bytes(b"\x7fELF" + bytes(range(256)) * 8)  # a truncated, corrupted library
    with pytest.raises(CoreUnavailable, match="does not load"):
        open_library(garbage)


@pytest.mark.skipif(SANITIZED is not None, reason="this is the sanitized run")
def test_the_sanitized_core_passes_the_differential_test(tmp_path: Path) -> None:
    """The same tests on a build with AddressSanitizer and UndefinedBehaviorSanitizer (any report fails)."""
    if shutil.which("cc") is None:
        pytest.skip("no C compiler here")
    runtime = subprocess.run(["cc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not Path(runtime).is_file():
        pytest.fail(f"no AddressSanitizer runtime ({runtime!r}): apt-get install libasan8 (.ci/run does)")
    library = tmp_path / "core-sanitized.so"
    build_core.build(library, sanitize=True)
    env = dict(os.environ, PYRAMID_TEST_CORE_LIBRARY=str(library), LD_PRELOAD=runtime,
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=1", UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1",
               HYPOTHESIS_PROFILE=os.environ.get("HYPOTHESIS_PROFILE", "default"))
    # -s: a sanitizer's report goes straight to stderr before it stops the process. A test skipped there
    # (its reason listed by -rs) is no finding of the sanitizers: only a failure or a report is.
    # --basetemp: its own temporary folders, here. A pytest started without it closes
    # /tmp/pytest-of-root to other users again, under the update tests that opened it for the
    # console's user (tests/update_fakes.py, device_root): they failed when they ran meanwhile.
    run = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-rs", "-s", "-p", "no:cacheprovider",
                          "--basetemp", str(tmp_path / "nested"), __file__, "-k", "not sanitized and not 1500"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    # A sanitizer's report starts with what went wrong and where (the frames of the core come first,
    # Python's after them): its head, not its tail, is what a failure must show.
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[:6000]
    assert " passed" in run.stdout, run.stdout[-3000:]
    assert "Sanitizer" not in run.stderr + run.stdout


# -- the best score (best_score.py, core/best_score.c) ----------------------------------------------
def late_game(rules: Rules, number: int, seed: int, left: int) -> Board:
    """Deal ``number`` played at random (removals mostly) until at most ``left`` cards remain in the
    pyramid and in the stock and waste: a position the Python search settles in a moment."""
    board = Board(numbered_deal(number, rules.deck), rules)
    chooser = random.Random(seed)
    while board.status() == "playing" and (len(board.stock) + len(board.waste) > left or board.cards_left() > left):
        removals = [move for move in board.legal_moves if move.kind == "remove"]
        board.push(chooser.choice(removals) if removals and chooser.random() < 0.8 else board.legal_moves[-1])
    return board


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule=every_rule, number=st.integers(1, 100_000), seed=st.integers(0, 2**32), left=st.integers(6, 14),
       cut=st.one_of(st.none(), st.integers(1, 3_000)))
def test_the_core_finds_the_reference_best_score_and_an_equally_short_line(
        library: ctypes.CDLL, rule: tuple[str, str], number: int, seed: int, left: int, cut: int | None) -> None:
    """Every scoring (Three passes, RetroHub, cards left) and redeal setting; with a node budget cut
    anywhere, the core says "unknown" or the same answer."""
    board = late_game(rules_of(*rule), number, seed, left)
    reference = BestScoreSearch(board, Budget(None, None)).python()
    answer = BestScoreSearch(board, Budget(cut, None)).compiled(library)
    if answer.verdict == "unknown":
        assert cut is not None, board.fen()
        return
    assert (answer.score, len(answer.moves)) == (reference.score, len(reference.moves)), board.fen()
    after = board.copy()
    for move in answer.moves:
        after.push(move)
    assert (after.cards_left() if board.rules.scoring == "cards_left" else after.score) == answer.score
