"""Sound for real: SDL's disk audio driver writes what the mixer played into a file, which is read back.

``SDL_AUDIODRIVER=disk`` with ``SDL_DISKAUDIOFILE=FILE`` plays in real time
into FILE as raw PCM (FACTS.md). Each run is a fresh process, so the driver
chosen never leaks into other tests.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from array import array
from pathlib import Path
from typing import NamedTuple

import pytest

from audio.synth import EFFECTS, PEAK, RECIPES, render

ROOT = Path(__file__).resolve().parents[1]

PLAY = """
import json, logging, sys, time
logging.basicConfig(level=logging.INFO, format="%(message)s")
sys.path.insert(0, "tests")
from audio.player import SoundPlayer
from pyramid.view import Feedback, View
from pyramid.view_change import view_change
import pygame
from pathlib import Path
player = SoundPlayer(*(Path(arg) for arg in sys.argv[1:]))  # the sound devices' directory, if given
player.open()
player.wait_open()
table = View("menu")
heard = []
for serial, cue in enumerate(("pair", "win"), 1):
    time.sleep(0.4)
    heard.append(player.hear(view_change(table, table._replace(feedback=Feedback(cue, serial))), 100))
    table = table._replace(feedback=Feedback(cue, serial))
    heard.append(player.hear(view_change(table, table), 100))  # the same view again: nothing
