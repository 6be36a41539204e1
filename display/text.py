"""Text in pygame-ce's bundled font, with the signs it lacks drawn as shapes.

Only ``pygame.font.Font(None, px)`` is used, so nothing depends on the fonts
installed on the machine. Its hinting spaces letters unevenly at the small
sizes of a 320x240 TFT ("th at"), so text is rendered at twice the size and
scaled down smoothly, which keeps the spacing true at every size. Characters listed in :data:`display.symbols.GLYPHS`
(∞ ▲ ▼ ◀ ▶ ✓ ✱ and the suits) are painted by :func:`display.symbols.symbol`
inline, at the height of the font's capitals.

Any text draws: names come from other consoles and announcements on the network,
so every character the font cannot draw with some width (a control, a bidi or
zero-width format character, a lone combining mark or variation selector, a
surrogate, an unassigned code point, a letter the font lacks) is drawn as one
crossed box, the shape of U+FFFD. One box per character, so two names that differ
only there still look different, and no text is ever drawn as nothing (which
pygame refuses with "Text has zero width").
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

import pygame

from . import theme
from .symbols import GLYPHS, RED_SIGNS, SUIT_SIGN_SET, Color, symbol

#: pygame's bundled font file. ``Font(None, size)`` finds it through importlib.resources,
#: which costs ~8 ms at start-up; opening the file by path skips that.
BUNDLED_FONT = Path(pygame.__file__).parent / pygame.font.get_default_font()
#: The scale ``Font(None, size)`` applies to the bundled font, kept so sizes stay the same.
BUNDLED_FONT_SCALE = 0.6875


@lru_cache(maxsize=64)
def font(px: int) -> pygame.font.Font:
    """The bundled font at size ``px``, exactly as ``pygame.font.Font(None, px)`` would give it."""
    if not pygame.font.get_init():
        pygame.font.init()
    if BUNDLED_FONT.is_file():
        return pygame.font.Font(BUNDLED_FONT, int(px * BUNDLED_FONT_SCALE))
    return pygame.font.Font(None, px)


#: What stands for a character the font cannot draw; drawn as a shape (see display.symbols).
PLACEHOLDER = "\ufffd"
#: Unicode general categories never handed to the font: controls, format characters (bidi
#: controls, zero-width joiners, tags), surrogates, private use, unassigned code points, and
#: the line and paragraph separators.
NEVER_DRAWN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: A noncharacter: the font draws it with its "missing glyph", the reference for what it lacks.
_MISSING = "\uffff"
#: The size the font is asked about characters at.
_PROBE_PX = 40


@lru_cache(maxsize=8192)
def font_draws(char: str) -> bool:
    """Whether the bundled font draws ``char`` itself, with some width.

    pygame-ce's ``Font`` does not say whether a font has a glyph: ``metrics``
    answers for a missing one with the metrics of the font's "missing glyph"
    box, so a character with exactly those is one the font lacks (this gives the
    641 code points that ``pygame.freetype`` finds in the bundled font).
    """
    if " " <= char <= "~":
        return True
    if unicodedata.category(char) in NEVER_DRAWN:
        return False
    face = font(_PROBE_PX)
    metrics = face.metrics(char)
    return bool(metrics) and metrics[0] is not None and metrics[0][4] > 0 and metrics != face.metrics(_MISSING)


def drawable(text: str) -> str:
    """``text`` as drawn: a space the font lacks (no-break, thin…) as a space, any other character
    that neither the font nor a glyph draws as :data:`PLACEHOLDER`."""
    return "".join(
        char if char in GLYPHS or font_draws(char) else " " if unicodedata.category(char) == "Zs" else PLACEHOLDER
        for char in text
    )


def _runs(text: str) -> list[str]:
    """``text`` split into runs of ordinary characters and single glyphs, every character drawable."""
    runs: list[str] = []
    for char in drawable(text):
        if char in GLYPHS or not runs or runs[-1][-1] in GLYPHS:
            runs.append(char)
        else:
            runs[-1] += char
    return runs


OVERSAMPLE = 2


def _glyph_size(px: int, glyph: str) -> int:
    """A suit sign as tall as the text around it, in its suit's colour (issue 29: a 5-pixel ♦ in the
    text's colour read as a ♥); an interface sign (▲, ✓) a little smaller."""
    return max(8, round(px * 0.92)) if glyph in SUIT_SIGN_SET else max(6, round(px * 0.72))


def _run_width(run: str, px: int) -> int:
    """Width of a run at the oversampled size (a glyph, or ordinary characters)."""
    if run in GLYPHS:
        return (_glyph_size(px, run) + max(1, px // 10)) * OVERSAMPLE
    return font(px * OVERSAMPLE).size(run)[0]


@lru_cache(maxsize=2048)
def text_width(text: str, px: int) -> int:
    """Width in pixels of ``text`` drawn by :func:`render_text` (the layout's ``measure``).

    Cached: the layout tries each menu line at several sizes, and asking the
    font costs some 50 µs a time here (half a millisecond on a Pi Zero 2).
    """
    return -(-sum(_run_width(run, px) for run in _runs(text)) // OVERSAMPLE)


def _rise(face: pygame.font.Font, run: str) -> int:
    """How far ``run``'s tallest glyph rises over the font's ascent (an accented capital, "É"): SDL_ttf
    draws such a run that much lower, on a surface that much taller, so its baseline is not the other
    runs' unless they are lowered alike."""
    tops = [metrics[3] for metrics in face.metrics(run) if metrics is not None]
    return max(0, max(tops, default=0) - face.get_ascent())


@lru_cache(maxsize=1024)
def render_text(text: str, px: int, color: Color) -> pygame.Surface:
    """``text`` on a transparent surface as tall as the font's line (taller by what an accented capital
    rises over it), every run on one baseline."""
    big_px = px * OVERSAMPLE
    face = font(big_px)
    runs = _runs(text)
    rise = max((_rise(face, run) for run in runs if run not in GLYPHS), default=0)
    width = max(1, text_width(text, px))
    height = -(-(face.get_linesize() + rise) // OVERSAMPLE)
    canvas = pygame.Surface((width * OVERSAMPLE, height * OVERSAMPLE), pygame.SRCALPHA)
    gap = max(1, px // 10) * OVERSAMPLE
    cap_middle = rise + face.get_ascent() - round(big_px * 0.36)
    x = 0
    for run in runs:
        if run in GLYPHS:
            glyph = _glyph_size(px, run) * OVERSAMPLE
            shade = theme.RED if run in RED_SIGNS else color
            canvas.blit(symbol(run, glyph, shade), (x + gap // 2, min(max(0, cap_middle - glyph // 2),
                                                                     canvas.get_height() - glyph)))
        elif _run_width(run, px) > 0:  # spaces at a pixel or two take no room, and pygame refuses to draw them
            canvas.blit(face.render(run, True, color), (x, rise - _rise(face, run)))
        x += _run_width(run, px)
    return pygame.transform.smoothscale(canvas, (width, height))


def fit_text(text: str, px: int, width: int, min_px: int = 9) -> tuple[str, int]:
    """The largest size down to ``min_px`` at which ``text`` fits ``width``; else shortened with "…"."""
    for size in range(px, min_px - 1, -1):
        if text_width(text, size) <= width:
            return text, size
    shortened = text
    while len(shortened) > 1 and text_width(shortened + "…", min_px) > width:
        shortened = shortened[:-1]
    return shortened.rstrip() + "…", min_px
