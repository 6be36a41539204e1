#!/bin/sh
# Build a release bundle for the console: the project's wheel (with the solver's compiled
# core built for the device) plus the binary wheels of its dependencies for the device's
# platform, a VERSION file and SHA256SUMS.
#
#   firmware/build-release.sh [--arch aarch64|armv7l] [--python-version 3.11] [--sign KEY] [OUTDIR]
#
# Prints the bundle's path (OUTDIR/pyramid-<version>, OUTDIR defaults to dist/) on its
# last line. --sign KEY (or $PYRAMID_SIGNING_KEY) signs SHA256SUMS with that SSH private
# key into SHA256SUMS.sig, for devices that accept only the owner's releases. Needs pip
# and access to PyPI on the computer that builds. The `pi` extras (gpiozero, lgpio,
# evdev) are not bundled: the device gets them from Debian (install.sh): evdev publishes
# no wheels (it compiles against the kernel headers), and Debian's builds of all three
# match the Pi's system. The solver core is compiled by the wheel's build (setup.py) with
# $CC, else cc for this machine's own architecture, else Debian's cross compiler
# (apt-get install gcc-aarch64-linux-gnu); the wheel is tagged for the device's machine.
set -eu

arch=aarch64
python_version=3.11
out=
signing_key=${PYRAMID_SIGNING_KEY:-}
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) arch=$2; shift 2 ;;
        --python-version) python_version=$2; shift 2 ;;
        --sign) signing_key=$2; shift 2 ;;
        -h|--help) sed -n '2,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
        -*) echo "build-release.sh: unknown option $1" >&2; exit 2 ;;
        *) out=$1; shift ;;
    esac
done

project=$(cd "$(dirname "$0")/.." && pwd)
out=${out:-$project/dist}
python=${PYTHON:-python3}
abi="cp$(echo "$python_version" | tr -d .)"

version=$("$python" -c 'import sys, tomllib
print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' "$project/pyproject.toml")
dependencies=$("$python" -c 'import sys, tomllib
print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["project"].get("dependencies", [])))' "$project/pyproject.toml")

bundle="$out/pyramid-$version"
rm -rf "$bundle"
mkdir -p "$bundle/wheels"

echo "Building pyramid-console $version for linux-$arch, Python $python_version" >&2
# The solver's compiled core, for the device: a release without it would leave the Pi with the
# ten times slower Python solver, so a missing compiler stops the build.
case "$arch" in
    "$(uname -m)") cc=${CC:-cc}; package=gcc ;;
    aarch64) cc=${CC:-aarch64-linux-gnu-gcc}; package=gcc-aarch64-linux-gnu ;;
    armv7l) cc=${CC:-arm-linux-gnueabihf-gcc}; package=gcc-arm-linux-gnueabihf ;;
    *) cc=${CC:-$arch-linux-gnu-gcc}; package="gcc-$arch-linux-gnu" ;;
esac
if ! command -v "$cc" > /dev/null 2>&1; then
    echo "build-release.sh: no C compiler for $arch ($cc): apt-get install $package (or set CC)" >&2
    exit 1
fi
# The package's own build compiles the core into the wheel (setup.py), as for any pip install;
# PYRAMID_CORE_REQUIRED makes a failed compile stop the build instead of leaving the core out.
CC="$cc" PYRAMID_CORE_MACHINE="$arch" PYRAMID_CORE_REQUIRED=1 \
    "$python" -m pip wheel --quiet --no-deps --wheel-dir "$bundle/wheels" "$project" >&2
if [ -n "$dependencies" ]; then
    # Word splitting is wanted: one requirement per line, none contains spaces after pip's parsing.
    echo "$dependencies" | tr -d ' ' | xargs "$python" -m pip download --quiet --dest "$bundle/wheels" \
        --only-binary=:all: --implementation cp --python-version "$python_version" --abi "$abi" \
        --platform "manylinux_2_17_$arch" --platform "manylinux2014_$arch" \
        --platform "manylinux_2_28_$arch" --platform "manylinux_2_31_$arch" >&2
fi
echo "$version" > "$bundle/VERSION"
"$python" - "$bundle" <<'EOF'
import hashlib, pathlib, sys
bundle = pathlib.Path(sys.argv[1])
lines = [f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.relative_to(bundle)}"
         for path in sorted(bundle.rglob("*")) if path.is_file() and path.name != "SHA256SUMS"]
(bundle / "SHA256SUMS").write_text("\n".join(lines) + "\n")
EOF
if [ -n "$signing_key" ]; then
    # The device checks it with: ssh-keygen -Y verify -I pyramid-release -n pyramid-release.
    ssh-keygen -q -Y sign -f "$signing_key" -n pyramid-release "$bundle/SHA256SUMS" >&2
    echo "Signed SHA256SUMS with $signing_key" >&2
fi
echo "$bundle"
