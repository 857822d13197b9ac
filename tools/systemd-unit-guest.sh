#!/usr/bin/env bash
# The service under a real systemd, in the QEMU guest of tools/spi-capture-test.sh (boot
# "systemd"): tools/ledring.service exactly as the package installs it, run by systemd as PID 1,
# must open the real kernel's /dev/spidev0.0 (spidev bound to the capturing controller) and send
# the frame a `ledring set` asks for. Two parts:
#
#   prepare BINARY PROBE          in the initramfs's chroot of the host's read-only /: binds
#                                 spidev, gives its node to group spi as Raspberry Pi OS does,
#                                 and builds /run/ov/root, an overlay of the host's / with the
#                                 package's files, the service user and the test units. The
#                                 initramfs then switches to it with systemd as PID 1.
#   check PROBE                   ledring-check.service, started by systemd after ledring.service:
#                                 judges the service and reports the verdict to QEMU.
#
# Raspberry Pi OS gives spidev nodes to group spi with mode 0660: SUBSYSTEM=="spidev",
# GROUP="spi", MODE="0660" in RPi-Distro/raspberrypi-sys-mods etc.armhf/udev/rules.d/99-com.rules
# (commit 05cfe13). The guest has no udevd, so prepare applies that rule by hand.
set -u
trap "" PIPE
guest_tag=systemd-guest
source "$(dirname "$0")/qemu-guest.sh"
repo=$(cd "$(dirname "$0")/.." && pwd)
mode=$1
capture=/sys/kernel/debug/ledring-spi-capture/transfers
params=/sys/module/ledring_spi_capture/parameters

case $mode in
prepare)
    binary=$2 probe=$3
    [ -x "$binary" ] || { say "FAIL no ledring binary at $binary"; exit 1; }
    echo spidev > /sys/bus/spi/devices/spi0.0/driver_override
    echo spi0.0 > /sys/bus/spi/drivers/spidev/bind
    [ -c /dev/spidev0.0 ] || { say "FAIL spidev did not bind: $(ls -l /dev/spidev* 2>&1)"; exit 1; }
    # The Pi 4's SPI clock (core 500 MHz, spi-bcm2835's even divider), as boards/rpi4b.json says.
    echo 500000000 > $params/source_hz
    echo bcm2835 > $params/divider

    mkdir -p /run/ov/upper /run/ov/work /run/ov/root
    mount -t overlay overlay -o lowerdir=/,upperdir=/run/ov/upper,workdir=/run/ov/work /run/ov/root ||
        { say "FAIL cannot mount the overlay of / at /run/ov/root"; exit 1; }
    root=/run/ov/root
    # The package's files where the package puts them (tools/package.sh).
    install -D -m 0755 "$binary" $root/usr/bin/ledring
    install -D -m 0644 "$repo/tools/ledring.service" $root/lib/systemd/system/ledring.service
    install -D -m 0644 "$repo/tools/ledring.sysusers" $root/usr/lib/sysusers.d/ledring.conf
    systemd-sysusers --root=$root ledring.conf || { say "FAIL systemd-sysusers --root=$root ledring.conf"; exit 1; }
    mkdir -p $root/etc/ledring
    cat > $root/etc/ledring/config.json <<'JSON'
{
  "rings": [{ "name": "build", "leds": 24 }],
  "output": { "driver": "ws2812-spi", "device": "/dev/spidev0.0", "board": "rpi4b" },
  "maxMilliamps": 100000,
  "dither": "off"
}
JSON
    # 99-com.rules' spidev line, applied once (devtmpfs keeps it when systemd mounts /dev again).
    spi_gid=$(awk -F: '$1 == "spi" { print $3 }' $root/etc/group)
    [ -n "$spi_gid" ] || { say "FAIL sysusers made no group spi"; exit 1; }
    chgrp "$spi_gid" /dev/spidev0.0 && chmod 0660 /dev/spidev0.0

    # The test: a target that pulls in the service and, after it, the check.
    mkdir -p $root/etc/systemd/system
    cat > $root/etc/systemd/system/ledring-test.target <<UNIT
[Unit]
Description=ledring service test
Requires=ledring-check.service
After=ledring-check.service
# A boot that never reaches the check powers off, which the test reports as no verdict.
JobTimeoutSec=300
JobTimeoutAction=poweroff-force
UNIT
    cat > $root/etc/systemd/system/ledring-check.service <<UNIT
[Unit]
Description=ledring service check
# (systemd-run, for the controls, talks to systemd over D-Bus.)
Wants=ledring.service dbus.service
After=ledring.service dbus.service
[Service]
Type=oneshot
ExecStart=/bin/bash $repo/tools/systemd-unit-guest.sh check $probe
# The check reports its own verdict; if it could not run at all, this reports a failure at once.
ExecStopPost=/bin/sh -c 'echo "systemd-guest: the check ended with \$\$SERVICE_RESULT"; [ "\$\$SERVICE_RESULT" = success ] || printf "\\001" | dd of=/dev/port bs=1 seek=244 count=1'
StandardOutput=file:/dev/ttyS0
StandardError=file:/dev/ttyS0
UNIT
    # The target is the default one as well as the kernel command line's: systemd ignores the
    # command line where it believes it is in a container, and this host's / may say so with a
    # /.dockerenv, which is removed from the overlay for the same reason (detect_container()).
    ln -sf ledring-test.target $root/etc/systemd/system/default.target
    # Debian's tmpfiles.d/tmp.conf empties /tmp at boot ("D /tmp"), which in the overlay would
    # hide a checkout under /tmp from the check; this keeps /tmp as it is.
    mkdir -p $root/etc/tmpfiles.d
    echo 'd /tmp 1777 root root -' > $root/etc/tmpfiles.d/tmp.conf
    rm -f $root/.dockerenv $root/run/.containerenv $root/run/systemd/container
    say "prepared $root: ledring.service, user ledring ($(grep '^ledring:' $root/etc/group | cut -d: -f1,3)), /dev/spidev0.0 $(stat -c '%u:%g %a' /dev/spidev0.0) (group spi is $spi_gid)"
    ;;

