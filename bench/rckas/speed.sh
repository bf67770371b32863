#!/bin/sh
# The compiled counters' cost (docs/P54C-COUNTERS.md, "Measured slowdown"):
# each kernel built plain and with rckcc -rck-count, the best of REPS runs
# of each, and the ratio. The counted builds link tests/rckas/ctr_map.c
# (uninstrumented) for the counters' page until librockcreek maps it.
#   bench/rckas/speed.sh [BUILD_DIR] [REPS]
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
reps=${2:-5}
rckcc=$build/src/tools/rckcc
rck=$build/src/tools/rck
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cc -O2 -I"$src/src/backends/sim" -c "$src/tests/rckas/ctr_map.c" -o "$tmp/ctr.o"

best() { # best wall time in seconds of "$@", REPS runs
    b=
    for _ in $(seq "$reps"); do
        s=$(date +%s.%N)
        "$@" >/dev/null 2>&1
        e=$(date +%s.%N)
        b=$(echo "$s $e ${b:-}" | awk '{t=$2-$1; if ($3 != "" && $3 < t) t=$3; printf "%.3f", t}')
    done
    echo "$b"
}

row() { # name plain-time counted-time
    echo "$1 $2 $3" | awk '{printf "%-34s %8.3f %8.3f %6.2fx\n", $1, $2, $3, $3/$2}'
}

for opt in -O2; do
    RCKCC_COUNT=0 "$rckcc" $opt "$src/bench/rckas/kernels.c" -o "$tmp/kp"
    "$rckcc" -rck-count $opt "$src/bench/rckas/kernels.c" "$tmp/ctr.o" -o "$tmp/ki"
    RCKCC_COUNT=0 "$rckcc" $opt "$src/examples/stencil.c" -o "$tmp/sp" -lm
    "$rckcc" -rck-count $opt "$src/examples/stencil.c" "$tmp/ctr.o" -o "$tmp/si" -lm
    [ "$("$tmp/kp" int 1000)" = "$("$tmp/ki" int 1000)" ] || { echo "outputs differ"; exit 1; }
    printf '%-34s %8s %8s %7s\n' "kernel ($opt)" plain counted ratio
    row "int(hash_loop)" "$(best "$tmp/kp" int 300000000)" "$(best "$tmp/ki" int 300000000)"
    row "fp(horner+dot)" "$(best "$tmp/kp" fp 200000000)" "$(best "$tmp/ki" fp 200000000)"
    row "branch(switch)" "$(best "$tmp/kp" branch 200000000)" "$(best "$tmp/ki" branch 200000000)"
    row "stencil_native_n4_512x512_i500" \
        "$(best "$rck" run -n 4 --backend native "$tmp/sp" -n 512 -i 500)" \
        "$(best "$rck" run -n 4 --backend native "$tmp/si" -n 512 -i 500)"
    row "stencil_native_n1_512x512_i300" \
        "$(best "$rck" run -n 1 --backend native "$tmp/sp" -n 512 -i 300)" \
        "$(best "$rck" run -n 1 --backend native "$tmp/si" -n 512 -i 300)"
done
