#!/usr/bin/env bash
# Compiles the pure targets (RingModel, RingRender, LEDWire, LEDPresentation, LEDJSON, LEDRingControl) in Embedded Swift for the Pi's
# CPUs, so nothing that Embedded Swift lacks (Foundation, key paths, existentials of non-class
# protocols, a platform module) creeps into the layers the small Pi binaries are built from. Compile only, and
# needs no C library headers; tools/embedded-build.sh builds and links the whole of `ledring` (the layers
# above need the cross C libraries, LEDMQTT and LEDDNS too, through LEDSystem). A quick check while working; CI runs embedded-build.sh, which
# compiles every module for each of its targets.
#
# usage: tools/embedded-check.sh [TARGET...]   (default: aarch64, armv7 and armv6 none-none)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(aarch64-none-none-elf armv7-none-none-eabi armv6-none-none-eabi)
for target in "${targets[@]}"; do
    mkdir -p "$out/$target"
    for module in RingModel RingRender LEDWire LEDPresentation LEDJSON LEDRingControl; do
        if ! swiftc -target "$target" -enable-experimental-feature Embedded -wmo -parse-as-library -Osize \
            -module-name "$module" -I "$out/$target" -I "$repo/Sources/CMath/include" \
            -emit-module -emit-module-path "$out/$target/$module.swiftmodule" \
            -c -o "$out/$target/$module.o" $(find "$repo/Sources/$module" -name '*.swift' | sort); then
            echo "embedded-check: FAILED: $module does not compile in Embedded Swift for $target" >&2
            exit 1
        fi
    done
    echo "embedded-check: RingModel, RingRender, LEDWire, LEDPresentation, LEDJSON, and LEDRingControl compile in Embedded Swift for $target"
done
