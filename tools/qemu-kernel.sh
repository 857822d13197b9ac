# Sourced by the kernel tests (tools/gpio-sim-test.sh, tools/spi-capture-test.sh): boots Debian's
# own kernel under QEMU with a busybox initramfs that mounts the host's / read only over 9p and
# runs a guest script in a chroot there. See ../shared/notes/gpio-sim-under-qemu.md for why each
# step is needed. The caller sets `tag` (its name in messages) before sourcing.
#
# env: LEDRING_QEMU_CACHE    downloads and builds, shared by the tests (default /var/cache/ledring-qemu)
#      LEDRING_QEMU_INSTALL=1  apt-get install missing packages (CI does this as root)
# Nothing here reports a pass it did not see: the guest's verdict comes back as QEMU's exit code.

started=$(date +%s)
fail() {
    echo "$tag: FAILED: $*" >&2
    exit 1
}
step() { echo "$tag: [$(( $(date +%s) - started ))s] $*"; }

# Sets kver, debver, series, work (the cache directory for this kernel), moddir and config;
# installs what is missing, downloads the kernel image once and cuts out an uncompressed vmlinux.
qemu_kernel_prepare() {
    # The kernel version Debian boots by default; image, headers and source must all be this version.
    kver=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ { sub("linux-image-", "", $2); print $2; exit }')
    [ -n "$kver" ] || fail "apt-cache does not know linux-image-amd64; run \`apt-get update\`"
    debver=$(apt-cache show "linux-image-$kver" | awk '/^Version:/ { print $2; exit }')
    series=${kver%%-*}          # 6.1.0
    series=${series%.*}         # 6.1
    step "kernel $kver (Debian $debver)"

    local packages=(qemu-system-x86 busybox-static cpio xz-utils make "linux-headers-$kver") missing=() package
    for package in "${packages[@]}"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        if [ "${LEDRING_QEMU_INSTALL:-0}" = 1 ]; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
        else
            fail "missing packages: ${missing[*]} (install them, or set LEDRING_QEMU_INSTALL=1 as root)"
        fi
    fi
    command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 not found although qemu-system-x86 is installed"

    work="${LEDRING_QEMU_CACHE:-/var/cache/ledring-qemu}/$kver"
    mkdir -p "$work"
    cd "$work"

    # Kernel image: fetched at test time, never committed; cached for reruns and the other test.
    if [ ! -f image.deb ]; then
        step "downloading linux-image-$kver"
        apt-get download "linux-image-$kver=$debver" >/dev/null 2>&1 || fail "apt-get download linux-image-$kver=$debver failed"
        mv linux-image-*.deb image.deb
    fi
    if [ ! -d image ]; then
        rm -rf image.tmp
        dpkg-deb -x image.deb image.tmp && mv image.tmp image
    fi
    moddir="$work/image/lib/modules/$kver/kernel"
    config="$work/image/boot/config-$kver"

    # The uncompressed kernel boots about twice as fast under TCG: cut vmlinuz at the xz magic.
    if [ ! -f vmlinux ]; then
        # LC_ALL=C: in a UTF-8 locale grep -P refuses the byte 0xFD.
        local offset
        offset=$(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "image/boot/vmlinuz-$kver" | head -1 | cut -d: -f1 || true)
        [ -n "$offset" ] || fail "no xz stream in image/boot/vmlinuz-$kver"
        tail -c +"$((offset + 1))" "image/boot/vmlinuz-$kver" | xz -dc > vmlinux.tmp 2>/dev/null || true
        [ -s vmlinux.tmp ] || fail "could not decompress the kernel from vmlinuz-$kver"
        mv vmlinux.tmp vmlinux
    fi
}