check)
    probe=$2
    verdict() {
        say "$failures failed"
        say "result $failures"
        # isa-debug-exit: QEMU exits with (value << 1) | 1, so 0 -> 1 (pass), 1 -> 3 (fail).
        if [ "$failures" = 0 ]; then printf '\000'; else printf '\001'; fi | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
        exit 0
    }
    journal() { journalctl -u ledring --no-pager -o cat 2>&1 | tail -20 | sed 's/^/  /'; }
    mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
    transfers() { grep -c '^xfer' "$capture"; }
    say "systemd $(systemctl --version | head -1 | cut -d' ' -f2) is PID 1: $(cat /proc/1/comm)"

    # 1. The unit is running as its user, with its socket.
    tries=0
    until [ -S /run/ledring/ledring.sock ] || [ $tries -ge 60 ]; do sleep 1; tries=$((tries + 1)); done
    state=$(systemctl show ledring.service -p ActiveState --value)
    pid=$(systemctl show ledring.service -p MainPID --value)
    if [ "$state" = active ] && [ -S /run/ledring/ledring.sock ] && [ "$pid" != 0 ]; then
        pass "ledring.service is active, pid $pid, socket /run/ledring/ledring.sock"
    else
        flunk "ledring.service is $state, no socket after ${tries}s:"; journal; verdict
    fi
    who=$(ps -o user=,group=,supgrp= -p "$pid" | tr -s ' ')
    case " $who " in
        " ledring ledring "*spi*gpio*|" ledring ledring "*gpio*spi*) pass "it runs as user ledring, group ledring, groups: $who" ;;
        *) flunk "it runs as: $who" ;;
    esac

    # 2. It opened the real spidev under DevicePolicy=closed and sends what `ledring set` asks.
    echo clear > "$capture"
    out=$(/usr/bin/ledring set build=0.5 --socket /run/ledring/ledring.sock 2>&1) || flunk "ledring set: $out"
    before=-1 now=$(transfers) tries=0
    until { [ "$now" -ge 1 ] && [ "$now" = "$before" ]; } || [ $tries -ge 60 ]; do
        before=$now; sleep 1; now=$(transfers); tries=$((tries + 1))
    done
    status=$(/usr/bin/ledring status --socket /run/ledring/ledring.sock 2>&1)
    echo "$status" | sed 's/^/  /'
    systemctl stop ledring.service
    cat "$capture" > /run/capture-service.txt
    if [ "$now" -ge 1 ]; then
        pass "the service sent $now transfers to /dev/spidev0.0 after \`ledring set build=0.5\`; $(transfers) after systemctl stop"
    else
        flunk "the service sent nothing to /dev/spidev0.0:"; journal
    fi
    /usr/bin/ledring --simulate --format json --frames 1 --rings build:24 --set build=0.5 \
        --max-milliamps 100000 --dither off > /run/sim-service.json 2>&1
    echo "capture=/run/capture-service.txt simulated=/run/sim-service.json driver=ws2812-spi board=rpi4b run=daemon leds=24 label=ledring.service under systemd: set build=0.5, systemctl stop" > /run/plan.txt
    out=$("$probe" spi-check --plan /run/plan.txt 2>&1)
    echo "$out" | while IFS= read -r line; do say "$line"; done
    grep -q '^checked 1 captures, 0 failed$' <<<"$out" || flunk "the captured frames are not the simulated ones (above)"

    # 3. The control: the same sandbox with the old name, char-spidev, is denied the device; with
    #    char-spi it is allowed. So step 2 passing means the unit's name is right.
    for name in spidev spi; do
        out=$(systemd-run --wait --pipe --quiet -p User=ledring -p SupplementaryGroups="spi gpio" \
            -p DevicePolicy=closed -p DeviceAllow="char-$name rw" \
            /usr/bin/ledring --driver ws2812-spi --device /dev/spidev0.0 --board rpi4b --frames 1 \
            --rings build:24 --set build=0.5 2>&1)
        code=$?
        case "$name:$code" in
            spidev:0) flunk "DeviceAllow=char-spidev still opened /dev/spidev0.0: the control cannot fail" ;;
            spidev:*)
                # Refused for the right reason: the device cgroup's EPERM on opening the node.
                if grep -qi 'spidev0.0.*not permitted' <<<"$out"; then
                    pass "control: with DeviceAllow=char-spidev the same program is refused the device (exit $code): $(grep -m1 -i 'not permitted' <<<"$out" | cut -c1-160)"
                else
                    flunk "control: with DeviceAllow=char-spidev it failed for another reason (exit $code): $out"
                fi ;;
            spi:0) pass "control: with DeviceAllow=char-spi it sends its frame (exit 0)" ;;
            spi:*) flunk "with DeviceAllow=char-spi the program failed (exit $code): $out" ;;
        esac
    done
    verdict
    ;;
*)
    say "FAIL usage: systemd-unit-guest.sh prepare BINARY PROBE | check PROBE"; exit 1 ;;
esac
