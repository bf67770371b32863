#!/bin/sh
# where.sh RCK BACKEND LAYER UES PROGRAM INPUT PATTERN...: run PROGRAM on
# UES UEs with RCK_SNET_DIST=LAYER and RCKSNET_TRACE=1, and check that each
# PATTERN (an extended regular expression) matches a line of the trace
# (each line prefixed with the UE's core: "[ 2] rcksnet: ... box dbl gets"):
# the components ran where they are placed, not only gave the right output.
rck=$1 backend=$2 layer=$3 ues=$4 prog=$5 input=$6
shift 6
trace=$(RCKSNET_TRACE=1 RCK_SNET_DIST=$layer RCK_SIM_REPORT=none \
  "$rck" run -n "$ues" --backend "$backend" "$prog" < "$input" 2>&1 >/dev/null)
st=$?
if [ $st -ne 0 ]; then
  echo "where.sh: the run failed (exit $st):"
  echo "$trace" | tail -5
  exit 1
fi
fail=0
for p in "$@"; do
  if ! echo "$trace" | grep -Eq "$p"; then
    echo "where.sh: no trace line matches '$p'"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "where.sh: OK"
exit $fail
