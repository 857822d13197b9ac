#!/usr/bin/env bash
# Runs inside the QEMU guest started by tools/gpio-sim-test.sh (chroot into the host's read-only /,
# gpio-sim loaded): creates a simulated chip labelled like a Raspberry Pi 4's, runs gpio-sim-probe
# against it and checks the lines through gpio-sim's sysfs attributes. Exit 0 only if all passed.
set -u
# A probe that died must not kill this script through SIGPIPE on its control FIFO: keep checking.
trap "" PIPE
guest_tag=gpio-sim-guest
source "$(dirname "$0")/qemu-guest.sh"
probe=$1
label=pinctrl-bcm2711

mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
config=/sys/kernel/config/gpio-sim/ledring
mkdir "$config" "$config/bank0" || { say "FAIL cannot create a gpio-sim chip (is gpio-sim loaded?)"; exit 1; }
echo 32 > "$config/bank0/num_lines"
echo "$label" > "$config/bank0/label"
for n in $(seq 0 31); do
    mkdir "$config/bank0/line$n"
    echo "GPIO$n" > "$config/bank0/line$n/name"
done
echo 1 > "$config/live"
# The device and chip names are the kernel's choice: read them, never assume them.
sim="/sys/devices/platform/$(cat "$config/dev_name")/$(cat "$config/bank0/chip_name")"
[ -d "$sim" ] || { say "FAIL no sysfs directory $sim"; exit 1; }
value() { cat "$sim/sim_gpio$1/value"; }
pull() { echo "$2" > "$sim/sim_gpio$1/pull"; }


expect_value() {  # LINE EXPECTED WHAT
    local got
    got=$(value "$1")
    if [ "$got" = "$2" ]; then pass "$3: sim_gpio$1 = $got"; else flunk "$3: sim_gpio$1 = $got, expected $2"; fi
}

say "chip $label at $sim"

# 1. Chips are found by label.
out=$("$probe" chips 2>&1)
if grep -q "\"$label\" (32 lines)" <<<"$out"; then pass "chip listed by label ($(head -1 <<<"$out"))"; else flunk "chips: $out"; fi

# 2. APA102 and SK9822 clocked on two lines, every update read back from sim_gpioN/value.
for variant in apa102 sk9822; do
    out=$("$probe" clock --chip "$label" --data GPIO10 --clock 11 --leds 3 --variant "$variant" --sim "$sim" 2>&1)
    expected="led 0 #11a580 brightness 21
led 1 #22a640 brightness 21
led 2 #33a720 brightness 21"
    if grep -q "readback OK" <<<"$out" && [ "$(grep '^led ' <<<"$out")" = "$expected" ]; then
        pass "$variant over GPIO read back from the chip: $(grep -E '^updates' <<<"$out")"
    else
        flunk "$variant readback: $out"
    fi
done

# 3. Power line, active high then active low: the opposite pull first, so each level proves
#    ledring drove it; read while the line is still held (a released line returns to its pull).
for active in high low; do
    if [ $active = high ]; then idle=pull-up; off=0; on=1; else idle=pull-down; off=1; on=0; fi
    pull 26 $idle
    before=$(value 26)
    rm -f /run/power.out /run/power.ctl
    mkfifo /run/power.ctl
    "$probe" power --chip "$label" --data 20 --clock 21 --power GPIO26 --active $active < /run/power.ctl > /run/power.out 2>&1 &
    pid=$!
    exec 3> /run/power.ctl
    [ "$before" = "$(( 1 - off ))" ] && pass "power ($active) before the run: pull gives $before" || flunk "power ($active) before: $before"
    for phase in requested:$off lit:$on blank:$off; do
        name=${phase%%:*}
        if wait_for /run/power.out "phase $name" $pid; then
            expect_value 26 "${phase##*:}" "power (active $active) after phase $name"
        else
            flunk "power ($active): no phase $name: $(cat /run/power.out)"
        fi
        echo next >&3
    done
    exec 3>&-
    wait $pid; status=$?
    [ $status = 0 ] && grep -q "phase released" /run/power.out || flunk "power ($active) exit $status: $(cat /run/power.out)"
    expect_value 26 "$(( 1 - off ))" "power (active $active) after release (back to its pull)"
done

# 4. Button and knob: edges injected through the pull attributes reach the rings.
for line in 5 17 27 22; do pull $line pull-up; done
rm -f /run/inputs.out
"$probe" inputs --chip "$label" --button GPIO5 --a 17 --b 27 --push 22 --debounce-ms 50 --actions 7 --timeout 90 > /run/inputs.out 2>&1 &
pid=$!
if ! wait_for /run/inputs.out "^ready" $pid; then flunk "inputs never ready: $(cat /run/inputs.out)"; fi
press() {  # LINE SECONDS: contact to ground for that long, with a bounce on the way down
    pull "$1" pull-down; pull "$1" pull-up; pull "$1" pull-down
    sleep "$2"
    pull "$1" pull-up
    sleep 0.2
}
detent() {  # +1: B falls, A falls, B rises, A rises; -1 the other way round
    local first=27 second=17
    [ "$1" = -1 ] && { first=17; second=27; }
    pull $first pull-down; sleep 0.02
    pull $second pull-down; sleep 0.02
    pull $first pull-up; sleep 0.02
    pull $second pull-up; sleep 0.1
}
press 5 0.2            # resetAll
detent +1; detent +1   # move +0.10
press 22 0.1           # select exercise
detent +1; detent -1   # exercise +0.05 -0.05
press 5 1.5            # long press
wait $pid; status=$?
sed 's/^/  /' /run/inputs.out
actions=$(grep '^action' /run/inputs.out | cut -d' ' -f2 | tr '\n' ' ')
if [ $status = 0 ] && [ "$actions" = "resetAll step(1) step(1) selectNext step(1) step(-1) longPress " ]; then
    pass "button and knob actions in order: $actions"
