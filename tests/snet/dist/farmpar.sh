#!/bin/sh
# farmpar.sh RCK SNET BOXES OUTDIR: cores in parallel (docs/SNET.md, "Cores
# in parallel"). Builds bench/snet/dist/farmpar.snet with `rck snetc`
# (compiled counters: the sim's chip time is deterministic), runs 32 tasks
# of a farm (`work !!@ <p>`, <p> = 0..7) on the sim on 1, 2, 4 and 8 UEs
# with RCK_SNET_DIST=scc: the records must be the one-UE run's, in order,
# and the chip time must fall with the UEs (UE 0 sends each task without
# waiting for its result): below 0.6x of one UE's on 2 UEs, 0.35x on 4,
# 0.2x on 8; with RCK_SNET_ASYNC=off (one UE at a time) not below 0.9x.
# The same records on native with 2, 4 and 48 UEs.
rck=$1 snet=$2 boxes=$3 out=$4
mkdir -p "$out"
"$rck" snetc "$snet" "$boxes" -o "$out/farmpar" || exit 1
{
  echo '<?xml version="1.0" ?>'
  i=0
  while [ $i -lt 32 ]; do
    echo "<record type=\"data\"><tag label=\"p\">$((i % 8))</tag><tag label=\"n\">100000</tag></record>"
    i=$((i + 1))
  done
  echo '<record type="terminate"/>'
} > "$out/farmpar.in.xml"
strip() { sed 's/^\[ *[0-9]*\] //' "$1"; }
run() { # backend ues async: the output in $out/o.$1.$2.$3, chip time printed
  RCK_SNET_ASYNC=$3 RCK_SIM_REPORT=none RCK_SNET_DIST=scc \
    "$rck" run -n "$2" --backend "$1" "$out/farmpar" \
    < "$out/farmpar.in.xml" > "$out/o.$1.$2.$3" 2> "$out/e.$1.$2.$3" || {
    echo "farmpar.sh: $1 on $2 UEs (async $3) failed:"; tail -5 "$out/e.$1.$2.$3"
    exit 1
  }
  strip "$out/o.$1.$2.$3" > "$out/o.$1.$2.$3.s"
  [ -f "$out/o.sim.1.on.s" ] || return 0
  cmp -s "$out/o.sim.1.on.s" "$out/o.$1.$2.$3.s" || {
    echo "farmpar.sh: $1 on $2 UEs (async $3): not the one-UE records"
    exit 1
  }
}
chip() { sed -n 's/.* = \([0-9.]*\) s of chip time.*/\1/p' "$out/e.sim.$1.$2"; }
run sim 1 on
[ "$(grep -c '<tag label="r">' "$out/o.sim.1.on")" -eq 32 ] ||
  { echo "farmpar.sh: not 32 results"; exit 1; }
t1=$(chip 1 on)
fail=0
for spec in 2:0.6 4:0.35 8:0.2; do
  n=${spec%:*} lim=${spec#*:}
  run sim "$n" on
  t=$(chip "$n" on)
  echo "farmpar.sh: sim, $n UEs: $t s of chip time against $t1 s on 1 UE"
  awk -v t="$t" -v t1="$t1" -v l="$lim" 'BEGIN { exit !(t < l * t1) }' ||
    { echo "farmpar.sh: $n UEs not below $lim x one UE's time"; fail=1; }
done
run sim 4 off
t=$(chip 4 off)
echo "farmpar.sh: sim, 4 UEs, RCK_SNET_ASYNC=off: $t s"
awk -v t="$t" -v t1="$t1" 'BEGIN { exit !(t > 0.9 * t1) }' ||
  { echo "farmpar.sh: without asynchronous calls 4 UEs were faster"; fail=1; }
for n in 2 4 48; do
  run native "$n" on
done
[ $fail -eq 0 ] && echo "farmpar.sh: OK"
exit $fail
