"""The whole console as systemd sees it: start to first frame, and CPU while idle.

Run: ``nice .venv/bin/python benchmarks/bench_console.py`` (about 40 s).

Both figures come from fresh processes that report ``READY=1`` on a real
notify socket, as under the console's unit (``Type=notify``):

1. start to first frame: the ``pyramid`` console script (as the service
   starts it) with ``--display headless`` against a bare
   ``pygame.display.set_mode`` + ``flip`` + ``READY=1`` program, alternated
   in the same run (median of several) — target ≤ 1.5x;
2. idle CPU: the console waiting on the main menu with GPIO buttons
   (gpiozero's mock pins) for 10 s, from ``/proc/PID/stat``, starting a
   second after ``READY=1`` (the sources open after the first frame) —
   target < 1 % of a core;
3. input to state and frame through the scripted path: in this process, the
   real main loop fed by the scripted source, from the moment an action is
   handed over to the moment its frame has been presented (480x320);
4. start to first frame with ``--sound on`` against ``--sound off``, alternated
   (audio through SDL's disk driver, a real device as far as the mixer knows) —
   target: no change, since audio opens after the first frame; and idle CPU with
   sound on, while the device is open (SDL keeps mixing silence into it) and once
   it is closed for being idle — target 0;
5. idle CPU after an animation: in this process, the real main loop with motion
   on, a removal animated, then the process's CPU time over a few idle seconds
   (``/proc/self/stat``) — target: 0, the loop sleeps once motion ends.

``--against DIR`` adds a before/after comparison: the console from the source
tree ``DIR`` (say a ``git worktree`` of an older commit) and from this tree,
both as ``python -m pyramid`` with the same interpreter, alternated in the same
run — for changes that must not slow the start down.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 11
IDLE_SECONDS = 10.0
#: Idle seconds measured after an animation (in this process).
AFTER_MOTION_SECONDS = 3.0
BASELINE = """
import os, socket, pygame
pygame.display.init()
screen = pygame.display.set_mode((480, 320))
pygame.display.flip()
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.sendto(b"READY=1", os.environ["NOTIFY_SOCKET"])
"""


def start_until_ready(command: list[str], env: dict[str, str], directory: Path) -> tuple[subprocess.Popen, float]:
    """Start ``command`` and return it with the seconds until it sent READY=1."""
    address = str(directory / f"notify-{time.monotonic_ns()}")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(60)
    started = time.perf_counter()
    process = subprocess.Popen(command, env={**env, "NOTIFY_SOCKET": address},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while listener.recv(4096) != b"READY=1":
        pass
    elapsed = time.perf_counter() - started
    listener.close()
    return process, elapsed


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def scripted_latency(actions: int = 300) -> list[float]:
    """Seconds from each action handed to the main loop until its frame is presented."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import random

    from display.headless import HeadlessDisplay
    from pyramid.actions import Action
    from pyramid.app.frontend import Frontend
    from pyramid.app.loop import run_loop
    from pyramid.scripting import ScriptSource
    from pyramid.system.sdnotify import Notifier
    from pyramid.console.menus import open_console
    from pyramid.console.protocols import DealChoice
    from pyramid.console.session import Session
    from pyramid.engine.rules import Redeals

    rng = random.Random(1)
    script = [Action(rng.choice(["left", "right", "up", "down", "ok", "ok"])) for _ in range(actions)]
    handed: list[float] = []  # when each action was handed to the loop
    shown: list[float] = []  # for each action that changed the screen: seconds until its frame was shown

    class TimedSource(ScriptSource):
        def wait(self, timeout: float | None) -> list[Action] | None:
            batch = super().wait(timeout)
            handed.append(time.perf_counter())
            return batch

    class TimedFrontend(Frontend):
        def show(self, view) -> None:
            super().show(view)
            if handed:  # the first frame comes before any action
                shown.append(time.perf_counter() - handed[-1])

    session = Session(None, DealChoice(number=7))
    open_console(session, "pyramid", Redeals(None))
    frontend = TimedFrontend(HeadlessDisplay((480, 320)))
    run_loop(session, frontend, TimedSource(script), Notifier(None), lambda s: None)
    frontend.close()
    return shown


def own_cpu_seconds() -> float:
    """This process's CPU time, every thread, from ``/proc/self/stat``."""
    return cpu_seconds(os.getpid())


def idle_after_motion() -> tuple[int, float]:
    """Frames drawn for one animated removal, then CPU seconds over :data:`AFTER_MOTION_SECONDS` idle."""
    import threading

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.headless import HeadlessDisplay
    from input.hub import InputHub
    from pyramid.app.frontend import Frontend, Liveliness
    from pyramid.app.loop import run_loop
    from pyramid.console.menus import open_console
    from pyramid.console.protocols import DealChoice
    from pyramid.console.session import Session
    from pyramid.engine.cards import parse_deal
    from pyramid.engine.rules import Redeals
    from pyramid.system.sdnotify import Notifier

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from deals import clearable_deal  # the cursor starts on a king: ✓ removes it

    class Counting(HeadlessDisplay):
        frames = 0

        def _show(self, frame, dirty) -> None:  # type: ignore[no-untyped-def]
            Counting.frames += 1

    session = Session(None, DealChoice(cards=parse_deal(clearable_deal())))
    open_console(session, "pyramid", Redeals(0))
    frontend = Frontend(Counting((480, 320)))
    frontend.liveliness = Liveliness(motion=lambda: True)
    hub = InputHub()
    loop = threading.Thread(target=run_loop, args=(session, frontend, hub, Notifier(None)))
    loop.start()
    time.sleep(0.5)
    first = Counting.frames
    hub.press("ok", "bench")
    hub.release("ok", "bench")
    time.sleep(1.0)  # the animation (at most 250 ms) is over by now
    frames = Counting.frames - first
    before = own_cpu_seconds()
    time.sleep(AFTER_MOTION_SECONDS)
    used = own_cpu_seconds() - before
    hub.stop()
    loop.join(5)
    frontend.close()
    return frames, used


