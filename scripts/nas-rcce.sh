#!/bin/sh
# Build and run the RCCE ports of NAS LU and BT (NPB 3.3) that the
# Barrelfish tree carries (usr/bench/rcce/lu, usr/bench/rcce/bt), outside
# this repository, with rckcc, on the sim backend.
#
#   scripts/nas-rcce.sh [options] BARRELFISH BENCH CLASS NP...
#   scripts/nas-rcce.sh --params BENCH CLASS NP
#                  print the npbparams.h this script writes for a UE count the
#                  tree has no file for (no tree needed)
#
#   BARRELFISH  a Barrelfish checkout (a work tree with usr/bench/rcce) or
#               its git directory (read with `git archive HEAD`)
#   BENCH       lu or bt
#   CLASS       S, W or A (NPB's problem classes; the parameter files the
#               tree lacks, class W's among them, are written here from
#               NPB 3.3's setparams rules)
#   NP          UE counts: LU a power of two, BT a square
#
# Options:
#   --out DIR      where sources, binaries and logs go (default /tmp/rck-nas);
#                  never inside this repository
#   --bin DIR      the directory holding rckcc and rck (default: PATH; in a
#                  build tree, build/src/tools)
#   --cflags "F"   rckcc flags (default "-O2 -rck-mem": the memory-checked build)
#   --model M      RCK_COMPUTE for the runs (default: the environment's, else auto)
#   --report       also write each run's JSON report (DIR/run/*.json)
#   --build-only   build, do not run
#
# Binaries are named BENCH.CLASS.NP.<flags>[_nocount] in DIR/bin and reused;
# RCKCC_COUNT=0 builds them without counters or checks (for QEMU p54c on the
# program's own code: docs/P54C.md, "NAS LU and BT under the compiled
# memory model").
#
# Each run prints one line:
#   BENCH CLASS NP MODEL time=<benchmark's own "Time in seconds"> verified=<...>
#   host=<wall s> cpu=<user+sys s>
# and the run's summary line from the launcher; the full output is in
# DIR/run/BENCH.CLASS.NP.MODEL.log. Exit status: 0 when every run verified,
# 1 when one did not (or its time was missing), 2 for bad arguments.
#
# Two changes are made to the copies (not to the checkout), both to LU's
# driver lu.c: Barrelfish's thread start-up (`main` starting LU_main on a
# Barrelfish thread) is cut and LU_main becomes RCCE_APP, and Barrelfish's
# tracing global rcce_curphase, which the exchange routines set, is defined
# in a file of its own. BT builds as it is.
set -eu

out=/tmp/rck-nas
bindir=
cflags="-O2 -rck-mem"
model=${RCK_COMPUTE:-auto}
report=0
build_only=0
params_only=0

die() { echo "nas-rcce.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
        --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift 2 ;;
        --bin) [ $# -ge 2 ] || die "--bin needs a directory"; bindir=$2; shift 2 ;;
        --cflags) [ $# -ge 2 ] || die "--cflags needs flags"; cflags=$2; shift 2 ;;
        --model) [ $# -ge 2 ] || die "--model needs a model"; model=$2; shift 2 ;;
        --report) report=1; shift ;;
        --build-only) build_only=1; shift ;;
        --params) params_only=1; shift ;;
        -h|--help) sed -n '2,40p' "$0"; exit 0 ;;
        --) shift; break ;;
        -*) die "unknown option '$1'" ;;
        *) break ;;
    esac
done
if [ "$params_only" = 1 ]; then
    [ $# -eq 3 ] || die "usage: nas-rcce.sh --params lu|bt S|W|A NP"
    bf=; bench=$1; class=$2; shift 2
else
    [ $# -ge 4 ] || die "usage: nas-rcce.sh [options] BARRELFISH lu|bt S|W|A NP..."
    bf=$1; bench=$2; class=$3; shift 3
fi

case "$bench" in lu|bt) ;; *) die "BENCH must be lu or bt, not '$bench'" ;; esac
case "$class" in S|W|A) ;; *) die "CLASS must be S, W or A, not '$class'" ;; esac

# The process-count check of each benchmark, and NPB 3.3's parameter files.
ilog2() { n=$1; l=0; while [ "$n" -gt 1 ]; do n=$((n / 2)); l=$((l + 1)); done; echo $l; }
isqrt() { r=0; while [ $(((r + 1) * (r + 1))) -le "$1" ]; do r=$((r + 1)); done; echo $r; }
for np in "$@"; do
    case "$np" in ''|*[!0-9]*) die "NP must be a number, not '$np'" ;; esac
    [ "$np" -ge 1 ] && [ "$np" -le 48 ] || die "NP must be 1..48 (the chip's cores), not $np"
    if [ "$bench" = lu ]; then
        [ $((1 << $(ilog2 "$np"))) -eq "$np" ] || die "LU needs a power of two UEs, not $np"
    else
        r=$(isqrt "$np"); [ $((r * r)) -eq "$np" ] || die "BT needs a square number of UEs, not $np"
    fi
