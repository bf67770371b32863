#!/bin/sh
# speedup.sh NAME RCK SNET BOXES OUTDIR INPUT TAG COUNT OFFUES:OFFLIM
#            UES:LIMIT...: cores in parallel (docs/SNET.md, "Cores in
# parallel"), for farmpar.sh and pipepar.sh, which write INPUT. Builds SNET
# with `rck snetc` (compiled counters: the sim's chip time is
# deterministic) and runs INPUT on the sim with RCK_SNET_DIST=scc: on 1 UE
# (COUNT records with the tag TAG), then on each UES: the records must be
# the one-UE run's, in order, and the chip time below LIMIT times one UE's;
# with RCK_SNET_ASYNC=off on OFFUES UEs (one UE at a time) not below
# OFFLIM times one UE's. The same records on native with 2, 4 and 48 UEs.
# Messages start with NAME.
name=$1 rck=$2 snet=$3 boxes=$4 out=$5 input=$6 tag=$7 count=$8 off=$9
shift 9
prog="$out/${name%.sh}"
"$rck" snetc "$snet" "$boxes" -o "$prog" || exit 1
strip() { sed 's/^\[ *[0-9]*\] //' "$1"; }
run() { # backend ues async: the output in $out/o.$1.$2.$3
  RCKSNET_STATS=1 RCK_SNET_ASYNC=$3 RCK_SIM_REPORT=none RCK_SNET_DIST=scc \
    "$rck" run -n "$2" --backend "$1" "$prog" \
    < "$input" > "$out/o.$1.$2.$3" 2> "$out/e.$1.$2.$3" || {
    echo "$name: $1 on $2 UEs (async $3) failed:"; tail -5 "$out/e.$1.$2.$3"
    exit 1
  }
  strip "$out/o.$1.$2.$3" > "$out/o.$1.$2.$3.s"
  [ -f "$out/o.sim.1.on.s" ] || return 0
  cmp -s "$out/o.sim.1.on.s" "$out/o.$1.$2.$3.s" || {
    echo "$name: $1 on $2 UEs (async $3): not the one-UE records"
    exit 1
  }
}
chip() { sed -n 's/.* = \([0-9.]*\) s of chip time.*/\1/p' "$out/e.sim.$1.$2"; }
run sim 1 on
[ "$(grep -c "<tag label=\"$tag\">" "$out/o.sim.1.on")" -eq "$count" ] ||
  { echo "$name: not $count results"; exit 1; }
t1=$(chip 1 on)
fail=0
for spec in "$@"; do
  n=${spec%:*} lim=${spec#*:}
  run sim "$n" on
  t=$(chip "$n" on)
  a=$(sed -n 's/.*UE 0: \([0-9]*\) calls asynchronous.*/\1/p' "$out/e.sim.$n.on")
  echo "$name: sim, $n UEs: $t s of chip time against $t1 s on 1 UE ($a calls asynchronous)"
  awk -v t="$t" -v t1="$t1" -v l="$lim" 'BEGIN { exit !(t < l * t1) }' ||
    { echo "$name: $n UEs not below $lim x one UE's time"; fail=1; }
done
n=${off%:*} lim=${off#*:}
run sim "$n" off
t=$(chip "$n" off)
echo "$name: sim, $n UEs, RCK_SNET_ASYNC=off: $t s"
awk -v t="$t" -v t1="$t1" -v l="$lim" 'BEGIN { exit !(t > l * t1) }' ||
  { echo "$name: without asynchronous calls $n UEs were faster than $lim x"; fail=1; }
for n in 2 4 48; do
  run native "$n" on
done
[ $fail -eq 0 ] && echo "$name: OK"
exit $fail
