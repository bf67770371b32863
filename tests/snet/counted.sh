#!/bin/sh
# counted.sh RCK SNET BOXES OUTDIR INPUT PYTHON SNETCMP EXPECTED: a network
# built by `rck snetc` (through rckcc: compiled counters) runs on the sim
# with librcksnet's counted copy: the right records, timed by p54c-fast on
# the compiled engine, and no warning that the libraries go uncounted.
rck=$1 snet=$2 boxes=$3 out=$4 input=$5 py=$6 cmp=$7 expected=$8
"$rck" snetc "$snet" "$boxes" -o "$out/counted_app" || exit 1
RCK_SIM_REPORT=none "$rck" run -n 1 --backend sim "$out/counted_app" \
    < "$input" > "$out/counted.out" 2> "$out/counted.err" || {
    cat "$out/counted.err"
    exit 1
}
cat "$out/counted.err"
"$py" "$cmp" --ordered "$expected" "$out/counted.out" || exit 1
grep -q 'p54c-fast (compiled)' "$out/counted.err" || {
    echo "counted.sh: not run on the compiled counters"
    exit 1
}
if grep -q 'not counted' "$out/counted.err"; then
    echo "counted.sh: the libraries' work is not counted"
    exit 1
fi
# the runtime's instructions are counted: 12 records through a filter, a
# split and a box, read and written as text, take tens of thousands (the
# boxes and the generated code alone about 3,000)
n=$(sed -n 's/.*p54c-fast (compiled): \([0-9]*\) instructions.*/\1/p' \
    "$out/counted.err")
if [ -z "$n" ] || [ "$n" -lt 20000 ]; then
    echo "counted.sh: ${n:-no} instructions counted: librcksnet's work is not"
    exit 1
fi
echo "counted.sh: OK ($n instructions)"
