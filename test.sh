#!/usr/bin/env bash
# Run the test suite (creates .venv on first use). Extra arguments go to pytest.
set -eu
. "$(dirname "$0")/scripts/venv.sh"
cd "$root"
exec "$venv/bin/python" -m pytest "$@"
