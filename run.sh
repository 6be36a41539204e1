#!/usr/bin/env bash
# Start the console: in a window on a desktop, else on the screen it finds (see README).
set -eu
. "$(dirname "$0")/scripts/venv.sh"
exec "$venv/bin/pyramid" "$@"
