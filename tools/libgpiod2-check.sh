#!/usr/bin/env bash
# Checks ledring's libgpiod 2.x code on a machine that ships libgpiod 1.6 (Debian 12): builds
# libgpiod 2 from the C sources vendored in PyPI's `gpiod` sdist into a prefix outside the repo,
# builds and tests ledring against it in a separate build directory, and, unless --no-qemu, runs
# tools/gpio-sim-test.sh with the 2.x probe. Not part of CI (it needs PyPI); run it after changing
# Sources/LEDHardware/GPIO/LibgpiodV2Lines.swift.
#
# usage: tools/libgpiod2-check.sh [--no-qemu]
# env:   LEDRING_LIBGPIOD2_PREFIX (default /var/cache/ledring-libgpiod2), LEDRING_LIBGPIOD2_VERSION
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
prefix=${LEDRING_LIBGPIOD2_PREFIX:-/var/cache/ledring-libgpiod2}
version=${LEDRING_LIBGPIOD2_VERSION:-2.3.0}   # the Python package's version; its libgpiod-version.txt names the C library's
scratch="$prefix/build"

if [ ! -f "$prefix/lib/libgpiod.so.3" ]; then
    mkdir -p "$prefix/src" "$prefix/include" "$prefix/lib/pkgconfig"
    python3 -m pip download --no-deps --no-binary :all: "gpiod==$version" -d "$prefix/src"
    tar -xzf "$prefix/src/gpiod-$version.tar.gz" -C "$prefix/src"
    sdist="$prefix/src/gpiod-$version"
    [ -f "$sdist/include/gpiod.h" ] || { echo "libgpiod2-check: gpiod $version vendors no C sources" >&2; exit 1; }
    libversion=$(cat "$sdist/libgpiod-version.txt")
    gcc -shared -fPIC -O2 -D_GNU_SOURCE -DGPIOD_VERSION_STR="\"$libversion\"" -I"$sdist/include" -I"$sdist/lib" \
        "$sdist"/lib/*.c -Wl,-soname,libgpiod.so.3 -o "$prefix/lib/libgpiod.so.3"
    ln -sf libgpiod.so.3 "$prefix/lib/libgpiod.so"
    cp "$sdist/include/gpiod.h" "$prefix/include/"
    printf 'prefix=%s\nName: libgpiod\nDescription: libgpiod %s for ledring checks\nVersion: %s\nLibs: -L${prefix}/lib -lgpiod\nCflags: -I${prefix}/include\n' \
        "$prefix" "$libversion" "$libversion" > "$prefix/lib/pkgconfig/libgpiod.pc"
fi

cd "$repo"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig" LEDRING_GPIOD_HEADER="$prefix/include/gpiod.h"
flags=(--scratch-path "$scratch" -Xcc "-I$prefix/include" -Xlinker "-L$prefix/lib" -Xlinker -rpath -Xlinker "$prefix/lib")
swift build "${flags[@]}" --product gpio-sim-probe
"$scratch/debug/gpio-sim-probe" chips | grep -q '^api 2.x' || { echo "libgpiod2-check: the build did not pick the 2.x code" >&2; exit 1; }
swift test "${flags[@]}"
[ "${1:-}" = --no-qemu ] || tools/gpio-sim-test.sh "$scratch/debug/gpio-sim-probe"
