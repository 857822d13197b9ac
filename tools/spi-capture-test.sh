#!/usr/bin/env bash
# Tests ledring's SPI path against the real kernel spidev driver: boots Debian's own kernel under
# QEMU with ledring_spi_capture.ko (tools/spi-capture: an SPI controller that records every
# transfer and rounds the clock like a Raspberry Pi's), binds spidev to its devices through
# driver_override, shares the host's / read only over 9p, and runs tools/spi-capture-guest.sh in
# a chroot there. Two boots: spidev's default bufsiz, and spidev.bufsiz=1003 (smaller than a
# frame, and not a multiple of the kernel's transfer alignment). The boot itself is
# tools/qemu-kernel.sh, shared with tools/gpio-sim-test.sh.
#
# usage: tools/spi-capture-test.sh [PROBE]   (default: .build/debug/gpio-sim-probe; `swift build` first)
# env:   LEDRING_QEMU_CACHE  downloads and builds (default /var/cache/ledring-qemu)
#        LEDRING_QEMU_INSTALL=1  apt-get install missing packages (CI does this as root)
#        LEDRING_SPI_CAPTURE_BOOTS  which boots to run (default "main bufsiz"; "systemd" runs
#                                   tools/ledring.service under systemd, tools/systemd-unit-guest.sh)
#        LEDRING_SERVICE_BINARY     its ledring (default .build/embedded/host/ledring)
#        LEDRING_SPI_CAPTURE_ONLY   debugging: run only these guest sections (oneshot,daemon,doctor)
# Exit 0 only when every check in every boot passed; anything else (QEMU missing, a hang, a
# panic, a failed check) is a failure with the reason on stderr; it never reports a pass it did
# not see.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
probe=$(realpath "${1:-$repo/.build/debug/gpio-sim-probe}")
boots=(${LEDRING_SPI_CAPTURE_BOOTS:-main bufsiz})
tag=spi-capture-test
source "$repo/tools/qemu-kernel.sh"

[ -x "$probe" ] || fail "no probe at $probe; run \`swift build\` first"
[ -x "$(dirname "$probe")/ledring" ] || fail "no ledring next to the probe; run \`swift build\` first"
qemu_kernel_prepare

# spidev must be built in (it is a module elsewhere: then it would need loading with bufsiz).
grep -qx 'CONFIG_SPI_SPIDEV=y' "$config" || fail "$config lacks CONFIG_SPI_SPIDEV=y: $(grep SPI_SPIDEV "$config")"
grep -qx 'CONFIG_DEBUG_FS=y' "$config" || fail "$config lacks CONFIG_DEBUG_FS=y, which the capture is read through"

# The capturing controller, rebuilt whenever its source changes.
source_sum=$(cat "$repo/tools/spi-capture/ledring_spi_capture.c" "$repo/tools/spi-capture/Kbuild" | sha256sum | cut -c1-16)
if [ ! -f "module-$source_sum/ledring_spi_capture.ko" ]; then
    step "building ledring_spi_capture.ko"
    rm -rf module-* && mkdir "module-$source_sum"
    cp "$repo/tools/spi-capture/ledring_spi_capture.c" "$repo/tools/spi-capture/Kbuild" "module-$source_sum/"
    make -s -C "/usr/src/linux-headers-$kver" M="$work/module-$source_sum" modules >"module-$source_sum/build.log" 2>&1 ||
        { cat "module-$source_sum/build.log" >&2; rm -rf "module-$source_sum"; fail "building ledring_spi_capture.ko failed"; }
fi

# The boot's name comes from the kernel command line (ledring_boot=).
mkdir -p spi-capture
# The boot "systemd" runs tools/ledring.service under systemd as PID 1 (tools/systemd-unit-guest.sh)
# with the static binary the packages carry; the init prepares an overlay of / and switches to it.
service_binary=${LEDRING_SERVICE_BINARY:-$repo/.build/embedded/host/ledring}
if [[ " ${boots[*]} " == *" systemd "* ]]; then
    [ -x "$service_binary" ] || fail "no $service_binary for the boot \"systemd\"; build it with tools/embedded-build.sh host"
    command -v systemd-sysusers >/dev/null && [ -x /lib/systemd/systemd ] ||
        fail "the boot \"systemd\" needs systemd on this machine (apt-get install systemd)"
fi
# overlayfs, for that boot's writable root (the host has no insmod; the initramfs's busybox has).
overlay_ko=$(find "$moddir" -name 'overlay.ko*' | head -1)
[ -n "$overlay_ko" ] || fail "no overlay.ko in $moddir"
case $overlay_ko in *.xz) xz -dc "$overlay_ko" > "$work/overlay.ko"; overlay_ko="$work/overlay.ko" ;; esac
qemu_make_initramfs "$work/spi-capture" spi-guest \
    "if [ \"\$boot\" = systemd ]; then
        chroot /host /bin/bash \"$repo/tools/systemd-unit-guest.sh\" prepare \"$service_binary\" \"$probe\" &&
        exec switch_root /host/run/ov/root /lib/systemd/systemd
    else
        chroot /host /bin/bash \"$repo/tools/spi-capture-guest.sh\" \"$probe\" \"\$boot\"
    fi" \
    "module-$source_sum/ledring_spi_capture.ko" "$overlay_ko"

failed=()
for boot in "${boots[@]}"; do
    case $boot in
        main) cmdline="" ;;
        # Smaller than a 80-LED WS2812 frame, larger than the default 52-LED one, and not a
        # multiple of spidev's transfer alignment (8 bytes on x86-64).
        bufsiz) cmdline="spidev.bufsiz=1003" ;;
        # systemd reads its target from the kernel command line.
        systemd) cmdline="systemd.unit=ledring-test.target" ;;
        *) fail "unknown boot \"$boot\" (main, bufsiz or systemd)" ;;
    esac
    log="$work/spi-capture/serial-$boot.log"
    boot_started=$(date +%s)
    qemu_boot "$work/spi-capture/initramfs.cpio.gz" "$log" 600 768 "spi-guest|systemd-guest" \
        "ledring_boot=$boot ledring_only=${LEDRING_SPI_CAPTURE_ONLY:-} $cmdline"
    took=$(( $(date +%s) - boot_started ))
    case $status in
        1) step "boot \"$boot\" passed in ${took}s" ;;
        3|124|0) echo "$tag: boot \"$boot\": $(qemu_verdict "$log" 600)" >&2; failed+=("$boot") ;;
        *) fail "$(qemu_verdict "$log" 600)" ;;
    esac
done
[ "${#failed[@]}" = 0 ] || fail "boot(s) failed: ${failed[*]}"
step "PASSED: every check against the kernel's spidev and the capturing controller passed"
