#!/usr/bin/env bash
# Sets up a fresh Raspberry Pi OS (Bookworm) for the ledring service, printing every change:
#   - SPI on (dtparam=spi=on in config.txt, under [all] so it holds on every model)
#   - spidev.bufsiz=65536 on the kernel command line (a WS2812 frame must go in one transfer)
#   - core_freq and core_freq_min fixed on Pi 3/4/Zero/Zero W/Zero 2 W (the SPI clock follows the
#     core clock), also under [all]
#   - a udev rule giving the Pi 5's /dev/ledsN (ws2812-pio overlay) to group gpio
#   - the `ledring` system user in the spi and gpio groups; the invoking user in the ledring group
#   - /usr/local/bin/ledring, /etc/ledring/config.json and the systemd unit, enabled
#   - the unit's network drop-in when the config has http, mqtt or a command source
# Safe to run again: what is already right is left alone and reported as such. Without a binary
# it changes nothing and exits 69: a unit enabled without its program would only fail at boot.
#
# usage: sudo tools/setup-pi.sh --binary PATH [--config FILE] [--user NAME] [--dry-run] [--root DIR]
#   --binary PATH  the ledring binary to install: your build on a 64-bit Pi OS
#                  (`swift build -c release --static-swift-stdlib`, then .build/release/ledring), or
#                  a static one from tools/embedded-build.sh (.build/embedded/aarch64/ledring for
#                  64-bit Raspberry Pi OS, .build/embedded/armv6/ledring for 32-bit, any Pi)
#   --config FILE  the config to install if /etc/ledring/config.json does not exist yet
#                  (default: examples/minimal.json)
#   --user NAME    who may use the control socket (default: $SUDO_USER)
#   --dry-run      print what would change, change nothing
#   --root DIR     operate on a copy of a root file system (for testing); skips users and systemctl
#
# The ledring package installs this as /usr/sbin/ledring-setup (tools/package.sh sets packaged=1):
# the package has already put the binary, the unit, the udev rule, the config and the users in
# place, so it does the rest (boot settings, clocks, the network drop-in, the socket's group) and
# needs no --binary.
set -euo pipefail

packaged=0
if [ "$packaged" -eq 1 ]; then
    here=/usr/share/ledring
    binary=/usr/bin/ledring
    dropin_source="$here/network.conf"
    name=ledring-setup
else
    here="$(cd "$(dirname "$0")/.." && pwd)"
    binary=""
    dropin_source="$here/tools/ledring.service.d/network.conf"
    name=setup-pi.sh
fi
config="$here/examples/minimal.json"
user="${SUDO_USER:-}"
dry=0
root=""

while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --config) config="$2"; shift 2 ;;
        --user) user="$2"; shift 2 ;;
        --dry-run) dry=1; shift ;;
        --root) root="${2%/}"; shift 2 ;;
        -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
        *) echo "$name: unknown option $1; see --help" >&2; exit 64 ;;
    esac
done
if [ "$packaged" -eq 1 ] && { [ "$binary" != /usr/bin/ledring ] || [ "$config" != "$here/examples/minimal.json" ]; }; then
    echo "$name: --binary and --config are for tools/setup-pi.sh from the sources; the package has installed /usr/bin/ledring and /etc/ledring/config.json (edit that file)" >&2
    exit 64
fi

# The static build for this system, by the userland's word size (a 64-bit kernel may run a
# 32-bit Raspberry Pi OS, which needs the armv6 binary).
pi_arch() {
    case "$(uname -m)" in
    aarch64|arm64) if [ "$(getconf LONG_BIT 2>/dev/null)" = 32 ]; then echo armv6; else echo aarch64; fi ;;
    arm*) echo armv6 ;;
    x86_64) echo host ;;   # tools/embedded-build.sh's name for the x86-64 build
    *) uname -m ;;
    esac
}

if [ -z "$root" ] && [ "$(id -u)" -ne 0 ] && [ "$dry" -eq 0 ]; then
    echo "$name: run as root (sudo $0 $*), or with --dry-run to see what it would change" >&2
    exit 77
