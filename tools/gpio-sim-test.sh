#!/usr/bin/env bash
# Tests ledring's GPIO code against a real kernel GPIO chip: boots Debian's own kernel under QEMU
# with the gpio-sim driver (built out of tree: Debian's kernel lacks it), shares the host's / read
# only over 9p, and runs tools/gpio-sim-guest.sh in a chroot there with the built gpio-sim-probe.
# The boot itself is tools/qemu-kernel.sh, shared with tools/spi-capture-test.sh.
#
# usage: tools/gpio-sim-test.sh [PROBE]   (default: .build/debug/gpio-sim-probe; build it first)
# env:   LEDRING_QEMU_CACHE  downloads and builds (default /var/cache/ledring-qemu)
#        LEDRING_QEMU_INSTALL=1  apt-get install missing packages (CI does this as root)
# Exit 0 only when every check in the guest passed; anything else (QEMU missing, a hang, a panic,
# a failed check) is a failure with the reason on stderr; it never reports a pass it did not see.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
probe=$(realpath "${1:-$repo/.build/debug/gpio-sim-probe}")
tag=gpio-sim-test
source "$repo/tools/qemu-kernel.sh"

[ -x "$probe" ] || fail "no probe at $probe; run \`swift build --product gpio-sim-probe\` first"
qemu_kernel_prepare

# gpio-sim and irq_sim, built out of tree (Debian's kernel has neither).
if [ ! -f modules/gpio-sim.ko ] || [ ! -f modules/irq_sim.ko ]; then
    if [ ! -d src ]; then
        if [ ! -f source.deb ]; then
            step "downloading linux-source-$series"
            apt-get download "linux-source-$series=$debver" >/dev/null
            mv linux-source-*.deb source.deb
        fi
        step "extracting three files from the kernel source"
        rm -rf src.tmp && mkdir -p src.tmp
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

mkdir -p gpio-sim
qemu_make_initramfs "$work/gpio-sim" gpio-sim-guest \
    "chroot /host /bin/bash \"$repo/tools/gpio-sim-guest.sh\" \"$probe\"" \
    modules/irq_sim.ko modules/gpio-sim.ko
qemu_boot "$work/gpio-sim/initramfs.cpio.gz" "$work/gpio-sim/serial.log" 300 512 gpio-sim-guest ""
[ "$status" = 1 ] || fail "$(qemu_verdict "$work/gpio-sim/serial.log" 300)"
step "PASSED: every check against the kernel's gpio-sim chip passed"
