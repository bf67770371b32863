#!/bin/sh
# big.sh RCK BACKEND MODE UES PROGRAM INPUT EXPECTED PYTHON SNETCMP OUT:
# run big.snet's program on UES UEs with RCK_SNET_DIST=scc and
# RCK_SNET_SCC=MODE, compare its records with EXPECTED (the one-UE run's, in
# order), and check from the runtime's counters (RCKSNET_STATS) that the
# long fields took MODE's path: copy: sent by reference and copied once from
# a LUT window, none remapped; remap: sent by reference and remapped, none
# copied; slab: none by reference. Every reference taken must be released.
# MODE nowindow: RCK_SNET_SCC=copy with RCK_LUT_WINDOWS=off: the runtime
# says it falls back to the slab, and sends nothing by reference.
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
  "$rck" run -n "$ues" --backend "$backend" "$prog" < "$input" > "$out" \
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
  grep "rcksnet: UE [0-9]*: long fields" "$out.err" |
    sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p" | awk '{s += $1} END {print s + 0}'
}
reported=$mode
[ "$mode" = nowindow ] && reported=slab
lines=$(grep -c "rcksnet: UE [0-9]*: long fields (RCK_SNET_SCC $reported)" "$out.err")
byref=$(sum "sent by reference")
copied=$(sum "copied from a window")
remapped=$(sum "remapped")
rel=$(sum "releases taken")
echo "big.sh: $lines UEs report; $byref by reference, $copied copied," \
  "$remapped remapped, $rel releases"
fail=0
[ "$lines" -eq "$ues" ] || { echo "big.sh: expected $ues reports"; fail=1; }
case $mode in
copy)
  [ "$byref" -gt 0 ] && [ "$copied" -eq "$byref" ] && [ "$remapped" -eq 0 ] ||
    { echo "big.sh: copy mode did not copy every reference once"; fail=1; } ;;
remap)
  [ "$byref" -gt 0 ] && [ "$remapped" -eq "$byref" ] && [ "$copied" -eq 0 ] ||
    { echo "big.sh: remap mode did not remap every reference"; fail=1; } ;;
slab)
  [ "$byref" -eq 0 ] || { echo "big.sh: slab mode sent references"; fail=1; } ;;
nowindow)
  [ "$byref" -eq 0 ] || { echo "big.sh: references without windows"; fail=1; }
  grep -q "RCK_SNET_SCC=copy: no LUT pages here (.*): long fields go through the shared-DRAM slab" "$out.err" ||
    { echo "big.sh: no notice of the fallback"; fail=1; } ;;
esac
[ "$rel" -eq "$byref" ] ||
  { echo "big.sh: $byref references sent, $rel released"; fail=1; }
[ $fail -eq 0 ] && echo "big.sh: OK"
exit $fail