fi
if [ -z "$binary" ]; then
    echo "$name: no ledring binary to install, so nothing was changed; pass --binary PATH: your build on a 64-bit Pi OS (\`swift build -c release --static-swift-stdlib\`, then --binary .build/release/ledring) or a static one from tools/embedded-build.sh (.build/embedded/$(pi_arch)/ledring for this system)" >&2
    exit 69
fi
if [ ! -f "$binary" ]; then
    echo "$name: no file $binary" >&2
    exit 66
fi

# A binary for another CPU installs fine and then fails in systemd with "Exec format error";
# on the machine itself (not with --root) it is tried first.
if [ -n "$binary" ] && [ -z "$root" ] && ! "$binary" --version >/dev/null 2>&1; then
    echo "$name: $binary does not run here (another CPU?); this system needs the $(pi_arch) build, see docs/install.md in the ledring repository" >&2
    exit 65
fi

reboot_needed=0
say() { printf '%s\n' "$*"; }
change() { if [ "$dry" -eq 1 ]; then say "would: $*"; else say "change: $*"; fi; }
run() { if [ "$dry" -eq 0 ]; then "$@"; fi; }
system() { if [ -z "$root" ]; then run "$@"; else say "  (skipped with --root: $*)"; fi; }

# Bookworm keeps the boot files in /boot/firmware; older releases in /boot.
boot="$root/boot/firmware"
[ -f "$boot/config.txt" ] || boot="$root/boot"
config_txt="$boot/config.txt"
cmdline_txt="$boot/cmdline.txt"
if [ ! -f "$config_txt" ]; then
    echo "$name: no config.txt in $root/boot/firmware or $root/boot; is this Raspberry Pi OS?" >&2
    exit 69
fi

# config.txt is read in sections: a line after a filter such as [pi4] or [cm4] applies only on
# those models, [all] ends the filters, and a later line overrides an earlier one (raspberrypi/
# documentation, config_txt/conditional.adoc). So a setting counts only where it is outside every
# filter and no later line sets the key; otherwise it is added under [all] at the end.

