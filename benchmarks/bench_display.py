"""What drawing costs: render time per size, framebuffer writes, bytes per move, start-up.

Run: ``nice .venv/bin/python benchmarks/bench_display.py`` (a few seconds). Times are
the best of several runs, which stays comparable on a machine shared with other work.
Prints five tables:

1. full-frame render time at each size (cold: first frame, card images drawn;
   warm: a full repaint from cached images);
2. time to convert a full frame and write it into a file-backed framebuffer
   (RGB565 and XRGB8888, rotation 0 and 90);
3. bytes written to a 16-bit framebuffer per action of a real game (cursor
   moves, picks, pairs removed, draws) against a full frame — target ≤ 15 %
   at 480x320;
4. motion on a 16-bit framebuffer (480x320 and 320x240 RGB565): for each kind of
   animated move of the same game (deal, removal, draw, a refused pair shaking, a
   scoring removal's "+N", the win's burst), the bytes sent per move and per frame,
   and the frames per second the 32 MHz SPI bus allows for those frames (4 MB/s)
   and that rendering + writing allow here, against the bus's full-frame rate
   (~13 fps at 480x320) and the rate an animation asks for;
5. start to first frame (fresh processes, SDL dummy driver) against a bare
   ``pygame.display.set_mode`` + ``flip`` baseline run alternately in the same
   run — target ≤ 1.5x.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the sample views

import samples  # noqa: E402
from display.fbdev import FramebufferDisplay  # noqa: E402
from display.animator import Animator  # noqa: E402
from display.fbinfo import RGB565, XRGB8888, FramebufferGeometry, PixelFormat  # noqa: E402
from display.motion import DURATION, FRAME  # noqa: E402
from display.rect import Rect  # noqa: E402
from display.render import Renderer  # noqa: E402
from display.rotation import Rotation  # noqa: E402
from pyramid.view import Feedback, View  # noqa: E402
from pyramid.view_change import view_change  # noqa: E402

SIZES = [(320, 240), (480, 320), (800, 480), (1280, 720), (1920, 1080)]
#: Bytes per second a 32 MHz SPI bus carries (one bit per clock), as FACTS.md's full-frame ceilings assume.
SPI_BYTES_PER_SECOND = 32_000_000 / 8
REPEAT = 15
STARTS = 9

BASELINE = """
import time; start, cpu = time.perf_counter(), time.process_time()
import pygame
pygame.display.init()
screen = pygame.display.set_mode(({w}, {h}))
pygame.display.flip()
print(time.perf_counter() - start, time.time(), time.process_time() - cpu)
"""

CONSOLE = """
import time; start, cpu = time.perf_counter(), time.process_time()
from display.auto import open_display
from display.render import Renderer
from pyramid.engine.board import Board
from pyramid.engine.deal import numbered_deal
from pyramid.console.table import Table
from pyramid.view import View
display = open_display("headless", ({w}, {h}))
renderer = Renderer(display.size, display.safe_area)
view = View("game", table=Table(Board(numbered_deal(1))).view("Deal 1"))
display.present(renderer.frame, renderer.draw(view))
print(time.perf_counter() - start, time.time(), time.process_time() - cpu)
"""


def milliseconds(action, repeat: int = REPEAT) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def render_times() -> None:
    print(f"1. full-frame render (ms; warm: best of {REPEAT})")
    print(f"   {'size':>10} {'cold':>8} {'warm':>8}")
    view = samples.game_view()
    for size in SIZES:
        start = time.perf_counter()
        renderer = Renderer(size)
        renderer.draw(view)
        cold = (time.perf_counter() - start) * 1000

        def repaint(renderer: Renderer = renderer) -> None:
            renderer.invalidate()
            renderer.draw(view)
        print(f"   {size[0]:>5}x{size[1]:<4} {cold:8.1f} {milliseconds(repaint):8.2f}")


def framebuffer(directory: Path, size: tuple[int, int], fmt: PixelFormat, rotation: Rotation) -> FramebufferDisplay:
    panel = rotation.panel_size(size)
    geometry = FramebufferGeometry(panel[0], panel[1], panel[0] * fmt.bytes_per_pixel, fmt)
    path = directory / f"fb-{size[0]}x{size[1]}-{fmt.bits_per_pixel}-{rotation.degrees}"
    path.write_bytes(bytes(geometry.memory_size))
    return FramebufferDisplay(path, rotation, 0, geometry=geometry, console=False)


def write_times(directory: Path) -> None:
    print(f"2. convert + write a full frame to a file-backed framebuffer (ms, best of {REPEAT})")
    print(f"   {'size':>10} {'RGB565':>8} {'RGB565/90':>10} {'XRGB8888':>9}")
    view = samples.game_view()
    for size in SIZES:
        cells = []
        for fmt, rotation in ((RGB565, Rotation(0)), (RGB565, Rotation(90)), (XRGB8888, Rotation(0))):
            with framebuffer(directory, size, fmt, rotation) as display:
                renderer = Renderer(display.size)
                renderer.draw(view)
                whole = [Rect(0, 0, *display.size)]
                cells.append(milliseconds(lambda: display.present(renderer.frame, whole)))  # noqa: B023 (called at once)
        print(f"   {size[0]:>5}x{size[1]:<4} {cells[0]:8.2f} {cells[1]:10.2f} {cells[2]:9.2f}")


def game_actions() -> list[tuple[str, View]]:
    """The views after each action of a real game: cursor moves, picks, pairs, draws."""
    table = samples.played_table(5, removals=0)
    board = table.board
    actions: list[tuple[str, View]] = [("start", View("game", table=table.view()))]
    while board.status() == "playing" and len(actions) < 120:
        removal = next((move for move in board.legal_moves if move.kind == "remove"), None)
        if removal is None:
            if table.cursor != "stock":
                table.cursor = "stock"
                actions.append(("cursor", View("game", table=table.view())))
            table.pick("stock")
            actions.append(("draw" if board.move_stack[-1].kind == "draw" else "redeal", View("game", table=table.view())))
            continue
        for number, card in enumerate(removal.cards):
            index = board.index_of(card)
            target = index if index is not None else "waste"
            table.cursor = target
            actions.append(("cursor", View("game", table=table.view())))
            table.pick(target)
            last = number == len(removal.cards) - 1
            actions.append(("remove" if last else "choose", View("game", table=table.view())))
    return actions


def bytes_per_move(directory: Path) -> None:
    print("3. bytes written to a 16-bit framebuffer per action, against a full frame")
    print(f"   {'size':>10} {'full kB':>8} {'cursor':>7} {'choose':>7} {'remove':>7} {'draw':>7} {'mean':>7}")
    actions = game_actions()
    for size in SIZES:
        with framebuffer(directory, size, RGB565, Rotation(0)) as display:
            renderer = Renderer(display.size)
            full = size[0] * size[1] * 2
            per_kind: dict[str, list[int]] = {}
            for kind, view in actions:
                before = display.bytes_written
                display.present(renderer.frame, renderer.draw(view))
                if kind != "start":
                    per_kind.setdefault(kind, []).append(display.bytes_written - before)
        share = {kind: 100 * statistics.mean(values) / full for kind, values in per_kind.items()}
        everything = [value for values in per_kind.values() for value in values]
        mean = 100 * statistics.mean(everything) / full
        cells = " ".join(f"{share.get(kind, 0):6.1f}%" for kind in ("cursor", "choose", "remove", "draw"))
        print(f"   {size[0]:>5}x{size[1]:<4} {full / 1000:8.0f} {cells} {mean:6.1f}%")
    counts = {kind: sum(1 for k, _ in actions if k == kind) for kind, _ in actions}
    print(f"   ({len(actions) - 1} actions of deal 5: {', '.join(f'{n} {k}' for k, n in counts.items() if k != 'start')})")


def start_times() -> None:
    print(f"5. start to first frame, SDL dummy driver (ms, best of {STARTS} fresh processes, run alternately)")
    print("   wall: from the first import; launch: from spawning the interpreter; cpu: CPU time from the first import")
    header = "".join(f"{name:>27}" for name in ("wall set_mode / console", "launch set_mode / console", "cpu set_mode / console"))
    print(f"   {'size':>10}{header}")
    # Bytecode is cached as on an installed system (pip compiles it), so a
    # PYTHONDONTWRITEBYTECODE in the caller's environment does not count as start-up.
    environment = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    root = Path(__file__).resolve().parents[1]
    for size in ((480, 320), (1920, 1080)):
        runs: dict[str, list[tuple[float, float, float]]] = {"baseline": [], "console": []}
        for attempt in range(STARTS + 1):  # the first round only warms the caches
            for name, script in (("baseline", BASELINE), ("console", CONSOLE)):
                launched = time.time()
                output = subprocess.run(
                    [sys.executable, "-c", script.format(w=size[0], h=size[1])],
                    capture_output=True, text=True, check=True, env=environment, cwd=root,
                ).stdout
                inside, shown, cpu = (float(value) for value in output.strip().splitlines()[-1].split())
                if attempt:
                    runs[name].append((inside * 1000, (shown - launched) * 1000, cpu * 1000))
        cells = ""
        for column in (0, 1, 2):
            baseline = min(run[column] for run in runs["baseline"])
            console = min(run[column] for run in runs["console"])
            cells += f"{baseline:13.1f} /{console:6.1f} {console / baseline:4.2f}x"
        print(f"   {size[0]:>5}x{size[1]:<4}{cells}")


def animated_moves() -> list[tuple[str, View, View]]:
    """(kind, view before, view after) for each kind of animated move of deal 5's game."""
    actions = game_actions()
    menu = View("menu")
    moves: list[tuple[str, View, View]] = [("deal", menu, actions[0][1])]
    for (_, before), (kind, after) in zip(actions, actions[1:]):
        if kind in ("remove", "draw"):
            moves.append((kind, before, after))
    removal = next((before, after) for kind, before, after in moves if kind == "remove")
    moves.append(("+N", removal[0], removal[1]._replace(feedback=Feedback("pair", 1, points=5))))
    chosen = samples.game_view()
    moves.append(("wrong", chosen, chosen._replace(feedback=Feedback("wrong", 2, targets=(chosen.table.chosen,)))))
    cleared = samples.end_view(cleared=True)
    moves.append(("win", cleared, cleared._replace(feedback=Feedback("win", 3))))
    return moves


