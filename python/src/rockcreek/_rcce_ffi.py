"""The C side of rockcreek.rcce: declarations of librockcreek's public API
(include/RCCE.h, iRCCE.h, RCCE_comm.h; the structures exactly as there)
for cffi in ABI mode, and where the library is found.

ABI mode (dlopen, no compiler when the package is installed) was chosen
over a C extension: docs/PYTHON.md, "Why cffi in ABI mode", gives the
measured per-call cost.
"""

import ctypes.util
import os
import shutil
from typing import List, Optional

CDEF = r"""
typedef volatile unsigned char *t_vcharp;
typedef struct { int line; int bit; unsigned magic; } RCCE_FLAG;
typedef int RCCE_FLAG_STATUS;
typedef struct {
    int size; int my_rank; int initialized; int member[48];
    RCCE_FLAG gather; RCCE_FLAG release; int label; int *rck_members;
} RCCE_COMM;
typedef struct {
    int release; int old_voltage_level; int new_voltage_level;
    int old_frequency_divider; int new_frequency_divider; int start_cycle;
    int state;
} RCCE_REQUEST;
extern RCCE_COMM RCCE_COMM_WORLD;

int RCCE_init_shape(int *argc, char ***argv, int shape);
int RCCE_finalize(void);
double RCCE_wtime(void);
int RCCE_ue(void);
int RCCE_num_ues(void);
int RCCE_barrier(RCCE_COMM *comm);
int RCCE_comm_split(int (*color)(int, void *), void *aux, RCCE_COMM *comm);
int RCCE_comm_free(RCCE_COMM *comm);
int RCCE_error_string(int code, char *buf, int *len);
int RCCE_send(char *buf, size_t size, int dest);
int RCCE_recv(char *buf, size_t size, int source);
int RCCE_peek(char *buf, size_t size, int source, int *from, size_t *copied);
int RCCE_bcast(char *buf, size_t num, int root, RCCE_COMM comm);
int RCCE_reduce(char *in, char *out, int num, int type, int op, int root,
                RCCE_COMM comm);
int RCCE_allreduce(char *in, char *out, int num, int type, int op,
                   RCCE_COMM comm);
int RCCE_power_domain(void);
int RCCE_power_domain_master(void);
int RCCE_power_domain_size(void);
int RCCE_iset_power(int fdiv, RCCE_REQUEST *req, int *fdiv_new,
                    int *vlevel_new);
int RCCE_wait_power(RCCE_REQUEST *req);
int RCCE_set_frequency_divider(int fdiv, int *fdiv_new);

int RCCE_scatter(char *in, char *out, size_t num, int root, RCCE_COMM comm);
int RCCE_gather(char *in, char *out, size_t num, int root, RCCE_COMM comm);
int RCCE_allgather(char *in, char *out, size_t num, RCCE_COMM comm);
int RCCE_alltoall(char *in, char *out, size_t num, RCCE_COMM comm);
int RCCE_comm_bcast(char *buf, size_t num, int root, RCCE_COMM comm);
int RCCE_comm_reduce(char *in, char *out, int num, int type, int op,
                     int root, RCCE_COMM comm);
int RCCE_comm_allreduce(char *in, char *out, int num, int type, int op,
                        RCCE_COMM comm);

typedef struct _iRCCE_SEND_REQUEST {
    char *privbuf; t_vcharp combuf; size_t chunk; size_t subchunk1;
    size_t subchunk2; RCCE_FLAG *ready; RCCE_FLAG *sent;
    RCCE_FLAG_STATUS flag_set_value; size_t size; int dest; int sync;
    size_t wsize; size_t remainder; size_t nbytes; char *bufptr; int label;
    int finished; struct _iRCCE_SEND_REQUEST *next;
    unsigned rck_magic; int rck_state; int rck_status; int rck_kind;
    int rck_coll;
} iRCCE_SEND_REQUEST;
typedef struct _iRCCE_RECV_REQUEST {
    char *privbuf; t_vcharp combuf; size_t chunk; size_t subchunk1;
    size_t subchunk2; RCCE_FLAG *ready; RCCE_FLAG *sent;
    RCCE_FLAG_STATUS flag_set_value; size_t size; int source; int sync;
    size_t wsize; size_t remainder; size_t nbytes; char *bufptr; int label;
    int finished; int started; struct _iRCCE_RECV_REQUEST *next;
    unsigned rck_magic; int rck_state; int rck_status; int rck_kind;
    int rck_any_length;
} iRCCE_RECV_REQUEST;
int iRCCE_init(void);
int iRCCE_isend(char *privbuf, ssize_t size, int dest,
                iRCCE_SEND_REQUEST *request);
int iRCCE_isend_test(iRCCE_SEND_REQUEST *request, int *test);
int iRCCE_isend_wait(iRCCE_SEND_REQUEST *request);
int iRCCE_irecv(char *privbuf, ssize_t size, int source,
                iRCCE_RECV_REQUEST *request);
int iRCCE_irecv_test(iRCCE_RECV_REQUEST *request, int *test);
int iRCCE_irecv_wait(iRCCE_RECV_REQUEST *request);
int iRCCE_probe(int source, int *test_rank);
int iRCCE_iprobe(int source, int *test_rank, int *test_flag);
int iRCCE_peek(char *buf, size_t size, int source, int *test_rank,
               size_t *copied);
int iRCCE_get_source(iRCCE_RECV_REQUEST *request);
int iRCCE_get_length(void);
"""


def cdef_hash() -> int:
    """A checksum of CDEF: the compiled module carries the one it was made
    from, and a module made from other declarations is not used."""
    import zlib
    return zlib.crc32(CDEF.encode()) & 0x7fffffff


def candidates() -> List[str]:
    """Where librockcreek is looked for, in order: $ROCKCREEK_LIB (a
    path), the build tree beside this source tree (build/), the tree of
    the launcher that started this process (`rck run`: the parent's
    executable) and of the `rck` on PATH (a build tree, or an install
    prefix's lib/), then the dynamic linker's search (an installed
    library)."""
    out = []
    env = os.environ.get("ROCKCREEK_LIB")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    src_root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    out.append(os.path.join(src_root, "build", "librockcreek.so"))
    tools = []
    try:
        tools.append(os.path.realpath("/proc/%d/exe" % os.getppid()))
    except OSError:
        pass
    rck = shutil.which("rck")
    if rck:
        tools.append(os.path.realpath(rck))
    for t in tools:
        d = os.path.dirname(t)
        out.append(os.path.join(d, "..", "..", "librockcreek.so"))
        for lib in ("lib", "lib64", os.path.join("lib", "x86_64-linux-gnu")):
            out.append(os.path.join(d, "..", lib, "librockcreek.so"))
    found = ctypes.util.find_library("rockcreek")
    if found:
        out.append(found)
    return out


def library_path() -> Optional[str]:
    for c in candidates():
        if os.path.sep not in c or os.path.exists(c):
            return c
    return None
