#!/usr/bin/env bash
# Builds `ledring` in Embedded Swift as static, stripped Linux executables from the package's own
# sources: for the host (x86_64, so the Embedded code path also runs natively), for aarch64 (64-bit
# Raspberry Pi OS: Pi 3, 4, 5, Zero 2 W) and for armv6 (32-bit Raspberry Pi OS on every Pi: Pi 1,
# Zero and Zero W need armv6; armel's soft-float ABI, so it runs on armhf systems too).
#
# Each module is compiled with swiftc in Embedded mode (-target <arch>-none-none-*: the toolchain's
# embedded standard library), the C library's headers coming from Debian's cross packages through
# the stand-in Glibc module in tools/embedded/modules; the objects are linked by Debian's cross gcc
# against its static glibc, libm and libgpiod (libgpiod-dev for that architecture, unpacked from its
# .deb, not installed). The network front ends (LEDRingNet) are compiled without the files that
# need threads or dlopen: libmosquitto's bridge, used only for TLS (see NetworkFrontEnds.swift).
#
# Needs: gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabi libc6-dev-armel-cross
# (and libgpiod-dev for the host). The arm64/armel libgpiod-dev .debs are fetched with
# `apt-get download` into .build/embedded/debs; with LEDRING_EMBEDDED_INSTALL=1 the script first adds
# the foreign architectures to dpkg and runs apt-get update (what CI does), otherwise it says so.
#
# armv7 (armhf) is not built: armv6 runs on the same boards, and an armhf build would need
# -Xcc -mfloat-abi=hard on swiftc or float arguments to libm arrive in the wrong registers.
#
# usage: tools/embedded-build.sh [host|aarch64|armv6 ...]   (default: all three)
# Binaries: .build/embedded/<arch>/ledring; their stripped sizes are printed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
usr=$(dirname "$(dirname "$(command -v swiftc)")")
build="$repo/.build/embedded"
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(host aarch64 armv6)

fail() { echo "embedded-build: $*" >&2; exit 1; }

# The modules of `ledring`, bottom up, from the package itself (Package.swift's targets and their
# dependencies).
modules=()
while IFS= read -r module; do modules+=("$module"); done < <(
    cd "$repo" && swift package describe --type json | python3 "$repo/tools/embedded/modules-of.py" ledring)
