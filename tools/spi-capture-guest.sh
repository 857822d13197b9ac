#!/usr/bin/env bash
# Runs inside the QEMU guest started by tools/spi-capture-test.sh (chroot into the host's
# read-only /, ledring_spi_capture loaded): binds the kernel's spidev to the capturing
# controller, runs ledring (one-shot and `ledring run`) on /dev/spidev0.0 with every SPI driver
# for several boards' clocks, and judges every captured transfer with gpio-sim-probe spi-check
# (LEDWire's decoders) against `ledring --simulate --format json` of the same state.
# usage: spi-capture-guest.sh PROBE main|bufsiz. Exit 0 only if every check passed.
set -u
trap "" PIPE
guest_tag=spi-guest
source "$(dirname "$0")/qemu-guest.sh"
probe=$1
boot=$2
ledring="$(dirname "$probe")/ledring"
only=$(sed -n 's/.*ledring_only=\([a-z,]*\).*/\1/p' /proc/cmdline)
# Sections run unless ledring_only=a,b on the kernel command line names others (for debugging).
section() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
indent() { sed 's/^/  /'; }

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
capture=/sys/kernel/debug/ledring-spi-capture/transfers
params=/sys/module/ledring_spi_capture/parameters
[ -e "$capture" ] || { say "FAIL no $capture (module not loaded?)"; exit 1; }
clear_capture() { echo clear > "$capture"; }
transfers() { grep -c '^xfer' "$capture"; }

# 1. The real spidev, bound to the controller's devices the supported way: driver_override.
for cs in 0 1; do
    echo spidev > "/sys/bus/spi/devices/spi0.$cs/driver_override"
    echo "spi0.$cs" > /sys/bus/spi/drivers/spidev/bind
done
driver=$(basename "$(readlink /sys/bus/spi/devices/spi0.0/driver)")
if [ "$driver" = spidev ] && [ -c /dev/spidev0.0 ] && [ -c /dev/spidev0.1 ]; then
    pass "spidev bound through driver_override: /dev/spidev0.0 and /dev/spidev0.1 ($(cat /sys/bus/spi/devices/spi0.0/modalias))"
else
    flunk "spidev not bound: driver \"$driver\", $(ls -l /dev/spidev* 2>&1)"
    say "$failures failed"
    exit 1
fi
bufsiz=$(cat /sys/module/spidev/parameters/bufsiz)
say "spidev bufsiz $bufsiz, kernel $(uname -r) $(uname -m)"

# 2. The service's device allow-list against this kernel. systemd resolves `DeviceAllow=char-NAME`
# by the driver names in /proc/devices (not the /dev names); a name that is not there allows
# nothing, and the service is denied the device. With spidev bound and gpiolib built in, every
# char- entry of the unit and its drop-ins must name a line here, except drivers this x86 kernel
# cannot have, each listed with where its name was read.
declare -A not_in_this_kernel=(
    [ws2812-pio-rp1]="Raspberry Pi kernels only: alloc_chrdev_region(..., \"ws2812-pio-rp1\") in rpi/linux drivers/misc/ws2812-pio-rp1.c"
)
repo=$(cd "$(dirname "$0")/.." && pwd)
registered=$(awk '/^Character devices:/ { on = 1; next } /^$/ { on = 0 } on { print $2 }' /proc/devices)
allowed=0
for unit in "$repo/tools/ledring.service" "$repo"/tools/ledring.service.d/*.conf; do
    # (No process substitution: the guest's /dev is a bare devtmpfs without /dev/fd.)
    for name in $(sed -n 's/^[[:space:]]*DeviceAllow=char-\([^[:space:]]*\).*/\1/p' "$unit"); do
        allowed=$((allowed + 1))
        if grep -qx -- "$name" <<< "$registered"; then
            pass "$(basename "$unit"): DeviceAllow=char-$name is /proc/devices' \"$(grep -w -- "$name" /proc/devices | head -1)\""
        elif [ -n "${not_in_this_kernel[$name]:-}" ]; then
            say "note $(basename "$unit"): char-$name is not in this kernel (${not_in_this_kernel[$name]})"
        else
            flunk "$(basename "$unit"): DeviceAllow=char-$name names no character device driver in /proc/devices, so systemd allows nothing by it (registered: $(echo $registered))"
        fi
    done
