#!/bin/sh
# Turn a fresh Raspberry Pi OS Lite (Bookworm) into the Pyramid console.
#
#   sudo firmware/install.sh        (on the Pi, from a copy of this project)
#
# Installs the packages, the `pyramid` user, the first release in
# /opt/pyramid/releases/<version> with an atomic `current` link (later releases come with
# update.sh), the systemd units (the console replaces the login prompt
# on tty1), the boot configuration and the settings file /boot/firmware/pyramid.toml.
# Re-running it is harmless: every step checks what is there first, and the owner's
# settings file is never overwritten. Reboot afterwards to start the console.
#
# Environment (the tests install into a directory with these):
#   PYRAMID_ROOT    install under this directory instead of /
#   PYRAMID_SKIP    steps to skip, space-separated: packages (apt-get), accounts (useradd)
#   PYRAMID_BUNDLE  a release bundle made by build-release.sh (default: build one here)
#   PYRAMID_SIGNERS the owner's SSH public key(s), e.g. ~/.ssh/id_ed25519.pub: from then on
#                   the device installs only releases signed with them (build-release.sh --sign)
set -eu

firmware=$(cd "$(dirname "$0")" && pwd)
project=$(dirname "$firmware")
root=${PYRAMID_ROOT:-}
root=${root%/}
skip=" ${PYRAMID_SKIP:-} "
groups="video render input gpio"

say() { echo "install.sh: $*"; }
skipping() { case "$skip" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# put SOURCE DESTINATION MODE: copy only when the content or mode differs.
put() {
    if ! cmp -s "$1" "$2" || [ "$(stat -c %a "$2")" != "$3" ]; then
        mkdir -p "$(dirname "$2")"
        install -m "$3" "$1" "$2.new"
        mv -f "$2.new" "$2"
        say "installed $2"
    fi
}

# replace_block FRAGMENT FILE: the fragment between marker lines at the end of FILE,
# replacing the block a previous run wrote.
replace_block() {
    begin="# >>> pyramid console (firmware/install.sh) >>>"
    end="# <<< pyramid console <<<"
    awk -v begin="$begin" -v end="$end" '
        $0 == begin { inside = 1; next }
        $0 == end { inside = 0; next }
        !inside { print }' "$2" > "$2.new"
    { echo "$begin"; cat "$1"; echo "$end"; } >> "$2.new"
    if cmp -s "$2.new" "$2"; then rm -f "$2.new"; else mv -f "$2.new" "$2"; say "updated $2"; fi
}

# add_options FRAGMENT FILE: each option of FRAGMENT into the one-line FILE; an option
# named NAME=... replaces an existing NAME=..., others are added once.
add_options() {
    set -f  # no file-name expansion of the options
    line=$(head -n 1 "$2")
    # shellcheck disable=SC2013  # options are words, not lines
    for option in $(cat "$1"); do
        name=${option%%=*}
        kept=
        placed=no
        for existing in $line; do
            case "$existing" in
                "$name" | "$name"=*)
                    if [ "$placed" = no ]; then kept="$kept $option"; placed=yes; fi ;;
                *) kept="$kept $existing" ;;
            esac
        done
        [ "$placed" = yes ] || kept="$kept $option"
        line=${kept# }
    done
    set +f
    if [ "$line" != "$(head -n 1 "$2")" ]; then
        echo "$line" > "$2.new"
        mv -f "$2.new" "$2"
        say "updated $2"
    fi
}

if ! skipping packages; then
    say "installing packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # python3-venv: the release venvs. python3-evdev, -gpiozero, -lgpio: built for the Pi
    # and shared into the venvs (python3-lgpio is in Raspberry Pi OS's archive only; on
    # plain Debian, as in the emulator test, gpiozero falls back to its other pin
    # libraries). libgbm1, libegl1, libgles2: SDL's KMS/DRM video driver;
    # libgl1-mesa-dri: its GPU drivers (vc4, v3d; kms_swrast without a GPU), without
    # which set_mode fails with "EGL not initialized". rsync: updates over SSH.
    lgpio=
    if apt-cache show python3-lgpio > /dev/null 2>&1; then lgpio=python3-lgpio; fi
    apt-get install -y -qq --no-install-recommends \
        python3 python3-venv python3-evdev python3-gpiozero $lgpio \
        libgbm1 libegl1 libgles2 libgl1-mesa-dri libdrm2 rsync