done

# npbparams.h for CLASS and NP by the rules of NPB 3.3's setparams.c (MPI).
gen_params() { # np
    if [ "$bench" = lu ]; then
        case $class in S) n=12 it=50 dt=0.5e0 ;; W) n=33 it=300 dt=1.5e-3 ;; A) n=64 it=250 dt=2.0e0 ;; esac
        l=$(ilog2 "$1"); yd=$((l / 2)); xd=$((l - yd))
        xdiv=$((1 << xd)); ydiv=$((1 << yd))
        i1=$(((n + xdiv - 1) / xdiv)); i2=$(((n + ydiv - 1) / ydiv))
        cat <<EOF
// NPROCS = $1 CLASS = $class (written by rockcreek's scripts/nas-rcce.sh)
        static int nnodes_compiled = $1;
#define isiz01 $n
#define isiz02 $n
#define isiz03 $n
#define isiz1 $i1
#define isiz2 $i2
#define isiz3 $n
        static int itmax_default = $it, inorm_default = $it;
        static double dt_default = $dt;
static int convertdouble = 0;
#define COMPILETIME "(rockcreek)"
#define NPBVERSION "3.3"
#define CS1 "(none)"
#define CS2 "(none)"
#define CS3 "(none)"
#define CS4 "(none)"
#define CS5 "(none)"
#define CS6 "(none)"
#define CS7 "(none)"
EOF
    else
        case $class in S) n=12 it=60 dt=0.010e0 ;; W) n=24 it=200 dt=0.0008e0 ;; A) n=64 it=200 dt=0.0008e0 ;; esac
        cat <<EOF
// NPROCS = $1 CLASS = $class (written by rockcreek's scripts/nas-rcce.sh)
#define MAXCELLS $(isqrt "$1")
#define PROBLEM_SIZE $n
#define NITER_DEFAULT $it
static double dt_default = $dt;
static int wr_default = 5;
static int iotype = 0;
static int convertdouble = 0;
#define COMPILETIME "(rockcreek)"
#define NPBVERSION "3.3"
#define CS1 "(none)"
#define CS2 "(none)"
#define CS3 "(none)"
#define CS4 "(none)"
#define CS5 "(none)"
#define CS6 "(none)"
#define CS7 "(none)"
EOF
    fi
}

# The tree's own file when it has one, else ours.
params() { # np
    f=$bsrc/npbparams.h.$class.$1
    [ -f "$f" ] && return 0
    gen_params "$1" > "$f.tmp" && mv "$f.tmp" "$f"
}

if [ "$params_only" = 1 ]; then
    gen_params "$1"
    exit 0
fi

if [ -n "$bindir" ]; then
    [ -x "$bindir/rckcc" ] || die "no rckcc in '$bindir'"
    [ -x "$bindir/rck" ] || die "no rck in '$bindir'"
    rckcc=$bindir/rckcc; rck=$bindir/rck
else
    rckcc=$(command -v rckcc) || die "rckcc not in PATH (give --bin DIR)"
    rck=$(command -v rck) || die "rck not in PATH (give --bin DIR)"
fi

# The sources: a work tree, or a git directory.
src=$out/src
if [ ! -d "$src/usr/bench/rcce/$bench" ]; then
    mkdir -p "$src"
    if [ -d "$bf/usr/bench/rcce/$bench" ]; then
        cp -R "$bf/usr/bench/rcce/$bench" "$src/$bench.tmp"
        mkdir -p "$src/usr/bench/rcce"
        mv "$src/$bench.tmp" "$src/usr/bench/rcce/$bench"
    elif git --git-dir="$bf" rev-parse --verify -q HEAD >/dev/null 2>&1; then
        # the subtree alone: a mirror may lack objects elsewhere in the tree
        mkdir -p "$src/usr/bench/rcce/$bench"
        git --git-dir="$bf" archive --format=tar "HEAD:usr/bench/rcce/$bench" > "$src/$bench.tar" ||
            die "could not read usr/bench/rcce/$bench from git directory '$bf'"
        tar -x -C "$src/usr/bench/rcce/$bench" -f "$src/$bench.tar"
        rm -f "$src/$bench.tar"
    else
        die "'$bf' is neither a Barrelfish work tree (no usr/bench/rcce/$bench) nor its git directory"
    fi
