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
# with 2, 4 and 48 UEs (speedup.sh).
rck=$1 snet=$2 boxes=$3 out=$4 records=$5 rounds=$6 offlim=$7
shift 7
mkdir -p "$out"
{
  echo '<?xml version="1.0" ?>'
  i=0
  while [ $i -lt "$records" ]; do
    echo "<record type=\"data\"><tag label=\"x\">$i</tag><tag label=\"n\">$rounds</tag></record>"
    i=$((i + 1))
  done
  echo '<record type="terminate"/>'
} > "$out/pipe.in.xml"
eval "last=\${$#}"
exec "$(dirname "$0")/speedup.sh" pipepar.sh "$rck" "$snet" "$boxes" "$out" \
  "$out/pipe.in.xml" x "$records" "${last%:*}:$offlim" "$@"
