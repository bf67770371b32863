#!/bin/sh
# install_test.sh BUILD_DIR SOURCE_DIR PYTHON: `cmake --install` the build
# into a fresh temporary prefix, then, with nothing of the build tree in
# the environment, run under the installed `rck run` (native and sim):
# installed_check.py (package, compiled module and library all from the
# prefix; binding "api") and examples/python/stencil.py --verify at 2 UEs.
# The prefix is removed afterwards.
set -u
build=$1 src=$2 py=$3
prefix=$(mktemp -d "${TMPDIR:-/tmp}/rck-install-test.XXXXXX") || exit 1
trap 'rm -rf "$prefix"' EXIT
if ! cmake --install "$build" --prefix "$prefix" >"$prefix.log" 2>&1; then
  echo "install_test: cmake --install failed:"; cat "$prefix.log"; rm -f "$prefix.log"; exit 1
fi
rm -f "$prefix.log"
if ! ls "$prefix"/lib*/rockcreek/python/_rockcreek_rcce*.so >/dev/null 2>&1; then
  echo "install_test: no compiled module under $prefix/lib*/rockcreek/python"; exit 1
fi
pkg=$prefix/share/rockcreek/python
status=0
for backend in native sim; do
  for prog in "$src/tests/python/installed_check.py" \
              "$src/examples/python/stencil.py -n 32 -i 20 --verify"; do
    # shellcheck disable=SC2086 # prog carries its arguments
    out=$(env -u ROCKCREEK_LIB -u ROCKCREEK_PYEXT_DIR -u ROCKCREEK_RCCE_ABI \
          PYTHONPATH="$pkg" RCK_TEST_PREFIX="$prefix" PYTHONDONTWRITEBYTECODE=1 \
          "$prefix/bin/rck" run -n 2 --backend $backend "$py" $prog 2>&1)
    rc=$?
    echo "$out"
    if [ $rc -ne 0 ]; then
      echo "install_test: $backend: $prog: exit status $rc"; status=1
    fi
    case "$prog" in
      *installed_check*) need=2; n=$(echo "$out" | grep -c "installed_check: UE [01]: OK") ;;
      *) need=1; n=$(echo "$out" | grep -c "serial checksum .*: OK") ;;
    esac
    if [ "$n" -lt $need ]; then
      echo "install_test: $backend: $prog: no OK line"; status=1
    fi
  done
done
[ $status -eq 0 ] && echo "install_test: OK"
exit $status