def sound_start(console: list[str], env: dict[str, str], directory: Path) -> None:
    """Start to first frame with sound on and off, alternated; then idle CPU with sound on."""
    audio_env = {**env, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(directory / "audio.raw")}
    times: dict[str, list[float]] = {"off": [], "on": []}
    for _ in range(RUNS):
        for setting in ("off", "on"):
            process, elapsed = start_until_ready([*console, "--sound", setting], audio_env, directory)
            times[setting].append(elapsed)
            process.terminate()
            process.wait()
    off, on = (statistics.median(times[setting]) * 1000 for setting in ("off", "on"))
    print(f"start to first frame with sound (median of {RUNS}, alternated; audio: SDL's disk driver)")
    print(f"  --sound off {off:7.1f} ms")
    print(f"  --sound on  {on:7.1f} ms   ratio on/off {on / off:.2f}x (target: 1.00x, audio opens after the frame)")
    from audio.player import IDLE_CLOSE_SECONDS

    process, _ = start_until_ready([*console, "--sound", "on"], audio_env, directory)
    time.sleep(1.0)
    for what, seconds in (("device open", IDLE_CLOSE_SECONDS - 2), ("after it closed", IDLE_SECONDS)):
        before = cpu_seconds(process.pid)
        time.sleep(seconds)
        used = cpu_seconds(process.pid) - before
        print(f"idle CPU with sound on, {what} ({seconds:.0f} s): {used:.3f} s = {100 * used / seconds:.2f} % of a core")
        time.sleep(2.0 if what == "device open" else 0)  # past the idle close
    process.terminate()
    process.wait()


def compare_trees(other: Path, root: Path, env: dict[str, str], directory: Path) -> None:
    """Start to first frame of the console from ``other`` and from ``root``, alternated."""
    for tree in (other, root):
        subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(tree / name) for name in
                                                                    ("pyramid", "display", "input", "audio"))], check=True)
    arguments = ["-m", "pyramid", "--display", "headless", "--size", "480x320", "--input", "gpio"]
    times: dict[Path, list[float]] = {other: [], root: []}
    for _ in range(RUNS):
        for tree in (other, root):
            process, elapsed = start_until_ready([sys.executable, *arguments], {**env, "PYTHONPATH": str(tree)},
                                                 directory)
            times[tree].append(elapsed)
            process.terminate()
            process.wait()
    before, after = (statistics.median(times[tree]) * 1000 for tree in (other, root))
    print(f"start to first frame, {other} against this tree (median of {RUNS}, alternated)")
    print(f"  {other}: {before:7.1f} ms")
    print(f"  this tree: {after:7.1f} ms   ratio after/before {after / before:.2f}x")


def main() -> None:
    # An installed release has its bytecode compiled (pip does it); this checkout may not,
    # when PYTHONDONTWRITEBYTECODE is set, and compiling would dominate the start-up.
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(root / name) for name in
                                                                ("pyramid", "display", "input", "audio"))], check=True)
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
               "PYRAMID_DATA_DIR": str(directory / "data"), "GPIOZERO_PIN_FACTORY": "mock"}
        console = [str(Path(sys.executable).parent / "pyramid"), "--display", "headless", "--size", "480x320",
                   "--input", "gpio"]  # the console script, as the service starts it
        baseline = [sys.executable, "-c", BASELINE]
        times: dict[str, list[float]] = {"console": [], "baseline": []}
        for _ in range(RUNS):
            for name, command in (("baseline", baseline), ("console", console)):
                process, elapsed = start_until_ready(command, env, directory)
                times[name].append(elapsed)
                process.terminate()
                process.wait()
        if "--against" in sys.argv:
            compare_trees(Path(sys.argv[sys.argv.index("--against") + 1]).resolve(), root, env, directory)
        console_ms = statistics.median(times["console"]) * 1000
        baseline_ms = statistics.median(times["baseline"]) * 1000
        print("start to first frame (median of %d fresh processes)" % RUNS)
        print(f"  bare set_mode baseline  {baseline_ms:7.1f} ms")
        print(f"  pyramid console         {console_ms:7.1f} ms   ratio {console_ms / baseline_ms:.2f}x (target ≤ 1.5x)")

        process, _ = start_until_ready(console, env, directory)
        time.sleep(1.0)  # READY=1 comes with the first frame; the input sources open just after it
        before = cpu_seconds(process.pid)
        time.sleep(IDLE_SECONDS)
        used = cpu_seconds(process.pid) - before
        process.terminate()
        process.wait()
        print(f"idle CPU over {IDLE_SECONDS:.0f} s: {used:.3f} s = {100 * used / IDLE_SECONDS:.2f} % of a core "
              "(target < 1 %)")
        sound_start(console, env, directory)
    frames, used = idle_after_motion()
    print(f"idle CPU after an animation ({frames} frames drawn for it), over {AFTER_MOTION_SECONDS:.0f} s: "
          f"{used:.3f} s = {100 * used / AFTER_MOTION_SECONDS:.2f} % of a core (target 0)")
    latencies = sorted(scripted_latency())
    print(f"input to state and frame, scripted path ({len(latencies)} actions that changed the screen): "
          f"median {1000 * statistics.median(latencies):.2f} ms, "
          f"p95 {1000 * latencies[int(0.95 * len(latencies))]:.2f} ms, max {1000 * latencies[-1]:.2f} ms")


if __name__ == "__main__":
    main()
