#!/usr/bin/env bash
# Tests the packages of tools/package.sh as a Pi would get them: each .deb is installed, upgraded,
# removed and purged with apt and dpkg in a Debian chroot of its own architecture (debootstrap
# --variant=minbase from Debian's packages, run under qemu-user-static through binfmt_misc), and
# the installed binary runs there. The tarballs are checked against SHA256SUMS and installed with
# their own tools/setup-pi.sh into a fake Pi root.
#
# Needs root (debootstrap, chroot, binfmt_misc), debootstrap, qemu-user-static, and the static
# binaries of tools/embedded-build.sh. The chroots are kept in .build/package-test/ARCH.base and
# copied afresh for every run, so a second run needs no network.
#
# usage: sudo tools/package-test.sh [--prepare] [arm64|armhf ...]   (default: both)
#   --prepare  only make the chroots (no binaries needed): .ci/run does this beside the QEMU
#              steps, which keep one core busy, and runs the test itself later
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work="$repo/.build/package-test"
prepare_only=0
if [ "${1:-}" = --prepare ]; then prepare_only=1; shift; fi
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(arm64 armhf)

fail() { echo "package-test: FAIL: $*" >&2; exit 1; }
ok() { echo "package-test: ok: $*"; }
[ "$(id -u)" -eq 0 ] || { echo "package-test: needs root (debootstrap and chroot)" >&2; exit 77; }
for tool in debootstrap dpkg-deb sha256sum; do
    command -v "$tool" >/dev/null || { echo "package-test: $tool is missing (Debian: apt-get install debootstrap)" >&2; exit 69; }
done

mkdir -p "$work"

