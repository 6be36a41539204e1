"""The compiled search core (``core/``), loaded with ctypes: the solver's searches in C.

Why ctypes: it needs nothing but a C compiler at build time and the standard library at run
time, and it releases the GIL for the whole call, so a hint searched on the console's worker
thread leaves the main loop free to draw (docs/architecture.md, "The compiled solver core",
says what else was measured). The package's build (setup.py, with ``build_core.py``: ``pip install``,
``./run.sh``, ``./test.sh``, the release bundle) puts the library next to this file; :func:`load` finds
it, checks that it was built from the ``core/`` beside it, and otherwise says in one log line why the
pure-Python solver runs.

The pure-Python searches stay the reference: tests/test_solver_core.py holds the two equal.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import platform
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Literal, NamedTuple

from pyramid.engine.solver.build_core import source_digest
from pyramid.engine.solver.position import DRAW, PYRAMID_BITS, Position, REDEAL

log = logging.getLogger(__name__)

#: What the core may keep about one deal, in bytes: a question that needs more is answered
#: "unknown" and the core starts again empty (the pure-Python solver keeps ``KEPT_ENTRIES``). The
#: verdicts of the first 300 reference deals took at most 58 MiB (King Tut, unlimited redeals,
#: deal 177; every other row under 34 MiB), and a Pi Zero 2 has 512 MB for everything.
BYTE_BOUND = 128 * 1024 * 1024
#: The core's results (``enum`` in core/core.h).
WIN, LOSE, OVER, FULL, BAD = 1, 0, -1, -2, -3
#: A removal token's second card when there is none (``NO_CARD`` in core/core.h).
NO_CARD = 255
MAX_CARDS = 32
MAX_RANK = 15

#: Which search answers: the compiled core (``core/``) or the pure-Python reference. ``None``
#: asks for the compiled core when it loads (see :func:`load`), else the Python one.
Core = Literal["compiled", "python"]
#: The "called off?" callback the core asks (``cancelled_fn`` in core/core.h); ``Cancelled(0)`` is none.
Cancelled = ctypes.CFUNCTYPE(ctypes.c_int)


class CoreUnavailable(Exception):
    """The compiled core cannot be used here; the message says why (and what to do)."""


class DealRecord(ctypes.Structure):
    """``deal_t`` in core/core.h."""

    _fields_ = [
        ("target", ctypes.c_int32),
        ("draw_count", ctypes.c_int32),
        ("stock_top_playable", ctypes.c_int32),
        ("waste_playable", ctypes.c_int32),
        ("overlap", ctypes.c_int32),
        ("goal_all", ctypes.c_int32),
        ("m", ctypes.c_int32),
        ("rank", ctypes.c_uint8 * PYRAMID_BITS),
        ("rank_mask", ctypes.c_uint64 * (MAX_RANK + 1)),
        ("stock_rank", ctypes.c_uint8 * MAX_CARDS),
        ("stock_rank_mask", ctypes.c_uint64 * (MAX_RANK + 1)),
        ("pyramid_partners", ctypes.c_uint64 * PYRAMID_BITS),
        ("covering", ctypes.c_uint64 * PYRAMID_BITS),
        ("start_live", ctypes.c_uint64),
    ]


class ScoringRecord(ctypes.Structure):
    """``best_scoring_t`` in core/core.h: how the game scores, for the best-score search."""

    _fields_ = [
        ("kind", ctypes.c_int32),
        ("rows", ctypes.c_int32),
        ("row_mask", ctypes.c_uint64 * 8),
        ("row_bonus", ctypes.c_int32 * 8),
        ("card_points", ctypes.c_int32 * PYRAMID_BITS),
        ("start_pm", ctypes.c_uint64),
        ("start_live", ctypes.c_uint64),
        ("floor", ctypes.c_int32),
    ]


#: ``kind`` of :class:`ScoringRecord` by the rules' ``scoring`` (``SCORING_*`` in core/core.h).
SCORING_KINDS = {"msc": 0, "retrohub": 1, "cards_left": 2}


def library_name() -> str:
    """The file name of the core built for this machine (the release bundle carries one per machine)."""
    return f"_core-{platform.machine()}.so"


class CoreAnswer(NamedTuple):
    """One verdict from the core: the result (:data:`WIN` …), its line as tokens, the nodes searched."""

    result: int
    tokens: list[int | tuple[int, ...]]
    nodes: int


def _bind(library: ctypes.CDLL) -> ctypes.CDLL:
    library.core_new.restype = ctypes.c_void_p
    library.core_new.argtypes = [ctypes.POINTER(DealRecord), ctypes.c_int64]
    library.core_free.restype = None
    library.core_free.argtypes = [ctypes.c_void_p]
    library.core_bytes.restype = ctypes.c_int64
    library.core_bytes.argtypes = [ctypes.c_void_p]
    library.core_verdict.restype = ctypes.c_int
    library.core_verdict.argtypes = [
        ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_int32, ctypes.c_int32,
        ctypes.c_int64, ctypes.c_int32, ctypes.c_int64, ctypes.c_double, Cancelled, ctypes.POINTER(ctypes.c_int64),
    ]
    library.core_shortest.restype = ctypes.c_int
    library.core_shortest.argtypes = [
        ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_int32, ctypes.c_int32,
        ctypes.c_int64, ctypes.c_double, Cancelled, ctypes.POINTER(ctypes.c_int64),
    ]
    library.core_best_score.restype = ctypes.c_int
    library.core_best_score.argtypes = [
        ctypes.c_void_p, ctypes.POINTER(ScoringRecord), ctypes.c_uint64, ctypes.c_uint64, ctypes.c_int32,
        ctypes.c_int32, ctypes.c_int64, ctypes.c_double, Cancelled, ctypes.POINTER(ctypes.c_int64),
        ctypes.POINTER(ctypes.c_int64),
    ]
    library.core_line.restype = ctypes.c_int64
    library.core_line.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int32), ctypes.c_int64]
    library.core_source.restype = ctypes.c_char_p
    library.core_source.argtypes = []
    return library


def open_library(path: Path) -> ctypes.CDLL:
    """The core at ``path``, checked against the ``core/`` beside this module; raises
    :class:`CoreUnavailable` saying why it cannot be used."""
    if not path.exists():
        raise CoreUnavailable(f"{path} is not built (the package's build makes it where there is a C compiler: "
                              "apt-get install gcc, then ./run.sh, ./test.sh or pip install again)")
    try:
        library = _bind(ctypes.CDLL(str(path)))
    except (OSError, AttributeError) as error:
        raise CoreUnavailable(f"{path} does not load: {error}") from error
    sources = resources.files(__package__).joinpath("core")
    files = {entry.name: entry.read_bytes() for entry in sources.iterdir() if entry.name.endswith((".c", ".h"))}
    built = library.core_source().decode("ascii", "replace")
    if built != source_digest(files):
        raise CoreUnavailable(f"{path} was built from another core/ (./test.sh, ./run.sh or pip install "
                              "builds it again)")
    return library


def library_path() -> Path:
    """Where the core built for this machine is (beside core/)."""
    return Path(str(resources.files(__package__).joinpath(library_name())))


@functools.cache
def load() -> ctypes.CDLL | None:
    """The compiled core built for this machine, or ``None`` (said once in the log, with why)."""
    path = library_path()
    try:
        library = open_library(path)
    except CoreUnavailable as why:
        log.warning("solver core: pure Python, ten times slower (%s)", why)
        return None
    log.info("solver core: compiled (%s)", path.name)
    return library


def compiled_library(core: Core | None) -> ctypes.CDLL | None:
    """The library to search with when ``core`` is asked for: ``None`` for the Python search (asked,
    or the default where the core does not load); :class:`CoreUnavailable` when ``"compiled"`` is
    asked where it does not load."""
    if core == "python":
        return None
    library = load()
    if library is None and core == "compiled":
        raise CoreUnavailable("the compiled solver core does not load here (the log says why)")
    return library


def core_name() -> str:
    """Which core answers by default: ``"compiled"`` or ``"python"`` (for the System page and ``--version``)."""
    return "compiled" if load() is not None else "python"


class CompiledCore:
    """The compiled core's tables for one deal (compiled as ``pos``), kept from one question to the next.

    Like :class:`~pyramid.engine.solver.memory.Memory`, what it proved holds for every position
    play reaches from ``pos``'s (see :meth:`Position.aim`). Freed with the object.
    """

    def __init__(self, pos: Position, library: ctypes.CDLL, byte_bound: int = BYTE_BOUND) -> None:
        self.pos = pos
        self._library = library
        handle = library.core_new(ctypes.byref(_deal_of(pos)), byte_bound)
        if not handle:
            raise CoreUnavailable("the core cannot hold this deal")
        self._handle: int = handle
        self._full = False

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle:
            self._library.core_free(handle)
            self._handle = 0

    def full(self) -> bool:
        """Did the last question go past the byte bound? (Then start again with a new core.)"""
        return self._full

    def bytes(self) -> int:
        """What the core's tables hold now, in bytes."""
        return int(self._library.core_bytes(self._handle))

    def verdict(self, pm: int, live: int, q: int, r: int, max_nodes: int | None, max_seconds: float | None,
                cancelled: Callable[[], bool] | None, probe_nodes: int | None = None,
                pairs_first: bool = False) -> CoreAnswer:
        """The verdict from a position (the core's own GIL-free search), and its line when won.

        With ``probe_nodes``, the plain search has that many nodes first, then the search goes
        on with the last pass by excursions (one-card draws; see ``verdict.run_verdict``).
        ``pairs_first``: as ``VerdictSearch.pairs_first``.
        """
        nodes = ctypes.c_int64(0)
        asked = Cancelled(lambda: 1 if cancelled is not None and cancelled() else 0)
        result = self._library.core_verdict(
            self._handle, pm, live, q, r, -1 if probe_nodes is None else probe_nodes, int(pairs_first),
            -1 if max_nodes is None else max_nodes, -1.0 if max_seconds is None else max_seconds,
            asked if cancelled is not None else Cancelled(0), ctypes.byref(nodes))
        return self._answer(result, nodes.value, (pm, live, q, r))

    def shortest(self, pm: int, live: int, q: int, r: int, max_nodes: int | None, max_seconds: float | None,
                 cancelled: Callable[[], bool] | None) -> CoreAnswer:
        """A shortest line from a position :meth:`verdict` has just won (A*, ``shortest.py``)."""
        nodes = ctypes.c_int64(0)
        asked = Cancelled(lambda: 1 if cancelled is not None and cancelled() else 0)
        result = self._library.core_shortest(
            self._handle, pm, live, q, r, -1 if max_nodes is None else max_nodes,
            -1.0 if max_seconds is None else max_seconds, asked if cancelled is not None else Cancelled(0),
            ctypes.byref(nodes))
        return self._answer(result, nodes.value, (pm, live, q, r))

    def best_score(self, scoring: ScoringRecord, pm: int, live: int, q: int, r: int, max_nodes: int | None,
                   max_seconds: float | None, cancelled: Callable[[], bool] | None) -> tuple[CoreAnswer, int]:
        """The best gain reachable from a position under ``scoring``, and a shortest line to it
        (``best_score.py``): the answer (:data:`WIN` with the line) and the gain."""
        nodes, gain = ctypes.c_int64(0), ctypes.c_int64(0)
        asked = Cancelled(lambda: 1 if cancelled is not None and cancelled() else 0)
        result = self._library.core_best_score(
            self._handle, ctypes.byref(scoring), pm, live, q, r, -1 if max_nodes is None else max_nodes,
            -1.0 if max_seconds is None else max_seconds, asked if cancelled is not None else Cancelled(0),
            ctypes.byref(gain), ctypes.byref(nodes))
        return self._answer(result, nodes.value, (pm, live, q, r)), int(gain.value)

    def _answer(self, result: int, nodes: int, position: tuple[int, int, int, int]) -> CoreAnswer:
        self._full = result == FULL
        if result == BAD:
            raise ValueError(f"the compiled core cannot hold the position {position!r}")
        tokens: list[int | tuple[int, ...]] = []
        if result == WIN:
            length = self._library.core_line(self._handle, None, 0)
            raw = (ctypes.c_int32 * length)()
            self._library.core_line(self._handle, raw, length)
            tokens = [_token(value) for value in raw]
        return CoreAnswer(result, tokens, nodes)


