#!/usr/bin/env bash
# Draws the README's pictures with ledring itself: every picture is one frame of
# `ledring --simulate --format svg`, the LEDs as dots at their real places in the colour their
# light looks on a screen (drive level -> light -> sRGB). No other tool is needed; run it again
# after changing how rings are drawn and commit the SVGs it writes.
#
# usage: tools/make-pictures.sh [--binary PATH] [--out DIR] [--png]
#   --binary PATH  the ledring to use (default: builds and uses .build/debug/ledring)
#   --out DIR      where the SVGs go (default: docs/pictures)
#   --png          also write a PNG beside each SVG with rsvg-convert (apt-get install
#                  librsvg2-bin), to look at them; the PNGs are not committed
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
binary=""
out="$here/docs/pictures"
png=0
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --png) png=1; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "make-pictures: unknown option $1; see --help" >&2; exit 64 ;;
    esac
done
if [ -z "$binary" ]; then
    (cd "$here" && swift build --product ledring >&2)
    binary="$here/.build/debug/ledring"
fi
mkdir -p "$out"

# The pictures show the look, so the LEDs get a supply with room for it (on a Pi's 5 V pin the
# default 500 mA limit dims the three rings past 100 % to about 60 %, hue unchanged).
look=(--simulate --max-milliamps 3000)

# picture NAME ARGS...: one still frame.
picture() {
    local name="$1"; shift
    "$binary" "${look[@]}" --format svg --frames 1 "$@" > "$out/$name.svg"
    echo "$out/$name.svg"
}

# moment NAME FRAME ARGS...: frame FRAME of an animation (30 fps).
moment() {
    local name="$1" frame="$2"; shift 2
    local dir
    dir="$(mktemp -d)"
    "$binary" "${look[@]}" --svg-dir "$dir" --frames "$((frame + 1))" "$@" 2>/dev/null
    cp "$dir/frame-$(printf %05d "$frame").svg" "$out/$name.svg"
    rm -r "$dir"
    echo "$out/$name.svg"
}

picture demo --set move=1.3 --set exercise=0.75 --set stand=0.45
picture closing-097 --rings move:24 --set move=0.97
picture closing-100 --rings move:24 --set move=1.0
picture closing-102 --rings move:24 --set move=1.02
picture lap-130 --set move=1.3 --set exercise=1.3 --set stand=1.3
picture laps-alternate-130 --laps alternate --set move=1.3 --set exercise=1.3 --set stand=1.3
picture fractional-head --rings move:24 --set move=0.51
moment spinner 9 --spin move --set exercise=0.75 --set stand=0.45
picture pie --shape pie --set progress=0.6
picture bar --shape bar --leds 30 --set progress=0.3
picture dim --brightness 0.1 --set move=1.3 --set exercise=0.75 --set stand=0.45

if [ "$png" = 1 ]; then
    for svg in "$out"/*.svg; do rsvg-convert -z 2 -o "${svg%.svg}.png" "$svg"; done
fi