# The awk rules every reading below starts with: `line` is the line without its comment,
# `header` whether it is a section header, `all` whether no filter is in force after it.
sections='BEGIN { all = 1 }
    { line = $0; sub(/#.*/, "", line); header = line ~ /^[[:space:]]*\[/
      if (header) { name = line; gsub(/[[:space:]]/, "", name); all = (name == "[all]") } }'

# The last line setting KEY: "all VALUE" when it is outside every filter, "filtered VALUE" when
# it is under one; nothing when no line sets it.
last_setting() {
    awk -v key="$1" "$sections"'
        !header && line ~ ("^[[:space:]]*" key "=") {
            value = substr(line, index(line, key "=") + length(key) + 1); gsub(/[[:space:]]/, "", value)
            last = (all ? "all " : "filtered ") value
        }
        END { if (last != "") print last }' "$config_txt"
}

# Whether the file ends outside every filter (so a line appended there applies on every model).
ends_unfiltered() {
    awk "$sections"' END { exit all ? 0 : 1 }' "$config_txt"
}

# KEY=VALUE in config.txt for every model: left alone when already so, changed in place when its
# last setting is unfiltered, else appended (after an [all] line when the file ends in a filter).
set_config() {
    local key="$1" value="$2" last
    last=$(last_setting "$key")
    if [ "$last" = "all $value" ]; then
        say "ok: $key=$value already in $config_txt"
    elif [ "${last%% *}" = all ]; then
        change "$config_txt: $key=${last#all } -> $key=$value"
        [ "$dry" -eq 1 ] || awk -v key="$key" -v value="$value" "$sections"'
            header { print; next }
            all && line ~ ("^[[:space:]]*" key "=") { print key "=" value; next }
            { print }' "$config_txt" > "$config_txt.ledring-new" && mv "$config_txt.ledring-new" "$config_txt"
        reboot_needed=1
    else
        local why="add $key=$value"
        [ -z "$last" ] || why="add $key=$value under [all] (the last $key= line is inside a model filter)"
        if ends_unfiltered; then
            change "$config_txt: $why"
            run sh -c "printf '%s\n' '$key=$value' >> '$config_txt'"
        else
            change "$config_txt: $why, after an [all] line (the file ends inside a model filter)"
            run sh -c "printf '%s\n' '[all]' '$key=$value' >> '$config_txt'"
        fi
        reboot_needed=1
    fi
}

# 1. SPI (dtparam lines are keyed by their parameter: dtparam=spi=on sets spi)
set_config dtparam=spi on

# 2. spidev buffer: the kernel command line is one line; add the parameter to it.
if [ -f "$cmdline_txt" ]; then
    if grep -q "spidev.bufsiz=65536" "$cmdline_txt"; then
        say "ok: spidev.bufsiz=65536 already in $cmdline_txt"
    else
        change "$cmdline_txt: append spidev.bufsiz=65536 (default 4096 bytes holds only ~320 WS2812 LEDs at 3.57 MHz)"
        run sed -i -E '1 s/[[:space:]]*spidev\.bufsiz=[0-9]+//; 1 s/$/ spidev.bufsiz=65536/' "$cmdline_txt"
        reboot_needed=1
    fi
fi

# 3. Core clock: on Pi 3/4 and the Zeros the SPI clock is derived from the core clock, which
#    moves with load unless pinned. The Pi 5's SPI (RP1) has its own clock. Values match
#    boards/*.json; Zero and Zero W default to core_freq=400 and core_freq_min=250 as the Pi 3
#    (raspberrypi/documentation config_txt/overclocking.adoc), so at idle a 3.571 MHz SPI clock
#    would fall to 2.23 MHz and a WS2812 0 bit last 448 ns, outside the WS2812B-V5's 220-380 ns.
model="$(tr -d '\0' < "$root/proc/device-tree/model" 2>/dev/null || true)"
case "$model" in
    *"Raspberry Pi 4"*|*"Raspberry Pi 400"*|*"Compute Module 4"*) mhz=500 ;;
    *"Raspberry Pi 3"*|*"Raspberry Pi Zero"*|*"Compute Module 3"*) mhz=250 ;;
    *) mhz="" ;;
esac
if [ -n "$mhz" ]; then
    set_config core_freq "$mhz"
    set_config core_freq_min "$mhz"
else
    say "ok: core clock left alone (${model:-unknown model}: not a Pi 3/4 or Zero)"
fi

# 4. /dev/ledsN: Raspberry Pi OS has no udev rule for the class ws2812-pio-rp1, so the node is
#    root:root 0600; this rule gives it to group gpio (harmless where there is no such device).
#    The package ships it in /usr/lib/udev/rules.d itself.
rule="$root/etc/udev/rules.d/60-ledring-ws2812-pio.rules"
if [ "$packaged" -eq 1 ]; then
    say "ok: the udev rule for /dev/ledsN comes with the package"
elif [ -f "$rule" ] && cmp -s "$here/tools/60-ledring-ws2812-pio.rules" "$rule"; then
    say "ok: $rule is up to date"
else
    change "install $rule (/dev/ledsN of the Pi 5 ws2812-pio overlay for group gpio)"
    run install -D -m 0644 "$here/tools/60-ledring-ws2812-pio.rules" "$rule"
    system udevadm control --reload
    system udevadm trigger --subsystem-match=ws2812-pio-rp1
fi

