#!/bin/sh
# sequester.sh RCK BACKEND PROGRAM CASE: run PROGRAM CASE on two cores
# with --sequester and check the outcome (tests/hal/sequester.c): the
# allowed case exits 0; a stray case exits 5 with core 1's report naming
# what it tried and whose resource, core 0 intact, and no process of the
# run left behind.
set -u
rck=$1 backend=$2 prog=$3 case=$4
fail() {
    printf 'sequester.sh: FAILED: %s\n' "$*"
    printf '%s\n' "$out"
    exit 1
}
out=$("$rck" run -n 2 --backend "$backend" --sequester "$prog" "$case" 2>&1)
st=$?
if [ "$case" = allowed ]; then
    [ "$st" -eq 0 ] || fail "status $st"
    printf '%s\n' "$out" | grep -q "sequester: allowed ok" || fail "no ok"
    printf '%s\n' "$out"
    echo "sequester.sh: $case OK"
    exit 0
fi
[ "$st" -eq 5 ] || fail "status $st, want 5"
printf '%s\n' "$out" | grep -q "core 1: error: protection fault" ||
    fail "no report of core 1"
# core 0 checks its MPB unless the launcher stopped it first (it stops
# the other cores as soon as one fails): a check that ran must hold
if printf '%s\n' "$out" | grep -q "sequester: FAILED"; then
    fail "a check failed"
fi
printf '%s\n' "$out" | grep -q "went on after" && fail "core 1 went on"
case $case in
mpb | view) want="MPB of core 0" ;;
lut) want="LUT entry 0x40 of core 1" ;;
crb) want="configuration register GCBCFG of tile 0" ;;
esac
printf '%s\n' "$out" | grep -q "$want" || fail "the report does not name '$want'"
if pgrep -f "^$prog $case" >/dev/null 2>&1; then
    fail "a process of the run survived"
fi
printf '%s\n' "$out"
echo "sequester.sh: $case OK"
