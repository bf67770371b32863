#!/bin/sh
# Run a command in a network namespace of its own, whose only interface is
# loopback (docs/IP.md, "Safety rule"): a socket call that reached the
# host's kernel by mistake could not send a packet anywhere. As root
# `unshare -n`, otherwise `unshare -rn` (a user namespace); exit 77, which
# CTest counts as skipped, when neither works.
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
    exec unshare -n "$@"
fi
if unshare -rn true 2>/dev/null; then
    exec unshare -rn "$@"
fi
echo "SKIP: no network namespace (unshare -n as root, unshare -rn" \
    "otherwise): IP tests run only inside one" >&2
exit 77
