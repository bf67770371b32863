#!/bin/sh
# farmpar.sh RCK SNET BOXES OUTDIR: cores in parallel (docs/SNET.md, "Cores
# in parallel"; the runs and checks are speedup.sh's). Builds bench/snet/dist/farmpar.snet with `rck snetc`
# (compiled counters: the sim's chip time is deterministic), runs 32 tasks
# of a farm (`work !!@ <p>`, <p> = 0..7) on the sim on 1, 2, 4 and 8 UEs
# with RCK_SNET_DIST=scc: the records must be the one-UE run's, in order,
# and the chip time must fall with the UEs (UE 0 sends each task without
# waiting for its result): below 0.6x of one UE's on 2 UEs, 0.35x on 4,
# 0.2x on 8; with RCK_SNET_ASYNC=off (one UE at a time) not below 0.9x.
# The same records on native with 2, 4 and 48 UEs.
rck=$1 snet=$2 boxes=$3 out=$4
mkdir -p "$out"
{
  echo '<?xml version="1.0" ?>'
  i=0
  while [ $i -lt 32 ]; do
    echo "<record type=\"data\"><tag label=\"p\">$((i % 8))</tag><tag label=\"n\">100000</tag></record>"
    i=$((i + 1))
  done
  echo '<record type="terminate"/>'
} > "$out/farmpar.in.xml"
exec "$(dirname "$0")/speedup.sh" farmpar.sh "$rck" "$snet" "$boxes" "$out" \
  "$out/farmpar.in.xml" r 32 4:0.9 2:0.6 4:0.35 8:0.2
