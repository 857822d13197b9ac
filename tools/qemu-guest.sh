# Sourced by the guest scripts tools/qemu-kernel.sh boots (tools/gpio-sim-guest.sh,
# tools/spi-capture-guest.sh): how a check reports. The caller sets `guest_tag` before sourcing and
# reads `failures` at the end.
failures=0
guest_started=$(date +%s)
say() { echo "$guest_tag: [$(( $(date +%s) - guest_started ))s] $*"; }
pass() { say "ok   $*"; }
flunk() { say "FAIL $*"; failures=$((failures + 1)); }

# wait_for FILE PATTERN PID: polls (TCG is slow, so never a fixed sleep) until FILE has a line
# matching PATTERN; gives up at once when process PID has exited without writing it, or after
# 60 s.
wait_for() {
    local file=$1 pattern=$2 pid=$3 tries=0
    until grep -q -- "$pattern" "$file" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || { grep -q -- "$pattern" "$file" 2>/dev/null; return; }
        tries=$((tries + 1))
        [ $tries -lt 1200 ] || return 1
        sleep 0.05
    done
}