def motion(directory: Path) -> None:
    frames = round(DURATION / FRAME)
    print(f"4. motion on a 16-bit framebuffer: {DURATION * 1000:.0f} ms per animation, {frames} frames at "
          f"{1 / FRAME:.0f} fps; SPI bus at 32 MHz = {SPI_BYTES_PER_SECOND / 1e6:.0f} MB/s")
    print(f"   {'size':>10} {'move':>6} {'kB/move':>8} {'kB/frame':>9} {'max kB':>7} {'bus fps':>8} "
          f"{'cpu fps':>8} {'full-frame bus fps':>19}")
    moves = animated_moves()
    for size in ((480, 320), (320, 240)):
        full = size[0] * size[1] * 2
        with framebuffer(directory, size, RGB565, Rotation(0)) as display:
            renderer = Renderer(display.size)
            sent: list[int] = []

            def present(dirty: list[Rect]) -> None:
                before = display.bytes_written
                display.present(renderer.frame, dirty)
                sent.append(display.bytes_written - before)

            animator = Animator(renderer, present, clock=lambda: 0.0)
            per_kind: dict[str, list[tuple[int, list[int], float]]] = {}
            for kind, before, after in moves:
                animator.show(before)
                sent.clear()
                start = time.perf_counter()
                animator.show(after, view_change(before, after))
                animator.play_through()
                seconds = time.perf_counter() - start
                # the first frame also carries what the view itself changed; the frames after it are the motion
                per_kind.setdefault(kind, []).append((sum(sent), sent[1:], seconds / len(sent)))
        for kind, runs in per_kind.items():
            per_move = statistics.mean(total for total, _, _ in runs)
            moving = [frame for _, frame_bytes, _ in runs for frame in frame_bytes] or [0]
            per_frame, largest = statistics.mean(moving), max(moving)
            bus = SPI_BYTES_PER_SECOND / max(1, largest)
            cpu = 1 / statistics.median(seconds for _, _, seconds in runs)
            print(f"   {size[0]:>5}x{size[1]:<4} {kind:>6} {per_move / 1000:8.1f} {per_frame / 1000:9.1f} "
                  f"{largest / 1000:7.1f} {bus:8.0f} {cpu:8.0f} {SPI_BYTES_PER_SECOND / full:19.1f}")
    print("   (bus fps: the move's largest frame on the bus; cpu fps: render + convert + write here, median;"
          " a frame the bus cannot carry in time is skipped: the animation keeps its length)")


def main() -> None:
    render_times()
    with tempfile.TemporaryDirectory() as directory:
        write_times(Path(directory))
        bytes_per_move(Path(directory))
        motion(Path(directory))
    start_times()


if __name__ == "__main__":
    main()
