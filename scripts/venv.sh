# Sourced by run.sh and test.sh: make sure .venv exists with the project installed in it (editable),
# the solver's compiled core with it: the package's build compiles it (setup.py), beside core/.
# Re-running is cheap: pip is only called when a file of the build or of the core changed since.
set -eu
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$root/.venv"
extras="${PYRAMID_EXTRAS:-test}"

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    echo "python3-venv is missing; installing it with apt-get" >&2
    as_root apt-get update -qq && as_root apt-get install -y -qq python3-venv
fi
# Without a C compiler the package builds without its core and the pure-Python solver runs.
if ! command -v cc >/dev/null 2>&1; then
    echo "no C compiler for the solver core; installing gcc with apt-get" >&2
    { as_root apt-get update -qq && as_root apt-get install -y -qq gcc libc6-dev; } || true
fi
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
stamp="$venv/.installed-$extras"
solver="$root/pyramid/engine/solver"
if [ ! -f "$stamp" ] || [ -n "$(find "$root/pyproject.toml" "$root/setup.py" "$solver/build_core.py" "$solver/core" \
        -newer "$stamp" -print 2>/dev/null | head -n 1)" ]; then
    "$venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$venv/bin/python" -m pip install -q -e "$root[$extras]"
    touch "$stamp"
    if [ ! -f "$solver/_core-$(uname -m).so" ]; then
        echo "solver core: not built, the pure-Python solver runs (pip install -v -e . says why)" >&2
    fi
fi
