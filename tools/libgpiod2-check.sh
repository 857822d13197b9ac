#!/usr/bin/env bash
# Checks ledring's libgpiod 2.x code on a machine that ships libgpiod 1.6 (Debian 12): unpacks
# Debian's own libgpiod 2 packages (bookworm-backports, built for Debian 12) into a prefix outside
# the repo without installing them, builds ledring and the probe against them in a separate build
# directory, checks that the build really took the 2.x code, and, unless --no-qemu, runs
# tools/gpio-sim-test.sh with the 2.x probe so LibgpiodV2Lines.swift meets a real kernel chip.
# .ci/run runs it, so both libgpiod APIs are compiled and tested on every change. The unit tests
# are not run again here: they drive GPIO through the fake kernel, the same in both variants, and
# what differs (LibgpiodV2Lines.swift) only the real kernel can check; with --unit-tests they run.
#
# usage: tools/libgpiod2-check.sh [--no-qemu] [--unit-tests]
# env:   LEDRING_LIBGPIOD2_PREFIX (default /var/cache/ledring-libgpiod2)
#        LEDRING_LIBGPIOD2_SUITE  (default bookworm-backports; the Debian suite to take it from)
# Only Debian's package archive is reached (apt-get with a private list directory: the machine's
# own apt sources and installed packages are left as they are).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
prefix=${LEDRING_LIBGPIOD2_PREFIX:-/var/cache/ledring-libgpiod2}
suite=${LEDRING_LIBGPIOD2_SUITE:-bookworm-backports}
scratch="$prefix/build"
fail() { echo "libgpiod2-check: FAILED: $*" >&2; exit 1; }

if [ ! -f "$prefix/include/gpiod.h" ] || ! grep -q gpiod_request_config "$prefix/include/gpiod.h"; then
    apt="$prefix/apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$prefix/debs"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
        > "$apt/sources.list"
    opts=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o Dir::Etc::sourceparts=- \
          -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
    apt-get "${opts[@]}" update >/dev/null || fail "apt-get update of $suite failed"
    # The runtime library's package is named after its soname (libgpiod3 for 2.x).
    runtime=$(apt-cache "${opts[@]}" depends "libgpiod-dev/$suite" 2>/dev/null \
        | awk '/Depends: libgpiod[0-9]+$/ { print $2; exit }')
    [ -n "$runtime" ] || fail "$suite has no libgpiod-dev with a libgpiodN dependency"
    (cd "$prefix/debs" && rm -f ./*.deb && apt-get "${opts[@]}" download "libgpiod-dev/$suite" "$runtime/$suite" >/dev/null) \
        || fail "apt-get download of libgpiod-dev and $runtime from $suite failed"
    rm -rf "$prefix/root" && mkdir -p "$prefix/root"
    for deb in "$prefix"/debs/*.deb; do dpkg-deb -x "$deb" "$prefix/root"; done
    libdir=$(dirname "$(find "$prefix/root" -name 'libgpiod.so' | head -n 1)")
    [ -n "$libdir" ] && [ -d "$libdir" ] || fail "no libgpiod.so in the unpacked packages"
    mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
    cp "$prefix/root/usr/include/gpiod.h" "$prefix/include/"
    cp -P "$libdir"/libgpiod.so* "$prefix/lib/"
    version=$(dpkg-deb -f "$prefix"/debs/libgpiod-dev_*.deb Version)
    printf 'prefix=%s\nName: libgpiod\nDescription: Debian libgpiod %s for ledring checks\nVersion: %s\nLibs: -L${prefix}/lib -lgpiod\nCflags: -I${prefix}/include\n' \
        "$prefix" "$version" "${version%%-*}" > "$prefix/lib/pkgconfig/libgpiod.pc"
fi
grep -q gpiod_request_config "$prefix/include/gpiod.h" || fail "$prefix/include/gpiod.h is not the 2.x API"

cd "$repo"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig" LEDRING_GPIOD_HEADER="$prefix/include/gpiod.h"
# Without the network libraries: their pkg-config flags put -L/usr/lib/<triple> ahead of the
# prefix, so the linker would take the system's libgpiod 1.6; and the main build tests them.
export LEDRING_MOSQUITTO_HEADER=none
flags=(--scratch-path "$scratch" -Xcc "-I$prefix/include" -Xlinker "-L$prefix/lib" -Xlinker -rpath -Xlinker "$prefix/lib")
swift build "${flags[@]}" --product ledring
swift build "${flags[@]}" --product gpio-sim-probe
"$scratch/debug/gpio-sim-probe" chips | grep -q '^api 2.x' || fail "the build did not pick the 2.x code"
case " $* " in *" --unit-tests "*) swift test "${flags[@]}" ;; esac
case " $* " in *" --no-qemu "*) ;; *) tools/gpio-sim-test.sh "$scratch/debug/gpio-sim-probe" ;; esac   # runs the ledring beside it too
