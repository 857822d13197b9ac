#!/usr/bin/env bash
# Packages the static Pi binaries of tools/embedded-build.sh for installing with apt:
#
#   ledring_VERSION_arm64.deb   64-bit Raspberry Pi OS (Pi 3, 4, 5, 400, 500, Zero 2 W, CM3-5):
#                               .build/embedded/aarch64/ledring
#   ledring_VERSION_armhf.deb   32-bit Raspberry Pi OS, whose dpkg architecture is armhf, on every
#                               Pi: the armv6 binary. It is static and makes only system calls, so
#                               the armel ABI it was built for does not matter to the system; armv6
#                               is what the Pi 1, Zero and Zero W can run.
#   ledring-VERSION-aarch64.tar.gz, ledring-VERSION-armv6.tar.gz
#                               the same files for any other Linux, laid out as the sources are, so
#                               `sudo tools/setup-pi.sh --binary ./ledring` installs them
#   SHA256SUMS                  of all four
#
# Each .deb installs /usr/bin/ledring, the unit in /lib/systemd/system (with its network
# drop-in in /usr/share/ledring, put in place by ledring-setup when the config needs it), the udev
# rule for the Pi 5's /dev/ledsN in /lib/udev/rules.d (bookworm's places: its deb-systemd-helper
# links /lib/systemd/system/UNIT, which on a system without merged /usr is not /usr/lib), the user and groups through /usr/lib/sysusers.d, the example
# config as the conffile /etc/ledring/config.json (dpkg never overwrites an edited one), the
# examples, and /usr/sbin/ledring-setup (tools/setup-pi.sh in package mode: SPI, clocks, network,
# the control socket's group). Purge removes the config, the state and the drop-in.
#
# The version is LEDRingApp.version; every binary must print it for `--version` (run under
# qemu-user), so the binary, the package and its file names agree.
#
# usage: tools/package.sh [--out DIR] [--version-suffix SUFFIX]
#   --out DIR                where to write (default .build/packages)
#   --version-suffix SUFFIX  appended to the package version (tools/package-test.sh builds
#                            VERSION+SUFFIX to test an upgrade); the binary's stays VERSION
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out="$repo/.build/packages"
suffix=""
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --version-suffix) suffix="$2"; shift 2 ;;
        -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
        *) echo "package.sh: unknown option $1; see --help" >&2; exit 64 ;;
    esac
done
fail() { echo "package.sh: $*" >&2; exit "${2:-1}"; }

version=$(sed -n 's/^ *public static let version = "\([^"]*\)".*/\1/p' "$repo/Sources/LEDRingApp/LEDRingApp.swift")
[ -n "$version" ] || fail "no 'static let version' in Sources/LEDRingApp/LEDRingApp.swift" 70
debversion="$version$suffix"
# Timestamps from the last commit, so the same sources give the same packages.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)}"
maintainer="ledring developers <ledring@users.noreply.github.com>"

for tool in dpkg-deb gzip sha256sum; do
    command -v "$tool" >/dev/null || fail "$tool is missing (Debian: apt-get install dpkg coreutils gzip)" 69
done

