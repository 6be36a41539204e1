"""``python -m pyramid.saved where|check DB``: where the console keeps its data, and whether it is sound.

For an owner on SSH (``where``) and for the tests and the power-cut checks
(``check``: SQLite's integrity check, exit 1 unless it says ok).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from pyramid.saved.database import DATABASE_NAME, data_directory, integrity_check


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pyramid.saved", description="Inspect the console's saved data.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="print SQLite's integrity check of a database; exit 1 unless ok")
    check.add_argument("path", type=Path)
    commands.add_parser("where", help="print the database path the console would use")
    arguments = parser.parse_args(argv)
    if arguments.command == "where":
        print(data_directory() / DATABASE_NAME)
        return 0
    report = integrity_check(arguments.path)
    print("\n".join(report))
    return 0 if report == ["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