else
    flunk "inputs exit $status, actions: $actions"
fi
grep -q "action step(1) -> move=0.10 exercise=0.00 stand=0.00 selected=move" /run/inputs.out &&
    grep -q "action longPress -> move=0.10 exercise=0.00 stand=0.00 selected=exercise" /run/inputs.out &&
    pass "the rings moved: $(grep 'action longPress' /run/inputs.out | cut -d'>' -f2)" || flunk "ring values wrong"

# 5. A held line is refused naming its holder; a wrong label names the labels present.
out=$("$probe" busy --chip "$label" --line 3 2>&1); status=$?
[ $status = 69 ] && grep -q 'held by "ledring-first"' <<<"$out" && pass "busy line names its holder (exit $status)" || flunk "busy: exit $status: $out"
out=$("$probe" clock --chip pinctrl-rp1 --data 1 --clock 2 2>&1); status=$?
[ $status = 69 ] && grep -q "\"$label\" (32 lines)" <<<"$out" && pass "missing label lists the chips present (exit $status)" || flunk "wrong label: exit $status: $out"

# 6. The built ledring itself: `ledring run` with the LEDs on apa102-gpio, the supply on a power
#    line, a button and a knob, all from its config file; values checked with `ledring get`.
ledring="$(dirname "$probe")/ledring"
if [ ! -x "$ledring" ]; then
    flunk "no ledring binary next to the probe ($ledring); run \`swift build\` first"
else
    pull 26 pull-down
    for line in 5 17 27 22; do pull $line pull-up; done
    cat > /run/ledring.json <<JSON
{"output": {"driver": "apa102-gpio", "gpioData": "GPIO10", "gpioClock": "11", "gpioChip": "$label"},
 "gpio": {"chip": "$label", "power": {"line": 26},
          "button": {"line": 5, "longPress": "none"},
          "encoder": {"a": 17, "b": 27, "push": 22, "ring": "move"}},
 "fps": 20}
JSON
    expect_value 26 0 "ledring run: supply line before the start (its pull)"
    rm -f /run/ledring.sock /run/ledring.state
    "$ledring" run --config /run/ledring.json --socket /run/ledring.sock --state /run/ledring.state > /run/daemon.out 2>&1 &
    dpid=$!
    get() { "$ledring" get --socket /run/ledring.sock 2>&1; }
    if wait_for /run/daemon.out "started:" $dpid; then
        expect_value 26 1 "ledring run: supply switched on while running"
        "$ledring" set move=0.5 stand=1 --socket /run/ledring.sock > /dev/null
        until get | grep -q "^stand *100.0 %" || ! kill -0 $dpid 2>/dev/null; do sleep 0.1; done
        get | grep -q "^move *50.0 %" && pass "ledring set/get through the daemon: move 50 %" || flunk "set: $(get)"
        press 5 0.2   # reset all, animated
        tries=0
        until get | grep -q "^move *0.0 % (target 0.0 %)" || [ $tries -ge 100 ]; do tries=$((tries + 1)); sleep 0.1; done
        get | grep -q "^stand *0.0 % (target 0.0 %)" && pass "button press reset every ring" || flunk "button: $(get)"
        detent +1; detent +1
        tries=0
        until get | grep -q "^move .*(target 10.0 %)" || [ $tries -ge 100 ]; do tries=$((tries + 1)); sleep 0.1; done
        get | grep -q "^move .*(target 10.0 %)" && pass "knob: two detents moved move to 10 %" || flunk "knob: $(get)"
        press 22 0.1   # next ring: exercise
        detent +1
        tries=0
        until get | grep -q "^exercise .*(target 5.0 %)" || [ $tries -ge 100 ]; do tries=$((tries + 1)); sleep 0.1; done
        get | grep -q "^exercise .*(target 5.0 %)" && pass "knob push selected exercise, a detent moved it" || flunk "select: $(get)"
        kill -TERM $dpid
        wait $dpid; status=$?
        [ $status = 0 ] && pass "ledring run exits 0 on SIGTERM" || flunk "ledring run exit $status"
        grep -q "stopping on SIGTERM" /run/daemon.out || flunk "no stop log: $(cat /run/daemon.out)"
        # (The off-after-the-blank-frame order is checked line by line by the probe in step 3: once
        # the process has exited, the kernel has released the line and only its pull is left.)
    else
        flunk "ledring run did not start: $(cat /run/daemon.out)"
        kill $dpid 2>/dev/null
    fi
    sed 's/^/  daemon: /' /run/daemon.out
fi

# 7. Bit rate of the clocked transport on this (emulated) machine: a benchmark, not a check.
say "$("$probe" bench --chip "$label" --data 12 --clock 13 --leds 60 --frames 5 2>&1)"

say "$failures failed"
[ $failures = 0 ]