# One package tree for ARCH (tools/embedded-build.sh's name), as the .deb and the tarball have it.
stage() {
    local arch=$1 debarch=$2 emulator=$3 dest=$4 binary="$repo/.build/embedded/$1/ledring"
    [ -f "$binary" ] || fail "no $binary: build it first with tools/embedded-build.sh $arch" 66
    local said
    said=$("$emulator" "$binary" --version) || fail "$binary --version failed under $emulator" 70
    [ "$said" = "ledring $version" ] || fail "$binary says '$said', the sources say $version: rebuild it" 65

    rm -rf "$dest"
    install -D -m 0755 "$binary" "$dest/usr/bin/ledring"
    sed -e 's/^packaged=0$/packaged=1/' "$repo/tools/setup-pi.sh" > "$dest/ledring-setup"
    grep -q '^packaged=1$' "$dest/ledring-setup" || fail "tools/setup-pi.sh has no 'packaged=0' line to switch" 70
    install -D -m 0755 "$dest/ledring-setup" "$dest/usr/sbin/ledring-setup" && rm "$dest/ledring-setup"
    install -D -m 0644 "$repo/tools/ledring.service" "$dest/lib/systemd/system/ledring.service"
    install -D -m 0644 "$repo/tools/ledring.service.d/network.conf" "$dest/usr/share/ledring/network.conf"
    install -D -m 0644 "$repo/tools/60-ledring-ws2812-pio.rules" "$dest/lib/udev/rules.d/60-ledring-ws2812-pio.rules"
    install -D -m 0644 "$repo/tools/ledring.sysusers" "$dest/usr/lib/sysusers.d/ledring.conf"
    install -D -m 0644 "$repo/examples/minimal.json" "$dest/etc/ledring/config.json"
    mkdir -p "$dest/usr/share/doc/ledring/examples"
    install -m 0644 "$repo"/examples/*.json "$dest/usr/share/doc/ledring/examples/"
    # debian/copyright in the machine-readable format, the licence being the repository's own.
    {
        printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n'
        printf 'Upstream-Name: ledring\n\nFiles: *\nCopyright: %s\nLicense: Expat\n' "$(sed -n 's/^Copyright (c) //p' "$repo/LICENSE")"
        sed -n '5,$p' "$repo/LICENSE" | sed -e 's/^$/./' -e 's/^/ /'
    } > "$dest/usr/share/doc/ledring/copyright"
    chmod 0644 "$dest/usr/share/doc/ledring/copyright"
    {
        printf 'ledring (%s) stable; urgency=medium\n\n' "$debversion"
        printf '  * Static %s build of ledring %s, from commit %s.\n\n' "$arch" "$version" "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
        printf ' -- %s  %s\n' "$maintainer" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
    } | gzip -9n > "$dest/usr/share/doc/ledring/changelog.gz"
    chmod 0644 "$dest/usr/share/doc/ledring/changelog.gz"
    # ledring(1) is the program's own `help --man`, made from the table its command line is
    # parsed by, so the page and the program cannot disagree; dated SOURCE_DATE_EPOCH.
    mkdir -p "$dest/usr/share/man/man1" "$dest/usr/share/man/man8"
    local page
    page=$("$emulator" "$binary" help --man) || fail "$binary help --man failed under $emulator" 70
    printf '%s\n' "$page" | gzip -9n > "$dest/usr/share/man/man1/ledring.1.gz"
    gzip -9n < "$repo/tools/package/ledring-setup.8" > "$dest/usr/share/man/man8/ledring-setup.8.gz"
    chmod 0644 "$dest/usr/share/man/man1/ledring.1.gz" "$dest/usr/share/man/man8/ledring-setup.8.gz"
    # Shell completion from the same table, where each shell looks for a package's own.
    local shell file
    for shell in bash zsh fish; do
        case $shell in
        bash) file=usr/share/bash-completion/completions/ledring ;;
        zsh) file=usr/share/zsh/vendor-completions/_ledring ;;
        fish) file=usr/share/fish/vendor_completions.d/ledring.fish ;;
        esac
        mkdir -p "$(dirname "$dest/$file")"
        "$emulator" "$binary" completion "$shell" > "$dest/$file" || fail "$binary completion $shell failed under $emulator" 70
        chmod 0644 "$dest/$file"
    done
}

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sums=()
for spec in aarch64:arm64:qemu-aarch64-static armv6:armhf:qemu-arm-static; do
    IFS=: read -r arch debarch emulator <<< "$spec"
    command -v "$emulator" >/dev/null || fail "$emulator is missing (Debian: apt-get install qemu-user-static); it runs the binary to read its version" 69
    tree="$work/$arch"
    stage "$arch" "$debarch" "$emulator" "$tree"

    # The .deb: the tree plus DEBIAN/ (control, conffiles, maintainer scripts).
    deb="$work/deb-$arch"
    cp -a "$tree" "$deb"
    install -D -m 0644 "$repo/tools/package/lintian-overrides" "$deb/usr/share/lintian/overrides/ledring"
    mkdir -p "$deb/DEBIAN"
    size=$(du -sk --exclude=DEBIAN "$deb" | cut -f1)
    sed -e "s/@VERSION@/$debversion/" -e "s/@ARCH@/$debarch/" -e "s/@SIZE@/$size/" -e "s/@MAINTAINER@/$maintainer/" \
        "$repo/tools/package/control" > "$deb/DEBIAN/control"
    printf '/etc/ledring/config.json\n' > "$deb/DEBIAN/conffiles"
    for script in postinst prerm postrm; do
        install -m 0755 "$repo/tools/package/$script" "$deb/DEBIAN/$script"
    done
    (cd "$deb" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$deb/DEBIAN/md5sums"
    chmod 0644 "$deb/DEBIAN/control" "$deb/DEBIAN/conffiles" "$deb/DEBIAN/md5sums"
    find "$deb" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    name="ledring_${debversion}_${debarch}.deb"
    dpkg-deb --root-owner-group -Zxz --build "$deb" "$out/$name" >/dev/null
    sums+=("$name")

    # The tarball: the same files where the sources keep them, for tools/setup-pi.sh.
    top="ledring-$debversion-$arch"
    tar_tree="$work/tar/$top"
    mkdir -p "$tar_tree/tools/ledring.service.d" "$tar_tree/examples"
    install -m 0755 "$tree/usr/bin/ledring" "$tar_tree/ledring"
    install -m 0755 "$repo/tools/setup-pi.sh" "$tar_tree/tools/setup-pi.sh"
    install -m 0644 "$repo/tools/ledring.service" "$repo/tools/60-ledring-ws2812-pio.rules" "$repo/tools/ledring.sysusers" "$tar_tree/tools/"
    install -m 0644 "$repo/tools/ledring.service.d/network.conf" "$tar_tree/tools/ledring.service.d/"
    install -m 0644 "$repo"/examples/*.json "$tar_tree/examples/"
    install -m 0644 "$repo/LICENSE" "$tar_tree/LICENSE"
    find "$tar_tree" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    tarball="$top.tar.gz"
    tar -C "$work/tar" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -cf - "$top" | gzip -9n > "$out/$tarball"
    sums+=("$tarball")
done
(cd "$out" && sha256sum "${sums[@]}" > SHA256SUMS)
for file in "${sums[@]}" SHA256SUMS; do
    printf '%10d  %s\n' "$(stat -c %s "$out/$file")" "$out/$file"
done