done
[ "$allowed" -gt 0 ] || flunk "no DeviceAllow=char-… line found in $repo/tools/ledring.service"

# The boards' controllers (../shared/notes/hardware-sources.md, "SPI clocks"): Pi 3 and Pi 4
# spi-bcm2835 from the core clock at 400 / 500 MHz, Pi 5 RP1 DesignWare SSI from 200 MHz.
use_board() {
    case $1 in
        rpi3b) echo 400000000 > $params/source_hz; echo bcm2835 > $params/divider ;;
        rpi4b) echo 500000000 > $params/source_hz; echo bcm2835 > $params/divider ;;
        rpi5) echo 200000000 > $params/source_hz; echo dw-apb-ssi > $params/divider ;;
    esac
}


# Limiter and dithering off on both sides: the SK6812/APA102 current models differ from the
# simulator's WS2812B one, and dithering varies frames. (WS2812 one-shot runs keep the default
# 500 mA limit, whose model the simulator shares, so the limiter's output is compared too.)
flat="--max-milliamps 100000 --dither off"

# Captures are judged together at the end by one probe process (`spi-check --plan`), since
# every start of a Swift program costs seconds under TCG; each run adds a line to the plan.
plan=/run/plan.txt
cases=0
: > $plan
simulate() {  # NAME OPTIONS…: the simulated frame for these options, made once
    local name=$1; shift
    # (Called in $(…): a failure leaves the error in the file, where the probe finds no frame.)
    [ -s "/run/sim-$name.json" ] || "$ledring" --simulate --format json --frames 1 "$@" > "/run/sim-$name.json" 2>&1
    echo "/run/sim-$name.json"
}
add_case() {  # SIMULATED CHECK_OPTIONS LABEL: saves the capture and plans its check
    cases=$((cases + 1))
    cat "$capture" > "/run/capture-$cases.txt"
    echo "capture=/run/capture-$cases.txt simulated=$1 $2 label=$3" >> $plan
}

# One-shot: `ledring --driver D --board B --frames 1 VALUES`, judged against the simulated frame.
oneshot() {  # DRIVER BOARD SIM_NAME "EXTRA_OPTIONS" ["CHECK_OPTIONS" ["VALUES"]]
    local driver=$1 board=$2 sim=$3 extra=$4 checks=${5:-}
    local values=${6:-"--set move=0.8 --set exercise=0.45 --set stand=1.3"}
    use_board "$board"
    clear_capture
    local out
    if ! out=$(timeout 120 "$ledring" --driver "$driver" --board "$board" --frames 1 $values $extra 2>&1); then
        flunk "ledring --driver $driver --board $board $extra: $out"
        return
    fi
    add_case "$sim" "driver=$driver board=$board run=oneshot $checks" "one-shot $driver on $board $extra"
    say "ran  one-shot $driver on $board $extra: $(transfers) transfers"
}