# binfmt_misc runs the chroots' foreign executables with qemu-user-static. The F flag of Debian's
# registrations opens the emulator now, so it works inside the chroot without a copy of it.
binfmt=/proc/sys/fs/binfmt_misc
[ -e "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt" \
    || fail "cannot mount binfmt_misc at $binfmt; a foreign chroot cannot run without it"
for emulator in aarch64 arm; do
    if [ ! -e "$binfmt/qemu-$emulator" ]; then
        [ -f "/usr/lib/binfmt.d/qemu-$emulator.conf" ] || fail "no /usr/lib/binfmt.d/qemu-$emulator.conf (Debian: apt-get install qemu-user-static)"
        cat "/usr/lib/binfmt.d/qemu-$emulator.conf" > "$binfmt/register"
    fi
done

# Debian's mirror and release as this machine's apt has them.
mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || fail "no Debian mirror in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list"
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")

mounted=()
cleanup() {
    local m
    for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT

# Runs a shell command inside the chroot; its output is shown.
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -c "$1"; }
# (tested in the chroot, where its absolute symbolic links resolve)
expect_file() { in_root "test -e '$1'" || fail "$arch: $2: no $1"; }
expect_gone() { in_root "test ! -e '$1' && test ! -L '$1'" || fail "$arch: $2: $1 is still there"; }

# The arm64 root has systemd, as Raspberry Pi OS has: the package makes its user with
# systemd-sysusers there, and systemd-analyze checks the unit (not its man: links, as the chroot
# has no man-db). The armhf root has none, so the
# maintainer scripts' groupadd/useradd path is tested too.
# Both have procps, for the unit's /bin/kill, as every Raspberry Pi OS has.
extra_arm64=--include=systemd,procps
extra_armhf=--include=procps

prepare() {
    local arch=$1 base="$work/$1.base" extra_var="extra_$1"
    local extra="${!extra_var:-}"
    if [ ! -f "$base/.ledring-ready" ] || [ "$(cat "$base/.ledring-ready")" != "$extra" ]; then
        rm -rf "$base"
        echo "package-test: debootstrap $suite for $arch (minbase $extra) from $mirror"
        debootstrap --variant=minbase $extra --arch="$arch" "$suite" "$base" "$mirror" > "$work/$arch.debootstrap.log" 2>&1 \
            || { tail -20 "$work/$arch.debootstrap.log" >&2; fail "debootstrap $arch failed (log: $work/$arch.debootstrap.log)"; }
        printf '%s' "$extra" > "$base/.ledring-ready"
    fi
    ok "$arch: chroot $base"
}
for arch in "${arches[@]}"; do prepare "$arch"; done
[ "$prepare_only" -eq 0 ] || exit 0

version=$(sed -n 's/^ *public static let version = "\([^"]*\)".*/\1/p' "$repo/Sources/LEDRingApp/LEDRingApp.swift")
next="$version+test1"
mkdir -p "$work"
tools/package.sh --out "$work/packages" >/dev/null
tools/package.sh --out "$work/next" --version-suffix +test1 >/dev/null
ok "built $(cd "$work/packages" && echo *.deb *.tar.gz) and the $next packages for the upgrade"

# lintian, as a Debian archive would check them: each remaining tag is overridden with its reason
# in tools/package/lintian-overrides.
command -v lintian >/dev/null || fail "lintian is missing (Debian: apt-get install lintian)"
status=0
# (The upgrade's packages differ only in their version: the released ones are checked.)
lintian --fail-on error,warning --tag-display-limit 0 "$work/packages"/*.deb > "$work/lintian.log" 2>&1 || status=$?
grep -v '^running with root privileges' "$work/lintian.log" || true
[ "$status" -eq 0 ] || fail "lintian found errors or warnings (above), exit $status"
ok "lintian: no errors or warnings"

for arch in "${arches[@]}"; do
    base="$work/$arch.base"
    root="$work/$arch.root"
    rm -rf "$root"
    cp -a "$base" "$root"
    mount -t proc proc "$root/proc" && mounted+=("$root/proc")
    [ "$(in_root 'dpkg --print-architecture')" = "$arch" ] || fail "$arch: the chroot's dpkg is not $arch"
    cp "$work/packages/ledring_${version}_$arch.deb" "$work/next/ledring_${next}_$arch.deb" "$root/tmp/"

    # Install, as the README says: apt install ./ledring_VERSION_ARCH.deb.
    in_root "apt-get install -y /tmp/ledring_${version}_$arch.deb" > "$work/$arch.install.log" 2>&1 \
        || { cat "$work/$arch.install.log" >&2; fail "$arch: apt-get install of the .deb failed"; }
    [ "$(in_root "dpkg-query -W -f '\${Status} \${Version}' ledring")" = "install ok installed $version" ] \
        || fail "$arch: dpkg does not list ledring $version as installed"
    for file in /usr/bin/ledring /usr/sbin/ledring-setup /lib/systemd/system/ledring.service \
        /lib/udev/rules.d/60-ledring-ws2812-pio.rules /usr/lib/sysusers.d/ledring.conf \
        /usr/share/ledring/network.conf /etc/ledring/config.json /usr/share/doc/ledring/copyright \
        /usr/share/man/man1/ledring.1.gz /etc/systemd/system/multi-user.target.wants/ledring.service \
        /usr/share/bash-completion/completions/ledring /usr/share/zsh/vendor-completions/_ledring \
        /usr/share/fish/vendor_completions.d/ledring.fish; do
        expect_file "$file" "after install"
    done
    # (symbolic links are resolved in the chroot: they are absolute)
    in_root 'cmp /etc/systemd/system/multi-user.target.wants/ledring.service /lib/systemd/system/ledring.service' \
        || fail "$arch: multi-user.target.wants/ledring.service is not the installed unit"
    in_root 'dpkg-query -W -f "\${Conffiles}" ledring' | grep -q '^ /etc/ledring/config.json [0-9a-f]\{32\}$' \
        || fail "$arch: /etc/ledring/config.json is not a conffile"
    groups=$(in_root 'id -nG ledring') || fail "$arch: no user ledring after install"
    for group in ledring spi gpio; do
        printf '%s\n' $groups | grep -qx "$group" || fail "$arch: user ledring is not in group $group (groups: $groups)"
    done
    [ "$(in_root 'getent passwd ledring | cut -d: -f7')" = /usr/sbin/nologin ] || fail "$arch: user ledring can log in"
    if in_root 'command -v systemd-sysusers' >/dev/null; then maker=systemd-sysusers; else maker=useradd; fi
    ok "$arch: installed with apt: files, unit enabled, conffile, user ledring (by $maker) in groups $groups"
    # systemd's own reading of the installed unit: an unknown or misspelt setting is an error.
    if in_root 'command -v systemd-analyze' >/dev/null; then
        in_root 'systemd-analyze verify --man=no /lib/systemd/system/ledring.service' > "$work/$arch.verify.log" 2>&1 \
            || { cat "$work/$arch.verify.log" >&2; fail "$arch: systemd-analyze verify refuses the unit"; }
        [ ! -s "$work/$arch.verify.log" ] || { cat "$work/$arch.verify.log" >&2; fail "$arch: systemd-analyze verify warns about the unit"; }
        ok "$arch: systemd-analyze verify: the unit is clean"
    fi

    # The installed binary, under qemu-user in its own architecture's root.
    [ "$(in_root 'ledring --version')" = "ledring $version" ] || fail "$arch: ledring --version is not 'ledring $version'"
    in_root 'ledring check-config /etc/ledring/config.json' | grep -q 'OK' || fail "$arch: check-config refuses the installed example"
    in_root 'ledring check-config /usr/share/doc/ledring/examples/minimal.json' >/dev/null || fail "$arch: check-config refuses examples/minimal.json"
    frame=$(in_root 'ledring --simulate --rings build:24 --set build=0.5' | sed -n 's/^  build *//p' | head -1)
    case "$frame" in
        "50.0% #"*) ;;
        *) fail "$arch: ledring --simulate printed no half-lit build ring: '$frame'" ;;
    esac
    ok "$arch: ledring --version, check-config on the installed example, --simulate: $(echo "$frame" | cut -c1-40)…"

    # ledring-setup in package mode, on a fake Pi in the chroot: SPI on, and the network drop-in
    # once the config needs the network.
    mkdir -p "$root/tmp/pi/boot/firmware" "$root/tmp/pi/etc/ledring" "$root/tmp/pi/proc/device-tree"
    printf '[pi4]\narm_boost=1\n' > "$root/tmp/pi/boot/firmware/config.txt"
    printf 'console=tty1 root=PARTUUID=1-02 rootwait\n' > "$root/tmp/pi/boot/firmware/cmdline.txt"
    printf 'Raspberry Pi Zero W Rev 1.1\0' > "$root/tmp/pi/proc/device-tree/model"
    printf '{ "rings": [{ "name": "a", "leds": 12 }], "mqtt": { "host": "localhost" } }\n' > "$root/tmp/pi/etc/ledring/config.json"
    in_root 'ledring-setup --root /tmp/pi' > "$work/$arch.setup.log" 2>&1 || { cat "$work/$arch.setup.log" >&2; fail "$arch: ledring-setup --root failed"; }
    grep -q '^dtparam=spi=on$' "$root/tmp/pi/boot/firmware/config.txt" || fail "$arch: ledring-setup did not turn SPI on"
    grep -q '^core_freq=250$' "$root/tmp/pi/boot/firmware/config.txt" || fail "$arch: ledring-setup did not pin the Zero W's core clock"
    cmp -s "$root/usr/share/ledring/network.conf" "$root/tmp/pi/etc/systemd/system/ledring.service.d/network.conf" \
        || fail "$arch: ledring-setup did not install the network drop-in for an mqtt config"
    [ ! -e "$root/tmp/pi/usr/local/bin/ledring" ] || fail "$arch: ledring-setup installed a second binary in package mode"
    in_root 'ledring-setup --binary /tmp/other --root /tmp/pi' >/dev/null 2>&1 && fail "$arch: ledring-setup took --binary"
    ok "$arch: ledring-setup: SPI on, core clock pinned, the network drop-in for mqtt, nothing else installed"

    # Upgrade: the edited config and the state stay, the new version is in place, still enabled.
    printf '{\n  "rings": [{ "name": "mine", "leds": 16 }],\n  "output": { "driver": "ws2812-spi" }\n}\n' > "$root/etc/ledring/config.json"
    mkdir -p "$root/var/lib/ledring" && printf '{"kept": true}\n' > "$root/var/lib/ledring/state.json"
    mkdir -p "$root/etc/systemd/system/ledring.service.d" && cp "$root/usr/share/ledring/network.conf" "$root/etc/systemd/system/ledring.service.d/"
    edited=$(sha256sum < "$root/etc/ledring/config.json")
    in_root "apt-get install -y /tmp/ledring_${next}_$arch.deb" > "$work/$arch.upgrade.log" 2>&1 \
        || { cat "$work/$arch.upgrade.log" >&2; fail "$arch: the upgrade to $next failed"; }
    [ "$(in_root "dpkg-query -W -f '\${Version}' ledring")" = "$next" ] || fail "$arch: not upgraded to $next"
    [ "$(sha256sum < "$root/etc/ledring/config.json")" = "$edited" ] || fail "$arch: the upgrade changed the edited /etc/ledring/config.json"
    grep -q kept "$root/var/lib/ledring/state.json" || fail "$arch: the upgrade lost /var/lib/ledring/state.json"
    expect_file /etc/systemd/system/multi-user.target.wants/ledring.service "after the upgrade"
    in_root 'ledring check-config /etc/ledring/config.json' | grep -q 'mine (16 LEDs)' || fail "$arch: check-config does not read the kept config"
    ok "$arch: upgraded to $next with apt: edited config, state and enablement kept"

    # Remove: the program goes, the config and state stay.
    in_root 'apt-get remove -y ledring' > "$work/$arch.remove.log" 2>&1 || { cat "$work/$arch.remove.log" >&2; fail "$arch: apt-get remove failed"; }
    expect_gone /usr/bin/ledring "after remove"
    expect_gone /lib/systemd/system/ledring.service "after remove"
    expect_file /etc/ledring/config.json "after remove"
    expect_file /var/lib/ledring/state.json "after remove"
    ok "$arch: removed: binary and unit gone, config and state kept"

    # Purge: everything of ours goes.
    in_root 'dpkg --purge ledring' > "$work/$arch.purge.log" 2>&1 || { cat "$work/$arch.purge.log" >&2; fail "$arch: dpkg --purge failed"; }
    for gone in /etc/ledring /var/lib/ledring /etc/systemd/system/ledring.service.d \
        /etc/systemd/system/multi-user.target.wants/ledring.service /etc/systemd/system/ledring.service; do
        expect_gone "$gone" "after purge"
    done
    in_root 'dpkg-query -W -f "\${Status}" ledring 2>/dev/null' | grep -q installed && fail "$arch: dpkg still knows ledring after purge"
    ok "$arch: purged: config, state, drop-in and enablement gone"

    umount "$root/proc" && mounted=("${mounted[@]/$root\/proc}")
    rm -rf "$root"