fi

if ! skipping accounts; then
    for group in $groups; do
        getent group "$group" > /dev/null || groupadd --system "$group"
    done
    if id pyramid > /dev/null 2>&1; then
        usermod --append --groups "$(echo "$groups" | tr ' ' ,)" pyramid
    else
        useradd --system --user-group --home-dir /var/lib/pyramid --no-create-home \
            --shell /usr/sbin/nologin --groups "$(echo "$groups" | tr ' ' ,)" pyramid
        say "created the user pyramid"
    fi
fi

tool="$root/opt/pyramid/bin/pyramid-release"
put "$firmware/opt/pyramid/bin/pyramid-release" "$tool" 755

# The first release only: later ones come with update.sh, and re-running this script from
# an older copy of the project must not take the console back to that version.
current=$(readlink "$root/opt/pyramid/current" || true)
if [ -n "$current" ]; then
    say "${current#releases/} is the current release; update it with firmware/update.sh"
else
    bundle=${PYRAMID_BUNDLE:-}
    if [ -z "$bundle" ]; then
        # Build on the Pi itself: a throwaway venv supplies pip, PyPI the wheels.
        build=$(mktemp -d)
        trap 'rm -rf "$build"' EXIT
        python3 -m venv "$build/venv"
        platform=$(python3 -c 'import sysconfig; print(sysconfig.get_platform().split("-")[-1])')
        python_version=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
        # build-release.sh prints only the bundle's path on stdout; no pipe, so a failed build stops here.
        bundle=$(PYTHON="$build/venv/bin/python" "$firmware/build-release.sh" \
            --arch "$platform" --python-version "$python_version" "$build") ||
            { echo "install.sh: building the release failed (see above)" >&2; exit 1; }
    fi
    # Started at the next boot; restarting it here could take tty1 from the person installing.
    "$tool" --root "${root:-/}" --no-restart install "$bundle"
fi

# After the first release (built here, unsigned): from now on only the owner's signed bundles.
if [ -n "${PYRAMID_SIGNERS:-}" ]; then
    signers=$(mktemp)
    # allowed_signers lines: principal, the namespace the signature must carry, the key.
    awk '/^[[:space:]]*(#|$)/ { next }
         { print "pyramid-release namespaces=\"pyramid-release\" " $1 " " $2 }' "$PYRAMID_SIGNERS" > "$signers"
    if [ ! -s "$signers" ]; then
        rm -f "$signers"
        echo "install.sh: $PYRAMID_SIGNERS holds no public key" >&2
        exit 2
    fi
    put "$signers" "$root/etc/pyramid/allowed_signers" 644
    rm -f "$signers"
fi

for unit in pyramid.service pyramid-rollback.service; do
    put "$project/systemd/$unit" "$root/etc/systemd/system/$unit" 644
done
put "$project/docs/appliance.md" "$root/usr/share/doc/pyramid/appliance.md" 644
if [ -z "$root" ]; then
    systemctl daemon-reload
fi
if [ ! -L "$root/etc/systemd/system/multi-user.target.wants/pyramid.service" ]; then
    systemctl ${root:+--root="$root"} enable pyramid.service
fi
if [ -L "$root/etc/systemd/system/getty.target.wants/getty@tty1.service" ]; then
    systemctl ${root:+--root="$root"} disable getty@tty1.service
fi

boot="$root/boot/firmware"
if [ -f "$boot/config.txt" ] && [ -f "$boot/cmdline.txt" ]; then
    replace_block "$firmware/boot/firmware/config.txt" "$boot/config.txt"
    add_options "$firmware/boot/firmware/cmdline.txt" "$boot/cmdline.txt"
    # The owner's settings are theirs: only a missing file is created. (Plain cp: the
    # boot partition is FAT, where modes cannot be set.)
    if [ ! -e "$boot/pyramid.toml" ]; then
        cp "$firmware/boot/firmware/pyramid.toml" "$boot/pyramid.toml"
        say "installed $boot/pyramid.toml"
    fi
else
    say "no $boot/config.txt and cmdline.txt: not Raspberry Pi OS Bookworm? Boot configuration skipped"
fi

say "done: reboot to start the console (sudo reboot)"
