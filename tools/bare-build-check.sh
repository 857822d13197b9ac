#!/usr/bin/env bash
# Builds and tests ledring as a machine with only the Swift toolchain gets it: every optional C
# library hidden (libgpiod, libmosquitto), in its own build directory, so the
# "library missing" code paths and their tests run too; then the README's quick start (the demo
# on --simulate) from that build. .ci/run runs it; run it after touching Package.swift or an
# `#if` around an optional library.
#
# usage: tools/bare-build-check.sh      env: LEDRING_BARE_SCRATCH (default .build-bare)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${LEDRING_BARE_SCRATCH:-.build-bare}
export LEDRING_GPIOD_HEADER=none LEDRING_MOSQUITTO_HEADER=none
fail() { echo "bare-build-check: FAILED: $*" >&2; exit 1; }

swift build --scratch-path "$scratch"
# The quick start's first command; without a terminal the demo plays its frames and ends.
out=$(swift run --scratch-path "$scratch" ledring --simulate </dev/null) || fail "ledring --simulate exited $?"
grep -q '^frame ' <<<"$out" || fail "ledring --simulate printed no frame"
# Each library's absence must be said, with the package to install, not crash.
status=0; err=$(swift run --scratch-path "$scratch" ledring --driver apa102-gpio --gpio-data GPIO23 --gpio-clock GPIO24 --set move=0.6 2>&1 >/dev/null) || status=$?
[ "$status" -ne 0 ] && grep -q 'libgpiod' <<<"$err" || fail "apa102-gpio without libgpiod: exit $status, said: $err"
swift test --scratch-path "$scratch"
echo "bare-build-check: passed (no optional libraries)"
