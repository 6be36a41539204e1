"""The console's long searches, off the main loop: one worker thread, one question at a time.

Why: a hint on a hard deal searches for up to three seconds (ten times that much work on a
Pi Zero 2), and on the main loop the screen froze meanwhile and Back did nothing (issue 27).
The worker only computes. Its answer comes back as a :class:`Thought`, posted to the main
loop's queue like the network's events, and is handed to whoever asked, on the main loop
(:meth:`Thinker.take`), so no screen is ever touched from the worker. A new question calls
off the one before, and so does the player (:meth:`Thinker.cancel`): the search reads its
``cancelled`` every 256 nodes (:class:`~pyramid.engine.solver.budget.Budget`).

:meth:`Thinker.inline` answers at once, on the asking thread: for the scripted mode, whose
traces must not depend on timing, the self-test and tests. The choice is the app's, made
explicitly (see :func:`pyramid.app.build_session`).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Seconds a question may take before the screen says it is thinking (a quick answer shows no cue):
#: a hint's "Thinking…", the search for a winnable deal's panel.
THINKING_CUE = 0.15
#: What a question runs: given its ``cancelled`` (true once it is called off), the answer.
Work = Callable[[Callable[[], bool]], T]


class Thought(NamedTuple):
    """The worker's answer to question ``number`` (or the exception its work raised), for the main loop."""

    number: int
    answer: object
    failure: BaseException | None = None


class _Question(NamedTuple):
    number: int
    work: Work[Any]
    called_off: threading.Event


class Thinker:
    """Asks long questions on a worker thread and hands the answers over on the main loop.

    ``post`` puts a :class:`Thought` on the main loop's queue (thread-safe);
    the worker thread starts with the first question.
    """

    def __init__(self, post: Callable[[object], None] | None) -> None:
        self._post = post
        self._questions: queue.SimpleQueue[_Question] = queue.SimpleQueue()
        self._asked: _Question | None = None
        self._deliver: Callable[[Any], None] | None = None
        self._number = 0
        self._lock = threading.Lock()
        self._pending = 0  # questions put and not yet finished by the worker
        self._idle = threading.Event()
        self._idle.set()
        self._worker: threading.Thread | None = None
        #: What each question run beside the others hands its answer to (:meth:`beside`), by number.
        self._beside: dict[int, Callable[[Any], None]] = {}

    @classmethod
    def inline(cls) -> "Thinker":
        """A thinker that answers at once, on the thread that asks (nothing runs beside the main loop)."""
        return cls(None)

    @property
    def thinking(self) -> bool:
        """A question is asked and its answer not yet handed over."""
        return self._deliver is not None

    def ask(self, work: Work[T], deliver: Callable[[T], None]) -> None:
        """Run ``work`` and hand its answer to ``deliver`` on the main loop; the question before is called off."""
        self.cancel()
        self._number += 1
        if self._post is None:
            deliver(work(lambda: False))
            return
        question = _Question(self._number, work, threading.Event())
        self._asked, self._deliver = question, deliver
        with self._lock:
            self._pending += 1
            self._idle.clear()
        self._questions.put(question)
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="pyramid-think", daemon=True)
            self._worker.start()

    def beside(self, work: Callable[[], T], deliver: Callable[[T], None]) -> None:
        """Run ``work`` on a thread of its own, beside the questions (never called off by them), and hand
        its answer to ``deliver`` on the main loop: the answer's arrival wakes the loop, which draws what
        it changed at once (the computer's game of a duel: its total to beat shows as soon as it is known,
        not at the next key). Inline, it runs at once."""
        if self._post is None:
            deliver(work())
            return
        post = self._post
        self._number += 1
        number = self._number
        self._beside[number] = deliver

        def run() -> None:
            try:
                post(Thought(number, work()))
            except Exception as error:  # handed to the main loop, which recovers from it
                post(Thought(number, None, error))

        threading.Thread(target=run, name="pyramid-beside", daemon=True).start()

    def cancel(self, wait: bool = False) -> None:
        """Call off the question asked, if any: its answer is never handed over. With ``wait``, return
        once the worker has stopped (before the caller asks the same solver itself)."""
        asked, self._asked, self._deliver = self._asked, None, None
        if asked is not None:
            asked.called_off.set()
        if wait:
            self._idle.wait()

    def take(self, thought: Thought) -> None:
        """On the main loop: hand ``thought`` to whoever asked, unless its question was called off since.
        The work's exception, if it raised one, is raised here (the session then recovers)."""
        beside = self._beside.pop(thought.number, None)
        asked, deliver = self._asked, self._deliver
        if beside is not None:
            deliver = beside
        elif asked is None or deliver is None or thought.number != asked.number:
            return
        else:
            self._asked, self._deliver = None, None
        if thought.failure is not None:
            raise thought.failure
        deliver(thought.answer)

    def _work(self) -> None:
        """The worker thread: answer each question not called off, post the answer, go idle when none is left."""
        post = self._post
        assert post is not None
        while True:
            question = self._questions.get()
            if not question.called_off.is_set():
                try:
                    answer, failure = question.work(question.called_off.is_set), None
                except Exception as error:  # handed to the main loop, which recovers from it
                    answer, failure = None, error
                if not question.called_off.is_set():
                    post(Thought(question.number, answer, failure))
            with self._lock:
                self._pending -= 1
                if not self._pending:
                    self._idle.set()
