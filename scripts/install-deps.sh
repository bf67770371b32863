#!/bin/sh
# Install what rockcreek needs on a Debian/Ubuntu machine: a C toolchain,
# CMake and Ninja, pkg-config, jansson (JSON) and zlib, Open MPI (the peer the
# benchmarks compare against), and
# Python with matplotlib and pytest (plots and their tests), headless
# Chromium (the report page's browser test), help2man (the man pages), and
# bison and flex (the S-Net compiler), and lwIP (IP between the cores).
# Safe to run again: it installs only what is missing.
set -eu

# Debian packages @..., quietly (as root, or through sudo).
apt_install() {
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

need_apt=""
for cmd in cc cmake ninja mpicc.openmpi mpicc.mpich python3; do
    command -v "$cmd" >/dev/null 2>&1 || need_apt=yes
done
# jansson reads the chip files (src/util/json.c), found through pkg-config
pkg-config --exists jansson 2>/dev/null || need_apt=yes
# zlib writes the sim's compressed traces (rck run --trace FILE.json.gz)
pkg-config --exists zlib 2>/dev/null || need_apt=yes
if [ -n "$need_apt" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
        build-essential cmake ninja-build libopenmpi-dev openmpi-bin \
        mpich libmpich-dev \
        python3 python3-pip pkg-config libjansson-dev zlib1g-dev >/dev/null
fi
# The P54C compute model (docs/P54C.md): QEMU's user-mode emulator, glib
# and pkg-config for its plugin, and QEMU's source tarball, from which the
# build takes the plugin API header (include/qemu/qemu-plugin.h is in no
# binary package; it is never copied into the source tree).
QEMU_SRC_CACHE=${RCK_QEMU_SRC_CACHE:-/var/cache/rockcreek/qemu-src}
if ! command -v qemu-x86_64 >/dev/null 2>&1 ||
    ! pkg-config --exists glib-2.0 2>/dev/null ||
    ! ls "$QEMU_SRC_CACHE"/qemu_*.orig.tar.* >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list \
        /etc/apt/sources.list.d/; then
        # source entries for the archives the machine already uses
        for f in /etc/apt/sources.list.d/*.sources; do
            [ -f "$f" ] || continue
            sed -n 's/^Types: deb$/Types: deb-src/p; /^URIs:\|^Suites:\|^Components:\|^Signed-By:/p; /^$/p' "$f"
        done | $SUDO tee /etc/apt/sources.list.d/rockcreek-deb-src.sources >/dev/null
        if [ -f /etc/apt/sources.list ]; then
            sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list |
                $SUDO tee /etc/apt/sources.list.d/rockcreek-deb-src.list >/dev/null
        fi
    fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
        qemu-user libglib2.0-dev pkg-config >/dev/null
    $SUDO mkdir -p "$QEMU_SRC_CACHE"
    # without the tarball the build leaves the P54C model out and its tests
    # say they are skipped; the rest of the project does not need it
    (cd "$QEMU_SRC_CACHE" && $SUDO apt-get source --download-only -qq qemu) ||
        echo "rockcreek: warning: QEMU's source could not be downloaded;" \
            "the P54C compute model will not be built" >&2
fi
# Headless Chromium: the test that renders `rck report`'s page
# (tests/report, docs/REPORT.md) in a real browser.
command -v chromium >/dev/null 2>&1 || apt_install chromium
# help2man: the man pages, made from the tools' own --help
# (src/tools/CMakeLists.txt)
command -v help2man >/dev/null 2>&1 || apt_install help2man
# bison and flex: the S-Net compiler's parser and scanner (src/snet)
command -v bison >/dev/null 2>&1 || apt_install bison
command -v flex >/dev/null 2>&1 || apt_install flex
# lwIP (Debian liblwip-dev 2.1.3): the IP stack of each core in librckip
# (src/ip, docs/IP.md); without it librckip and rckcc -rck-ip are not built
pkg-config --exists lwip 2>/dev/null || apt_install liblwip-dev
# Python modules (python/requirements.txt): matplotlib and pytest for the
# harness and rck report, numpy and cffi for rockcreek.rcce (docs/PYTHON.md)
if ! python3 -c 'import matplotlib, pytest, numpy, cffi' >/dev/null 2>&1; then
    python3 -m pip install -q -r "$(dirname "$0")/../python/requirements.txt" ||
        python3 -m pip install -q --break-system-packages \
            -r "$(dirname "$0")/../python/requirements.txt"
fi
echo "rockcreek: dependencies are installed"
