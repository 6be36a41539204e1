"""The console's sound effects, synthesised: a few notes with a plucked envelope, or a burst of noise.

Nothing is recorded or copied: each effect is a short recipe below, rendered
into 16-bit PCM at the mixer's own rate when audio opens (after the first
frame). They are the project's own work, under the project's licence (MIT).
The notes are chosen to tell the effects apart without looking: a pick is a
tick, a pair a rising fifth, a wrong pair a low double buzz, a win a rising
major arpeggio, a loss a falling minor third.
"""

from __future__ import annotations

import math
import random
from array import array
from typing import Literal, NamedTuple

Effect = Literal["pick", "pair", "draw", "redeal", "wrong", "win", "lose"]
EFFECTS: tuple[Effect, ...] = ("pick", "pair", "draw", "redeal", "wrong", "win", "lose")

#: The loudest sample of an effect, out of 32767: room left for two effects that overlap.
PEAK = 14000


class Note(NamedTuple):
    """``hertz`` from ``start`` for ``seconds`` (0 Hz: a burst of noise); ``buzz`` adds odd harmonics."""

    hertz: float
    start: float
    seconds: float
    buzz: bool = False


RECIPES: dict[Effect, tuple[Note, ...]] = {
    "pick": (Note(1320, 0.0, 0.035),),
    "pair": (Note(660, 0.0, 0.09), Note(990, 0.06, 0.14)),
    "draw": (Note(0, 0.0, 0.06),),
    "redeal": (Note(0, 0.0, 0.05), Note(0, 0.07, 0.05), Note(0, 0.14, 0.07)),
    "wrong": (Note(165, 0.0, 0.08, buzz=True), Note(165, 0.11, 0.1, buzz=True)),
    "win": (Note(523.25, 0.0, 0.12), Note(659.25, 0.09, 0.12), Note(783.99, 0.18, 0.12), Note(1046.5, 0.27, 0.3)),
    "lose": (Note(392.0, 0.0, 0.18), Note(329.63, 0.16, 0.3)),
}


def render(effect: Effect, rate: int) -> array[int]:
    """The mono 16-bit samples of ``effect`` at ``rate`` samples per second."""
    notes = RECIPES[effect]
    length = round(max(note.start + note.seconds for note in notes) * rate) + 1
    mixed = [0.0] * length
    noise = random.Random(effect)  # the same hiss every time
    for note in notes:
        first, count = round(note.start * rate), round(note.seconds * rate)
        attack = max(1, round(0.004 * rate))
        step = 2 * math.pi * note.hertz / rate
        for n in range(count):
            envelope = min(1.0, n / attack) * (1 - n / count) ** 2
            if note.hertz == 0:
                wave = noise.uniform(-1, 1) * 0.6
            elif note.buzz:
                wave = sum(math.sin(step * n * k) / k for k in (1, 3, 5, 7)) * 0.8
            else:
                wave = math.sin(step * n) + 0.25 * math.sin(2 * step * n)
            mixed[first + n] += envelope * wave
    loudest = max(1e-9, max(abs(value) for value in mixed))
    return array("h", (round(PEAK * value / loudest) for value in mixed))


def pcm(effect: Effect, rate: int, channels: int) -> bytes:
    """``effect`` as the mixer's buffer: 16-bit samples, each repeated on every channel."""
    mono = render(effect, rate)
    if channels == 1:
        return mono.tobytes()
    spread = array("h", bytes(2 * len(mono) * channels))
    for channel in range(channels):
        spread[channel::channels] = mono
    return spread.tobytes()
