#!/bin/sh
# Driver of the compatibility tests (tests/compat/CMakeLists.txt).
#
#   compat.sh build-run WRAPPER SRC OUTDIR NAME RCK NUES BACKEND EXPECT [WORDS...]
#       compile SRC with WRAPPER (rckcc or rckc++) -Wall -Wextra -Werror and
#       the make-style WORDS (API=gory ...), run it with
#       RCK run -n NUES --backend BACKEND, and require EXPECT in its output.
#   compat.sh words RCKCC
#       the words of Intel's makefiles map to the right -D flags, the
#       defaults are dropped, and unknown values are refused.
set -u

fail() {
    printf 'compat: FAILED: %s\n' "$*"
    exit 1
}

case ${1:-} in
build-run)
    shift
    wrapper=$1 src=$2 outdir=$3 name=$4 rck=$5 nues=$6 backend=$7 expect=$8
    shift 8
    mkdir -p "$outdir" || fail "mkdir $outdir"
    prog=$outdir/$name
    rm -f "$prog"
    # The sources are C; rckc++ compiles them as C++.
    lang=
    case ${wrapper##*/} in rckc++) lang="-x c++" ;; esac
    # shellcheck disable=SC2086
    "$wrapper" -Wall -Wextra -Werror $lang "$src" -x none "$@" -o "$prog" ||
        fail "$wrapper $* $src does not compile cleanly"
    out=$("$rck" run -n "$nues" --backend "$backend" "$prog" 2>&1)
    st=$?
    printf '%s\n' "$out"
    [ "$st" -eq 0 ] || fail "$name exited with status $st"
    printf '%s\n' "$out" | grep -F -q -- "$expect" ||
        fail "$name: no '$expect' in its output"
    printf 'compat: %s OK\n' "$name"
    ;;
words)
    rckcc=$2
    show=$("$rckcc" -show -c API=gory PWRMGMT=1 SINGLEBITFLAGS=1 \
        OMP_EMULATOR=0 x.c) || fail "rckcc -show with Intel's words"
    printf '%s\n' "$show"
    for flag in -DGORY -DRC_POWER_MANAGEMENT -DSINGLEBITFLAGS; do
        printf '%s\n' "$show" | grep -q -- " $flag" ||
            fail "API=gory PWRMGMT=1 SINGLEBITFLAGS=1 give no $flag"
    done
    printf '%s\n' "$show" | grep -q 'OMP_EMULATOR\|API=' &&
        fail "a make word reached the compiler"
    show=$("$rckcc" -show -c API=nongory PWRMGMT=0 SINGLEBITFLAGS=0 \
        OMP_EMULATOR=1 GORY=0 x.c) || fail "rckcc -show with the defaults"
    printf '%s\n' "$show"
    printf '%s\n' "$show" | grep -q -- ' -D\|API=\|MGMT=\|FLAGS=\|EMULATOR=' &&
        fail "the default words gave flags: $show"
    for bad in API=fancy PWRMGMT=2 SINGLEBITFLAGS=yes OMP_EMULATOR=x; do
        err=$("$rckcc" -show -c "$bad" x.c 2>&1)
        st=$?
        [ "$st" -eq 2 ] || fail "$bad: status $st, want 2"
        printf '%s\n' "$err" | grep -q -- "$bad" ||
            fail "$bad: the error does not name it: $err"
    done
    # C++: CC=g++ drops the C standard flag, as rckc++ does.
    show=$(CC=g++ "$rckcc" -show -c x.cpp) || fail "CC=g++ rckcc -show"
    printf '%s\n' "$show" | grep -q -- '-std=gnu11' &&
        fail "CC=g++ still passes -std=gnu11: $show"
    show=$("$rckcc" -show -c x.c) || fail "rckcc -show"
    printf '%s\n' "$show" | grep -q -- '-std=gnu11' ||
        fail "rckcc lost -std=gnu11: $show"
    printf 'compat: words OK\n'
    ;;
exports-selftest)
    # check_exports.py must fail on a library that exports an internal
    # name: a stand-in library with the core calls and a global "rcce".
    py=$2 check=$3 incdir=$4 cc=$5 outdir=$6
    mkdir -p "$outdir" || fail "mkdir $outdir"
    cat >"$outdir/planted.c" <<'EOC'
int rcce[4];
int RCCE_init_shape(void) { return rcce[0]; }
int RCCE_send(void) { return 0; }
int RCCE_barrier(void) { return 0; }
int iRCCE_isend(void) { return 0; }
int RCCE_qsort(void) { return 0; }
int id_compare(void) { return 0; }
EOC
    $cc -shared -fPIC -o "$outdir/libplanted.so" "$outdir/planted.c" ||
        fail "cannot build the planted library"
    out=$("$py" "$check" --lib "$outdir/libplanted.so" --include "$incdir" \
        --cc "$cc")
    st=$?
    printf '%s\n' "$out"
    [ "$st" -eq 1 ] || fail "check_exports passed a library exporting rcce"
    printf '%s\n' "$out" | grep -q 'in no public header: rcce$' ||
        fail "check_exports did not name rcce"
    printf 'compat: exports-selftest OK\n'
    ;;
*)
    printf 'usage: compat.sh build-run|words|exports-selftest ...\n' >&2
    exit 2
    ;;
esac
