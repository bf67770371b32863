#!/bin/sh
# crash.sh RCK PROGRAM INPUT BACKEND UES WORKDIR: a distributed network
# whose box on UE 2 aborts (tests/snet/dist/crash.snet). The run must fail
# (not hang: 120 s at most) with the launcher naming core 2's abort; no
# process of the run may be left (each carries SNET_CRASH_MARK in its
# environment) and no new /dev/shm entry that no live process holds.
rck=$1 prog=$2 input=$3 backend=$4 ues=$5 work=$6
mark="snetcrash.$$.$backend"
mkdir -p "$work" || exit 2
ls /dev/shm > "$work/shm.before" 2>/dev/null
SNET_CRASH_MARK=$mark RCK_SNET_DIST=scc RCK_SIM_REPORT=none \
  timeout 120 "$rck" run -n "$ues" --backend "$backend" "$prog" < "$input" \
  > "$work/out" 2> "$work/err"
st=$?
fail=0
if [ $st -eq 0 ] || [ $st -eq 124 ]; then
  echo "crash.sh: the run exited $st (0: the abort went unnoticed; 124: it hung)"
  fail=1
fi
if ! grep -Eiq "core 2.*(abort|signal 6|SIGABRT)|(abort|SIGABRT).*core 2" "$work/err"; then
  echo "crash.sh: the launcher's report does not name core 2's abort:"
  cat "$work/err"
  fail=1
fi
# processes of the run still alive (a second later at most)
left=0
for i in 1 2 3 4 5 6 7 8 9 10; do
  left=0
  for e in /proc/[0-9]*/environ; do
    if tr '\0' '\n' < "$e" 2>/dev/null | grep -qx "SNET_CRASH_MARK=$mark"; then
      left=$((left + 1))
    fi
  done
  [ $left -eq 0 ] && break
  sleep 0.1
done
if [ $left -ne 0 ]; then
  echo "crash.sh: $left process(es) of the run are still alive"
  fail=1
fi
ls /dev/shm > "$work/shm.after" 2>/dev/null
for n in $(comm -13 "$work/shm.before" "$work/shm.after"); do
  held=0
  for p in /proc/[0-9]*; do
    if grep -qF "/dev/shm/$n" "$p/maps" 2>/dev/null ||
       ls -l "$p/fd" 2>/dev/null | grep -qF "/dev/shm/$n"; then
      held=1
      break
    fi
  done
  if [ $held -eq 0 ] && [ -e "/dev/shm/$n" ]; then
    echo "crash.sh: /dev/shm/$n was left behind"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "crash.sh: OK (exit $st)"
exit $fail