time.sleep(2.0)
print(json.dumps({"mixer": pygame.mixer.get_init(), "heard": heard, "playing": player.available}))
player.close()
"""


class Recording(NamedTuple):
    rate: int
    channels: int
    samples: array  # the first channel

    def windows(self, seconds: float = 0.01) -> list[array]:
        size = max(1, round(self.rate * seconds))
        return [self.samples[i:i + size] for i in range(0, len(self.samples), size)]

    def sounds(self) -> list[tuple[int, int]]:
        """Runs of 10 ms windows with any sound in them: (first window, windows after the last)."""
        loud = [any(sample != 0 for sample in window) for window in self.windows()]
        runs, start = [], None
        for index, on in enumerate([*loud, False]):
            if on and start is None:
                start = index
            elif not on and start is not None:
                if index - start >= 3:  # a run shorter than 30 ms would be a click, not an effect
                    runs.append((start, index))
                start = None
        return runs

    def power(self, first: int, last: int, hertz: float) -> float:
        """Goertzel power at ``hertz`` over windows ``first`` to ``last``."""
        part = [sample for window in self.windows()[first:last] for sample in window]
        coefficient = 2 * math.cos(2 * math.pi * hertz / self.rate)
        s1 = s2 = 0.0
        for sample in part:
            s1, s2 = sample + coefficient * s1 - s2, s1
        return (s1 * s1 + s2 * s2 - coefficient * s1 * s2) / max(1, len(part))


def record(script: str, tmp_path: Path, *, driver: str | None = "disk",
           args: tuple[str, ...] = ()) -> tuple[dict, Recording | None, str]:
    """Run ``script`` with SDL's audio ``driver``; ``None``: as a box where none is chosen and no
    sound server runs (its runtime directory is an empty one of the test's)."""
    out = tmp_path / "audio.raw"
    env = {**os.environ, "SDL_DISKAUDIOFILE": str(out), "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    for name in ("SDL_AUDIODRIVER", "PULSE_SERVER"):
        env.pop(name, None)
    if driver is None:
        runtime = tmp_path / "run"
        runtime.mkdir(exist_ok=True)
        env["XDG_RUNTIME_DIR"] = str(runtime)
    else:
        env["SDL_AUDIODRIVER"] = driver
    result = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    if not out.exists():
        return report, None, result.stderr
    rate, _, channels = report["mixer"]
    data = array("h", out.read_bytes()[: len(out.read_bytes()) // 2 * 2])
    return report, Recording(rate, channels, data[::channels]), result.stderr


def test_the_effects_are_short_distinct_and_leave_headroom() -> None:
    rendered = {effect: render(effect, 22050) for effect in EFFECTS}
    for effect, samples in rendered.items():
        assert 0.03 <= len(samples) / 22050 <= 0.6, effect
        assert max(abs(sample) for sample in samples) == PEAK, "normalised to the same peak, with room for two"
    assert len({samples.tobytes() for samples in rendered.values()}) == len(EFFECTS)
    assert render("draw", 22050) == render("draw", 22050), "the same sound every time"


def test_a_pair_and_a_win_are_in_the_file_with_silence_around_them(tmp_path: Path) -> None:
    report, recording, _ = record(PLAY, tmp_path)
    assert report["heard"] == ["pair", None, "win", None] and report["playing"]
    assert recording is not None
    runs = recording.sounds()
    assert len(runs) == 2, f"two effects, each once, and silence between them: {runs}"
    (pair_start, pair_end), (win_start, win_end) = runs
    pair_notes = {note.hertz for note in RECIPES["pair"]}
    win_only = {note.hertz for note in RECIPES["win"] if all(abs(note.hertz - other) > 50 for other in pair_notes)}
    assert len(win_only) >= 2
    assert all(recording.power(pair_start, pair_end, hertz) > 10 * recording.power(pair_start, pair_end, other)
               for hertz in pair_notes for other in win_only), "the first sound is the pair's two notes"
    assert all(recording.power(win_start, win_end, hertz) > 10 * recording.power(win_start, win_end, 990)
               for hertz in win_only), "the second is the win's arpeggio, without the pair's fifth"
    idle = recording.windows()[win_end:]
    # The disk driver runs slower than the clock on a loaded machine: some idle time, all of it silent.
    assert len(idle) >= 20 and not any(any(window) for window in idle), "idle: the file holds silence"


IDLE = """
import json, os, sys, time
from audio.player import SoundPlayer
from pyramid.view import Feedback, View
from pyramid.view_change import view_change
player = SoundPlayer(idle_close=0.5)
player.open()
player.wait_open()
out = os.environ["SDL_DISKAUDIOFILE"]
table = View("menu")


def until(condition, limit=10.0):
    # Whether the condition came true within the limit (a loaded machine is slow, never wrong).
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


player.hear(view_change(table, table._replace(feedback=Feedback("pair", 1))), 100)
playing = player.device_open
closed = until(lambda: not player.device_open)  # the pair over, and half a second without an effect
size = os.path.getsize(out)
time.sleep(0.5)  # closed: the file must not grow meanwhile
still = os.path.getsize(out) == size
player.hear(view_change(table, table._replace(feedback=Feedback("win", 2))), 100)
reopened = until(lambda: player.device_open)
print(json.dumps({"mixer": [22050, -16, 2], "playing": playing, "closed": closed, "still": still,
                  "reopened": reopened}))
player.close()
"""


def test_an_idle_device_is_closed_and_opened_again_for_the_next_effect(tmp_path: Path) -> None:
    """An open device costs CPU even in silence: closed when idle, nothing is written any more."""
    report, recording, _ = record(IDLE, tmp_path)
    assert report["playing"] and report["closed"] and report["still"] and report["reopened"], report
    assert recording is not None
    runs = recording.sounds()
    assert runs and recording.power(*runs[-1], 523.25) > 10 * recording.power(*runs[-1], 990), "the win, after"


def test_a_box_without_audio_plays_silently_with_one_log_line(tmp_path: Path) -> None:
    report, _, log = record(PLAY, tmp_path, driver="no-such-driver")
    assert report["heard"] == ["pair", None, "win", None], "play goes on"
    assert not report["playing"]
    lines = [line for line in log.splitlines() if line.startswith("sound:")]
    assert len(lines) == 1 and "playing silently" in lines[0], log


def test_a_box_with_no_sound_card_is_told_in_one_line_without_asking_alsa(tmp_path: Path) -> None:
    """No driver chosen, no playback device, no sound server: ALSA's library is not asked (it
    would print its own errors on stderr), and the log says why in one line."""
    (tmp_path / "snd").mkdir()
    (tmp_path / "snd" / "controlC0").touch()  # a card's control without a playback device
    report, recording, log = record(PLAY, tmp_path, driver=None, args=(str(tmp_path / "snd"),))
    assert report["heard"] == ["pair", None, "win", None] and not report["playing"]
    assert recording is None, "nothing was opened"
    assert log.splitlines() == [f"sound: no audio device (no sound card: {tmp_path / 'snd'} has no playback device, "
                                "and no sound server runs): playing silently"]


def test_a_sound_server_it_may_not_reach_is_no_sound_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The console's service user meets another user's /run/user on a device, where looking for a
    socket raises PermissionError (the audio thread died of it on the appliance VM)."""
    from audio.player import nothing_to_open

    runtime = tmp_path / "run"
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    monkeypatch.delenv("SDL_AUDIODRIVER", raising=False)
    exists = Path.exists

    def guarded(path: Path, **options: bool) -> bool:
        if runtime in path.parents:
            raise PermissionError(13, "Permission denied", str(path))
        return exists(path, **options)

    monkeypatch.setattr(Path, "exists", guarded)
    (tmp_path / "snd").mkdir()
    assert nothing_to_open(tmp_path / "snd").startswith("no sound card: ")


def clearing_taps(deal: str, size: tuple[int, int]) -> list[str]:
    """Taps that clear ``deal``'s pyramid with no redeal, each on the strip of its card no row covers."""
    from display.layout import Layout
    from display.text import text_width
    from pyramid.engine.board import Board
    from pyramid.engine.cards import parse_deal
    from pyramid.engine.rules import preset
    from pyramid.engine.solver import solve

    board = Board(parse_deal(deal), preset("retrohub").with_redeals(0))
    table = Layout(size, 0, measure=text_width).table(board.rules.rows)
    taps = []
    for move in solve(board).moves:
        for card in move.cards:
            index = board.index_of(card)
            assert index is not None, "this deal clears from the pyramid alone"
            place = table.cards[index]
            taps.append(f"tap:{place.x + place.w // 2},{place.y + table.row_step // 2}")
        board.push(move)
    return taps


def test_the_console_plays_a_pair_and_a_win_and_is_silent_while_it_idles(tmp_path: Path) -> None:
    """The real command in the scripted mode with ``--sound on``: what the player would hear."""
    from deals import clearable_deal

    out, dump = tmp_path / "console.raw", tmp_path / "state.json"
    # Two cursor moves first (silent): audio opens just after the first frame, on its own thread.
    script = " ".join(["left", "right", *clearing_taps(clearable_deal(), (480, 320)), *["down", "up"] * 4])
    env = {**os.environ, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(out), "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    result = subprocess.run([sys.executable, "-m", "pyramid", "--display", "headless", "--size", "480x320",
                             "--game", "pyramid", "--redeals", "none", "--deal", clearable_deal(), "--sound", "on",
                             "--script", script, "--script-delay", "300", "--dump-state", str(dump)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(dump.read_text())["game"]["status"] == "cleared"
    from audio.player import RATE

    data = array("h", out.read_bytes()[: len(out.read_bytes()) // 2 * 2])
    recording = Recording(RATE, 2, data[::2])
    runs = recording.sounds()
    assert len(runs) >= 3, runs

    def sounds_like(run: tuple[int, int], notes: tuple[float, ...], against: tuple[float, ...]) -> bool:
        return all(recording.power(*run, hertz) > 10 * recording.power(*run, other)
                   for hertz in notes for other in against)

    assert any(sounds_like(run, (660, 990), (523.25, 783.99)) for run in runs[:-1]), "pairs were heard"
    assert sounds_like(runs[-1], (523.25, 783.99), (990,)), "the last sound is the win"
    idle = recording.windows()[runs[-1][1]:]
    assert len(idle) >= 20 and not any(any(window) for window in idle), "the end panel idles in silence"


def test_each_change_of_the_cards_has_its_effect() -> None:
    from audio.cues import effect_for
    from pyramid.console.table import Table
    from pyramid.engine.board import Board
    from pyramid.engine.cards import parse_deal
    from pyramid.engine.rules import preset
    from pyramid.view import Feedback, View
    from pyramid.view_change import view_change

    from deals import clearable_deal

    table = Table(Board(parse_deal(clearable_deal()), preset("retrohub").with_redeals(1)))
    start = View("game", table=table.view())
    table.pick(21)  # the king at the base's left: removed alone
    removed = View("game", table=table.view())
    table.pick(22)  # the ace beside it: chosen
    picked = View("game", table=table.view())
    table.pick("stock")
    drawn = View("game", table=table.view())
    while table.board.stock:
        table.pick("stock")
    emptied = View("game", table=table.view())
    table.pick("stock")
    redealt = View("game", table=table.view())
    assert [effect_for(view_change(a, b)) for a, b in ((start, removed), (removed, picked), (picked, drawn),
                                                        (emptied, redealt))] \
        == ["pair", "pick", "draw", "redeal"]
    assert effect_for(view_change(View("menu"), start)) is None, "a deal coming on screen is seen, not heard"
    assert effect_for(view_change(start, start)) is None
    lost = start._replace(feedback=Feedback("lose", 7))
    assert effect_for(view_change(start, lost)) == "lose" and effect_for(view_change(lost, lost)) is None