def _token(value: int) -> int | tuple[int, ...]:
    """A path token of :mod:`position` from the core's (see ``core_line`` in core/entry.c)."""
    if value in (DRAW, REDEAL):
        return value
    first, second = value >> 8, value & 0xFF
    return (first,) if second == NO_CARD else (first, second)


def _deal_of(pos: Position) -> DealRecord:
    """``deal_t`` for ``pos``."""
    deal = DealRecord()
    deal.target, deal.draw_count, deal.m = pos.target, pos.draw_count, pos.m
    deal.stock_top_playable, deal.waste_playable = int(pos.stock_top_playable), int(pos.waste_playable)
    deal.overlap, deal.goal_all = int(pos.overlap), int(pos.goal_all)
    all_bits = (1 << 64) - 1
    deal.rank[:PYRAMID_BITS] = pos.rank
    deal.pyramid_partners[:PYRAMID_BITS] = [partners & all_bits for partners in pos.pyramid_partners]
    deal.covering[:PYRAMID_BITS] = pos.covering
    deal.rank_mask[:pos.target + 1] = pos.rank_mask
    deal.stock_rank_mask[:pos.target + 1] = pos.stock_rank_mask
    deal.stock_rank[:pos.m] = pos.stock_rank
    deal.start_live = pos.start_live
    return deal
