#!/bin/sh
# pipepar.sh RCK SNET BOXES OUTDIR RECORDS ROUNDS OFFLIM UES:LIMIT...: a
# pipeline across the chip (docs/SNET.md, "Cores in parallel"). Builds
# SNET (bench/snet/dist/pipe8.snet or pipe48.snet: stage i on UE i) with
# `rck snetc` (compiled counters: the sim's chip time is deterministic) and
# runs RECORDS records of ROUNDS rounds per stage on the sim with
# RCK_SNET_DIST=scc: on 1 UE, then on each UES: the records must be the
# one-UE run's, in order, and the chip time below LIMIT times one UE's
# (every stage's outputs go on into the next stage's UE while UE 0 goes on:
# the stages work at once); with RCK_SNET_ASYNC=off on the last UES (one UE
# at a time) not below OFFLIM times one UE's. The same records on native
# with 2, 4 and 48 UEs.
rck=$1 snet=$2 boxes=$3 out=$4 records=$5 rounds=$6 offlim=$7
shift 7
mkdir -p "$out"
"$rck" snetc "$snet" "$boxes" -o "$out/pipe" || exit 1
{
  echo '<?xml version="1.0" ?>'
  i=0
  while [ $i -lt "$records" ]; do
    echo "<record type=\"data\"><tag label=\"x\">$i</tag><tag label=\"n\">$rounds</tag></record>"
    i=$((i + 1))
  done
  echo '<record type="terminate"/>'
} > "$out/pipe.in.xml"
strip() { sed 's/^\[ *[0-9]*\] //' "$1"; }
run() { # backend ues async: the output in $out/o.$1.$2.$3
  RCKSNET_STATS=1 RCK_SNET_ASYNC=$3 RCK_SIM_REPORT=none RCK_SNET_DIST=scc \
    "$rck" run -n "$2" --backend "$1" "$out/pipe" \
    < "$out/pipe.in.xml" > "$out/o.$1.$2.$3" 2> "$out/e.$1.$2.$3" || {
    echo "pipepar.sh: $1 on $2 UEs (async $3) failed:"; tail -5 "$out/e.$1.$2.$3"
    exit 1
  }
  strip "$out/o.$1.$2.$3" > "$out/o.$1.$2.$3.s"
  [ -f "$out/o.sim.1.on.s" ] || return 0
  cmp -s "$out/o.sim.1.on.s" "$out/o.$1.$2.$3.s" || {
    echo "pipepar.sh: $1 on $2 UEs (async $3): not the one-UE records"
    exit 1
  }
}
chip() { sed -n 's/.* = \([0-9.]*\) s of chip time.*/\1/p' "$out/e.sim.$1.$2"; }
run sim 1 on
[ "$(grep -c '<tag label="x">' "$out/o.sim.1.on")" -eq "$records" ] ||
  { echo "pipepar.sh: not $records results"; exit 1; }
t1=$(chip 1 on)
fail=0 last=1
for spec in "$@"; do
  n=${spec%:*} lim=${spec#*:} last=${spec%:*}
  run sim "$n" on
  t=$(chip "$n" on)
  a=$(sed -n 's/.*UE 0: \([0-9]*\) calls asynchronous.*/\1/p' "$out/e.sim.$n.on")
  echo "pipepar.sh: sim, $n UEs: $t s of chip time against $t1 s on 1 UE ($a calls asynchronous)"
  awk -v t="$t" -v t1="$t1" -v l="$lim" 'BEGIN { exit !(t < l * t1) }' ||
    { echo "pipepar.sh: $n UEs not below $lim x one UE's time"; fail=1; }
done
run sim "$last" off
t=$(chip "$last" off)
echo "pipepar.sh: sim, $last UEs, RCK_SNET_ASYNC=off: $t s"
awk -v t="$t" -v t1="$t1" -v l="$offlim" 'BEGIN { exit !(t > l * t1) }' ||
  { echo "pipepar.sh: without asynchronous calls $last UEs were faster than $offlim x"; fail=1; }
for n in 2 4 48; do
  run native "$n" on
done
[ $fail -eq 0 ] && echo "pipepar.sh: OK"
exit $fail
