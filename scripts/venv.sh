# Sourced by run.sh and test.sh: make sure .venv exists with the project installed.
# Re-running is cheap: pip is only called when pyproject.toml changed since the last install.
set -eu
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$root/.venv"
extras="${PYRAMID_EXTRAS:-test}"

if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    echo "python3-venv is missing; installing it with apt-get" >&2
    if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq python3-venv
    else sudo apt-get update -qq && sudo apt-get install -y -qq python3-venv; fi
fi
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
stamp="$venv/.installed-$extras"
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
    "$venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$venv/bin/python" -m pip install -q -e "$root[$extras]"
    touch "$stamp"
fi
# The compiled solver core (pyramid/engine/solver/core/): rebuilt when a file of it changed. Without
# a C compiler the pure-Python solver runs; the build says so in one line.
if ! command -v cc >/dev/null 2>&1; then
    echo "no C compiler for the solver core; installing gcc with apt-get" >&2
    if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq gcc libc6-dev || true
    else sudo apt-get update -qq && sudo apt-get install -y -qq gcc libc6-dev || true; fi
fi
"$venv/bin/python" "$root/pyramid/engine/solver/build_core.py"
