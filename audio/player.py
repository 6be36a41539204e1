"""Playing the effects through pygame's mixer, on whatever audio device SDL finds.

Every call into the mixer is made on one thread of the player's own, fed by a
queue, so the main loop only hands an effect over and goes on:

- audio opens after the first frame (:meth:`SoundPlayer.open`): starting SDL's
  audio and rendering the effects (some 60 ms of Python on a PC, ten times that
  on a Pi Zero) delays neither the first frame nor a press;
- an open device costs CPU even in silence (SDL keeps mixing and writing it), so
  after :data:`IDLE_CLOSE_SECONDS` without an effect the device is closed, and
  the thread sleeps on its queue; the next effect opens it again (a few
  milliseconds) and plays. An idle console uses no CPU, with sound on too.

A box without audio plays silently, told in one log line; the console never
falls back to anything else. SDL picks the device (ALSA's default, HDMI, a
DAC, PWM audio); ``SDL_AUDIODRIVER`` and ``AUDIODEV`` choose another. Where
there is plainly nothing to open (no ALSA playback device, no sound server, no
driver chosen), SDL is not asked at all: ALSA's library would print a dozen
lines of its own on stderr before failing.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from pathlib import Path
from typing import NamedTuple

import pygame

from pyramid.view_change import ViewChange

from .cues import effect_for
from .synth import EFFECTS, Effect, pcm

log = logging.getLogger(__name__)

#: The mixer's format: CD-quality rate halved is plenty for ticks and chimes, and cheap on a Pi Zero.
RATE = 22050
#: Samples per mixing period: about 23 ms of latency between a press and its sound.
BUFFER = 512
#: How long closing waits for an effect still playing (the last pair of a script, the win).
DRAIN_SECONDS = 1.0
#: Seconds without an effect after which the device is closed (it is opened again for the next).
IDLE_CLOSE_SECONDS = 5.0


class _Play(NamedTuple):
    effect: Effect
    volume: int


class SoundPlayer:
    """The effects, played on the player's own thread; :meth:`hear` hands over the one a change calls for.

    ``sound_devices`` is where ALSA's devices are (tests give an empty one);
    ``idle_close`` the seconds of silence after which the device is closed.
    """

    def __init__(self, sound_devices: Path = Path("/dev/snd"), idle_close: float = IDLE_CLOSE_SECONDS) -> None:
        self._sound_devices = sound_devices
        self._idle_close = idle_close
        self._queue: queue.SimpleQueue[_Play | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        #: The effects as the mixer's buffers, made once; empty while there is no device to play on.
        self._buffers: dict[Effect, bytes] = {}
        self._sounds: dict[Effect, pygame.mixer.Sound] = {}

    @property
    def available(self) -> bool:
        """A device was opened and the effects made: they play (``False``: silence, and told why)."""
        return bool(self._buffers)

    @property
    def device_open(self) -> bool:
        """The audio device is open now: SDL's mixer holds it (it closes after :data:`IDLE_CLOSE_SECONDS`
        without an effect; the effects are let go just before, so they are no proof of it)."""
        return pygame.mixer.get_init() is not None

    def open(self) -> None:
        """Start the player's thread, once: it opens the device and makes the effects."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="audio", daemon=True)
            self._thread.start()

    def wait_open(self, timeout: float | None = None) -> None:
        """Until the device was opened (or found missing) by :meth:`open`, or ``timeout``."""
        if self._thread is not None:
            self._ready.wait(timeout)

    def hear(self, change: ViewChange, volume: int) -> Effect | None:
        """Play what ``change`` sounds like, at ``volume`` percent; return it."""
        effect = effect_for(change)
        # Handed over while the device opens, or plays; not once there is none (nothing reads them).
        if effect is not None and self._thread is not None and (self.available or not self._ready.is_set()):
            self._queue.put(_Play(effect, volume))
        return effect

    def close(self) -> None:
        """Let an effect still playing end (for at most :data:`DRAIN_SECONDS`), then close the device.

        The thread is waited for as long again (a stuck driver must not hold the console's exit).
        """
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(2 * DRAIN_SECONDS)

    # -- the player's thread ---------------------------------------------------
    def _run(self) -> None:
        try:
            if not self._first_open():
                return
        finally:
            self._ready.set()
        while True:
            try:
                item = self._queue.get(timeout=self._idle_close if self._sounds else None)
            except queue.Empty:
                if not pygame.mixer.get_busy():
                    self._close_device()  # idle: the thread now sleeps until the next effect
                continue
            if item is None:
                self._drain()
                return
            if not self._sounds and not self._open_device():
                log.warning("sound: the audio device could not be opened again: playing silently")
                self._buffers = {}
                return
            sound = self._sounds[item.effect]
            sound.set_volume(item.volume / 100)
            sound.play()

    def _first_open(self) -> bool:
        """Open the device and make the effects. No device: one log line, then silence (``False``)."""
        missing = nothing_to_open(self._sound_devices)
        if missing:
            log.warning("sound: no audio device (%s): playing silently", missing)
            return False
        try:
            self._open_mixer()
            opened = pygame.mixer.get_init()
            if opened is None:
                raise pygame.error("the mixer did not start")
            rate, _, channels = opened
            self._buffers = {effect: pcm(effect, rate, channels) for effect in EFFECTS}
            self._load()
        except pygame.error as error:
            log.warning("sound: no audio device could be opened (%s): playing silently", error)
            self._buffers = {}
            self._close_device()
            return False
        log.info("sound: %s, %d Hz, %d channels", pygame.mixer.get_driver(), rate, channels)
        return True

    def _open_device(self) -> bool:
        """Open the device again for an effect, with the effects made the first time."""
        try:
            self._open_mixer()
            self._load()
        except pygame.error:
            self._close_device()
            return False
        return True

    @staticmethod
    def _open_mixer() -> None:
        pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=BUFFER)

    def _load(self) -> None:
        self._sounds = {effect: pygame.mixer.Sound(buffer=data) for effect, data in self._buffers.items()}

    def _drain(self) -> None:
        deadline = time.monotonic() + DRAIN_SECONDS
        while self._sounds and pygame.mixer.get_busy() and time.monotonic() < deadline:
            time.sleep(0.02)
        self._close_device()

    def _close_device(self) -> None:
        self._sounds = {}
        if pygame.mixer.get_init():
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
    if os.environ.get("PULSE_SERVER") or any(_reachable(runtime / name) for name in ("pulse/native", "pipewire-0")):
        return ""
    return f"no sound card: {sound_devices} has no playback device, and no sound server runs"


def _reachable(path: Path) -> bool:
    """Is there a socket at ``path`` this process may use? A directory it may not enter (another
    user's /run/user, as the console's service user meets on a device) is no sound server for it."""
    try:
        return path.exists()
    except OSError:  # exists() raises PermissionError there
        return False