# Service: `ledring run` with requests on its standard input (a FIFO), then SIGTERM. The capture
# must end with the blank frame, and the frame before it must be the simulated one.
daemon() {  # DRIVER BOARD SIM_NAME "REQUEST" [RING:LEDS ["CHECK_OPTIONS"]]
    local driver=$1 board=$2 sim=$3 request=$4 ring=${5:-} checks=${6:-}
    use_board "$board"
    rm -f /run/ledring.sock /run/ledring.state /run/ledring.in
    local ring_config=""
    [ -n "$ring" ] && ring_config="\"rings\": [{\"name\": \"${ring%%:*}\", \"leds\": ${ring##*:}}], "
    echo "{$ring_config\"maxMilliamps\": 100000, \"dither\": \"off\"}" > /run/ledring.json
    mkfifo /run/ledring.in
    clear_capture
    "$ledring" run --config /run/ledring.json --driver "$driver" --board "$board" --stdin \
        --socket /run/ledring.sock --state /run/ledring.state < /run/ledring.in > /run/daemon.out 2>&1 &
    local pid=$!
    exec 4> /run/ledring.in
    if ! wait_for /run/daemon.out "started:" $pid; then
        flunk "ledring run $driver on $board did not start: $(cat /run/daemon.out)"
        exec 4>&-
        kill $pid 2>/dev/null; wait $pid
        return
    fi
    echo "$request" >&4
    # The start frame, then the requested one; done once the count has not moved for 1 s
    # (the service only sends frames when something changes; the request is a jump).
    local before=-1 now tries=0
    now=$(transfers)
    until { [ "$now" -ge 2 ] && [ "$now" = "$before" ]; } || [ $tries -ge 60 ]; do
        before=$now; sleep 1; now=$(transfers); tries=$((tries + 1))
    done
    [ $tries -lt 60 ] || flunk "ledring run $driver on $board: transfers never settled ($now)"
    kill -TERM $pid
    wait $pid; local status=$?
    exec 4>&-
    if [ $status = 0 ] && grep -q "stopping on SIGTERM" /run/daemon.out; then
        add_case "$sim" "driver=$driver board=$board run=daemon ${ring:+leds=${ring##*:}} $checks" \
            "ledring run $driver on $board${ring:+ ($ring)}: '$request', SIGTERM"
        say "ran  ledring run $driver on $board: $now transfers before SIGTERM, $(transfers) after, exit 0"
    else
        flunk "ledring run $driver on $board exit $status: $(cat /run/daemon.out)"
    fi
}

# Judges every planned capture in one probe run; each FAIL line counts as a failure.
judge() {
    local out
    out=$("$probe" spi-check --plan $plan 2>&1)
    echo "$out" | sed -e 's/^ok   /ok   /' | while IFS= read -r line; do say "$line"; done
    local bad
    bad=$(grep -c '^FAIL' <<<"$out")
    failures=$((failures + bad))
    grep -q "^checked $cases captures, $bad failed$" <<<"$out" ||
        flunk "the probe did not check all $cases planned captures"
}

# Negative controls: the same judge must refuse a capture with one symbol widened (a 0 bit's
# high time 2 SPI bits instead of 1: out of both windows), one APA102 colour byte changed, and a
# capture whose controller clock differs from the board file's prediction. A check that cannot
# fail proves nothing; these show on every run that it can.
controls() {  # WS2812_CASE APA102_CASE
    local ws=$1 apa=$2 out
    : > /run/controls.txt
    # First "88" (two 0 bits, 1000 1000) at a byte boundary of the data becomes "c8" (1100 1000).
    awk '/^xfer/ { d = $NF; for (i = 1; i < length(d); i += 2) if (substr(d, i, 2) == "88") { $NF = substr(d, 1, i - 1) "c8" substr(d, i + 2); break } } { print }' \
        "/run/capture-$ws.txt" > /run/control-bit.txt
    # Byte 5 of the first APA102 transfer (LED 0's first colour byte) changes.
    awk '/^xfer/ && !done { d = $NF; b = substr(d, 11, 2); $NF = substr(d, 1, 10) (b == "00" ? "01" : "00") substr(d, 13); done = 1 } { print }' \
        "/run/capture-$apa.txt" > /run/control-colour.txt
    # The controller made another clock than predicted (here: a 250 MHz core read as 500 MHz).
    sed 's/ effective [0-9]* / effective 1785714 /' "/run/capture-$ws.txt" > /run/control-clock.txt
    sed -n "${ws}p" $plan | sed 's|capture=[^ ]*|capture=/run/control-bit.txt|; s|label=.*|label=control: one widened symbol|' >> /run/controls.txt
    sed -n "${apa}p" $plan | sed 's|capture=[^ ]*|capture=/run/control-colour.txt|; s|label=.*|label=control: one colour byte changed|' >> /run/controls.txt
    sed -n "${ws}p" $plan | sed 's|capture=[^ ]*|capture=/run/control-clock.txt|; s|label=.*|label=control: another clock|' >> /run/controls.txt
    out=$("$probe" spi-check --plan /run/controls.txt 2>&1)
    if grep -q "^FAIL control: one widened symbol: .*bit [0-9]* (a 1): high 560 ns" <<<"$out" &&
       grep -q "^FAIL control: one colour byte changed: .*differs from the simulated frame at 1 LEDs" <<<"$out" &&
       grep -q "^FAIL control: another clock: .*controller made 1785714 Hz" <<<"$out" &&
       grep -q "^checked 3 captures, 3 failed$" <<<"$out"; then
        pass "controls: the judge refuses a widened symbol, a changed colour byte and an unpredicted clock"
        grep '^FAIL' <<<"$out" | cut -c1-220 | indent
    else
        flunk "controls: the judge did not refuse every broken capture:"
        indent <<<"$out"
    fi
}

