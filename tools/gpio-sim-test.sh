#!/usr/bin/env bash
# Tests ledring's GPIO code against a real kernel GPIO chip: boots Debian's own kernel under QEMU
# with the gpio-sim driver (built out of tree: Debian's kernel lacks it), shares the host's / read
# only over 9p, and runs tools/gpio-sim-guest.sh in a chroot there with the built gpio-sim-probe.
# See ../shared/notes/gpio-sim-under-qemu.md for why each step is needed.
#
# usage: tools/gpio-sim-test.sh [PROBE]   (default: .build/debug/gpio-sim-probe; build it first)
# env:   LEDRING_GPIO_SIM_CACHE  downloads and builds (default /var/cache/ledring-gpio-sim)
#        LEDRING_GPIO_SIM_INSTALL=1  apt-get install missing packages (CI does this as root)
# Exit 0 only when every check in the guest passed; anything else (QEMU missing, a hang, a panic,
# a failed check) is a failure with the reason on stderr; it never reports a pass it did not see.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
probe=$(realpath "${1:-$repo/.build/debug/gpio-sim-probe}")
cache=${LEDRING_GPIO_SIM_CACHE:-/var/cache/ledring-gpio-sim}
started=$(date +%s)

fail() {
    echo "gpio-sim-test: FAILED: $*" >&2
    exit 1
}
step() { echo "gpio-sim-test: [$(( $(date +%s) - started ))s] $*"; }

[ -x "$probe" ] || fail "no probe at $probe; run \`swift build --product gpio-sim-probe\` first"

# The kernel version Debian boots by default; image, headers and source must all be this version.
kver=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ { sub("linux-image-", "", $2); print $2; exit }')
[ -n "$kver" ] || fail "apt-cache does not know linux-image-amd64; run \`apt-get update\`"
debver=$(apt-cache show "linux-image-$kver" | awk '/^Version:/ { print $2; exit }')
series=${kver%%-*}          # 6.1.0
series=${series%.*}         # 6.1
step "kernel $kver (Debian $debver)"

packages=(qemu-system-x86 busybox-static cpio xz-utils make "linux-headers-$kver")
missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "${LEDRING_GPIO_SIM_INSTALL:-0}" = 1 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    else
        fail "missing packages: ${missing[*]} (install them, or set LEDRING_GPIO_SIM_INSTALL=1 as root)"
    fi
fi
command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 not found although qemu-system-x86 is installed"

work="$cache/$kver"
mkdir -p "$work"
cd "$work"

# Kernel image and source: fetched at test time, never committed; cached for reruns.
if [ ! -f image.deb ]; then
    step "downloading linux-image-$kver"
    apt-get download "linux-image-$kver=$debver" >/dev/null
    mv linux-image-*.deb image.deb
fi
if [ ! -d image ]; then
    dpkg-deb -x image.deb image.tmp && mv image.tmp image
fi
moddir="$work/image/lib/modules/$kver/kernel"

# The uncompressed kernel boots about twice as fast under TCG: cut vmlinuz at the xz magic.
if [ ! -f vmlinux ]; then
    # LC_ALL=C: in a UTF-8 locale grep -P refuses the byte 0xFD.
    offset=$(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "image/boot/vmlinuz-$kver" | head -1 | cut -d: -f1 || true)
    [ -n "$offset" ] || fail "no xz stream in image/boot/vmlinuz-$kver"
    tail -c +"$((offset + 1))" "image/boot/vmlinuz-$kver" | xz -dc > vmlinux.tmp 2>/dev/null || true
    [ -s vmlinux.tmp ] || fail "could not decompress the kernel from vmlinuz-$kver"
    mv vmlinux.tmp vmlinux
fi

