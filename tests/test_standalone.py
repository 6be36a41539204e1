"""The repository stands alone (issue 44): a bare clone tests what CI tests.

The reference data the tests and benchmarks read is in ``tests/data/``; what lies beside the
checkout (``../shared``) is read only to run the peer programs themselves, by tests marked ``peer``
and by the benchmarks' side-by-side runs. ``.ci/run`` runs the suite in a clone with nothing beside
it; this keeps a new reader of ``../shared`` from turning into a skip there.
"""

from __future__ import annotations

import re
from pathlib import Path

from reference import BEST_SCORES, reference_deals

ROOT = Path(__file__).resolve().parents[1]
#: A path into ../shared: its name as a path part, then what follows it.
BESIDE = re.compile(r"""["']shared["']\s*/\s*(["'][^"']*["'])|\.\./shared/(\w+)""")


def readers_beside() -> dict[str, set[str]]:
    """Each test or benchmark file that names a folder of ../shared → the folders it names."""
    found: dict[str, set[str]] = {}
    for path in sorted([*ROOT.glob("tests/**/*.py"), *ROOT.glob("benchmarks/*.py")]):
        for match in BESIDE.finditer(path.read_text(encoding="utf-8")):
            folder = (match.group(1) or match.group(2)).strip("\"'")
            found.setdefault(str(path.relative_to(ROOT)), set()).add(folder)
    return found


def test_only_the_peer_programs_are_read_beside_the_checkout() -> None:
    readers = readers_beside()
    assert {name for name, folders in readers.items() if folders != {"peer"}} == set(), readers
    assert "tests/test_best_score_peer.py" in readers, "the pattern finds the peer test's own path"
    for name in readers:
        if name.startswith("tests/test_"):
            assert "pytest.mark.peer" in (ROOT / name).read_text(encoding="utf-8"), f"{name} is not marked peer"


def test_the_reference_data_is_whole() -> None:
    deals = reference_deals()
    assert len(deals) == 1500 and [deal.number for deal in deals] == list(range(1, 1501))
    assert sum(deal.winnable for deal in deals) == 998, "the publisher's count (README.md beside the data)"
    assert all(len(deal.deal.split()) == 52 == len(set(deal.deal.split())) for deal in deals)
    scored = [deal for deal in deals if deal.best_score is not None]
    assert [deal.number for deal in scored] == list(range(1, 41)), BEST_SCORES
    assert all(0 <= deal.best_score <= 1290 and deal.best_score % 5 == 0 for deal in scored
               if deal.best_score is not None)
    # The two solvers' figures agree: clearing the pyramid earns every row's bonus (1,150) and 5 points
    # for at least 14 removals; a pyramid left standing misses the top card's 500 of the 1,290.
    assert all((deal.best_score >= 1150 + 14 * 5) == deal.winnable for deal in scored if deal.best_score is not None)
    assert all(deal.best_score <= 1290 - 500 for deal in scored if deal.best_score is not None and not deal.winnable)
