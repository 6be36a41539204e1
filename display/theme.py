"""The colours of the console, in one place so the look stays consistent.

Chosen to survive a 16-bit RGB565 panel and a washed-out TV: strong contrast
between felt, card and cursor, and a cursor colour that appears nowhere else.
"""

from __future__ import annotations

FELT = (22, 110, 62)
FELT_EDGE = (10, 70, 38)
FELT_TEXT = (240, 244, 236)
FELT_MUTED = (176, 212, 186)

CARD_FACE = (252, 251, 245)
CARD_EDGE = (120, 124, 120)
CARD_SHADOW = (0, 0, 0, 80)
COURT_TINT = (246, 236, 206)
RED = (204, 28, 40)
BLACK = (24, 24, 28)
CHOSEN_MULTIPLY = (150, 152, 160)
JOKER = (130, 36, 170)

BACK = (30, 64, 150)
BACK_PATTERN = (64, 104, 196)
BACK_BORDER = (236, 238, 246)

HOLLOW_FILL = (0, 0, 0, 50)
HOLLOW_LINE = (255, 255, 255, 110)
EMPTY_LINE = (255, 255, 255, 55)

CURSOR = (255, 196, 0)
CURSOR_EDGE = (60, 40, 0)
HINT = (80, 200, 255)
HINT_EDGE = (0, 40, 70)

PANEL = (250, 248, 238)
PANEL_EDGE = (30, 40, 34)
PANEL_TEXT = (30, 36, 32)
PANEL_DIM = (0, 0, 0, 110)
ITEM = (0, 0, 0, 70)
ITEM_TEXT = (240, 244, 236)
SELECTED_TEXT = (40, 26, 0)
NOTICE = (255, 214, 90)
#: The daily deals' calendar: a day won (its ✓, or ✱ for the best score, drawn in NOTICE when in par).
DAY_WON = (38, 140, 80, 255)

#: The four-colour deck (an accessibility setting): every suit tells apart at a glance.
FOUR_COLOUR_SUITS = {"s": BLACK, "h": RED, "d": (20, 90, 210), "c": (16, 128, 50)}

#: Spanish suits in their traditional colours.
SPANISH_SUIT_COLOURS = {"o": (206, 150, 0), "p": (200, 30, 40), "e": (40, 80, 170), "b": (40, 120, 50)}
