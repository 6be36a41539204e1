#!/usr/bin/env bash
# Regenerate the screenshots in docs/ through the console's own scripted mode.
# Run from the repository root: docs/screenshots.sh
set -eu
cd "$(dirname "$0")/.."
. scripts/venv.sh
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
# Deal 7 with one redeal: pair the queen with the ace, choose the 3, draw twice, aim at the waste.
script="right right ok right right right right ok left left left ok up up up up up up up ok ok down"
for size in 320x240 480x320 800x480 1920x1080; do
    PYRAMID_DATA_DIR="$data/$size" "$venv/bin/pyramid" --display headless --size "$size" \
        --game pyramid --redeals one --deal-number 7 --script "$script" \
        --screenshot "docs/screenshot-$size.png"
done
echo "docs/screenshot-*.png written"
