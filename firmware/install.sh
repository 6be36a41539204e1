#!/bin/sh
# Turn a fresh Raspberry Pi OS Lite (trixie or bookworm) into the Pyramid console.
#
#   sudo firmware/install.sh [--sealed]   (on the Pi, from a copy of this project)
#
# --sealed makes the system read-only from the next boot on (docs/appliance.md, "Sealed
# mode"): the root file system under a RAM overlay, logs in RAM, no swap, and the releases
# and the player's data on the partition labelled pyramid-data. "sealed = false" in
# /boot/firmware/pyramid.toml undoes it at the next boot.
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
#   PYRAMID_SKIP    steps to skip, space-separated: packages (apt-get), accounts (useradd),
#                   data-mount (--sealed: ROOT/data is the data partition's tree, not a mount)
#   PYRAMID_BUNDLE  a release bundle made by build-release.sh (default: build one here)
#   PYRAMID_SIGNERS the owner's SSH public key(s), e.g. ~/.ssh/id_ed25519.pub: from then on
#                   the device installs only releases signed with them (build-release.sh --sign)
#   PYRAMID_SELF_TEST_USER  whom the first release's self-test runs as (default: pyramid, the
#                   console's user, which the accounts step makes; never root)
set -eu

sealed=no
for argument in "$@"; do
    case "$argument" in
        --sealed) sealed=yes ;;
        -h|--help) sed -n '2,25s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown argument '$argument' (known: --sealed)" >&2; exit 2 ;;
    esac
done

firmware=$(cd "$(dirname "$0")" && pwd)
project=$(dirname "$firmware")
root=${PYRAMID_ROOT:-}
root=${root%/}
skip=" ${PYRAMID_SKIP:-} "
groups="video render input gpio audio"

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

# remove_option NAME FILE: the option NAME (alone or NAME=...) out of the one-line FILE.
remove_option() {
    set -f
    line=$(head -n 1 "$2")
    kept=
    for existing in $line; do
        case "$existing" in
            "$1" | "$1"=*) ;;
            *) kept="$kept $existing" ;;
        esac
    done
    set +f
    if [ "${kept# }" != "$line" ]; then
        echo "${kept# }" > "$2.new"
        mv -f "$2.new" "$2"
        say "updated $2"
    fi
}

