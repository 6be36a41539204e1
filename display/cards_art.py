"""Card images drawn from code at exactly the size the layout asks for.

No bitmaps to scale, so cards stay crisp from a 320x240 TFT to a TV. The
pyramid hides the lower half of most cards, so everything needed to read a
card — the rank and a suit sign — sits in its top strip, large; the lower half
holds a big suit (or the court letter) for the uncovered cards. Every image is
cached per card size: after the first frame, drawing a table is only blits.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

from typing import Callable, NamedTuple

import pygame

from pyramid.engine.cards import FACE_LETTERS, Card, CardLetters

from . import theme
from .symbols import Color, symbol
from .text import fit_text, render_text

def rank_label(card: Card, letters: CardLetters) -> str:
    """What the corner shows: A, 2 … 10, and the court letters (J Q K, V D R or B D K).

    The Spanish deck has no court letters in either language, so its cards show numbers.
    """
    if card.suit in "opeb":
        return str(card.rank)
    if card.rank == 1:
        return "A"
    return FACE_LETTERS[letters].get(card.rank, str(card.rank))


def suit_colour(card: Card, four_colour: bool = False) -> Color:
    """Red and black, or one colour per suit with ``four_colour`` (Spanish suits always have their own)."""
    if card.suit in theme.SPANISH_SUIT_COLOURS:
        return theme.SPANISH_SUIT_COLOURS[card.suit]
    if four_colour:
        return theme.FOUR_COLOUR_SUITS[card.suit]
    return theme.RED if card.is_red else theme.BLACK


class FaceStyle(NamedTuple):
    """How faces are printed: court letters (``"english"`` J Q K, ``"french"`` V D R, ``"german"`` B D K),
    suit colours."""

    letters: CardLetters = "english"
    four_colour: bool = False


class CardArt:
    """Every image of a card of ``size`` (width, height).

    ``visible_h`` is the strip a covering row leaves visible; ``cursor_width``
    the thickness of the cursor ring (the layout keeps room for it).
    """

    def __init__(self, size: tuple[int, int], visible_h: int, cursor_width: int) -> None:
        self.w, self.h = size
        self.visible_h = visible_h
        self.margin = max(2, round(self.w * 0.07))
        self.radius = max(2, round(self.w * 0.09))
        self.shadow = max(1, round(self.h * 0.02))
        self.cursor_width = cursor_width
        self._cache: dict[tuple[object, ...], pygame.Surface] = {}

    def _cached(self, key: tuple[object, ...], draw: Callable[[], pygame.Surface]) -> pygame.Surface:
        surface = self._cache.get(key)
        if surface is None:
            surface = self._cache[key] = draw()
        return surface

    # -- shared shapes -----------------------------------------------------
    def _card_body(self, fill: Color) -> pygame.Surface:
        """A blank card with its shadow: drawn once per colour, then copied for each card."""
        return self._cached(("body", fill), lambda: self._draw_body(fill)).copy()

    def _draw_body(self, fill: Color) -> pygame.Surface:
        surface = pygame.Surface((self.w, self.h), pygame.SRCALPHA)
        body = pygame.Rect(0, 0, self.w, self.h - self.shadow)
        pygame.draw.rect(surface, theme.CARD_SHADOW, body.move(0, self.shadow), border_radius=self.radius)
        pygame.draw.rect(surface, fill, body, border_radius=self.radius)
        pygame.draw.rect(surface, theme.CARD_EDGE, body, width=1, border_radius=self.radius)
        return surface

    # -- faces -------------------------------------------------------------
    def face(self, card: Card, style: FaceStyle = FaceStyle(), chosen: bool = False, covered: bool = False) -> pygame.Surface:
        """The face of ``card``; ``chosen`` greys it out (the first half of a pair).

        A ``covered`` card leaves its lower half plain: the slivers of it that
        show between the cards over it stay quiet, and the big suit appears
        only when the card can be played.
        """
        if chosen:
            return self._cached(("chosen", card, style, covered), lambda: self._greyed(self.face(card, style, False, covered)))
        return self._cached(("face", card, style, covered), lambda: self._draw_face(card, style, covered))

    def tilted(self, card: Card, degrees: int, style: FaceStyle = FaceStyle()) -> pygame.Surface:
        """The face turned ``degrees`` counter-clockwise, smoothly (the fan above the menus)."""
        return self._cached(("tilted", card, degrees, style),
                            lambda: pygame.transform.rotozoom(self.face(card, style), degrees, 1))

    def _greyed(self, face: pygame.Surface) -> pygame.Surface:
        grey = face.copy()
        grey.fill(theme.CHOSEN_MULTIPLY, special_flags=pygame.BLEND_RGB_MULT)
        return grey

    def _draw_face(self, card: Card, style: FaceStyle, covered: bool) -> pygame.Surface:
        surface = self._card_body(theme.CARD_FACE)
        colour, label = suit_colour(card, style.four_colour), rank_label(card, style.letters)
        m = self.margin
        small = max(7, round(self.w * 0.34))
        rank_px = max(10, round(self.h * 0.36))
        text, px = fit_text(label, rank_px, self.w - small - 3 * m, min_px=8)
        rank = render_text(text, px, colour)
        surface.blit(rank, (m - 1, m - round(px * 0.17)))
        surface.blit(symbol(card.suit, small, colour), (self.w - m - small, m))
        lower = pygame.Rect(0, self.visible_h, self.w, self.h - self.shadow - self.visible_h)
        if covered:
            return surface
        if card.rank >= 11 and card.suit not in "opeb":
            self._draw_court(surface, lower, label, colour)
        else:
            big = max(8, round(min(lower.w * (0.7 if card.rank == 1 else 0.58), lower.h * 0.78)))
            surface.blit(symbol(card.suit, big, colour), (lower.centerx - big // 2, lower.centery - big // 2))
        return surface

    def _draw_court(self, surface: pygame.Surface, lower: pygame.Rect, label: str, colour: Color) -> None:
        """A framed panel with the big court letter: V, D, R (or J, Q, K)."""
        frame = lower.inflate(-2 * self.margin, -self.margin)
        frame.top = lower.top
        pygame.draw.rect(surface, theme.COURT_TINT, frame, border_radius=self.radius // 2)
        pygame.draw.rect(surface, colour, frame, width=max(1, self.w // 50), border_radius=self.radius // 2)
        letter = render_text(label, max(8, round(frame.h * 0.95)), colour)
        surface.blit(letter, letter.get_rect(center=(frame.centerx, frame.centery + round(frame.h * 0.06))))

    # -- the Pyramids joker ------------------------------------------------------
    def joker(self, spent: bool = False) -> pygame.Surface:
        """The joker card: a big star under the word; greyed out once ``spent`` for the round."""
        if spent:
            return self._cached(("joker", True), lambda: self._greyed(self.joker()))
        return self._cached(("joker", False), self._draw_joker)

    def _draw_joker(self) -> pygame.Surface:
        surface = self._card_body(theme.CARD_FACE)
        m = self.margin
        text, px = fit_text("JOKER", max(8, round(self.h * 0.2)), self.w - 2 * m, min_px=6)
        word = render_text(text, px, theme.JOKER)
        surface.blit(word, word.get_rect(midtop=(self.w // 2, m)))
        body_h = self.h - self.shadow
        big = max(8, round(min(self.w * 0.75, (body_h - word.get_height() - 2 * m) * 0.9)))
        star = symbol("✱", big, theme.JOKER)
        surface.blit(star, star.get_rect(center=(self.w // 2, (m + word.get_height() + body_h) // 2)))
        return surface

    # -- the back, the stock's place ------------------------------------------
    def edge(self) -> pygame.Surface:
        """A plain face: the cards under the waste top show only their edge, never a letter cut in half."""
        return self._cached(("edge",), lambda: self._card_body(theme.CARD_FACE))

    def back(self, count: int | None = None) -> pygame.Surface:
        """The back of a card; with ``count``, a badge telling how many cards the stock holds."""
        return self._cached(("back", count), lambda: self._draw_back(count))

    def _draw_back(self, count: int | None) -> pygame.Surface:
        surface = self._card_body(theme.BACK)
        inner = pygame.Rect(0, 0, self.w, self.h - self.shadow).inflate(-2 * self.margin, -2 * self.margin)
        pattern = pygame.Surface(inner.size, pygame.SRCALPHA)
        spacing = max(4, self.w // 6)
        line = max(1, self.w // 40)
        for offset in range(-inner.h, inner.w + inner.h, spacing):
            pygame.draw.line(pattern, theme.BACK_PATTERN, (offset, 0), (offset + inner.h, inner.h), line)
            pygame.draw.line(pattern, theme.BACK_PATTERN, (offset, inner.h), (offset + inner.h, 0), line)
        surface.blit(pattern, inner)
        pygame.draw.rect(surface, theme.BACK_BORDER, inner, width=max(1, self.w // 30), border_radius=self.radius // 2)
        if count is not None:
            badge_text = render_text(str(count), max(9, round(self.h * 0.22)), theme.FELT_TEXT)
            badge = badge_text.get_rect(center=(self.w // 2, self.h - self.shadow - self.margin - badge_text.get_height() // 2))
            pill = badge.inflate(badge.h // 2, 0)
            pygame.draw.rect(surface, (0, 0, 0, 170), pill, border_radius=pill.h // 2)
            surface.blit(badge_text, badge)
        return surface

    def hollow(self, redeal: bool) -> pygame.Surface:
        """The empty stock place: with the redeal sign when a redeal is left, else a faint outline."""
        return self._cached(("hollow", redeal), lambda: self._draw_hollow(redeal))

    def _draw_hollow(self, redeal: bool) -> pygame.Surface:
        surface = pygame.Surface((self.w, self.h), pygame.SRCALPHA)
        body = pygame.Rect(0, 0, self.w, self.h - self.shadow)
        line = max(2, self.w // 25)
        if redeal:
            pygame.draw.rect(surface, theme.HOLLOW_FILL, body, border_radius=self.radius)
            pygame.draw.rect(surface, theme.HOLLOW_LINE, body, width=line, border_radius=self.radius)
            size = round(self.w * 0.62)
            surface.blit(symbol("↻", size, theme.FELT_MUTED), (body.centerx - size // 2, body.centery - size // 2))
        else:
            pygame.draw.rect(surface, theme.EMPTY_LINE, body, width=line, border_radius=self.radius)
        return surface

    # -- the cursor and the hint ---------------------------------------------
    @property
    def cursor_margin(self) -> int:
        """How far the cursor ring reaches outside the card it surrounds."""
        return self.cursor_width + 1

    def cursor(self, height: int | None = None) -> pygame.Surface:
        """A thick ring, dark-edged so it shows on white cards, on the felt and on the hollow; round the
        top ``height`` pixels of the card only when the rest is under other cards."""
        return self.ring(theme.CURSOR, theme.CURSOR_EDGE, height)

    def hint(self, height: int | None = None) -> pygame.Surface:
        """The ring around the cards a hint suggests, in a colour the cursor never has."""
        return self.ring(theme.HINT, theme.HINT_EDGE, height)

    def ring(self, colour: Color, edge: Color, height: int | None = None) -> pygame.Surface:
        tall = self.h if height is None else height
        return self._cached(("ring", colour, edge, tall), lambda: self._draw_ring(colour, edge, tall))

    def _draw_ring(self, colour: Color, edge: Color, height: int) -> pygame.Surface:
        m = self.cursor_margin
        surface = pygame.Surface((self.w + 2 * m, height + 2 * m), pygame.SRCALPHA)
        ring = surface.get_rect()
        radius = self.radius + m
        pygame.draw.rect(surface, edge, ring, width=self.cursor_width + 2, border_radius=radius)
        pygame.draw.rect(surface, colour, ring.inflate(-2, -2), width=self.cursor_width, border_radius=radius - 1)
        return surface