# qemu_make_initramfs DIR GUEST_TAG GUEST_COMMAND EXTRA_MODULE...
# Writes DIR/initramfs.cpio.gz: busybox, 9p and virtio from the kernel image (plus configfs), then
# the EXTRA_MODULE .ko files in order (a failed load is a failed boot); it mounts the host's /
# and runs GUEST_COMMAND in a chroot there. GUEST_COMMAND is shell text evaluated in the guest,
# where $boot holds the kernel command line's ledring_boot= word.
qemu_make_initramfs() {
    local dir=$1 guest_tag=$2 guest_command=$3
    shift 3
    local extra=("$@") name file
    step "making the initramfs"
    rm -rf "$dir/initramfs" && mkdir -p "$dir"/initramfs/{bin,lib/modules,host,proc,sys,dev}
    cp /bin/busybox "$dir/initramfs/bin/busybox"
    local modules_in_order=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p configfs)
    local present=()
    for name in "${modules_in_order[@]}"; do
        file=$(find "$moddir" -name "$name.ko*" | head -1)
        [ -n "$file" ] || continue  # built into this kernel
        case "$file" in
            *.xz) xz -dc "$file" > "$dir/initramfs/lib/modules/$name.ko" ;;
            *) cp "$file" "$dir/initramfs/lib/modules/$name.ko" ;;
        esac
        present+=("$name")
    done
    local extra_names=()
    for file in "${extra[@]}"; do
        cp "$file" "$dir/initramfs/lib/modules/"
        extra_names+=("$(basename "$file" .ko)")
    done
    cat > "$dir/initramfs/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for name in ${present[*]}; do insmod /lib/modules/\$name.ko; done
boot=\$(sed -n 's/.*ledring_boot=\([a-z]*\).*/\1/p' /proc/cmdline)
result=1
loaded=1
for name in ${extra_names[*]}; do
    insmod /lib/modules/\$name.ko || { echo "$guest_tag: FAIL cannot load \$name.ko"; loaded=0; }
done
if [ \$loaded = 0 ]; then
    :
elif mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot /host; then
    mount --bind /proc /host/proc
    mount --bind /sys /host/sys
    mount --bind /dev /host/dev
    mount -t tmpfs tmpfs /host/run
    $guest_command && result=0
else
    echo "$guest_tag: cannot mount the host's / over 9p"
fi
echo "$guest_tag: result \$result"
# isa-debug-exit: QEMU exits with (value << 1) | 1, so 0 -> 1 (pass), 1 -> 3 (fail).
if [ \$result = 0 ]; then printf '\000'; else printf '\001'; fi | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
poweroff -f
INIT
    chmod +x "$dir/initramfs/init"
    (cd "$dir/initramfs" && find . | cpio -o -H newc --quiet | gzip -1) > "$dir/initramfs.cpio.gz"
}

# qemu_boot INITRAMFS LOG TIMEOUT_S MEMORY_MB GUEST_TAG APPEND: boots the kernel, prints the
# guest's report lines and sets `status` to QEMU's exit code (1 pass, 3 a failed check, 124 a
# hang, 0 a panic or a power-off without a verdict).
qemu_boot() {
    local initramfs=$1 log=$2 timeout_s=$3 memory=$4 guest_tag=$5 append=$6
    local accel=(-accel tcg,thread=multi -cpu max)
    # KVM only where the CPU has it (a stock kernel hangs under KVM without vmx/svm).
    if [ -w /dev/kvm ] && grep -qE 'vmx|svm' /proc/cpuinfo; then accel=(-accel kvm -cpu host); fi
    step "booting the kernel under QEMU (${accel[1]}) ${append:+with $append}"
    rm -f "$log"
    set +e
    timeout "$timeout_s" qemu-system-x86_64 -M pc -smp 1 -m "$memory" "${accel[@]}" -nodefaults -display none -no-reboot \
        -serial "file:$log" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
        -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
        -kernel "$work/vmlinux" -initrd "$initramfs" -append "console=ttyS0 quiet panic=-1 $append"
    status=$?
    set -e
    grep -a -E "^($guest_tag|  )" "$log" || true
}

# Explains a QEMU exit code other than a pass, for the log at LOG.
qemu_verdict() {
    local log=$1 timeout_s=$2
    case $status in
        3) echo "a check in the guest failed (QEMU exit 3); the whole log is $log" ;;
        124) tail -20 "$log" >&2; echo "QEMU did not finish within $timeout_s s (hang); log: $log" ;;
        0) tail -20 "$log" >&2; echo "the guest kernel panicked or powered off without a result; log: $log" ;;
        *) tail -20 "$log" >&2; echo "QEMU could not run (exit $status)" ;;
    esac
}