[ ${#modules[@]} -gt 0 ] || fail "swift package describe listed no modules for ledring"

# Which libgpiod API a header declares, by the rule Package.swift uses (detectGPIODAPI): 2.x has
# request and settings objects, 1.x the line/bulk calls.
gpiod_api() {
    local header=$1
    [ -f "$header" ] || fail "no $header (libgpiod-dev)"
    if grep -q gpiod_request_config "$header" && grep -q gpiod_line_settings "$header"; then echo GPIOD_V2
    elif grep -q gpiod_line_request_bulk "$header"; then echo GPIOD_V1
    else fail "$header declares neither libgpiod API (1.x line/bulk calls, 2.x request and settings)"
    fi
}

# libgpiod-dev for a foreign architecture, unpacked (not installed) under .build/embedded/debs.
gpiod_root() {
    local debarch=$1 dir="$build/debs/$1"
    if [ ! -f "$dir/stamp" ]; then
        mkdir -p "$dir"
        if ! (cd "$dir" && apt-get download "libgpiod-dev:$debarch" >/dev/null 2>&1); then
            if [ "${LEDRING_EMBEDDED_INSTALL:-}" = 1 ]; then
                dpkg --add-architecture "$debarch"
                apt-get update >/dev/null
                (cd "$dir" && apt-get download "libgpiod-dev:$debarch" >/dev/null) \
                    || fail "apt-get download libgpiod-dev:$debarch failed"
            else
                fail "cannot download libgpiod-dev:$debarch; run with LEDRING_EMBEDDED_INSTALL=1 (adds the architecture to dpkg and runs apt-get update) or: dpkg --add-architecture $debarch && apt-get update"
            fi
        fi
        dpkg-deb -x "$dir"/libgpiod-dev_*_"$debarch".deb "$dir/root"
        touch "$dir/stamp"
    fi
    echo "$dir/root"
}

# Several architectures: the .debs are fetched one after the other (apt and dpkg take locks), then
# the architectures are built side by side, all at once (LEDRING_EMBEDDED_JOBS overrides): each
# swiftc -wmo runs on one core, and with one job per core CI's two cores built host and aarch64
# (about 4 min each) and then armv6 (3 min) on one core while the other sat idle.
if [ ${#arches[@]} -gt 1 ]; then
    for arch in "${arches[@]}"; do
        case $arch in
        aarch64) gpiod_root arm64 >/dev/null ;;
        armv6) gpiod_root armel >/dev/null ;;
        esac
    done
    printf '%s\n' "${arches[@]}" | xargs -P "${LEDRING_EMBEDDED_JOBS:-${#arches[@]}}" -I{} "$0" {}
    exit
fi

for arch in "${arches[@]}"; do
    case $arch in
    host)
        target=x86_64-unknown-linux-gnu; cc=gcc; strip=strip; cflags=()
        [ "$(uname -m)" = x86_64 ] || fail "the host build is for x86_64 hosts"
        includes=()
        libgpiod=/usr/lib/x86_64-linux-gnu/libgpiod.a
        [ -f /usr/include/gpiod.h ] && [ -f "$libgpiod" ] || fail "needs libgpiod-dev (apt-get install libgpiod-dev)"
        gpiod=$(gpiod_api /usr/include/gpiod.h)
        ;;
    aarch64)
        target=aarch64-none-none-elf; cc=aarch64-linux-gnu-gcc; strip=aarch64-linux-gnu-strip; cflags=()
        root=$(gpiod_root arm64)
        includes=(-isystem /usr/aarch64-linux-gnu/include -isystem "$root/usr/include")
        libgpiod="$root/usr/lib/aarch64-linux-gnu/libgpiod.a"
        gpiod=$(gpiod_api "$root/usr/include/gpiod.h")
        ;;
    armv6)
        # Debian armel: soft-float ABI, so float arguments go in integer registers on both sides.
        target=armv6-none-none-eabi; cc=arm-linux-gnueabi-gcc; strip=arm-linux-gnueabi-strip
        cflags=(-march=armv6 -marm)
        root=$(gpiod_root armel)
        includes=(-isystem /usr/arm-linux-gnueabi/include -isystem "$root/usr/include")
        libgpiod="$root/usr/lib/arm-linux-gnueabi/libgpiod.a"
        gpiod=$(gpiod_api "$root/usr/include/gpiod.h")
        ;;
    *) fail "unknown architecture $arch (host, aarch64, armv6)" ;;
    esac
    command -v "$cc" >/dev/null || fail "$cc missing (apt-get install the cross gcc, see the top of this script)"

    out="$build/$arch"
    mkdir -p "$out/obj"
    xcc=()
    for flag in "${includes[@]}"; do xcc+=(-Xcc "$flag"); done
    # The bare targets do not define what glibc's and the kernel's headers expect of Linux; enums
    # are int-sized as in the Linux ABI (a bare ARM EABI target may otherwise pack them).
    [ "$arch" = host ] || xcc+=(-Xcc -D__linux__ -Xcc -D__unix__ -Xcc -D__gnu_linux__ -Xcc -fno-short-enums)
    [ "$arch" = armv6 ] && xcc+=(-Xcc -march=armv6)
    # 64-bit file offsets on the 32-bit target, in the Swift code and the C runtime alike: glibc
    # then maps readdir, stat, open and lseek to their 64-bit forms. Without it readdir uses the old
    # getdents, whose 32-bit d_off overflows on ext4 (hashed directory cookies): EOVERFLOW, and an
    # ext4 /dev or /proc/device-tree listing looked empty (no gpiochip0, no ws2812_pio@…).
    if [ "$arch" = armv6 ]; then
        xcc+=(-Xcc -D_FILE_OFFSET_BITS=64)
        cflags+=(-D_FILE_OFFSET_BITS=64)
    fi

    # Compiles one module into $out/obj (its object and its .swiftmodule for the modules above).
    compile_module() {
        local module=$1 defines=() library=(-parse-as-library) sources=() file
        # The libgpiod API of the header this architecture links against, as the package defines it.
        [ "$module" = LEDHardware ] && defines=(-D"$gpiod")
        [ "$module" = ledring ] && library=()   # main.swift: top-level code
        # swiftc leaves an existing object alone in some reruns; removed first, a stale one can never be linked.
        rm -f "$out/obj/$module.o"
        while IFS= read -r file; do sources+=("$file"); done < <(find "$repo/Sources/$module" -name '*.swift' | sort)
        # One section per function: every module's object carries (weak) copies of the code it uses
        # from the modules below, which --gc-sections can drop only function by function.
        if ! swiftc -target "$target" -enable-experimental-feature Embedded -wmo "${library[@]}" -Osize \
            -Xfrontend -function-sections \
            -module-name "$module" -I "$out/obj" -I "$repo/tools/embedded/modules" -I "$repo/Sources/CMath/include" \
            "${xcc[@]}" "${defines[@]}" \
            -emit-module -emit-module-path "$out/obj/$module.swiftmodule" \
            -c -o "$out/obj/$module.o" "${sources[@]}" 2> "$out/obj/$module.log"; then
            cat "$out/obj/$module.log" >&2
            fail "$module does not compile in Embedded Swift for $target"
        fi
    }
    objects=()
    for module in "${modules[@]}"; do
        compile_module "$module"
        objects+=("$out/obj/$module.o")
    done
    "$cc" "${cflags[@]}" -Os -c -o "$out/obj/runtime.o" "$repo/tools/embedded/runtime.c"
    # --icf=all folds the identical copies that remain.
    "$cc" "${cflags[@]}" -static -no-pie -B"$usr/bin" -fuse-ld=lld -Wl,--gc-sections -Wl,--icf=all \
        -o "$out/ledring.unstripped" \
        "${objects[@]}" "$out/obj/runtime.o" "$libgpiod" -lm \
        "$usr/lib/swift/embedded/$target/libswiftUnicodeDataTables.a"
    "$strip" --remove-section=.comment -o "$out/ledring" "$out/ledring.unstripped"

    if [ "$arch" = host ]; then
        # Embedded Swift 6.3 silently compiles a few things it cannot do (a call from another module
        # to an extension method of a class existential) into a function that is only a trap. Refuse a
        # binary in which one of ledring's own functions is such a trap and is called.
        objdump -d --no-show-raw-insn "$out/ledring.unstripped" > "$out/obj/ledring.dis"
        python3 "$repo/tools/embedded/trap-stubs.py" "$out/obj/ledring.dis" \
            || fail "the host binary calls functions Embedded Swift compiled to traps (above)"
    fi
    size=$(stat -c %s "$out/ledring")
    echo "embedded-build: $arch: $out/ledring, $size bytes stripped ($target)"
done
