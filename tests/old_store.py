"""A data store as an older console left it: the schema of an earlier version, for migration tests."""

import sqlite3
from contextlib import closing
from pathlib import Path

from pyramid.saved.database import migrate


def database_at(path: Path, version: int) -> sqlite3.Connection:
    """A new database at ``path`` with the first ``version`` migrations applied (as a console of that
    schema made it), open for the test to put its rows in; the test closes it."""
    connection = sqlite3.connect(path, isolation_level=None)
    with closing(connection.cursor()):
        migrate(connection, version)
    return connection