case $boot in
main)
    # 2. Every SPI driver, one-shot, at three boards' clocks.
    if section oneshot; then
        plain=$(simulate plain --set move=0.8 --set exercise=0.45 --set stand=1.3)
        flat_sim=$(simulate flat --set move=0.8 --set exercise=0.45 --set stand=1.3 $flat)
        for board in rpi3b rpi4b rpi5; do
            oneshot ws2812-spi "$board" "$plain" ""
            for driver in sk6812-spi sk6812w-spi apa102-spi sk9822-spi; do
                oneshot "$driver" "$board" "$flat_sim" "$flat"
            done
        done
        # A request in the other WS2812 band (1100 symbols) from a Pi 3's 400 MHz core.
        oneshot ws2812-spi rpi3b "$plain" "--spi-hz 3000000" "spi-hz=3000000"
    fi

    # 3. The service, every driver, each on one board; blank frame last after SIGTERM.
    if section daemon; then
        service=$(simulate service --set move=0.3 --set exercise=0.6 --set stand=0.9 $flat)
        daemon ws2812-spi rpi5 "$service" "set move=0.3 exercise=0.6 stand=0.9"
        daemon sk6812-spi rpi3b "$service" "set move=0.3 exercise=0.6 stand=0.9"
        daemon sk6812w-spi rpi4b "$service" "set move=0.3 exercise=0.6 stand=0.9"
        daemon apa102-spi rpi5 "$service" "set move=0.3 exercise=0.6 stand=0.9"
        daemon sk9822-spi rpi3b "$service" "set move=0.3 exercise=0.6 stand=0.9"
    fi
    judge
    # Case 6 is ws2812-spi on rpi4b, case 9 apa102-spi on rpi4b (the order above).
    section oneshot && controls 6 9

    # 4. ledring doctor against this machine's real /sys and /dev.
    section doctor || { say "$failures failed"; [ $failures = 0 ]; exit; }
    out=$("$ledring" doctor 2>&1); status=$?
    echo "$out" | indent
    grep -q "^✓ SPI device: /dev/spidev0.0 is present" <<<"$out" &&
        grep -q "^✓ SPI permission: this user may open /dev/spidev0.0" <<<"$out" &&
        grep -q "^✓ spidev bufsiz: a [0-9]*-byte frame fits spidev's $bufsiz-byte buffer" <<<"$out" &&
        grep -q "^✗ board" <<<"$out" && [ $status = 69 ] &&
        pass "doctor: spidev node, permission and bufsiz found; no device tree, so no board (exit $status)" ||
        flunk "doctor (exit $status): $out"
    out=$("$ledring" doctor --device /dev/spidev1.0 2>&1); status=$?
    grep -q "^✗ SPI device" <<<"$out" && [ $status = 69 ] &&
        pass "doctor: a missing /dev/spidev1.0 is reported with the fix" || flunk "doctor --device /dev/spidev1.0 (exit $status): $out"
    ;;
