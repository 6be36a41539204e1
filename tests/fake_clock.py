"""The one fake clock of the tests: a time the test moves by hand, for every seam that takes a clock
(the input hub, debouncing, repeat, the animator, the session, the thinker). Issue 48: eleven copies."""

from __future__ import annotations


class FakeClock:
    """Returns :attr:`now` when called; :meth:`advance` moves it on."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