# move_to_data DIRECTORY NAME: the contents of ROOT/DIRECTORY onto the data partition as NAME,
# once (copied, synced, renamed into place, then removed from the root file system, where
# DIRECTORY stays as the mount point fstab binds NAME onto).
move_to_data() {
    if [ ! -d "$data/$2" ]; then
        mkdir -p "$root/$1"
        rm -rf "$data/$2.new"
        cp -a "$root/$1/." "$data/$2.new"
        sync
        mv "$data/$2.new" "$data/$2"
        sync
        find "$root/$1" -mindepth 1 -delete
        say "moved /$1 to the data partition ($data/$2)"
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
    # which set_mode fails with "EGL not initialized". rsync: updates over SSH. polkitd:
    # lets systemd-logind power off for the console's user (the rule below). gcc, libc6-dev:
    # the solver's compiled core, when the first release is built here. nftables: the table
    # server's port rule (pyramid-table-server.service).
    lgpio=
    if apt-cache show python3-lgpio > /dev/null 2>&1; then lgpio=python3-lgpio; fi
    apt-get install -y -qq --no-install-recommends \
        python3 python3-venv python3-evdev python3-gpiozero $lgpio \
        libgbm1 libegl1 libgles2 libgl1-mesa-dri libdrm2 rsync polkitd gcc libc6-dev nftables
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
    "$tool" --root "${root:-/}" --self-test-user "${PYRAMID_SELF_TEST_USER:-pyramid}" --no-restart install "$bundle"
fi

# After the first release (built here, unsigned): from now on only the owner's signed bundles.
if [ -n "${PYRAMID_SIGNERS:-}" ]; then
    # Public keys only, one per line: "TYPE BASE64 [comment]". A private key given by mistake
    # (~/.ssh/id_ed25519 for ~/.ssh/id_ed25519.pub) would be written world-readable, and no
    # bundle would ever verify: refused with the first line that is not a public key.
    if ! bad=$(awk '/^[[:space:]]*(#|$)/ { next }
            $1 !~ /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com)$/ ||
            $2 !~ /^AAAA[A-Za-z0-9+\/]+=*$/ { print NR; exit 1 }' "$PYRAMID_SIGNERS"); then
        echo "install.sh: $PYRAMID_SIGNERS must hold SSH public keys only (such as ~/.ssh/id_ed25519.pub); line ${bad:-1} is not one" >&2
        exit 2
    fi
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

for unit in pyramid.service pyramid-rollback.service pyramid-ready.service pyramid-table-server.service \
        pyramid-table-server.timer; do
    put "$project/systemd/$unit" "$root/etc/systemd/system/$unit" 644
done
put "$project/docs/appliance.md" "$root/usr/share/doc/pyramid/appliance.md" 644
# The main menu's "Power off": logind may power off for the user pyramid, for nothing else.
put "$firmware/etc/polkit-1/rules.d/50-pyramid-power-off.rules" \
    "$root/etc/polkit-1/rules.d/50-pyramid-power-off.rules" 644
# The TV's HDMI-CEC bus: the kernel's CEC core loaded before the console, so its unit may open an adapter.
put "$firmware/etc/modules-load.d/pyramid-cec.conf" "$root/etc/modules-load.d/pyramid-cec.conf" 644
if [ -z "$root" ]; then
    systemctl daemon-reload
fi
if [ ! -L "$root/etc/systemd/system/multi-user.target.wants/pyramid.service" ]; then
    systemctl ${root:+--root="$root"} enable pyramid.service
fi
# The table server's allowance (docs/network.md): does nothing while no server is set.
if [ ! -L "$root/etc/systemd/system/multi-user.target.wants/pyramid-table-server.service" ]; then
    systemctl ${root:+--root="$root"} enable pyramid-table-server.service
fi
if [ ! -L "$root/etc/systemd/system/timers.target.wants/pyramid-table-server.timer" ]; then
    systemctl ${root:+--root="$root"} enable pyramid-table-server.timer
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
    say "no $boot/config.txt and cmdline.txt: not Raspberry Pi OS (trixie or bookworm)? Boot configuration skipped"
fi

if [ "$sealed" = yes ]; then
    if [ ! -f "$boot/cmdline.txt" ]; then
        echo "install.sh: --sealed needs $boot/cmdline.txt (Raspberry Pi OS) to start the sealed system" >&2
        exit 2
    fi
    data="$root/data"
    if ! skipping data-mount && ! mountpoint -q "$data"; then
        device=$(blkid -L pyramid-data || true)
        if [ -z "$device" ]; then
            echo "install.sh: --sealed needs a partition labelled pyramid-data for the releases and the" \
                "player's data, and there is none (docs/appliance.md, \"Sealed mode\", says how to make one)" >&2
            exit 2
        fi
        mkdir -p "$data"
        mount "$device" "$data"
    fi
    mkdir -p "$data"
    move_to_data opt/pyramid opt
    move_to_data var/lib/pyramid state
    touch "$root/etc/fstab"
    replace_block "$firmware/etc/fstab" "$root/etc/fstab"
    put "$firmware/etc/systemd/journald.conf.d/pyramid-sealed.conf" \
        "$root/etc/systemd/journald.conf.d/pyramid-sealed.conf" 644
    put "$firmware/usr/lib/pyramid/sealed-init" "$root/usr/lib/pyramid/sealed-init" 755
    # No swap on the card (Raspberry Pi OS's swap file; a swap file cannot live on the overlay).
    for swap in dphys-swapfile.service; do
        if [ -e "$root/usr/lib/systemd/system/$swap" ] || [ -e "$root/lib/systemd/system/$swap" ]; then
            if [ ! -L "$root/etc/systemd/system/$swap" ]; then
                systemctl ${root:+--root="$root"} mask "$swap"
            fi
        fi
    done
    add_options "$firmware/boot/firmware/cmdline-sealed.txt" "$boot/cmdline.txt"
    remove_option rw "$boot/cmdline.txt"
    say "sealed: from the next boot the system is read-only (sealed = false in $boot/pyramid.toml undoes it)"
fi

say "done: reboot to start the console (sudo reboot)"
