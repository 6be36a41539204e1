"""The names of the difficulty grades, apart from the grading itself.

The player's settings check a chosen grade ("Easy deals only") when they load,
before the menu is drawn; grading (:mod:`pyramid.engine.grade`) needs the
solver, which loads only when a deal is dealt. This module costs nothing.
"""

from __future__ import annotations

from typing import Literal

Grade = Literal["easy", "medium", "hard", "expert"]
#: The grades from the most forgiving deals to the least.
GRADES: tuple[Grade, ...] = ("easy", "medium", "hard", "expert")
