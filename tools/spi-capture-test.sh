#!/usr/bin/env bash
# Tests ledring's SPI path against the real kernel spidev driver: boots Debian's own kernel under
# QEMU with ledring_spi_capture.ko (tools/spi-capture: an SPI controller that records every
# transfer and rounds the clock like a Raspberry Pi's), binds spidev to its devices through
# driver_override, shares the host's / read only over 9p, and runs tools/spi-capture-guest.sh in
# a chroot there. Two boots: spidev's default bufsiz, and spidev.bufsiz=1003 (smaller than a
# frame, and not a multiple of the kernel's transfer alignment). The boot steps are those of
# tools/gpio-sim-test.sh; see ../shared/notes/gpio-sim-under-qemu.md.
#
# usage: tools/spi-capture-test.sh [PROBE]   (default: .build/debug/gpio-sim-probe; `swift build` first)
# env:   LEDRING_SPI_CAPTURE_CACHE  downloads and builds (default /var/cache/ledring-spi-capture)
#        LEDRING_SPI_CAPTURE_INSTALL=1  apt-get install missing packages (CI does this as root)
#        LEDRING_SPI_CAPTURE_BOOTS  which boots to run (default "main bufsiz")
#        LEDRING_SPI_CAPTURE_ONLY   debugging: run only these guest sections (oneshot,daemon,doctor)
# Exit 0 only when every check in every boot passed; anything else (QEMU missing, a hang, a
# panic, a failed check) is a failure with the reason on stderr; it never reports a pass it did
# not see.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
probe=$(realpath "${1:-$repo/.build/debug/gpio-sim-probe}")
cache=${LEDRING_SPI_CAPTURE_CACHE:-/var/cache/ledring-spi-capture}
boots=(${LEDRING_SPI_CAPTURE_BOOTS:-main bufsiz})
started=$(date +%s)

fail() {
    echo "spi-capture-test: FAILED: $*" >&2
    exit 1
}
step() { echo "spi-capture-test: [$(( $(date +%s) - started ))s] $*"; }

[ -x "$probe" ] || fail "no probe at $probe; run \`swift build\` first"
[ -x "$(dirname "$probe")/ledring" ] || fail "no ledring next to the probe; run \`swift build\` first"

# The kernel version Debian boots by default; the image and the headers must be this version.
kver=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ { sub("linux-image-", "", $2); print $2; exit }')
[ -n "$kver" ] || fail "apt-cache does not know linux-image-amd64; run \`apt-get update\`"
debver=$(apt-cache show "linux-image-$kver" | awk '/^Version:/ { print $2; exit }')
step "kernel $kver (Debian $debver)"

packages=(qemu-system-x86 busybox-static cpio xz-utils make "linux-headers-$kver")
missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "${LEDRING_SPI_CAPTURE_INSTALL:-0}" = 1 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    else
        fail "missing packages: ${missing[*]} (install them, or set LEDRING_SPI_CAPTURE_INSTALL=1 as root)"
    fi
fi
command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 not found although qemu-system-x86 is installed"

work="$cache/$kver"
mkdir -p "$work"
cd "$work"

# Kernel image: fetched at test time, never committed; cached for reruns.
if [ ! -f image.deb ]; then
    step "downloading linux-image-$kver"
    apt-get download "linux-image-$kver=$debver" >/dev/null 2>&1 || fail "apt-get download linux-image-$kver=$debver failed"
    mv linux-image-*.deb image.deb
fi
if [ ! -d image ]; then
    dpkg-deb -x image.deb image.tmp && mv image.tmp image
fi
moddir="$work/image/lib/modules/$kver/kernel"
config="$work/image/boot/config-$kver"
# spidev must be built in (it is a module elsewhere: then it would need loading with bufsiz).
grep -qx 'CONFIG_SPI_SPIDEV=y' "$config" || fail "$config lacks CONFIG_SPI_SPIDEV=y: $(grep SPI_SPIDEV "$config")"
grep -qx 'CONFIG_DEBUG_FS=y' "$config" || fail "$config lacks CONFIG_DEBUG_FS=y, which the capture is read through"

# The uncompressed kernel boots about twice as fast under TCG: cut vmlinuz at the xz magic.
if [ ! -f vmlinux ]; then
    # LC_ALL=C: in a UTF-8 locale grep -P refuses the byte 0xFD.
    offset=$(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "image/boot/vmlinuz-$kver" | head -1 | cut -d: -f1 || true)
    [ -n "$offset" ] || fail "no xz stream in image/boot/vmlinuz-$kver"
    tail -c +"$((offset + 1))" "image/boot/vmlinuz-$kver" | xz -dc > vmlinux.tmp 2>/dev/null || true
    [ -s vmlinux.tmp ] || fail "could not decompress the kernel from vmlinuz-$kver"
    mv vmlinux.tmp vmlinux
fi