done

# The tarballs: checksums, and their own setup script installs them into a fake Pi root.
(cd "$work/packages" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match the files"
for tarball in "$work/packages"/ledring-*.tar.gz; do
    unpacked="$work/tar" && rm -rf "$unpacked" && mkdir -p "$unpacked"
    tar -C "$unpacked" -xzf "$tarball"
    top=$(basename "$tarball" .tar.gz)
    pi="$work/tar/pi" && mkdir -p "$pi/boot/firmware"
    printf 'dtparam=audio=on\n' > "$pi/boot/firmware/config.txt"
    (cd "$unpacked/$top" && tools/setup-pi.sh --binary ./ledring --root "$pi" > "$work/tar.setup.log" 2>&1) \
        || { cat "$work/tar.setup.log" >&2; fail "$top: its tools/setup-pi.sh failed"; }
    cmp -s "$unpacked/$top/ledring" "$pi/usr/local/bin/ledring" || fail "$top: setup-pi.sh did not install its binary"
    grep -q '^ExecStart=/usr/local/bin/ledring ' "$pi/etc/systemd/system/ledring.service" || fail "$top: the unit does not run /usr/local/bin/ledring"
    cmp -s "$unpacked/$top/examples/minimal.json" "$pi/etc/ledring/config.json" || fail "$top: no /etc/ledring/config.json"
    ok "$top: SHA256SUMS matches; its setup-pi.sh installs binary, unit and config"
done
rm -rf "$work/tar"
echo "package-test: all passed"
