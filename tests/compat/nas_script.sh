#!/bin/sh
# Tests of scripts/nas-rcce.sh (docs/P54C.md, "NAS LU and BT under the
# compiled memory model").
#
#   nas_script.sh params SCRIPT
#       the parameter files it writes follow NPB 3.3's setparams rules (the
#       values Barrelfish's tree ships for class S and A, and class W's),
#       and bad arguments stop it with status 2 and a message naming them
#   nas_script.sh run SCRIPT BINDIR OUTDIR
#       with RCK_BARRELFISH naming a Barrelfish checkout or git directory:
#       builds LU and BT class S with rckcc and runs LU on 2 UEs and BT on
#       1 under p54c-fast; both must verify. Without it: status 77 (skipped).
set -u

fail() {
    printf 'nas_script: FAILED: %s\n' "$*"
    exit 1
}

# want FILE-TEXT PATTERN: the generated text has a line matching PATTERN
want() {
    printf '%s\n' "$1" | grep -Eq "$2" || fail "no line '$2' in:
$1"
}

# refused EXPECTED-MESSAGE ARGS...: status 2 and the message
refused() {
    msg=$1
    shift
    out=$(sh "$script" "$@" 2>&1)
    rc=$?
    [ "$rc" -eq 2 ] || fail "'$*' exited $rc, not 2: $out"
    printf '%s\n' "$out" | grep -Fq "$msg" || fail "'$*' said '$out', not '$msg'"
}

case ${1:-} in
params)
    script=$2
    # LU: isiz1/isiz2 from the process grid (xdiv >= ydiv, powers of two).
    p=$(sh "$script" --params lu S 8) || fail "--params lu S 8"
    want "$p" '^#define isiz1 3$'
    want "$p" '^#define isiz2 6$'
    want "$p" 'itmax_default = 50, inorm_default = 50;'
    p=$(sh "$script" --params lu S 32) || fail "--params lu S 32"
    want "$p" '^#define isiz1 2$'
    want "$p" '^#define isiz2 3$'
    p=$(sh "$script" --params lu W 1) || fail "--params lu W 1"
    want "$p" '^#define isiz1 33$'
    want "$p" '^#define isiz3 33$'
    want "$p" 'itmax_default = 300, inorm_default = 300;'
    want "$p" 'dt_default = 1.5e-3;'
    p=$(sh "$script" --params lu W 32) || fail "--params lu W 32"
    want "$p" '^#define isiz1 5$'
    want "$p" '^#define isiz2 9$'
    p=$(sh "$script" --params lu A 16) || fail "--params lu A 16"
    want "$p" '^#define isiz1 16$'
    want "$p" 'itmax_default = 250'
    # BT: MAXCELLS is the square root of the UE count.
    p=$(sh "$script" --params bt W 36) || fail "--params bt W 36"
    want "$p" '^#define MAXCELLS 6$'
    want "$p" '^#define PROBLEM_SIZE 24$'
    want "$p" '^#define NITER_DEFAULT 200$'
    want "$p" 'dt_default = 0.0008e0;'
    p=$(sh "$script" --params bt S 9) || fail "--params bt S 9"
    want "$p" '^#define MAXCELLS 3$'
    want "$p" '^#define NITER_DEFAULT 60$'
    # Bad arguments.
    refused "LU needs a power of two UEs, not 6" --params lu W 6
    refused "BT needs a square number of UEs, not 8" --params bt W 8
    refused "NP must be 1..48 (the chip's cores), not 64" --params lu S 64
    refused "NP must be a number, not 'x'" --params lu S x
    refused "BENCH must be lu or bt, not 'sp'" --params sp S 4
    refused "CLASS must be S, W or A, not 'B'" --params lu B 4
    refused "unknown option '--fast'" --fast lu S 4
    refused "usage: nas-rcce.sh [options]" /nowhere lu S
    refused "no rckcc in '/nowhere'" --bin /nowhere /nowhere lu S 1
    d=$(mktemp -d) || fail mktemp
    mkdir -p "$d/bin"
    printf '#!/bin/sh\n' > "$d/bin/rckcc"
    printf '#!/bin/sh\n' > "$d/bin/rck"
    chmod +x "$d/bin/rckcc" "$d/bin/rck"
    refused "is neither a Barrelfish work tree (no usr/bench/rcce/lu) nor its git directory" \
        --out "$d/out" --bin "$d/bin" "$d/nothing" lu S 1
    rm -rf "$d"
    echo "nas_script: params OK"
    ;;
run)
    script=$2 bindir=$3 outdir=$4
    if [ -z "${RCK_BARRELFISH:-}" ]; then
        echo "nas_script: skipped: set RCK_BARRELFISH to a Barrelfish checkout or git directory"
        exit 77
    fi
    rm -rf "$outdir"
    out=$(sh "$script" --out "$outdir" --bin "$bindir" --cflags -O2 --model p54c-fast \
        "$RCK_BARRELFISH" lu S 2 2>&1) || fail "LU S 2: $out"
    printf '%s\n' "$out"
    printf '%s\n' "$out" | grep -q '^lu S 2 p54c-fast time=[0-9.]* verified=SUCCESSFUL' ||
        fail "LU S 2 did not verify"
    out=$(sh "$script" --out "$outdir" --bin "$bindir" --cflags -O2 --model p54c-fast \
        "$RCK_BARRELFISH" bt S 1 2>&1) || fail "BT S 1: $out"
    printf '%s\n' "$out"
    printf '%s\n' "$out" | grep -q '^bt S 1 p54c-fast time=[0-9.]* verified=SUCCESSFUL' ||
        fail "BT S 1 did not verify"
    echo "nas_script: run OK"
    ;;
*)
    fail "usage: nas_script.sh params SCRIPT | run SCRIPT BINDIR OUTDIR"
    ;;
esac
