#!/bin/sh
# Install what rockcreek needs on a Debian/Ubuntu machine: a C toolchain,
# CMake and Ninja, pkg-config and jansson (JSON), Open MPI (the peer the
# benchmarks compare against), and
# Python with matplotlib and pytest (plots and their tests).
# Safe to run again: it installs only what is missing.
set -eu

need_apt=""
for cmd in cc cmake ninja mpicc.openmpi mpicc.mpich python3; do
    command -v "$cmd" >/dev/null 2>&1 || need_apt=yes
done
# jansson reads the chip files (src/util/json.c), found through pkg-config
pkg-config --exists jansson 2>/dev/null || need_apt=yes
if [ -n "$need_apt" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
        build-essential cmake ninja-build libopenmpi-dev openmpi-bin \
        mpich libmpich-dev \
        python3 python3-pip pkg-config libjansson-dev >/dev/null
fi
if ! python3 -c 'import matplotlib, pytest' >/dev/null 2>&1; then
    python3 -m pip install -q -r "$(dirname "$0")/../python/requirements.txt" ||
        python3 -m pip install -q --break-system-packages \
            -r "$(dirname "$0")/../python/requirements.txt"
fi
echo "rockcreek: dependencies are installed"