# 5. Users and groups (the package makes them with sysusers.d; the socket's group is added here).
if [ -z "$root" ]; then
    [ "$packaged" -eq 1 ] || for group in spi gpio ledring; do
        if getent group "$group" >/dev/null; then say "ok: group $group exists"; else change "add group $group"; run groupadd --system "$group"; fi
    done
    if [ "$packaged" -eq 1 ]; then
        say "ok: user ledring and groups spi, gpio, ledring come with the package"
    elif id ledring >/dev/null 2>&1; then
        say "ok: user ledring exists"
    else
        change "add system user ledring (no login, no home)"
        run useradd --system --gid ledring --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin ledring
    fi
    [ "$packaged" -eq 1 ] || for group in spi gpio; do
        if id -nG ledring 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
            say "ok: ledring is in group $group"
        else
            change "add user ledring to group $group"; run usermod -aG "$group" ledring
        fi
    done
    if [ -n "$user" ] && [ "$user" != root ]; then
        if id -nG "$user" | tr ' ' '\n' | grep -qx ledring; then
            say "ok: $user is in group ledring (may use the control socket)"
        else
            change "add $user to group ledring so \`ledring set\` reaches the service (log in again to take effect)"
            run usermod -aG ledring "$user"
        fi
    fi
else
    say "  (skipped with --root: users spi/gpio/ledring)"
fi

# 6. Files (the package's own: binary, config and unit are dpkg's to install and upgrade).
if [ "$packaged" -eq 1 ]; then
    say "ok: /usr/bin/ledring, /etc/ledring/config.json and the unit come with the package"
elif cmp -s "$binary" "$root/usr/local/bin/ledring"; then
    say "ok: $root/usr/local/bin/ledring is $binary"
else
    change "install $binary as $root/usr/local/bin/ledring"
    run install -D -m 0755 "$binary" "$root/usr/local/bin/ledring"
fi
if [ -f "$root/etc/ledring/config.json" ]; then
    say "ok: $root/etc/ledring/config.json exists (kept)"
elif [ "$packaged" -eq 0 ]; then
    change "install $config as $root/etc/ledring/config.json (edit it, then \`ledring check-config\`)"
    run install -D -m 0644 "$config" "$root/etc/ledring/config.json"
fi
# The unit runs /usr/bin/ledring (where a package puts it); a binary installed here is in /usr/local.
unit="$root/etc/systemd/system/ledring.service"
[ "$packaged" -eq 1 ] || unit_text=$(sed 's#^ExecStart=/usr/bin/ledring #ExecStart=/usr/local/bin/ledring #' "$here/tools/ledring.service")
if [ "$packaged" -eq 1 ]; then
    :
elif [ -f "$unit" ] && [ "$(cat "$unit")" = "$unit_text" ]; then
    say "ok: $unit is up to date"
else
    change "install $unit"
    if [ "$dry" -eq 0 ]; then mkdir -p "$(dirname "$unit")" && printf '%s\n' "$unit_text" > "$unit" && chmod 0644 "$unit"; fi
    system systemctl daemon-reload
fi
# HTTP, MQTT or a command source (a program such as curl may reach the network) in the config:
# the unit's network lock-down (PrivateNetwork=yes) is lifted by a drop-in, and put back without.
dropin="$root/etc/systemd/system/ledring.service.d/network.conf"
if grep -Eq '"(http|mqtt|command)"[[:space:]]*:' "$root/etc/ledring/config.json" 2>/dev/null \
    || { [ "$dry" -eq 1 ] && [ ! -f "$root/etc/ledring/config.json" ] && grep -Eq '"(http|mqtt|command)"[[:space:]]*:' "$config"; }; then
    if [ -f "$dropin" ] && cmp -s "$dropin_source" "$dropin"; then
        say "ok: $dropin is up to date"
    else
        change "install $dropin (the config has http, mqtt or a command source, which need the network)"
        run install -D -m 0644 "$dropin_source" "$dropin"
        system systemctl daemon-reload
    fi
elif [ -f "$dropin" ]; then
    change "remove $dropin (the config has no http, mqtt or command source, so the service keeps no network)"
    run rm -f "$dropin"
    system systemctl daemon-reload
fi
system systemctl enable ledring.service

if [ "$reboot_needed" -eq 1 ]; then
    say "reboot to apply the boot settings; the service starts on boot (\`ledring status\` to check)"
else
    system systemctl restart ledring.service
    say "done: \`ledring status\` shows the service; \`journalctl -u ledring\` its log"
fi