bufsiz)
    [ "$bufsiz" = 1003 ] && pass "spidev.bufsiz=1003 from the kernel command line" || flunk "bufsiz is $bufsiz, expected 1003"
    use_board rpi4b
    # 5. A WS2812 frame larger than bufsiz is refused before the first frame, with the fix.
    clear_capture
    out=$("$ledring" --driver ws2812-spi --board rpi4b --frames 1 --rings big:80 --set big=0.5 2>&1); status=$?
    frame=$(sed -n 's/.*this frame needs \([0-9]*\).*/\1/p' <<<"$out" | head -1)
    if [ $status = 78 ] && grep -q "spidev.bufsiz=65536" <<<"$out" && [ -n "$frame" ] && [ "$(transfers)" = 0 ]; then
        pass "an 80-LED WS2812 frame ($frame bytes) is refused before any transfer, exit 78, with the fix"
        echo "$out" | indent
    else
        flunk "80-LED WS2812 with bufsiz 1003: exit $status, $(transfers) transfers: $out"
        frame=1210
    fi
    rm -f /run/ledring.sock /run/ledring.state
    echo '{"rings": [{"name": "big", "leds": 80}]}' > /run/big.json
    out=$(timeout 60 "$ledring" run --config /run/big.json --driver ws2812-spi --board rpi4b \
          --socket /run/ledring.sock --state /run/ledring.state 2>&1); status=$?
    [ $status = 78 ] && grep -q "spidev.bufsiz=65536" <<<"$out" && [ "$(transfers)" = 0 ] &&
        pass "ledring run refuses it at start too (exit 78)" || flunk "ledring run with an 80-LED frame: exit $status: $out"

    # 6. ledring's limit is the kernel's, alignment included: every length from just under
    #    bufsiz to the refused frame, asked of ledring and sent raw to the kernel.
    out=$("$probe" spi-limit --device /dev/spidev0.0 --from 990 --to "$frame" 2>&1); status=$?
    if [ $status = 0 ] && grep -q "^len $frame: ledring refuses, kernel EMSGSIZE$" <<<"$out"; then
        pass "ledring's limit agrees with the kernel's EMSGSIZE for every length 990…$frame"
        grep -E '^(bufsiz|splittable)|^len (99[0-9]|100[0-9]|'"$frame"'):' <<<"$out" | indent
    else
        flunk "spi-limit (exit $status):"
        grep -v ': ledring fits, kernel sent$\|: ledring refuses, kernel EMSGSIZE$' <<<"$out" | indent
    fi

    # 7. A WS2812 frame that fits still goes out whole; APA102/SK9822 frames larger than bufsiz
    #    are split into transfers the kernel takes.
    oneshot ws2812-spi rpi4b "$(simulate plain --set move=0.8 --set exercise=0.45 --set stand=1.3)" ""
    oneshot apa102-spi rpi4b "$(simulate big --rings big:300 --set big=0.7 $flat)" "$flat --rings big:300" \
        "leds=300 split-limit=1000" "--set big=0.7"
    daemon sk9822-spi rpi4b "$(simulate big --rings big:300 --set big=0.7 $flat)" "set big=0.7" big:300 "split-limit=1000"
    judge

    # 8. doctor sees the small buffer.
    out=$("$ledring" doctor --leds 80 2>&1); status=$?
    echo "$out" | indent
    grep -q "^✗ spidev bufsiz: spidev buffer is 1003 bytes but this frame needs [0-9]*" <<<"$out" &&
        grep -q "spidev.bufsiz=65536" <<<"$out" && [ $status = 69 ] &&
        pass "doctor: an 80-LED frame does not fit bufsiz 1003, with the fix" || flunk "doctor --leds 80 (exit $status): $out"
    ;;
*)
    flunk "unknown boot \"$boot\""
    ;;
esac

say "$failures failed"
[ $failures = 0 ]
