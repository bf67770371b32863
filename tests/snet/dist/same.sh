#!/bin/sh
# same.sh RCK BACKEND PROGRAM INPUT OUTDIR UES...: the program's records with
# RCK_SNET_DIST=nodist on 1 UE, then with scc on each UES (asynchronous
# calls on, the default), must be the same in the same order; the scc runs
# must have made asynchronous calls (RCKSNET_STATS), and with SAME_HELD set
# held outputs back (the window of asynchronous calls full).
rck=$1 backend=$2 prog=$3 input=$4 out=$5
shift 5
mkdir -p "$out"
strip() { sed 's/^\[ *[0-9]*\] //' "$1"; }
RCK_SIM_REPORT=none RCK_SNET_DIST=nodist "$rck" run -n 1 --backend "$backend" \
  "$prog" < "$input" > "$out/one" 2> "$out/one.err" ||
  { echo "same.sh: the one-UE run failed"; tail -3 "$out/one.err"; exit 1; }
strip "$out/one" > "$out/one.s"
n=$(grep -c '<record ' "$out/one.s")
[ "$n" -gt 10 ] || { echo "same.sh: only $n records on one UE"; exit 1; }
for ues in "$@"; do
  RCKSNET_STATS=1 RCK_SIM_REPORT=none RCK_SNET_DIST=scc "$rck" run -n "$ues" \
    --backend "$backend" "$prog" < "$input" > "$out/n$ues" 2> "$out/n$ues.err" ||
    { echo "same.sh: $ues UEs failed"; tail -3 "$out/n$ues.err"; exit 1; }
  strip "$out/n$ues" > "$out/n$ues.s"
  cmp -s "$out/one.s" "$out/n$ues.s" ||
    { echo "same.sh: $ues UEs: not the one-UE records in order"; exit 1; }
  a=$(sed -n 's/.*UE 0: \([0-9]*\) calls asynchronous.*/\1/p' "$out/n$ues.err")
  [ "${a:-0}" -gt 0 ] ||
    { echo "same.sh: $ues UEs: no asynchronous call"; exit 1; }
  h=$(sed -n 's/.* \([0-9]*\) outputs held back.*/\1/p' "$out/n$ues.err")
  [ -z "$SAME_HELD" ] || [ "${h:-0}" -gt 0 ] ||
    { echo "same.sh: $ues UEs: no output held back (the window not used)"; exit 1; }
  echo "same.sh: $ues UEs: $n records in order, $a calls asynchronous, ${h:-0} outputs held back"
done
echo "same.sh: OK"
