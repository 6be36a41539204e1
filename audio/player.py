"""Playing the effects through pygame's mixer, on whatever audio device SDL finds.

Audio opens after the first frame, on a thread of its own (:meth:`SoundPlayer.open`):
starting SDL's audio and rendering the effects (some 60 ms of Python on a PC,
ten times that on a Pi Zero) then delays neither the first frame nor a press. A
box without audio plays silently, told in one log line; the console never
falls back to anything else. SDL picks the device (ALSA's default, HDMI, a
DAC, PWM audio); ``SDL_AUDIODRIVER`` and ``AUDIODEV`` choose another. Where
there is plainly nothing to open (no ALSA playback device, no sound server, no
driver chosen), SDL is not asked at all: ALSA's library would print a dozen
lines of its own on stderr before failing.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

import pygame

from pyramid.view import View

from .cues import effect_for
from .synth import EFFECTS, Effect, pcm

log = logging.getLogger(__name__)

#: The mixer's format: CD-quality rate halved is plenty for ticks and chimes, and cheap on a Pi Zero.
RATE = 22050
#: Samples per mixing period: about 23 ms of latency between a press and its sound.
BUFFER = 512
#: How long closing waits for an effect still playing (the last pair of a script, the win).
DRAIN_SECONDS = 1.0


class SoundPlayer:
    """The effects, loaded into the mixer once it is open; :meth:`hear` plays the one a change calls for."""

    def __init__(self, sound_devices: Path = Path("/dev/snd")) -> None:
        self._sounds: dict[Effect, pygame.mixer.Sound] = {}
        self._opening: threading.Thread | None = None
        self._sound_devices = sound_devices

    @property
    def playing(self) -> bool:
        """The mixer is open and the effects loaded."""
        return bool(self._sounds)

    def open(self) -> None:
        """Start opening the audio device and making the effects, once; they play when ready."""
        if self._opening is None:
            self._opening = threading.Thread(target=self._open, name="audio", daemon=True)
            self._opening.start()

    def wait_open(self, timeout: float | None = None) -> None:
        """Until :meth:`open` has finished (the effects play from now on, or never), or ``timeout``."""
        if self._opening is not None:
            self._opening.join(timeout)

    def _open(self) -> None:
        """Open the device and load the effects. No device: one log line, then silence."""
        missing = nothing_to_open(self._sound_devices)
        if missing:
            log.warning("sound: no audio device (%s): playing silently", missing)
            return
        try:
            pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=BUFFER)
            opened = pygame.mixer.get_init()
            if opened is None:
                raise pygame.error("the mixer did not start")
            rate, _, channels = opened
            sounds = {effect: pygame.mixer.Sound(buffer=pcm(effect, rate, channels)) for effect in EFFECTS}
        except pygame.error as error:
            log.warning("sound: no audio device could be opened (%s): playing silently", error)
            if pygame.mixer.get_init():
                pygame.mixer.quit()  # opened, but the effects could not be loaded into it
            return
        self._sounds = sounds  # one assignment: the main loop sees no effect or all of them
        log.info("sound: %s, %d Hz, %d channels", pygame.mixer.get_driver(), rate, channels)

    def hear(self, before: View | None, after: View, volume: int) -> Effect | None:
        """Play what going from ``before`` to ``after`` sounds like, at ``volume`` percent; return it."""
        effect = effect_for(before, after)
        sound = self._sounds.get(effect) if effect is not None else None
        if sound is not None:
            sound.set_volume(volume / 100)
            sound.play()
        return effect

    def close(self) -> None:
        """Let an effect still playing end (for at most :data:`DRAIN_SECONDS`), then close the device.

        A device still opening is waited for as long (a stuck driver must not hold the console's exit).
        """
        self.wait_open(DRAIN_SECONDS)
        if not self._sounds:
            return
        deadline = time.monotonic() + DRAIN_SECONDS
        while pygame.mixer.get_busy() and time.monotonic() < deadline:
            time.sleep(0.02)
        self._sounds = {}
        pygame.mixer.quit()


def nothing_to_open(sound_devices: Path) -> str:
    """Why there is surely no audio device, or "" when SDL may find one.

    Only when no driver is chosen (``SDL_AUDIODRIVER`` unset, or ``alsa``): then
    SDL would try a sound server's socket and ALSA's playback devices, and neither
    is there.
    """
    if os.environ.get("SDL_AUDIODRIVER", "alsa") != "alsa":
        return ""
    if any(sound_devices.glob("pcmC*D*p")):
        return ""
    runtime = Path(os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}")
    if os.environ.get("PULSE_SERVER") or any(
            (runtime / name).exists() for name in ("pulse/native", "pipewire-0")):
        return ""
    return f"no sound card: {sound_devices} has no playback device, and no sound server runs"
