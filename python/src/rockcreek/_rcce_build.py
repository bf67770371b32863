"""Build the compiled form of rockcreek.rcce's C side: cffi's API mode,
the module _rockcreek_rcce (a C extension made from the same declarations
as ABI mode, _rcce_ffi.CDEF, checked against the real headers by the
compiler). rockcreek.rcce uses it when it is importable and falls back to
ABI mode otherwise (docs/PYTHON.md, "Why cffi, and the compiled module").

    python3 -m rockcreek._rcce_build --include INCLUDE_DIR --libdir LIB_DIR --out DIR

The build tree makes it (target rockcreek_pyext, into <build>/python;
`make install` copies it to <prefix>/<libdir>/rockcreek/python). Its run
path is relative, $ORIGIN/.. then $ORIGIN/../.. (the library beside
<build>/python, or two up from <libdir>/rockcreek/python), so the same
file works in the build tree and in an install; --rpath-libdir adds
LIB_DIR itself (a module made by hand somewhere else).
"""

import argparse
import os
import sys

from . import _rcce_ffi


RPATH_RELATIVE = "$ORIGIN/..:$ORIGIN/../.."


def build(include: str, libdir: str, out: str, rpath_libdir: bool = False) -> str:
    import cffi
    rpath = RPATH_RELATIVE + (":" + os.path.abspath(libdir) if rpath_libdir else "")
    ffi = cffi.FFI()
    ffi.cdef(_rcce_ffi.CDEF + "\n#define ROCKCREEK_CDEF_HASH ...\n")
    ffi.set_source("_rockcreek_rcce",
                   '#include "RCCE.h"\n#include "iRCCE.h"\n#include "RCCE_comm.h"\n'
                   "#define ROCKCREEK_CDEF_HASH %d\n" % _rcce_ffi.cdef_hash(),
                   include_dirs=[include], libraries=["rockcreek"], library_dirs=[libdir],
                   extra_link_args=["-Wl,-rpath," + rpath])
    os.makedirs(out, exist_ok=True)
    tmp = os.path.join(out, "cffi-tmp")
    path = ffi.compile(tmpdir=tmp, verbose=False)
    final = os.path.join(out, os.path.basename(path))
    os.replace(path, final)
    return final


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m rockcreek._rcce_build")
    ap.add_argument("--include", required=True, help="rockcreek's include/ (RCCE.h, iRCCE.h)")
    ap.add_argument("--libdir", required=True, help="the directory of librockcreek.so")
    ap.add_argument("--out", required=True, help="where _rockcreek_rcce*.so goes")
    ap.add_argument("--rpath-libdir", action="store_true",
                    help="also record LIB_DIR as a run path (the module is not in "
                    "LIB_DIR/python or LIB_DIR/rockcreek/python)")
    a = ap.parse_args(argv)
    try:
        print(build(a.include, a.libdir, a.out, a.rpath_libdir))
    except ImportError as e:
        print("rockcreek._rcce_build: needs cffi (%s)" % e, file=sys.stderr)
        return 2
    except Exception as e:  # the compiler's message is the useful part
        print("rockcreek._rcce_build: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