# gpio-sim and irq_sim, built out of tree (Debian's kernel has neither).
if [ ! -f modules/gpio-sim.ko ] || [ ! -f modules/irq_sim.ko ]; then
    if [ ! -d src ]; then
        if [ ! -f source.deb ]; then
            step "downloading linux-source-$series"
            apt-get download "linux-source-$series=$debver" >/dev/null
            mv linux-source-*.deb source.deb
        fi
        step "extracting three files from the kernel source"
        mkdir -p src.tmp
        dpkg-deb --fsys-tarfile source.deb | tar -xO "./usr/src/linux-source-$series.tar.xz" |
            tar -xJ -C src.tmp --strip-components=1 \
                "linux-source-$series/drivers/gpio/gpio-sim.c" \
                "linux-source-$series/drivers/gpio/gpiolib.h" \
                "linux-source-$series/kernel/irq/irq_sim.c"
        mv src.tmp src
        rm -f source.deb  # 139 MB the cache no longer needs
    fi
    step "building irq_sim.ko and gpio-sim.ko"
    rm -rf modules && mkdir modules
    cp src/drivers/gpio/gpio-sim.c src/drivers/gpio/gpiolib.h src/kernel/irq/irq_sim.c modules/
    # irq_to_desc() is not exported to modules in 6.1; the module also needs a licence.
    sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' modules/irq_sim.c
    grep -q 'generic_handle_irq(irqnum);' modules/irq_sim.c || fail "irq_sim.c no longer has the line the patch expects"
    echo 'MODULE_LICENSE("GPL");' >> modules/irq_sim.c
    echo 'obj-m := irq_sim.o gpio-sim.o' > modules/Kbuild
    make -s -C "/usr/src/linux-headers-$kver" M="$work/modules" modules >modules/build.log 2>&1 ||
        { cat modules/build.log >&2; fail "building the gpio-sim modules failed"; }
fi

# A busybox initramfs that loads 9p, mounts the host's / and runs the guest script in a chroot.
step "making the initramfs"
rm -rf initramfs && mkdir -p initramfs/bin initramfs/lib/modules initramfs/host initramfs/proc initramfs/sys initramfs/dev
cp /bin/busybox initramfs/bin/busybox
modules_in_order=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p configfs)
for name in "${modules_in_order[@]}"; do
    file=$(find "$moddir" -name "$name.ko*" | head -1)
    [ -n "$file" ] || continue  # built into this kernel
    case "$file" in
        *.xz) xz -dc "$file" > "initramfs/lib/modules/$name.ko" ;;
        *) cp "$file" "initramfs/lib/modules/$name.ko" ;;
    esac
done
cp modules/irq_sim.ko modules/gpio-sim.ko initramfs/lib/modules/
cat > initramfs/init <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for name in ${modules_in_order[*]} irq_sim gpio-sim; do
    [ -f /lib/modules/\$name.ko ] && insmod /lib/modules/\$name.ko
done
result=1
if mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot /host; then
    mount --bind /proc /host/proc
    mount --bind /sys /host/sys
    mount --bind /dev /host/dev
    mount -t tmpfs tmpfs /host/run
    chroot /host /bin/bash "$repo/tools/gpio-sim-guest.sh" "$probe" && result=0
else
    echo "gpio-sim-guest: cannot mount the host's / over 9p"
fi
echo "gpio-sim-guest: result \$result"
# isa-debug-exit: QEMU exits with (value << 1) | 1, so 0 -> 1 (pass), 1 -> 3 (fail).
if [ \$result = 0 ]; then printf '\000'; else printf '\001'; fi | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
poweroff -f
INIT
chmod +x initramfs/init
(cd initramfs && find . | cpio -o -H newc --quiet | gzip -1) > initramfs.cpio.gz

accel=(-accel tcg,thread=multi -cpu max)
# KVM only where the CPU has it (a stock kernel hangs under KVM without vmx/svm).
if [ -w /dev/kvm ] && grep -qE 'vmx|svm' /proc/cpuinfo; then accel=(-accel kvm -cpu host); fi

step "booting the kernel under QEMU (${accel[1]})"
rm -f serial.log
set +e
timeout 300 qemu-system-x86_64 -M pc -smp 1 -m 512 "${accel[@]}" -nodefaults -display none -no-reboot \
    -serial file:serial.log -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -kernel vmlinux -initrd initramfs.cpio.gz -append "console=ttyS0 quiet panic=-1"
status=$?
set -e
grep -a -E '^(gpio-sim-guest|  )' serial.log || true
case $status in
    1) step "PASSED: every check against the kernel's gpio-sim chip passed"; exit 0 ;;
    3) fail "a check in the guest failed (QEMU exit 3); the whole log is $work/serial.log" ;;
    124) tail -20 serial.log >&2; fail "QEMU did not finish within 300 s (hang); log: $work/serial.log" ;;
    0) tail -20 serial.log >&2; fail "the guest kernel panicked or powered off without a result; log: $work/serial.log" ;;
    *) tail -20 serial.log >&2; fail "QEMU could not run (exit $status)" ;;
esac
