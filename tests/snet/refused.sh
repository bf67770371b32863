#!/bin/sh
# refused.sh OUT MESSAGE INPUT COMMAND...: run COMMAND with INPUT (a
# string) on stdin; it must exit with status 1 and print MESSAGE.
out=$1 msg=$2 input=$3
shift 3
printf '%b' "$input" | "$@" > "$out" 2>&1
rc=$?
cat "$out"
if [ $rc -ne 1 ]; then
    echo "refused.sh: exit status $rc, expected 1"
    exit 1
fi
grep -F -- "$msg" "$out" > /dev/null || {
    echo "refused.sh: the output lacks: $msg"
    exit 1
}
