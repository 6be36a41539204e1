#!/usr/bin/env bash
# Run the test suite (creates .venv on first use). Extra arguments go to pytest (-n 0: one process).
set -eu
. "$(dirname "$0")/scripts/venv.sh"
cd "$root"
# Two workers a core: many tests wait on a child process or a socket, and the other worker uses the
# core meanwhile (issue 48, on two cores: 757 s in one process, 400 s with two workers, 335 s with four).
workers=$(( $(nproc) * 2 ))
exec "$venv/bin/python" -m pytest -n "$workers" "$@"
