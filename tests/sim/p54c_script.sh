#!/bin/sh
# The compute model follows the program that calls the HAL, not the file
# launched (docs/P54C.md "Programs started by a script"): a shell script
# that starts a counted program runs it under p54c-fast (RCK_COMPUTE=auto
# too) with the chip times of the program launched directly; one that
# starts a program without counters runs it under host (auto) or is
# refused with the program's name (p54c-fast, p54c); the QEMU engine
# refuses a script up front.
# usage: p54c_script.sh RCK COUNTED_PROG PLAIN_PROG OUTDIR
set -u
rck=$1 counted=$2 plain=$3 out=$4
mkdir -p "$out" || exit 1
cd "$out" || exit 1
printf '#!/bin/sh\nexec "%s" "$@"\n' "$counted" > run_counted
printf '#!/bin/sh\nexec "%s" "$@"\n' "$plain" > run_plain
chmod +x run_counted run_plain
export RCK_SIM_REPORT=none
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cycles() { sed -n 's/^rck sim: [0-9]* cores, \([0-9]*\) cycles.*/\1/p' "$1"; }

"$rck" run -n 2 --backend sim --compute p54c-fast "$counted" -s 64 -r 2 \
    > direct.log 2>&1 || bad "direct run: status $?"
"$rck" run -n 2 --backend sim --compute auto ./run_counted -s 64 -r 2 \
    > auto_counted.log 2>&1 || bad "auto, counted: status $?"
d=$(cycles direct.log) a=$(cycles auto_counted.log)
[ -n "$d" ] && [ "$d" = "$a" ] ||
    bad "auto through a script: $a cycles, launched directly: $d"
grep -q "compute model p54c-fast" auto_counted.log ||
    bad "auto through a script did not choose p54c-fast"
grep -q "counted copies.*not found" auto_counted.log &&
    bad "the counted libraries were not found for a script"

"$rck" run -n 2 --backend sim --compute auto ./run_plain -s 64 -r 2 \
    > auto_plain.log 2>&1 || bad "auto, plain: status $?"
grep -q "has no compiled counters: the host compute model" auto_plain.log ||
    bad "auto, plain: no warning that the program it started is not counted"
grep -q "2 of 2 cores ran a program without compiled counters" auto_plain.log ||
    bad "auto, plain: the summary does not say the cores used host"

"$rck" run -n 2 --backend sim --compute p54c-fast ./run_plain -s 64 -r 2 \
    > fast_plain.log 2>&1 && bad "p54c-fast, plain program: status 0"
grep -q "runs '[^']*' (started by the script '[^']*run_plain'), which has no compiled counters" \
    fast_plain.log || bad "p54c-fast, plain program: no error naming it"

"$rck" run -n 2 --backend sim --compute p54c ./run_counted -s 64 -r 2 \
    > p54c_counted.log 2>&1 && bad "p54c, program without checks: status 0"
grep -q "does not check its memory accesses" p54c_counted.log ||
    bad "p54c, program without checks: no error naming why"

RCK_P54C_ENGINE=qemu "$rck" run -n 2 --backend sim --compute p54c-fast \
    ./run_counted > qemu.log 2>&1
st=$?
[ $st -eq 2 ] || bad "the QEMU engine and a script: status $st, expected 2"
grep -q "is a script, and QEMU runs" qemu.log ||
    bad "the QEMU engine and a script: no clear refusal"

for f in *.log; do echo "== $f"; grep -v '^\[' "$f" | head -8; done
[ $fail -eq 0 ] && echo "p54c_script: OK"
exit $fail
