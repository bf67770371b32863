#!/bin/sh
# big.sh RCK BACKEND MODE UES PROGRAM INPUT EXPECTED PYTHON SNETCMP OUT:
# run big.snet's program on UES UEs with RCK_SNET_DIST=scc and
# RCK_SNET_SCC=MODE, compare its records with EXPECTED (the one-UE run's, in
# order), and check from the runtime's counters (RCKSNET_STATS) that the
# long fields took MODE's path: copy: sent by reference, each either copied
# once from a LUT window where it is read or passed on unread (lazy), none
# remapped; remap: the same with remapped for copied; slab: none by
# reference. Every reference taken must be released. On 4 UEs, UE 2 (which
# only runs a filter) must read none and pass every one on.
# MODE nowindow: RCK_SNET_SCC=copy with RCK_LUT_WINDOWS=off: the runtime
# says it falls back to the slab, and sends nothing by reference.
# The input is read with -i (on the mpi backend mpirun, not rck, decides
# where stdin goes).
rck=$1 backend=$2 mode=$3 ues=$4 prog=$5 input=$6 expected=$7 py=$8
cmp=$9
shift 9
out=$1
setting=$mode
if [ "$mode" = nowindow ]; then
  setting=copy
  export RCK_LUT_WINDOWS=off
fi
RCKSNET_STATS=1 RCK_SNET_DIST=scc RCK_SNET_SCC=$setting RCK_SIM_REPORT=none \
  "$rck" run -n "$ues" --backend "$backend" "$prog" -i "$input" > "$out" \
  2> "$out.err"
st=$?
if [ $st -ne 0 ]; then
  echo "big.sh: the run failed (exit $st):"
  tail -5 "$out.err"
  exit 1
fi
"$py" "$cmp" --ordered "$expected" "$out" || exit 1
# sum each counter over the UEs
sum() {
  grep "rcksnet: UE ${2:-[0-9]*}: long fields" "$out.err" |
    sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p" | awk '{s += $1} END {print s + 0}'
}
reported=$mode
[ "$mode" = nowindow ] && reported=slab
lines=$(grep -c "rcksnet: UE [0-9]*: long fields (RCK_SNET_SCC $reported)" "$out.err")
byref=$(sum "sent by reference")
copied=$(sum "copied from a window")
remapped=$(sum "remapped")
rel=$(sum "releases taken")
passed=$(sum "of them passed on unread")
echo "big.sh: $lines UEs report; $byref by reference, $passed passed on" \
  "unread, $copied copied, $remapped remapped, $rel releases"
fail=0
[ "$lines" -eq "$ues" ] || { echo "big.sh: expected $ues reports"; fail=1; }
case $mode in
copy)
  [ "$copied" -gt 0 ] && [ $((copied + passed)) -eq "$byref" ] &&
    [ "$remapped" -eq 0 ] ||
    { echo "big.sh: copy mode did not copy or pass on every reference"; fail=1; } ;;
remap)
  [ "$remapped" -gt 0 ] && [ $((remapped + passed)) -eq "$byref" ] &&
    [ "$copied" -eq 0 ] ||
    { echo "big.sh: remap mode did not remap or pass on every reference"; fail=1; } ;;
slab)
  [ "$byref" -eq 0 ] || { echo "big.sh: slab mode sent references"; fail=1; } ;;
nowindow)
  [ "$byref" -eq 0 ] || { echo "big.sh: references without windows"; fail=1; }
  grep -q "RCK_SNET_SCC=copy: no LUT pages here (.*): long fields go through the shared-DRAM slab" "$out.err" ||
    { echo "big.sh: no notice of the fallback"; fail=1; } ;;
esac
if [ "$ues" -eq 4 ] && [ "$mode" = copy -o "$mode" = remap ]; then
  r2=$(( $(sum "copied from a window" 2) + $(sum "remapped" 2) ))
  [ "$r2" -eq 0 ] && [ "$(sum "of them passed on unread" 2)" -gt 0 ] ||
    { echo "big.sh: UE 2 (a filter only) read $r2 long fields"; fail=1; }
fi
[ "$rel" -eq "$byref" ] ||
  { echo "big.sh: $byref references sent, $rel released"; fail=1; }
[ $fail -eq 0 ] && echo "big.sh: OK"
exit $fail