fi
bsrc=$src/usr/bench/rcce/$bench
[ -f "$bsrc/npbparams.h" ] || die "$bsrc has no npbparams.h: not the RCCE NAS port"

# LU's driver: cut Barrelfish's start-up, LU_main becomes RCCE_APP.
if [ "$bench" = lu ] && [ ! -f "$bsrc/rck_phase.c" ]; then
    grep -q '^int LU_main(int argc, char \*\*argv)' "$bsrc/lu.c" ||
        die "$bsrc/lu.c: no 'int LU_main(int argc, char **argv)' (another version of the port?)"
    sed -e '/#include <barrelfish\/barrelfish.h>/d' \
        -e 's/^int LU_main(int argc, char \*\*argv)/int RCCE_APP(int argc, char **argv)/' \
        -e '/^\/\/\/ LU program stack size/,$d' "$bsrc/lu.c" > "$bsrc/lu.c.rck"
    mv "$bsrc/lu.c.rck" "$bsrc/lu.c"
    echo 'int rcce_curphase;' > "$bsrc/rck_phase.c"
fi

if [ "$bench" = lu ]; then
    files="blts.c buts.c erhs.c error.c exact.c exchange_1.c exchange_3.c exchange_4.c
           exchange_5.c exchange_6.c init_comm.c jacld.c jacu.c l2norm.c lu.c neighbors.c
           nodedim.c pintgr.c print_results.c proc_grid.c read_input.c rhs.c setbv.c
           setcoeff.c setiv.c ssor.c subdomain.c timers.c verify.c rck_phase.c"
else
    files="bt.c add.c adi.c copy_faces.c define.c error.c exact_rhs.c exact_solution.c
           initialize.c make_set.c print_results.c rhs.c set_constants.c setup_mpi.c
           solve_subs.c timers.c verify.c x_solve.c y_solve.c z_solve.c"
fi

mkdir -p "$out/bin" "$out/run"
tag=$(echo "$cflags" | tr -c 'A-Za-z0-9\n' '_')
# rckcc's own switches change the binary too (RCKCC_COUNT=0: no counters).
[ "${RCKCC_COUNT:-1}" = 0 ] && tag=${tag}_nocount
[ "${RCKCC_MEM:-0}" = 1 ] && tag=${tag}_mem
timer=
[ -x /usr/bin/time ] && timer=1
status=0
for np in "$@"; do
    params "$np"
    exe=$out/bin/$bench.$class.$np.$tag
    if [ ! -x "$exe" ]; then
        # shellcheck disable=SC2086 # the flags and the file list are word lists
        (cd "$bsrc" && "$rckcc" $cflags -I. -DUSE_CLASS="$class" -DUSE_CPUS="$np" \
            -w -fcommon $files -lm -o "$exe") > "$out/bin/$bench.$class.$np.$tag.build.log" 2>&1 ||
            { echo "nas-rcce.sh: building $bench $class $np failed:" >&2
              cat "$out/bin/$bench.$class.$np.$tag.build.log" >&2; exit 1; }
    fi
    [ "$build_only" = 1 ] && { echo "built $exe"; continue; }
    log=$out/run/$bench.$class.$np.$model.$tag.log
    ropt=
    [ "$report" = 1 ] && ropt="--report $out/run/$bench.$class.$np.$model.$tag.json"
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    if [ -n "$timer" ]; then
        (cd "$out/run" && RCK_COMPUTE=$model /usr/bin/time -f 'rck-nas-cpu %U %S' \
            "$rck" run -n "$np" --backend sim $ropt "$exe") > "$log" 2>&1 || true
    else
        (cd "$out/run" && RCK_COMPUTE=$model \
            "$rck" run -n "$np" --backend sim $ropt "$exe") > "$log" 2>&1 || true
    fi
    t1=$(date +%s.%N)
    tsec=$(sed -n 's/.*Time in seconds *= *\([0-9.eE+-]*\).*/\1/p' "$log" | head -n 1)
    ver=$(sed -n 's/.*Verification *= *\([A-Z]*\).*/\1/p' "$log" | head -n 1)
    cpu=$(awk '/^rck-nas-cpu/ { printf "%.2f", $2 + $3 }' "$log")
    echo "$bench $class $np $model time=${tsec:-missing} verified=${ver:-missing}" \
        "host=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') cpu=${cpu:-?}"
    grep -E '^(rck|sim)[^:]*:.*(instructions|IPC)' "$log" | tail -n 1 || true
    [ "$ver" = SUCCESSFUL ] && [ -n "$tsec" ] || status=1
done
exit $status
