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

# served NAME CONFIG COMMAND...: the settled frame of `ledring run --simulate --format svg` with
# CONFIG after the client COMMANDs (each a string of arguments to `ledring`), for what only the
# service shows: looks and notifications. Its caption's time (seconds since the service started)
# is dropped, so the picture is the same on every run.
served() {
    local name="$1" config="$2"; shift 2
    local dir
    dir="$(mktemp -d)"
    printf '%s\n' "$config" > "$dir/config.json"
    "$binary" run --simulate --format svg --max-milliamps 3000 --config "$dir/config.json" \
        --socket "$dir/s" --state "$dir/state.json" > "$dir/out.svg" 2> "$dir/log" &
    local pid=$! tries=0
    until "$binary" status --socket "$dir/s" > /dev/null 2>&1; do
        tries=$((tries + 1)); [ "$tries" -lt 200 ] || { cat "$dir/log" >&2; kill "$pid"; exit 69; }
        sleep 0.05
    done
    local command
    for command in "$@"; do
        # shellcheck disable=SC2086 # each command is a list of arguments
        eval "\"\$binary\" $command --socket \"\$dir/s\"" > /dev/null
    done
    tries=0
    until "$binary" status --json --socket "$dir/s" | grep -q '"animating":false'; do
        tries=$((tries + 1)); [ "$tries" -lt 200 ] || { echo "make-pictures: $name never settled" >&2; kill "$pid"; exit 70; }
        sleep 0.05
    done
    sleep 0.2
    # The last frame written: from the last <svg to the end, before SIGTERM's blank frame.
    awk '/^<svg /{frame=""} {frame=frame $0 "\n"} END{printf "%s", frame}' "$dir/out.svg" \
        | sed -E 's/>t=[0-9.]+ s, />/' > "$out/$name.svg"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rm -r "$dir"
    echo "$out/$name.svg"
}

picture start-004 --rings move:24 --set move=0.04
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
build='{"rings": [{"name": "build", "leds": 24}, {"name": "deploy", "leds": 16}, {"name": "tests", "leds": 12}],
        "looks": {"failed": {"gradient": "#ff2020"}, "passed": {"gradient": "#20ff60"}}}'
served status-look-0 "$build" "set deploy=0.6 tests=0.3" "look build failed"
served notification '{}' "set move=1.3 exercise=0.75 stand=0.45" "notify move --color '#2060ff' --for 1h"

if [ "$png" = 1 ]; then
    for svg in "$out"/*.svg; do rsvg-convert -z 2 -o "${svg%.svg}.png" "$svg"; done
fi
