#!/usr/bin/env bash
# Runs the Embedded Swift binaries (tools/embedded-build.sh) and compares them with the normal host
# build: the host one natively, aarch64 under qemu-aarch64-static, armv6 under qemu-arm-static with
# -cpu arm1176 (the Pi 1 / Zero CPU, so an armv7 instruction fails).
#
# For each: a corpus of `--simulate --format json` runs and `--dump-wire` frames must be
# byte-identical to the normal build's; then `ledring run` (simulated output) with a socket:
# `set`, `get` and `status` answered, SIGTERM ends it with a blank frame, and a restart on the same
# state file shows the values again; and on a config with looks, a ranged ring and zones,
# `look`, `notify` and `timer` are taken and show in `get`; and with an `mqtt` section, against a
# real Mosquitto on loopback: online, Home Assistant discovery byte-identical to the normal build's
# (which tools/ha-check.sh holds to real Home Assistant cores), a `set` and a ring light's colour
# taken from the broker, everything published again after a broker restart, `offline` on SIGTERM;
# and with an `http` section, with curl: the state behind a token, a set answered with the picture
# after it, keep-alive, a body behind `Expect: 100-continue` and a chunked one, the live page
# byte-identical to the normal build's and headless Chromium's screenshot of it the same as of the
# normal build's, the event stream, and a signed GitHub delivery shown. The host binary then runs
# with both on, a page open: its wake-ups while idle (keep-alives only) and its peak memory.
#
# Needs: qemu-user-static, mosquitto and mosquitto-clients, curl, chromium, python3; the normal build (`swift build`, .build/debug/ledring, or REFERENCE=PATH)
# and the embedded binaries (.build/embedded/<arch>/ledring).
#
# usage: tools/embedded-qemu-check.sh [host|aarch64|armv6 ...]   (default: all three)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
reference=${REFERENCE:-$repo/.build/debug/ledring}
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(host aarch64 armv6)
work=$(mktemp -d)
daemon=""
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "embedded-qemu-check: FAILED: chromium missing (apt-get install chromium)" >&2; exit 1; }
cleanup() {
    [ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null || true
    [ -n "${ext4_mounted:-}" ] && umount "$ext4" 2>/dev/null || true
    [ -n "${KEEP_WORK:-}" ] && echo "embedded-qemu-check: kept $work" >&2 || rm -rf "$work"
}
broker=""
cleanup_broker() {
    [ -n "$broker" ] && { kill -KILL "$broker" 2>/dev/null; wait "$broker" 2>/dev/null; } || true
    broker=""
}
trap 'cleanup_broker; cleanup' EXIT
fail() { echo "embedded-qemu-check: FAILED: $*" >&2; exit 1; }
[ -x "$reference" ] || fail "no normal build at $reference (swift build)"

# One argument list per line: simulated frames (JSON), wire bytes (written to WIRE), and the
# commands that read board files, configs and a (missing) kernel's files.
corpus=(
    "boards"
    "check-config $repo/examples/minimal.json"
    "doctor --root $repo/boards"
    "--simulate --format json"
    "--simulate --format json --set move=0.42"
    "--simulate --format json --set move=1.3 --set exercise=75% --set stand=0.45 --duration 1 --curve spring --frames 40"
    "--simulate --format json --spin move --set stand=0.2 --frames 20"
    "--simulate --format json --shape pie --set progress=0.66 --cap square"
    "--simulate --format json --shape bar --leds 30 --set progress=0.3 --dither on --frames 10"
    "--simulate --format json --rings a:12,b:60 --set a=0.9 --set b=2.5 --laps alternate --reverse-spin --spin a --frames 15"
    "--simulate --format json --set move=0.8 --max-milliamps 100 --correction typical-led-strip+tungsten-100w"
    "--simulate --format text --set move=0.5 --frames 3"
    "--driver ws2812-spi --board rpi4b --dump-wire WIRE --frames 5 --set move=0.7 --set stand=1.2"
    "--driver sk6812w-spi --board rpi4b --dump-wire WIRE --frames 3 --set move=0.5 --white accurate-warm"
    "--driver apa102-spi --board rpi4b --dump-wire WIRE --frames 3 --set move=0.25 --hdr"
    "--driver sk9822-spi --board rpi4b --dump-wire WIRE --frames 2 --set move=0.9 --order RGB"
    "--driver ws2812-spi --board rpi3b --dump-wire WIRE --frames 2 --set move=0.33"
    "--driver leds-pio --board rpi5 --dump-wire WIRE --frames 2 --set move=0.6"
    # A directory on ext4, whose hashed cookies need 64-bit offsets: a 32-bit build without
    # -D_FILE_OFFSET_BITS=64 gets EOVERFLOW from readdir under qemu-arm and lists nothing.
    "boards --dir EXT4/boards"
)

# EXT4: a folder on an ext4 file system (the work folder if it is on one, else a loop-mounted
# image), holding a copy of boards/.
ext4=$work/ext4
mkdir -p "$ext4"
if [ "$(stat -f -c %T "$work")" != ext2/ext3 ]; then
    truncate -s 16M "$work/ext4.img" && mkfs.ext4 -q -F "$work/ext4.img" \
        && mount -o loop "$work/ext4.img" "$ext4" \
        || fail "$work is not on ext4 and an ext4 image cannot be mounted (needs root and a loop device)"
    ext4_mounted=1
fi
cp -r "$repo/boards" "$ext4/boards"

# Runs `ledring` for an architecture: natively or under QEMU.
runner() {
    case $1 in
    host) echo "" ;;
    aarch64) echo "qemu-aarch64-static" ;;
    armv6) echo "qemu-arm-static -cpu arm1176" ;;
    reference) echo "" ;;
    esac
}

