#!/bin/sh
# The man pages (made by help2man from each tool's --help) and the bash
# completion (tools/rck-completion.bash, which reads the same --help).
#   man_completion.sh man MANDIR        every page there, with the options
#                                       its tool's --help names
#   man_completion.sh completion SCRIPT RCK RCKCC
#   man_completion.sh report_python RCK TMPDIR
#   man_completion.sh static RCKCC RCK HELLO.c TMPDIR
#   man_completion.sh selfcc RCKMPICC RCKMPICXX TMPDIR
set -eu
fail() { echo "FAIL: $*"; exit 1; }
case $1 in
man)
    dir=$2
    for p in rck rck-run rck-explore rck-report rck-config rccerun rckcc \
             rckmpicc; do
        f=$dir/$p.1
        [ -s "$f" ] || fail "no man page $f"
        grep -q '^\.TH' "$f" || fail "$f is not a man page"
    done
    # the options of the help text are in the page
    grep -q 'stdin' "$dir/rck-run.1" || fail "rck-run.1 lacks --stdin"
    grep -q 'output\\-filename' "$dir/rck-run.1" ||
        fail "rck-run.1 lacks --output-filename"
    grep -q 'compare\\-output' "$dir/rck-explore.1" ||
        fail "rck-explore.1 lacks --compare-output"
    grep -q 'rck\\-mem' "$dir/rckcc.1" || fail "rckcc.1 lacks -rck-mem"
    echo "man pages: 8 pages, options present"
    ;;
completion)
    script=$2 rck=$3 rckcc=$4
    out=$(bash -c '. "$1"; COMP_WORDS=("$2" run --std); COMP_CWORD=2; _rck;
        printf "%s\n" "${COMPREPLY[@]}"' sh "$script" "$rck")
    [ "$out" = "--stdin" ] || fail "rck run --std completes to '$out'"
    out=$(bash -c '. "$1"; COMP_WORDS=("$2" exp); COMP_CWORD=1; _rck;
        printf "%s\n" "${COMPREPLY[@]}"' sh "$script" "$rck")
    [ "$out" = "explore" ] || fail "rck exp completes to '$out'"
    out=$(bash -c '. "$1"; COMP_WORDS=("$2" -rck-me); COMP_CWORD=1; _rck;
        printf "%s\n" "${COMPREPLY[@]}"' sh "$script" "$rckcc")
    [ "$out" = "-rck-mem" ] || fail "rckcc -rck-me completes to '$out'"
    echo "completion: rck run, rck, rckcc"
    ;;
report_python)
    # rck report runs the configured Python, not the first python3 on PATH
    rck=$2 tmp=$3
    mkdir -p "$tmp/bin"
    printf '#!/bin/sh\necho "the wrong python3" >&2\nexit 97\n' > "$tmp/bin/python3"
    chmod +x "$tmp/bin/python3"
    out=$(PATH="$tmp/bin:$PATH" "$rck" report --help 2>&1) ||
        fail "rck report --help with another python3 first on PATH: $out"
    echo "$out" | grep -q 'usage: rck report' || fail "no usage: $out"
    echo "rck report: the configured Python"
    ;;
static)
    # rckcc -static (Intel's makefiles pass it): the program links and runs
    rckcc=$2 rck=$3 src=$4 tmp=$5
    mkdir -p "$tmp"
    "$rckcc" -static -O2 -o "$tmp/hello_static" "$src" >"$tmp/cc.log" 2>&1 ||
        fail "rckcc -static: $(cat "$tmp/cc.log")"
    out=$("$rck" run -n 2 "$tmp/hello_static" 2>&1) ||
        fail "the static program failed: $out"
    echo "$out" | grep -q 'rank sum 1 (expected 1)' ||
        fail "the static program's output: $out"
    echo "rckcc -static: builds and runs on 2 UEs"
    ;;
selfcc)
    # CC naming the wrapper itself (./configure CC=rckmpicc) runs the real
    # compiler, never the wrapper again: by path, by name on PATH, through a
    # link called cc, under OMPI_CC and RCK_MPICC_CC, and for rckmpic++
    rckmpicc=$2 rckmpicxx=$3 tmp=$4
    rm -rf "$tmp"
    mkdir -p "$tmp/bin"
    ln -sf "$rckmpicc" "$tmp/bin/rckmpicc"
    ln -sf "$rckmpicc" "$tmp/bin/mycc"
    printf '#include <mpi.h>\nint f(void) { return MPI_SUCCESS; }\n' >"$tmp/t.c"
    cd "$tmp" || fail "no $tmp"
    run() { # what, then the command
        what=$1
        shift
        rm -f t.o
        timeout 60 env "$@" -c t.c -o t.o >cc.log 2>&1 ||
            fail "$what: failed or hung (status $?): $(cat cc.log)"
        [ -s t.o ] || fail "$what: no object"
    }
    run "CC=<path of rckmpicc>" CC="$rckmpicc" "$rckmpicc"
    run "CC=rckmpicc (PATH)" PATH="$tmp/bin:$PATH" CC=rckmpicc rckmpicc
    run "CC=mycc (a link to rckmpicc)" PATH="$tmp/bin:$PATH" CC=mycc rckmpicc
    run "OMPI_CC=rckmpicc" PATH="$tmp/bin:$PATH" OMPI_CC=rckmpicc CC=rckmpicc \
        rckmpicc
    run "RCK_MPICC_CC=<path>" RCK_MPICC_CC="$rckmpicc" "$rckmpicc"
    run "CXX=rckmpic++" CXX="$rckmpicxx" "$rckmpicxx"
    rckcc=$(dirname "$rckmpicc")/rckcc
    printf 'int f(void) { return 0; }\n' >t.c
    run "CC=rckcc rckcc" CC="$rckcc" "$rckcc"
    run "CC=rckmpicc rckcc" CC="$rckmpicc" "$rckcc"
    printf '#include <mpi.h>\nint f(void) { return MPI_SUCCESS; }\n' >t.c
    # the wrapper's compiler is the one named, when it is a real one
    RCK_MPICC_CC="false" CC=cc "$rckmpicc" -c t.c -o t.o >cc.log 2>&1 &&
        fail "RCK_MPICC_CC=false was not used"
    out=$(RCK_MPICC_CC="gcc -DX" CC=rckmpicc "$rckmpicc" -show -c t.c)
    case $out in
    "gcc -DX "*) ;;
    *) fail "RCK_MPICC_CC not honoured: $out" ;;
    esac
    out=$(PATH="$tmp/bin:$PATH" CC=rckmpicc "$rckmpicc" -show -c t.c)
    case $out in
    "cc "*) ;;
    *) fail "CC=rckmpicc not replaced by cc: $out" ;;
    esac
    # cc itself a link to the wrapper: a clear error, no loop
    ln -sf "$rckmpicc" "$tmp/bin/cc"
    PATH="$tmp/bin:$PATH" timeout 60 "$rckmpicc" -c t.c >cc.log 2>&1 &&
        fail "cc -> rckmpicc accepted"
    grep -q 'is a rockcreek wrapper itself' cc.log ||
        fail "cc -> rckmpicc: $(cat cc.log)"
    echo "rckmpicc, rckmpic++: CC naming the wrapper runs the real compiler"
    ;;
esac
echo PASS
