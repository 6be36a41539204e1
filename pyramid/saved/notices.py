"""What the player is told about their saved data, as facts, not sentences.

The store finds out things the player must hear (a damaged file put aside, a
saved game this version cannot resume, a save that failed) but does not word
them: a :class:`StoreNotice` names the fact (a catalogue key under ``store.``)
and its details, and the console says it in the player's language
(:func:`pyramid.console.wording.describe_notice`). Details such as an SQLite
error stay as the library wrote them: they are for whoever reads the journal.
"""

# Annotations are evaluated, not postponed: cheaper named tuples at start-up (see pyramid.view).

from types import MappingProxyType
from typing import Mapping, NamedTuple, Union

#: A detail of a notice: a file name, a reason, a count.
Detail = Union[str, int]


class StoreNotice(NamedTuple):
    """One thing to tell the player: ``key`` (``"store.damaged"``) and the ``details`` its words need."""

    key: str
    details: Mapping[str, Detail] = MappingProxyType({})

    @classmethod
    def of(cls, key: str, **details: Detail) -> "StoreNotice":
        return cls(f"store.{key}", MappingProxyType(details))