# Runs one corpus entry with `binary` under `prefix`; output and wire bytes go to $2.out / $2.wire.
run_case() {
    local prefix=$1 binary=$2 base=$3 args=$4 status
    rm -f "$base.wire"
    args=${args//WIRE/$base.wire}
    args=${args//EXT4/$ext4}
    # shellcheck disable=SC2086  # the prefix and the arguments are word lists
    set +e
    $prefix "$binary" $args > "$base.out" 2> "$base.err"
    status=$?
    set -e
    echo "$status" > "$base.status"
}

# Waits up to 10 s for `path` to appear.
wait_for() {
    for _ in $(seq 100); do [ -e "$1" ] && return 0; sleep 0.1; done
    return 1
}

# A Mosquitto on a free loopback port without persistence (a restart forgets retained messages).
mqtt_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$mqtt_port" > "$work/mosquitto.conf"
start_broker() {
    mosquitto -c "$work/mosquitto.conf" 2> "$work/mosquitto.log" &
    broker=$!
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$mqtt_port") 2> /dev/null && return 0
        sleep 0.1
    done
    fail "mosquitto did not listen on port $mqtt_port: $(cat "$work/mosquitto.log")"
}
# The retained message on `topic` (empty when none within 2 s).
retained() { mosquitto_sub -p "$mqtt_port" -t "$1" --retained-only -C 1 -W 2 2> /dev/null || true; }
# Waits up to 30 s for the retained message on `topic` to be `payload`.
wait_retained() {
    for _ in $(seq 30); do [ "$(retained "$1")" = "$2" ] && return 0; sleep 1; done
    return 1
}
# Device $1's retained discovery messages, one `topic payload` line each, sorted.
discovery() {
    { mosquitto_sub -p "$mqtt_port" -t 'homeassistant/#' --retained-only -v -W 2 2> /dev/null || true; } \
        | grep -E "^homeassistant/[^/]+/$1(_[^/ ]*)?/config " | sort
}

# `ledring run` of `binary` under `prefix` with an `mqtt` section as device `device`, checked
# against the broker; $1 prefix, $2 binary, $3 device, $4 folder.
mqtt_round() {
    local prefix=$1 binary=$2 device=$3 dir=$4
    mkdir -p "$dir"
    cat > "$dir/mqtt.json" <<JSON
{"rings": [{"name": "move", "leds": 24}, {"name": "stand", "leds": 12}],
 "looks": {"failed": {"gradient": "#ff2020", "effect": "pulse"}},
 "mqtt": {"host": "127.0.0.1", "port": $mqtt_port, "device": "$device", "keepalive": 5, "reconnectMin": 1, "reconnectMax": 2}}
JSON
    local sock="$dir/ledring.sock"
    rm -f "$sock"
    # shellcheck disable=SC2086
    $prefix "$binary" run --simulate --format json --config "$dir/mqtt.json" --socket "$sock" --state "$dir/state.json" \
        > "$dir/frames" 2> "$dir/log" &
    daemon=$!
    wait_for "$sock" || fail "$device: ledring run with mqtt made no socket: $(cat "$dir/log")"
    wait_retained "ledring/$device/availability" online || fail "$device: not online on the broker: $(cat "$dir/log")"
    discovery "$device" | sed "s/$device/DEVICE/g" > "$dir/discovery"
    [ "$(wc -l < "$dir/discovery")" -ge 8 ] || fail "$device: discovery has $(wc -l < "$dir/discovery") messages: $(cat "$dir/discovery")"
    mosquitto_pub -p "$mqtt_port" -t "ledring/$device/move/set" -m 0.5
    mosquitto_pub -p "$mqtt_port" -t "ledring/$device/stand/light" -m '{"state":"ON","color":{"r":0,"g":0,"b":255}}'
    for _ in $(seq 50); do
        # shellcheck disable=SC2086
        $prefix "$binary" get --socket "$sock" --json > "$dir/get" 2>&1 || true
        grep -q '"name":"move","shown":[0-9.]*,"target":0.5' "$dir/get" && grep -q '"look":"#0000ff"' "$dir/get" && break
        sleep 0.2
    done
    grep -q '"name":"move","shown":[0-9.]*,"target":0.5' "$dir/get" && grep -q '"look":"#0000ff"' "$dir/get" \
        || fail "$device: the broker's set and light did not arrive: $(cat "$dir/get"); $(cat "$dir/log")"
    # The broker restarts with nothing retained: the daemon reconnects and publishes it all again.
    cleanup_broker
    start_broker
    wait_retained "ledring/$device/availability" online || fail "$device: not online after a broker restart: $(cat "$dir/log")"
    for _ in $(seq 20); do retained "ledring/$device/move/state" | grep -q '"value":0.5' && break; sleep 0.5; done
    retained "ledring/$device/move/state" | grep -q '"value":0.5' || fail "$device: move's state not republished: $(retained "ledring/$device/move/state")"
    kill -TERM "$daemon"
    wait "$daemon" || fail "$device: ledring run with mqtt exited $? on SIGTERM: $(cat "$dir/log")"
    daemon=""
    [ "$(retained "ledring/$device/availability")" = offline ] || fail "$device: not offline after SIGTERM"
}

# A free TCP port on loopback.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Headless Chromium's screenshot of the live page at $1 (the token in the fragment, as the
# README's link has it) to $2/$3.
page_screenshot() {
    rm -f "$2/$3"
    timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=700,900 --timeout=20000 \
        --user-data-dir="$2/chromium" --screenshot="$2/$3" "$1/#token=t0ken" > "$2/chromium.log" 2>&1 \
        || fail "headless Chromium could not take the screenshot of $1: $(tail -3 "$2/chromium.log")"
    [ -s "$2/$3" ] || fail "headless Chromium wrote no screenshot of $1: $(tail -3 "$2/chromium.log")"
}

# `ledring run` of `binary` under `prefix` with an `http` section (a token, a GitHub webhook),
# checked with curl: $1 prefix, $2 binary, $3 name, $4 folder. The page is left in $4/page.
http_round() {
    local prefix=$1 binary=$2 name=$3 dir=$4
    mkdir -p "$dir"
    local port; port=$(free_port)
    printf 'It is a secret\n' > "$dir/secret"
    cat > "$dir/http.json" <<JSON
{"rings": [{"name": "move", "leds": 24}, {"name": "build", "leds": 12}],
 "looks": {"passed": {"gradient": "#20ff60"}, "failed": {"gradient": "#ff2020", "effect": "pulse"}},
 "http": {"address": "127.0.0.1", "port": $port, "token": "t0ken",
          "webhooks": {"github": {"secretFile": "$dir/secret", "ring": "build", "looks": {"success": "passed", "failure": "failed"}}}}}
JSON
    local sock="$dir/ledring.sock" url="http://127.0.0.1:$port" auth="Authorization: Bearer t0ken"
    rm -f "$sock"
    # shellcheck disable=SC2086
    $prefix "$binary" run --simulate --format json --config "$dir/http.json" --socket "$sock" --state "$dir/state.json" \
        > "$dir/frames" 2> "$dir/log" &
    daemon=$!
    wait_for "$sock" || fail "$name: ledring run with http made no socket: $(cat "$dir/log")"
    for _ in $(seq 100); do curl -s -o /dev/null "$url/" && break; sleep 0.1; done
    curl -sf -H "$auth" "$url/api/state" > "$dir/state" || fail "$name: GET /api/state failed: $(cat "$dir/log")"
    grep -q '"name":"build"' "$dir/state" || fail "$name: /api/state says $(cat "$dir/state")"
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/api/state")" = 401 ] || fail "$name: /api/state without the token was not 401"
    # The answer to a change carries the picture after it (the loop applies it first).
    curl -sf -H "$auth" -X POST --data 0.5 "$url/api/rings/move" > "$dir/set" || fail "$name: POST /api/rings/move failed"
    grep -q '"name":"move"[^}]*"target":0.5[,}]' "$dir/set" || fail "$name: the set's answer says $(cat "$dir/set")"
    # Keep-alive: curl's second request goes on the first one's connection.
    [ "$(curl -s -H "$auth" -o /dev/null -o /dev/null -w '%{num_connects} ' "$url/api/state" "$url/api/state")" = "1 0 " ] \
        || fail "$name: the connection was not kept alive between two requests"
    # A body over 1 KiB (curl waits for 100 Continue), and a chunked one.
    { printf '{"value":0.25'; printf '%*s' 2000 ''; printf '}'; } > "$dir/big.json"
    curl -sf -H "$auth" -H 'Content-Type: application/json' --data-binary @"$dir/big.json" "$url/api/rings/move" > "$dir/big" \
        && grep -q '"name":"move"[^}]*"target":0.25[,}]' "$dir/big" || fail "$name: the 2 KB body was not taken: $(cat "$dir/big")"
    curl -sf -H "$auth" -H 'Transfer-Encoding: chunked' --data 0.3 "$url/api/rings/move" > "$dir/chunked" \
        && grep -q '"name":"move"[^}]*"target":0.3[,}]' "$dir/chunked" || fail "$name: the chunked body was not taken: $(cat "$dir/chunked")"
    curl -sf "$url/" > "$dir/page" || fail "$name: GET / failed"
    # What a browser shows: once the transition to 0.3 has ended, headless Chromium's screenshot of
    # the page (the token in the fragment, as the README's link has it), compared across builds.
    local settled=""
    for _ in $(seq 100); do
        # shellcheck disable=SC2086
        $prefix "$binary" get --socket "$sock" --json 2> /dev/null | grep -q '"name":"move","shown":0.3,' && { settled=1; break; }
        sleep 0.1
    done
    [ -n "$settled" ] || fail "$name: the move ring did not settle at 0.3"
    # Chromium takes the picture at the page's load event, and its --timeout stops the page
    # (cancelling the page's fetch: "cannot reach ledring") when that comes late, as it does on
    # CI's two busy cores: so the timeout is long, and a picture is taken again (at most three
    # times) until the reference's two pictures agree, or an arch's agrees with the reference.
    # A page that differs differs every time, and fails below.
    local shot
    for shot in 1 2 3; do
        page_screenshot "$url" "$dir" page.png
        if [ "$name" = reference ]; then
            page_screenshot "$url" "$dir" again.png
            cmp -s "$dir/page.png" "$dir/again.png" && break
        else
            cmp -s "$work/http-reference/page.png" "$dir/page.png" && break
        fi
    done
    echo "$shot" > "$dir/shots"
    curl -s -N --max-time 2 "$url/api/events?access_token=t0ken" > "$dir/events" || true
    grep -q '^event: snapshot' "$dir/events" || fail "$name: /api/events sent no snapshot: $(head -c 300 "$dir/events")"
    # A signed GitHub delivery: a failed run shows the failed look on the build ring.
    printf '%s' '{"action":"completed","workflow_run":{"name":"CI","head_branch":"main","status":"completed","conclusion":"failure"}}' > "$dir/delivery"
    local signature
    signature=$(python3 -c 'import hmac, hashlib, sys; print(hmac.new(b"It is a secret", open(sys.argv[1], "rb").read(), hashlib.sha256).hexdigest())' "$dir/delivery")
    [ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -H 'X-GitHub-Event: workflow_run' \
          -H "X-Hub-Signature-256: sha256=0$signature" --data-binary @"$dir/delivery" "$url/api/hooks/github")" = 401 ] \
        || fail "$name: a wrongly signed delivery was not 401"
    curl -s -o "$dir/hook" -w '%{http_code}' -H 'Content-Type: application/json' -H 'X-GitHub-Event: workflow_run' \
        -H "X-Hub-Signature-256: sha256=$signature" --data-binary @"$dir/delivery" "$url/api/hooks/github" > "$dir/hook-status"
    [ "$(cat "$dir/hook-status")" = 200 ] || fail "$name: the signed delivery got $(cat "$dir/hook-status"): $(cat "$dir/hook")"
    # shellcheck disable=SC2086
    $prefix "$binary" get --socket "$sock" --json > "$dir/get" 2>&1 || true
    grep -q '"name":"build"[^}]*"look":"failed"' "$dir/get" || fail "$name: the delivery's look is not shown: $(cat "$dir/get")"
    kill -TERM "$daemon"
    wait "$daemon" || fail "$name: ledring run with http exited $? on SIGTERM: $(cat "$dir/log")"
    daemon=""
}

# The host binary with both on, as a Home Assistant Pi runs it: MQTT connected (keep-alive 5 s),
# the HTTP API serving, a live page's event stream open, the page loaded once in Chromium, a set
# from each side. Then idle: it may wake only for the MQTT keep-alive (the PINGREQ's deadline and
# its PINGRESP: 2 wake-ups per 5 s) and the event stream's keep-alive comment (every 15 s), none
# between. Sets both_figures ("N wake-ups in 20 s, peak memory M kB").
both_figures=""
both_round() {
    local binary=$1 dir=$2
    mkdir -p "$dir"
    local port; port=$(free_port)
    cat > "$dir/both.json" <<JSON
{"rings": [{"name": "move", "leds": 24}, {"name": "stand", "leds": 12}],
 "mqtt": {"host": "127.0.0.1", "port": $mqtt_port, "device": "both", "keepalive": 5},
 "http": {"address": "127.0.0.1", "port": $port, "token": "t0ken"}}
JSON
    local sock="$dir/ledring.sock" url="http://127.0.0.1:$port"
    rm -f "$sock"
    "$binary" run --simulate --format json --config "$dir/both.json" --socket "$sock" --state "$dir/state.json" \
        > /dev/null 2> "$dir/log" &
    daemon=$!
    wait_for "$sock" || fail "both: ledring run with mqtt and http made no socket: $(cat "$dir/log")"
    wait_retained "ledring/both/availability" online || fail "both: not online on the broker: $(cat "$dir/log")"
    curl -s -N "$url/api/events?access_token=t0ken" > "$dir/events" &
    local events=$!
    page_screenshot "$url" "$dir" page.png
    curl -sf -H "Authorization: Bearer t0ken" -X POST --data 0.5 "$url/api/rings/move" > /dev/null || fail "both: the HTTP set failed"
    mosquitto_pub -p "$mqtt_port" -t "ledring/both/stand/set" -m 0.25
    for _ in $(seq 50); do
        "$binary" get --socket "$sock" --json 2> /dev/null | grep -q '"name":"stand","shown":0.25,' && break
        sleep 0.2
    done
    "$binary" get --socket "$sock" --json 2> /dev/null | grep -q '"name":"stand","shown":0.25,' \
        || fail "both: the broker's set did not arrive: $(cat "$dir/log")"
    sleep 1
    local before after
    before=$(awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n }' /proc/"$daemon"/task/*/status)
    sleep 20
    after=$(awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n }' /proc/"$daemon"/task/*/status)
    local peak; peak=$(awk '/^VmHWM/ { print $2 }' /proc/"$daemon"/status)
    grep -q '^event: snapshot' "$dir/events" || fail "both: the event stream sent no snapshot"
    kill "$events" 2> /dev/null || true
    wait "$events" 2> /dev/null || true
    # 4 MQTT keep-alives (8 wake-ups) and 1 or 2 event-stream comments in 20 s; a timer ticking
    # even at 1 Hz would add 20.
    [ $((after - before)) -le 12 ] \
        || fail "both: idle with MQTT and HTTP connected, the daemon woke $((after - before)) times in 20 s (keep-alives: 8 + 2 at most)"
    kill -TERM "$daemon"
    wait "$daemon" || fail "both: ledring run with mqtt and http exited $? on SIGTERM: $(cat "$dir/log")"
    daemon=""
    both_figures="with MQTT and HTTP connected and a page's event stream open, $((after - before)) wake-ups in 20 s idle (MQTT keep-alive 5 s, event keep-alive 15 s), peak memory ${peak} kB"
}

http_round "" "$reference" reference "$work/http-reference"

if command -v mosquitto > /dev/null && command -v mosquitto_sub > /dev/null; then
    start_broker
    mqtt_round "" "$reference" reference "$work/mqtt-reference"
else
    fail "mosquitto and mosquitto_sub missing (apt-get install mosquitto mosquitto-clients)"
fi

for arch in "${arches[@]}"; do
    binary="$repo/.build/embedded/$arch/ledring"
    [ -x "$binary" ] || fail "$binary missing (tools/embedded-build.sh $arch)"
    prefix=$(runner "$arch")
    [ -z "$prefix" ] || command -v "${prefix%% *}" >/dev/null || fail "${prefix%% *} missing (apt-get install qemu-user-static)"
    start=$(date +%s)

    index=0
    for args in "${corpus[@]}"; do
        index=$((index + 1))
        run_case "" "$reference" "$work/ref$index" "$args"
        run_case "$prefix" "$binary" "$work/$arch$index" "$args"
        for part in status out err; do
            cmp -s "$work/ref$index.$part" "$work/$arch$index.$part" \
                || { diff <(head -c 2000 "$work/ref$index.$part") <(head -c 2000 "$work/$arch$index.$part") | head -20 >&2 || true
                     fail "$arch: \`ledring $args\`: $part differs from the normal build"; }
        done
        if [ -e "$work/ref$index.wire" ] || [ -e "$work/$arch$index.wire" ]; then
            cmp "$work/ref$index.wire" "$work/$arch$index.wire" >&2 \
                || fail "$arch: \`ledring $args\`: wire bytes differ from the normal build"
        fi
    done

    # The daemon: socket, set/get/status, SIGTERM's blank frame, state kept across a restart.
    dir="$work/daemon-$arch"
    mkdir -p "$dir"
    sock="$dir/ledring.sock" state="$dir/state.json"
    # shellcheck disable=SC2086
    $prefix "$binary" run --simulate --format json --socket "$sock" --state "$state" > "$dir/frames1" 2> "$dir/log1" &
    daemon=$!
    wait_for "$sock" || fail "$arch: ledring run made no socket: $(cat "$dir/log1")"
    # shellcheck disable=SC2086
    $prefix "$binary" set --socket "$sock" move=0.5 stand=120% > "$dir/set" || fail "$arch: set failed"
    # shellcheck disable=SC2086
    $prefix "$binary" get --socket "$sock" --json > "$dir/get" || fail "$arch: get failed"
    grep -q '"name":"move","shown":0.5,"target":0.5' "$dir/get" || fail "$arch: get says $(cat "$dir/get")"
    # shellcheck disable=SC2086
    $prefix "$binary" status --socket "$sock" > "$dir/status" || fail "$arch: status failed"
    grep -q '^driver: simulate' "$dir/status" || fail "$arch: status says $(cat "$dir/status")"
    kill -TERM "$daemon"
    wait "$daemon" || fail "$arch: ledring run exited $? on SIGTERM: $(cat "$dir/log1")"
    daemon=""
    tail -n 1 "$dir/frames1" > "$dir/last"
    grep -q '"leds":\["#' "$dir/last" || fail "$arch: no frame after SIGTERM"
    if grep -o '#[0-9a-f]\{6\}' "$dir/last" | grep -qv '#000000'; then fail "$arch: the last frame is not blank"; fi
    grep -q '"move":0.5' "$state" || fail "$arch: state file says $(cat "$state")"
    # shellcheck disable=SC2086
    $prefix "$binary" run --simulate --format json --socket "$sock" --state "$state" > "$dir/frames2" 2> "$dir/log2" &
    daemon=$!
    wait_for "$sock" || fail "$arch: the restarted ledring run made no socket: $(cat "$dir/log2")"
    # shellcheck disable=SC2086
    $prefix "$binary" get --socket "$sock" --json > "$dir/get2" || fail "$arch: get after restart failed"
    grep -q '"name":"move","shown":0.5,"target":0.5' "$dir/get2" \
        && grep -q '"name":"stand","shown":1.2,"target":1.2' "$dir/get2" \
        || fail "$arch: after a restart get says $(cat "$dir/get2")"
    kill -TERM "$daemon"
    wait "$daemon" || fail "$arch: the restarted ledring run exited $? on SIGTERM"
    daemon=""

    # Issue 16's verbs on a config with looks, a ranged ring and zones: look, notify, timer.
    cat > "$dir/looks.json" <<'JSON'
{"rings": [{"name": "move", "leds": 24}, {"name": "co2", "leds": 12, "range": [400, 2000],
            "zones": [{"upTo": 800, "gradient": "#20ff60"}, {"gradient": "#ff2020"}]}],
 "looks": {"passed": {"gradient": "#20ff60"}, "failed": {"gradient": "#ff2020", "effect": "pulse"}}}
JSON
    rm -f "$sock"
    # shellcheck disable=SC2086
    $prefix "$binary" run --simulate --format json --config "$dir/looks.json" --socket "$sock" --state "$dir/looks-state.json" \
        > "$dir/frames3" 2> "$dir/log3" &
    daemon=$!
    wait_for "$sock" || fail "$arch: ledring run with looks made no socket: $(cat "$dir/log3")"
    # shellcheck disable=SC2086
    { $prefix "$binary" set --socket "$sock" co2=1200 && $prefix "$binary" look --socket "$sock" move failed \
        && $prefix "$binary" notify --socket "$sock" co2 --color '#0000ff' --for 30s \
        && $prefix "$binary" timer --socket "$sock" move 10m --then passed; } > "$dir/verbs" 2>&1 \
        || fail "$arch: look/notify/timer failed: $(cat "$dir/verbs")"
    # shellcheck disable=SC2086
    $prefix "$binary" get --socket "$sock" --json > "$dir/get3" || fail "$arch: get with looks failed"
    grep -q '"name":"co2","shown":0.5,"target":0.5' "$dir/get3" && grep -q '"look":"failed"' "$dir/get3" \
        && grep -q '"timerLeft":' "$dir/get3" || fail "$arch: with looks get says $(cat "$dir/get3")"
    # shellcheck disable=SC2086
    $prefix "$binary" look --socket "$sock" move sparkly > /dev/null 2>&1 && fail "$arch: an unknown look was accepted"
    kill -TERM "$daemon"
    wait "$daemon" || fail "$arch: ledring run with looks exited $? on SIGTERM: $(cat "$dir/log3")"
    daemon=""

    # MQTT: the same round as the normal build's, and the same discovery, byte for byte.
    mqtt_round "$prefix" "$binary" "$arch" "$work/mqtt-$arch"
    cmp -s "$work/mqtt-reference/discovery" "$work/mqtt-$arch/discovery" \
        || { diff "$work/mqtt-reference/discovery" "$work/mqtt-$arch/discovery" | head -20 >&2 || true
             fail "$arch: Home Assistant discovery differs from the normal build's"; }

    # HTTP: the same round as the normal build's, and the same page, byte for byte.
    http_round "$prefix" "$binary" "$arch" "$work/http-$arch"
    cmp -s "$work/http-reference/page" "$work/http-$arch/page" || fail "$arch: the live page differs from the normal build's"
    cmp -s "$work/http-reference/page.png" "$work/http-$arch/page.png" \
        || fail "$arch: headless Chromium shows the live page otherwise than the normal build's, $(cat "$work/http-$arch/shots") times ($work/http-reference/page.png, $work/http-$arch/page.png; KEEP_WORK=1 keeps them)"

    both_figures=""
    [ "$arch" != host ] || both_round "$binary" "$work/both-host"
    echo "embedded-qemu-check: $arch: ${#corpus[@]} cases byte-identical to the normal build; daemon socket, set/get/status, SIGTERM blank frame, state restored; look, notify, timer; MQTT: online, discovery as the normal build's, set and light from the broker, a broker restart, offline on SIGTERM; HTTP: state, token, a set answered with its picture, keep-alive, 100-continue and chunked bodies, the page as the normal build's (its bytes and Chromium's screenshot), the event stream, a signed GitHub delivery${both_figures:+; $both_figures} ($(( $(date +%s) - start )) s)"
done
