#!/bin/sh
# Update the Pyramid console on HOST over SSH, from the owner's computer.
#
#   firmware/update.sh [--bundle DIR] HOST    build a release (or take DIR) and install it
#   firmware/update.sh --rollback HOST        go back to the previous release
#   firmware/update.sh --allow-downgrade VERSION --bundle DIR HOST
#                                             install DIR's VERSION although a newer release
#                                             was installed on HOST before (refused otherwise)
#
# HOST is anything ssh accepts (pi@pyramid.local, an alias from ~/.ssh/config).
# The device does the rest with /opt/pyramid/bin/pyramid-release: it installs the
# release next to the running one, self-tests it, switches `current` atomically,
# restarts the console and waits for READY=1; on any failure it switches back and
# restarts the old release. A copy that is interrupted leaves the console as it
# was and resumes on the next run.
#
# Environment:
#   PYRAMID_SSH            ssh command line (default: ssh), also used by rsync
#   PYRAMID_REMOTE_TOOL    the device tool's command line (default: /opt/pyramid/bin/pyramid-release)
#   PYRAMID_RSYNC_OPTIONS  extra rsync options, e.g. --bwlimit=500
#   PYRAMID_SIGNING_KEY    SSH private key the built release is signed with (build-release.sh --sign)
set -eu

usage() { sed -n '2,23s/^# \{0,1\}//p' "$0"; }

here=$(cd "$(dirname "$0")" && pwd)
ssh_command=${PYRAMID_SSH:-ssh}
tool=${PYRAMID_REMOTE_TOOL:-/opt/pyramid/bin/pyramid-release}
# Evaluated by the device's shell: sudo unless the SSH user is root already.
# shellcheck disable=SC2016  # expanded on the device, not here
as_root='$(test "$(id -u)" -eq 0 || echo sudo -n)'

bundle=
rollback=no
downgrade=
host=
while [ $# -gt 0 ]; do
    case "$1" in
        --bundle) bundle=$2; shift 2 ;;
        --allow-downgrade) downgrade=$2; shift 2 ;;
        --rollback) rollback=yes; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "update.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
        *) host=$1; shift ;;
    esac
done
if [ -z "$host" ]; then
    usage >&2
    exit 2
fi

# Each argument in single quotes for the device's shell, so it stays one word and runs nothing.
quote() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

on_device() {
    words=
    for word in "$@"; do
        words="$words $(quote "$word")"
    done
    # $ssh_command is split into words on purpose: it may carry options; so is $tool, a command line.
    $ssh_command "$host" "$as_root $tool$words"
}

if [ "$rollback" = yes ]; then
    on_device rollback
    exit 0
fi

if [ -z "$bundle" ]; then
    platform=$($ssh_command "$host" \
        "python3 -c 'import sys, sysconfig; print(sysconfig.get_platform().split(\"-\")[-1], \"%d.%d\" % sys.version_info[:2])'")
    arch=${platform% *}
    python_version=${platform#* }
    # build-release.sh prints only the bundle's path on stdout; no pipe, so a failed build stops here.
    bundle=$("$here/build-release.sh" --arch "$arch" --python-version "$python_version") ||
        { echo "update.sh: building the release failed (see above)" >&2; exit 1; }
fi
# The device checks the version too, but only once it is there: check it here, before it is sent,
# with the device's own pattern (pyramid-release's VERSION_PATTERN).
if [ ! -f "$bundle/VERSION" ] || [ -L "$bundle/VERSION" ]; then
    echo "update.sh: $bundle/VERSION is missing or not a regular file" >&2
    exit 2
fi
version=$(cat "$bundle/VERSION")
bad_version=no
case $version in
    [0-9A-Za-z]*) ;;
    *) bad_version=yes ;;
esac
case $version in
    *[!0-9A-Za-z.+_-]*) bad_version=yes ;;
esac
if [ "$bad_version" = yes ]; then
    echo "update.sh: $bundle/VERSION does not hold a plain version such as 4.1 (letters, digits, . + _ -)" >&2
    exit 2
fi

staging=$(on_device prepare "$version")
echo "Copying pyramid $version to $host:$staging"
# shellcheck disable=SC2086  # extra options are split into words on purpose
rsync --recursive --times --delete --partial-dir=.rsync-partial --info=progress2 \
    ${PYRAMID_RSYNC_OPTIONS:-} -e "$ssh_command" "$bundle/" "$host:$staging/"
echo "Installing pyramid $version on $host"
if [ -n "$downgrade" ]; then
    on_device install --allow-downgrade "$downgrade" "$staging"
else
    on_device install "$staging"
fi