# The capturing controller, rebuilt whenever its source changes.
source_sum=$(cat "$repo/tools/spi-capture/ledring_spi_capture.c" "$repo/tools/spi-capture/Kbuild" | sha256sum | cut -c1-16)
if [ ! -f "module-$source_sum/ledring_spi_capture.ko" ]; then
    step "building ledring_spi_capture.ko"
    rm -rf module-* && mkdir "module-$source_sum"
    cp "$repo/tools/spi-capture/ledring_spi_capture.c" "$repo/tools/spi-capture/Kbuild" "module-$source_sum/"
    make -s -C "/usr/src/linux-headers-$kver" M="$work/module-$source_sum" modules >"module-$source_sum/build.log" 2>&1 ||
        { cat "module-$source_sum/build.log" >&2; rm -rf "module-$source_sum"; fail "building ledring_spi_capture.ko failed"; }
fi

# A busybox initramfs that loads 9p and the capture module, mounts the host's / and runs the
# guest script in a chroot; the boot's name comes from the kernel command line (ledring_boot=).
step "making the initramfs"
rm -rf initramfs && mkdir -p initramfs/bin initramfs/lib/modules initramfs/host initramfs/proc initramfs/sys initramfs/dev
cp /bin/busybox initramfs/bin/busybox
modules_in_order=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p)
for name in "${modules_in_order[@]}"; do
    file=$(find "$moddir" -name "$name.ko*" | head -1)
    [ -n "$file" ] || continue  # built into this kernel
    case "$file" in
        *.xz) xz -dc "$file" > "initramfs/lib/modules/$name.ko" ;;
        *) cp "$file" "initramfs/lib/modules/$name.ko" ;;
    esac
done
cp "module-$source_sum/ledring_spi_capture.ko" initramfs/lib/modules/
cat > initramfs/init <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for name in ${modules_in_order[*]}; do
    [ -f /lib/modules/\$name.ko ] && insmod /lib/modules/\$name.ko
done
boot=\$(sed -n 's/.*ledring_boot=\([a-z]*\).*/\1/p' /proc/cmdline)
result=1
if ! insmod /lib/modules/ledring_spi_capture.ko; then
    echo "spi-guest: FAIL cannot load ledring_spi_capture.ko"
elif mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot /host; then
    mount --bind /proc /host/proc
    mount --bind /sys /host/sys
    mount --bind /dev /host/dev
    mount -t tmpfs tmpfs /host/run
    chroot /host /bin/bash "$repo/tools/spi-capture-guest.sh" "$probe" "\$boot" && result=0
else
    echo "spi-guest: cannot mount the host's / over 9p"
fi
echo "spi-guest: result \$result"
# isa-debug-exit: QEMU exits with (value << 1) | 1, so 0 -> 1 (pass), 1 -> 3 (fail).
if [ \$result = 0 ]; then printf '\000'; else printf '\001'; fi | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
poweroff -f
INIT
chmod +x initramfs/init
(cd initramfs && find . | cpio -o -H newc --quiet | gzip -1) > initramfs.cpio.gz

accel=(-accel tcg,thread=multi -cpu max)
# KVM only where the CPU has it (a stock kernel hangs under KVM without vmx/svm).
if [ -w /dev/kvm ] && grep -qE 'vmx|svm' /proc/cpuinfo; then accel=(-accel kvm -cpu host); fi

failed=()
for boot in "${boots[@]}"; do
    case $boot in
        main) cmdline="" ;;
        # Smaller than a 80-LED WS2812 frame, larger than the default 52-LED one, and not a
        # multiple of spidev's transfer alignment (8 bytes on x86-64).
        bufsiz) cmdline="spidev.bufsiz=1003" ;;
        *) fail "unknown boot \"$boot\" (main or bufsiz)" ;;
    esac
    step "boot \"$boot\" under QEMU (${accel[1]}) ${cmdline:+with $cmdline}"
    log="serial-$boot.log"
    rm -f "$log"
    boot_started=$(date +%s)
    set +e
    timeout 600 qemu-system-x86_64 -M pc -smp 1 -m 768 "${accel[@]}" -nodefaults -display none -no-reboot \
        -serial "file:$log" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
        -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
        -kernel vmlinux -initrd initramfs.cpio.gz -append "console=ttyS0 quiet panic=-1 ledring_boot=$boot ledring_only=${LEDRING_SPI_CAPTURE_ONLY:-} $cmdline"
    status=$?
    set -e
    grep -a -E '^(spi-guest|  )' "$log" || true
    took=$(( $(date +%s) - boot_started ))
    case $status in
        1) step "boot \"$boot\" passed in ${took}s" ;;
        3) echo "spi-capture-test: boot \"$boot\": a check in the guest failed (QEMU exit 3); log: $work/$log" >&2; failed+=("$boot") ;;
        124) tail -20 "$log" >&2; echo "spi-capture-test: boot \"$boot\" did not finish within 600 s (hang); log: $work/$log" >&2; failed+=("$boot") ;;
        0) tail -20 "$log" >&2; echo "spi-capture-test: boot \"$boot\": the guest panicked or powered off without a result; log: $work/$log" >&2; failed+=("$boot") ;;
        *) tail -20 "$log" >&2; fail "QEMU could not run (exit $status)" ;;
    esac
done
[ "${#failed[@]}" = 0 ] || fail "boot(s) failed: ${failed[*]}"
step "PASSED: every check against the kernel's spidev and the capturing controller passed"
