"""What the store told, in English: the saved layer gives facts (StoreNotice), the console words them."""

from __future__ import annotations

from collections.abc import Sequence

from pyramid.console.wording import describe_notice, describe_notices
from pyramid.saved.notices import StoreNotice


def told(notices: Sequence[StoreNotice] | StoreNotice | None) -> str:
    """The notices as the player reads them in English ("" for none)."""
    if notices is None:
        return ""
    if isinstance(notices, StoreNotice):
        return describe_notice(notices)
    return describe_notices(notices)
