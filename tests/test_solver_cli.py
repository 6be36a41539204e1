"""``pyramid solve``: the command line over the solver (called through ``main``)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from reference import RULES_PRESET, reference_deals, write_decks

from pyramid.engine.board import Board, Move
from pyramid.engine.cards import format_cards
from pyramid.engine.deal import numbered_deal
from pyramid.engine.rules import preset
from pyramid.solve_cli import main, progress_bar
from pyramid.engine.solver import solve

REPO = Path(__file__).resolve().parents[1]


def deals_file(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def parsed(output: str) -> list[list[str]]:
    return [line.split() for line in output.splitlines()]


def test_one_line_per_deal_with_verdict_steps_and_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deals = [format_cards(numbered_deal(n)) for n in (1, 2, 3)]
    path = deals_file(tmp_path, deals[:2] + [""] + deals[2:])  # blank lines are skipped
    assert main(["--rules", "three-pass", str(path)]) == 0
    out, err = capsys.readouterr()
    lines = parsed(out)
    assert [line[0] for line in lines] == ["1", "2", "3"]
    rules = preset("three-pass")
    for line, deal in zip(lines, deals):
        _number, verdict, steps, milliseconds = line
        expected = solve(Board(deal, rules))
        assert verdict == expected.verdict and int(steps) == expected.steps
        assert (verdict == "lose") == (steps == "0") and int(milliseconds) >= 0
    assert err == ""  # no progress bar when stderr is not a terminal


def test_optimal_mode_prints_the_published_lengths_and_moves_that_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chosen = [reference_deals()[number - 1] for number in (22, 23, 53)]  # a loss and two quick wins
    path = write_decks(tmp_path / "deals.txt", chosen)
    assert main(["--rules", RULES_PRESET, "--optimal", "--moves", str(path)]) == 0
    for reference, line in zip(chosen, parsed(capsys.readouterr().out)):
        assert int(line[2]) == reference.length
        board = Board(reference.deal, preset(RULES_PRESET))
        for word in line[4:]:
            board.push(Move.parse(word))
        assert (board.status() == "cleared") == (line[1] == "win")
        assert len(line[4:]) == int(line[2])


def test_stdin_redeals_and_jobs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    deals = [format_cards(numbered_deal(n)) for n in range(1, 7)]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(deals)))
    assert main(["--redeals", "unlimited", "-"]) == 0
    single = parsed(capsys.readouterr().out)
    rules = preset("retrohub").with_redeals(None)
    assert [line[1] for line in single] == [solve(Board(deal, rules)).verdict for deal in deals]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(deals)))
    assert main(["--redeals", "unlimited", "--jobs", "2", "-"]) == 0
    parallel = parsed(capsys.readouterr().out)
    assert [line[:3] for line in parallel] == [line[:3] for line in single]


def test_a_bad_line_is_named_in_one_line_and_nothing_is_solved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = format_cards(numbered_deal(1))
    path = deals_file(tmp_path, [good, good.replace("Kh", "Zh")])
    assert main([str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "line 2" in err and "'Zh'" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_spanish_lines_are_read_with_the_spanish_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = preset("spanish")
    path = deals_file(tmp_path, [format_cards(numbered_deal(4, rules.deck))])
    assert main(["--rules", "spanish", str(path)]) == 0
    assert parsed(capsys.readouterr().out)[0][1] in ("win", "lose")
    assert main([str(path)]) == 2  # a Spanish deal is not a standard one
    assert "line 1" in capsys.readouterr().err


def test_missing_file_and_bad_jobs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([str(tmp_path / "absent.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["--jobs", "0", str(tmp_path / "absent.txt")]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_runs_as_a_module() -> None:
    deal = format_cards(numbered_deal(5))
    result = subprocess.run(
        [sys.executable, "-m", "pyramid.solve_cli", "--rules", "three-pass", "-"],
        input=deal + "\n", capture_output=True, text=True, cwd=REPO, check=True,
    )
    number, verdict, _steps, _milliseconds = result.stdout.split()
    assert number == "1" and verdict == solve(Board(deal, preset("three-pass"))).verdict


def test_progress_bar_fills_up_and_ends_the_line() -> None:
    stream = io.StringIO()
    progress_bar(1, 4, stream)
    progress_bar(4, 4, stream)
    first, last = stream.getvalue().split("\r")[1:]
    assert first.endswith("1/4") and "#" * 7 in first and "#" * 8 not in first
    assert last == "[" + "#" * 30 + "] 4/4\n"


def test_both_cores_give_the_same_verdicts_and_lines_that_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deals = [format_cards(numbered_deal(n)) for n in range(1, 9)]
    path = deals_file(tmp_path, deals)
    verdicts = {}
    for core in ("python", "compiled"):
        assert main(["--rules", "classic", "--redeals", "one", "--core", core, "--moves", str(path)]) == 0
        lines = parsed(capsys.readouterr().out)
        verdicts[core] = [line[1] for line in lines]
        for line, deal in zip(lines, deals):
            board = Board(deal, preset("classic").with_redeals(1))
            for text in line[4:]:
                board.push(board.parse_move(text))
            assert line[1] == "lose" or board.status() == "cleared"
    assert verdicts["python"] == verdicts["compiled"] and set(verdicts["python"]) == {"win", "lose"}


def test_asking_for_a_compiled_core_that_does_not_load_stops_with_the_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import pyramid.solve_cli

    monkeypatch.setattr(pyramid.solve_cli, "library_path", lambda: tmp_path / "missing.so")
    path = deals_file(tmp_path, [format_cards(numbered_deal(1))])
    assert main(["--core", "compiled", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("pyramid solve: --core compiled: ") and "not built" in err


def test_the_version_names_the_solver_core() -> None:
    run = subprocess.run([sys.executable, "-m", "pyramid", "--version"], capture_output=True, text=True, cwd=REPO,
                         check=True)
    version, core = run.stdout.splitlines()
    assert version and core == "solver core: compiled"


# -- --best-score ---------------------------------------------------------------------
FIRST_REFERENCE_DEAL = ("6d 5h Ah Jd 4s Ks 6s 8c 2h 4d 9s Kd 6c Ad 8s Ac 5c 9d 7h 3h 8d 5s 4c Qc Jh Kc Kh 3c 3s 9c "
                        "As 5d Qh Ts 4h 7s Td 9h Th 7c 8h 2c 7d Tc 2d 6h 2s Js Qd 3d Qs Jc")


def test_best_score_prints_index_best_score_length_ms_then_the_moves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = deals_file(tmp_path, [FIRST_REFERENCE_DEAL])
    assert main(["--rules", "three-pass", "--best-score", "--moves", str(path)]) == 0
    (line,) = parsed(capsys.readouterr().out)
    number, verdict, score, length, milliseconds, *moves = line
    assert (number, verdict, score, length) == ("1", "best", "1290", "45") and int(milliseconds) >= 0
    board = Board(FIRST_REFERENCE_DEAL, preset("three-pass"))
    for move in moves:
        board.push(Move.parse(move))
    assert len(moves) == 45 and board.score == 1290


def test_best_score_past_its_budget_says_unknown_never_a_guess(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = deals_file(tmp_path, [format_cards(numbered_deal(3))])
    assert main(["--rules", "three-pass", "--best-score", "--budget", "0.05", str(path)]) == 0
    (line,) = parsed(capsys.readouterr().out)
    assert line[:4] == ["1", "unknown", "0", "0"]


def test_best_score_by_either_core_gives_the_same_line_length(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = deals_file(tmp_path, [FIRST_REFERENCE_DEAL, format_cards(numbered_deal(6))])
    answers = []
    for core in ("compiled", "python"):
        assert main(["--rules", "three-pass", "--best-score", "--core", core, str(path)]) == 0
        answers.append([line[:4] for line in parsed(capsys.readouterr().out)])
    assert answers[0] == answers[1] and answers[0][0] == ["1", "best", "1290", "45"]


@pytest.mark.parametrize("options", [["--optimal", "--best-score"], ["--best-score", "--budget", "0"]])
def test_best_score_refuses_what_it_cannot_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]) -> None:
    path = deals_file(tmp_path, [FIRST_REFERENCE_DEAL])
    assert main([*options, str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("pyramid solve: ")
