"""rockcreek.rcce: UE programs in Python over librockcreek.

Run a program as ``rck run -n 4 python3 prog.py`` (any backend): every
UE is a python3 process the launcher started; ``init()`` attaches it to
the chip (RCCE_init), ``finalize()`` detaches it. The names follow
mpi4py's conventions on ``COMM_WORLD`` (also exported as module
functions):

* upper-case methods move buffers without copying them (anything with the
  buffer protocol: bytes, bytearray, memoryview, C-contiguous NumPy
  arrays): ``Send``, ``Recv``, ``Isend``, ``Irecv``, ``Bcast``,
  ``Reduce``, ``Allreduce``, ``Gather``, ``Allgather``, ``Scatter``,
  ``Alltoall``;
* lower-case methods move pickled Python objects: ``send``, ``recv``,
  ``isend``, ``bcast``, ``gather``, ``allgather``, ``scatter``,
  ``reduce``, ``allreduce``.

Point to point is iRCCE's (messages carry their length, so ``recv`` and
``probe`` know it; RCCE_send's messages are received too), the
collectives are RCCE's and RCCE_comm's over RCCE_COMM_WORLD. A failing
call raises ``RCCEError`` whose ``code`` is RCCE's (or iRCCE's) code.
docs/PYTHON.md has the details and the costs.
"""

import pickle
import sys
from typing import Any, Callable, List, NamedTuple, Optional, Sequence

from . import _rcce_ffi

ANY_SOURCE = -1
SUCCESS = 0
ERROR_BASE = 1234321

SUM, MIN, MAX, PROD = 23232323, 23232324, 23232325, 23232326
INT, LONG, FLOAT, DOUBLE = 63636363, 63636364, 63636365, 63636366
SHAPE_POWER = 4

_IRCCE_CODES = {-1: "iRCCE_ERROR", -2: "iRCCE_PENDING", -3: "iRCCE_RESERVED",
                -4: "iRCCE_NOT_ENQUEUED"}

_ffi: Any = None
_lib: Any = None
_initialized = False


class RCCEError(Exception):
    """A call of librockcreek failed: ``code`` is its RCCE (or iRCCE) code,
    ``call`` the C function."""

    def __init__(self, code: int, call: str, detail: str = ""):
        self.code = code
        self.call = call
        text = error_string(code)
        msg = "%s: %s (code %d)" % (call, text, code)
        if detail:
            msg += ": " + detail
        super().__init__(msg)


_mode = ""


def _load_api() -> bool:
    """The compiled module (cffi's API mode, _rockcreek_rcce: built by the
    build tree's `rockcreek_pyext` target or `python3 -m
    rockcreek._rcce_build`), if there is one: calls cost about a fifth of
    ABI mode's (docs/PYTHON.md). $ROCKCREEK_RCCE_ABI=1 refuses it."""
    global _ffi, _lib, _mode
    import os
    if os.environ.get("ROCKCREEK_RCCE_ABI") == "1":
        return False
    dirs = [d for d in (os.environ.get("ROCKCREEK_PYEXT_DIR"),) if d]
    # <dir of librockcreek>/python: where the build tree puts it;
    # <dir of librockcreek>/rockcreek/python: where `make install` does
    for p in _rcce_ffi.candidates():
        if os.path.sep in p:
            d = os.path.dirname(p)
            dirs += [os.path.join(d, "python"), os.path.join(d, "rockcreek", "python")]
    try:
        import _rockcreek_rcce as ext  # type: ignore  # installed beside the package
    except ImportError:
        ext = None
        for d in dirs:
            if d and os.path.isdir(d):
                sys.path.insert(0, d)
                try:
                    import _rockcreek_rcce as ext  # type: ignore
                    break
                except ImportError:
                    ext = None
                finally:
                    sys.path.remove(d)
    if ext is None or getattr(ext.lib, "ROCKCREEK_CDEF_HASH", None) != _rcce_ffi.cdef_hash():
        return False  # absent, or made from other declarations: ABI mode
    _ffi, _lib, _mode = ext.ffi, ext.lib, "api"
    return True


def _load() -> None:
    global _ffi, _lib, _mode
    if _lib is not None:
        return
    if _load_api():
        return
    _mode = "abi"
    try:
        import cffi
    except ImportError as e:
        err = ImportError("rockcreek.rcce needs the Python module cffi (pip install cffi)")
        err.name = "cffi"
        raise err from e
    ffi = cffi.FFI()
    ffi.cdef(_rcce_ffi.CDEF)
    path = _rcce_ffi.library_path()
    if path is None:
        raise OSError("rockcreek.rcce: cannot find librockcreek.so (looked in %s); set "
                      "ROCKCREEK_LIB to its path" % ", ".join(_rcce_ffi.candidates()))
    _lib = ffi.dlopen(path)
    _ffi = ffi


def error_string(code: int) -> str:
    """RCCE's text for @p code (iRCCE's names for its negative codes)."""
    if code in _IRCCE_CODES:
        return _IRCCE_CODES[code]
    if _lib is None:
        return "RCCE error"
    buf = _ffi.new("char[64]")
    n = _ffi.new("int *")
    _lib.RCCE_error_string(code, buf, n)
    return _ffi.string(buf).decode("ascii", "replace")


def _check(code: int, call: str, detail: str = "") -> int:
    if code != SUCCESS:
        raise RCCEError(code, call, detail)
    return code


def _need() -> None:
    if not _initialized:
        raise RuntimeError("rockcreek.rcce: call rcce.init() first")


# ---- initialisation ----

def init(argv: Optional[List[str]] = None, power: bool = False) -> None:
    """Attach this process to the chip as its UE (RCCE_init; the launcher
    says which UE through the environment). @p power: RCCE's
    RC_POWER_MANAGEMENT shape (the power API's master role)."""
    global _initialized
    if _initialized:
        return
    _load()
    args = [a.encode() for a in (sys.argv if argv is None else argv)] or [b"python3"]
    keep = [_ffi.new("char[]", a) for a in args]
    arr = _ffi.new("char *[]", keep + [_ffi.NULL])
    argc = _ffi.new("int *", len(args))
    argvp = _ffi.new("char ***", arr)
    _check(_lib.RCCE_init_shape(argc, argvp, SHAPE_POWER if power else 0), "RCCE_init")
    _initialized = True
    rc = _lib.iRCCE_init()
    _check(rc, "iRCCE_init")


def finalize() -> None:
    """RCCE_finalize (a barrier of every UE, then detach)."""
    global _initialized
    if not _initialized:
        return
    _check(_lib.RCCE_finalize(), "RCCE_finalize")
    _initialized = False


def initialized() -> bool:
    return _initialized


def binding() -> str:
    """"api" (the compiled module) or "abi" (cffi's ABI mode over
    librockcreek), once init() has loaded it; "" before."""
    return _mode


def ue() -> int:
    _need()
    return int(_lib.RCCE_ue())


def num_ues() -> int:
    _need()
    return int(_lib.RCCE_num_ues())


def wtime() -> float:
    """RCCE_wtime: seconds (the chip's time on the sim backend)."""
    _need()
    return float(_lib.RCCE_wtime())


# ---- buffers ----

def _rbuf(buf: Any, call: str) -> Any:
    """A read-only cffi view of @p buf (no copy)."""
    try:
        return _ffi.from_buffer(buf)
    except (TypeError, BufferError, ValueError) as e:
        raise TypeError("%s: the buffer must be a C-contiguous object with the buffer "
                        "protocol (bytes, bytearray, memoryview, NumPy array): %s" % (call, e))


def _wbuf(buf: Any, call: str) -> Any:
    """A writable cffi view of @p buf (no copy)."""
    try:
        return _ffi.from_buffer(buf, require_writable=True)
    except (TypeError, BufferError, ValueError) as e:
        raise TypeError("%s: the buffer must be a writable C-contiguous object with the "
                        "buffer protocol (bytearray, memoryview, NumPy array): %s" % (call, e))


def _cbuf(view: Any) -> Any:
    return _ffi.cast("char *", view)


def _typecode(buf: Any, call: str):
    """(RCCE type, element count) of a typed buffer (NumPy array or
    memoryview of int32 / int64 / float32 / float64)."""
    mv = memoryview(buf)
    fmt = mv.format.lstrip("@=<")
    kinds = {("i", 4): INT, ("l", 8): LONG, ("q", 8): LONG, ("f", 4): FLOAT,
             ("d", 8): DOUBLE}
    t = kinds.get((fmt, mv.itemsize))
    if t is None:
        raise TypeError("%s: elements must be int32, int64, float32 or float64 (RCCE's "
                        "INT, LONG, FLOAT, DOUBLE), not format %r" % (call, mv.format))
    return t, mv.nbytes // mv.itemsize


# ---- requests ----

class Status:
    """Where a received message came from and its length in bytes."""

    def __init__(self) -> None:
        self.source = ANY_SOURCE
        self.count = 0

    def Get_source(self) -> int:
        return self.source

    def Get_count(self) -> int:
        return self.count


class Request:
    """A non-blocking iRCCE send or receive (iRCCE_isend / iRCCE_irecv).
    The buffer is kept alive until the request completes."""

    def __init__(self, kind: str, creq: Any, keep: Any, post: Optional[Callable] = None):
        self._kind = kind
        self._req = creq
        self._keep = keep
        self._post = post
        self._done = False
        self._value: Any = None

    def _finish(self) -> Any:
        self._done = True
        if self._post is not None:
            self._value = self._post(self)
        self._keep = None
        return self._value

    def test(self) -> bool:
        """Advance the request (only it); True once it is complete."""
        if self._done:
            return True
        flag = _ffi.new("int *")
        if self._kind == "send":
            rc = _lib.iRCCE_isend_test(self._req, flag)
        else:
            rc = _lib.iRCCE_irecv_test(self._req, flag)
        if rc not in (SUCCESS, -2):
            self._done = True
            _check(rc, "iRCCE_%s_test" % ("isend" if self._kind == "send" else "irecv"))
        if flag[0]:
            self._finish()
            return True
        return False

    def wait(self) -> Any:
        """Wait for completion (progressing every queue); returns the
        received object for ``irecv``, else None."""
        if self._done:
            return self._value
        if self._kind == "send":
            rc = _lib.iRCCE_isend_wait(self._req)
            call = "iRCCE_isend_wait"
        else:
            rc = _lib.iRCCE_irecv_wait(self._req)
            call = "iRCCE_irecv_wait"
        if rc != SUCCESS:
            self._done = True
            _check(rc, call)
        return self._finish()

    Test = test
    Wait = wait

    @property
    def source(self) -> int:
        if self._kind != "recv":
            return ANY_SOURCE
        return int(self._req.source)

    @staticmethod
    def waitall(reqs: Sequence["Request"]) -> List[Any]:
        return [r.wait() for r in reqs]

    Waitall = waitall


def _posted(rc: int, call: str) -> None:
    if rc not in (SUCCESS, -2, -3):
        _check(rc, call)


class PeekResult(NamedTuple):
    source: int           # the sending UE
    data: bytes           # the message's first bytes
    length: Optional[int]  # its length, None if it carries none (RCCE_send)


class Comm:
    """An RCCE communicator with mpi4py's method names: COMM_WORLD
    (RCCE_COMM_WORLD), or one made by ``Split``. Point-to-point calls name
    UEs (RCCE has no communicator for them); the collectives name ranks of
    the communicator."""

    def __init__(self, ccomm: Any = None):
        self._c = ccomm  # None: RCCE_COMM_WORLD

    # ---- who ----
    def Get_rank(self) -> int:
        return self.rank

    def Get_size(self) -> int:
        return self.size

    @property
    def rank(self) -> int:
        if self._c is None:
            return ue()
        _need()
        return int(self._c.my_rank)

    @property
    def size(self) -> int:
        if self._c is None:
            return num_ues()
        _need()
        return int(self._c.size)

    def ue_of(self, rank: int) -> int:
        """The UE of rank @p rank of this communicator."""
        if self._c is None:
            return rank
        if not 0 <= rank < self.size:
            raise ValueError("rank %d is not in a communicator of %d" % (rank, self.size))
        if self._c.rck_members != _ffi.NULL:
            return int(self._c.rck_members[rank])
        return int(self._c.member[rank])

    def _world(self) -> Any:
        return _lib.RCCE_COMM_WORLD if self._c is None else self._c[0]

    def _ptr(self) -> Any:
        return _ffi.addressof(_lib, "RCCE_COMM_WORLD") if self._c is None else self._c

    def Split(self, color: Callable[[int], int]) -> "Comm":
        """RCCE_comm_split: every UE calls it with the same @p color, a
        function of a UE that gives its group; returns this UE's group.
        Only COMM_WORLD can be split (as in RCCE)."""
        _need()
        if self._c is not None:
            raise ValueError("Split: RCCE splits RCCE_COMM_WORLD only")
        err: List[BaseException] = []

        def cb(u: int, aux: Any) -> int:
            try:
                return int(color(u))
            except BaseException as e:  # no exception may cross C
                err.append(e)
                return 0
        ccb = _ffi.callback("int(int, void *)", cb)
        c = _ffi.new("RCCE_COMM *")
        rc = _lib.RCCE_comm_split(ccb, _ffi.NULL, c)
        if err:
            raise err[0]
        _check(rc, "RCCE_comm_split")
        return Comm(c)

    def Free(self) -> None:
        """RCCE_comm_free of a communicator made by Split."""
        if self._c is None:
            raise ValueError("Free: COMM_WORLD cannot be freed")
        _check(_lib.RCCE_comm_free(self._c), "RCCE_comm_free")

    # ---- point to point, buffers ----
    def Send(self, buf: Any, dest: int) -> None:
        """Send @p buf to UE @p dest (blocking; iRCCE_isend without a
        request: returns once the receiver has taken the last piece)."""
        if not _initialized:
            _need()
        v = _rbuf(buf, "Send")
        rc = _lib.iRCCE_isend(v, len(v), dest, _ffi.NULL)
        if rc:
            _check(rc, "iRCCE_isend", "to UE %d" % dest)

    def Recv(self, buf: Any, source: int = ANY_SOURCE, status: Optional[Status] = None) -> int:
        """Receive a message of exactly len(buf) bytes into @p buf (no
        copy); returns the sender."""
        if not _initialized:
            _need()
        v = _wbuf(buf, "Recv")
        # blocking iRCCE_irecv (no request to allocate); the source of an
        # any-source receive is iRCCE_get_source(NULL)
        rc = _lib.iRCCE_irecv(v, len(v), source, _ffi.NULL)
        if rc:
            _check(rc, "iRCCE_irecv", "from UE %d" % source)
        src = source if source >= 0 else int(_lib.iRCCE_get_source(_ffi.NULL))
        if status is not None:
            status.source, status.count = src, len(v)
        return src

    def Isend(self, buf: Any, dest: int) -> Request:
        _need()
        v = _rbuf(buf, "Isend")
        req = _ffi.new("iRCCE_SEND_REQUEST *")
        _posted(_lib.iRCCE_isend(_cbuf(v), len(v), dest, req), "iRCCE_isend")
        return Request("send", req, (buf, v))

    def Irecv(self, buf: Any, source: int = ANY_SOURCE) -> Request:
        _need()
        v = _wbuf(buf, "Irecv")
        req = _ffi.new("iRCCE_RECV_REQUEST *")
        _posted(_lib.iRCCE_irecv(_cbuf(v), len(v), source, req), "iRCCE_irecv")
        return Request("recv", req, (buf, v))

    # ---- probing ----
    def probe(self, source: int = ANY_SOURCE, status: Optional[Status] = None) -> int:
        """Wait until a message from @p source (any) is waiting; returns its
        sender. ``status.count`` is its length, -1 if it carries none."""
        _need()
        rank = _ffi.new("int *")
        _check(_lib.iRCCE_probe(source, rank), "iRCCE_probe")
        if status is not None:
            status.source, status.count = int(rank[0]), int(_lib.iRCCE_get_length())
        return int(rank[0])

    def iprobe(self, source: int = ANY_SOURCE, status: Optional[Status] = None) -> bool:
        _need()
        rank = _ffi.new("int *")
        flag = _ffi.new("int *")
        _check(_lib.iRCCE_iprobe(source, rank, flag), "iRCCE_iprobe")
        if flag[0] and status is not None:
            status.source, status.count = int(rank[0]), int(_lib.iRCCE_get_length())
        return bool(flag[0])

    Probe = probe
    Iprobe = iprobe

    def peek(self, source: int = ANY_SOURCE, nbytes: int = 32) -> Optional[PeekResult]:
        """iRCCE_peek: the first @p nbytes of a message waiting from
        @p source (any), without receiving it; None if none is waiting.
        Never waits."""
        _need()
        if nbytes < 0:
            raise ValueError("peek: nbytes must be >= 0, not %d" % nbytes)
        buf = _ffi.new("char[]", max(nbytes, 1))
        rank = _ffi.new("int *")
        got = _ffi.new("size_t *")
        _check(_lib.iRCCE_peek(buf, nbytes, source, rank, got), "iRCCE_peek")
        if rank[0] < 0:
            return None
        n = int(_lib.iRCCE_get_length())
        return PeekResult(int(rank[0]), _ffi.buffer(buf, got[0])[:], None if n < 0 else n)

    # ---- point to point, objects ----
    def send(self, obj: Any, dest: int) -> None:
        """Send a pickled object (its length travels in iRCCE's framing)."""
        self.Send(pickle.dumps(obj, pickle.HIGHEST_PROTOCOL), dest)

    def recv(self, source: int = ANY_SOURCE, status: Optional[Status] = None) -> Any:
        """Receive a pickled object from @p source (any)."""
        st = Status()
        src = self.probe(source, st)
        if st.count < 0:
            raise RCCEError(ERROR_BASE + 4, "recv", "the message from UE %d carries no length "
                            "(sent by RCCE_send?): receive it with Recv" % src)
        buf = bytearray(st.count)
        self.Recv(buf, src, status)
        return pickle.loads(buf)

    def isend(self, obj: Any, dest: int) -> Request:
        return self.Isend(pickle.dumps(obj, pickle.HIGHEST_PROTOCOL), dest)

    def sendrecv(self, obj: Any, dest: int, source: int = ANY_SOURCE) -> Any:
        r = self.isend(obj, dest)
        out = self.recv(source)
        r.wait()
        return out

    # ---- collectives ----
    def Barrier(self) -> None:
        _need()
        _check(_lib.RCCE_barrier(self._ptr()), "RCCE_barrier")

    barrier = Barrier

    def Bcast(self, buf: Any, root: int = 0) -> None:
        """RCCE_comm_bcast of @p buf (in place, no copy)."""
        _need()
        v = _wbuf(buf, "Bcast")
        _check(_lib.RCCE_comm_bcast(_cbuf(v), len(v), root, self._world()), "RCCE_comm_bcast")

    def _reduce(self, sendbuf: Any, recvbuf: Any, op: int, root: Optional[int]) -> None:
        _need()
        call = "Allreduce" if root is None else "Reduce"
        t, n = _typecode(sendbuf, call)
        t2, n2 = _typecode(recvbuf, call)
        if (t, n) != (t2, n2):
            raise ValueError("%s: sendbuf and recvbuf differ in type or length" % call)
        s = _rbuf(sendbuf, call)
        r = _wbuf(recvbuf, call)
        if root is None:
            _check(_lib.RCCE_comm_allreduce(_cbuf(s), _cbuf(r), n, t, op, self._world()),
                   "RCCE_comm_allreduce")
        else:
            _check(_lib.RCCE_comm_reduce(_cbuf(s), _cbuf(r), n, t, op, root, self._world()),
                   "RCCE_comm_reduce")

    def Reduce(self, sendbuf: Any, recvbuf: Any, op: int = SUM, root: int = 0) -> None:
        self._reduce(sendbuf, recvbuf, op, root)

    def Allreduce(self, sendbuf: Any, recvbuf: Any, op: int = SUM) -> None:
        self._reduce(sendbuf, recvbuf, op, None)

    def _blocks(self, call: str, fn: Any, sendbuf: Any, recvbuf: Any, per: int,
                *args: Any) -> None:
        _need()
        s = _rbuf(sendbuf, call)
        r = _wbuf(recvbuf, call)
        _check(fn(_cbuf(s), _cbuf(r), per, *args, self._world()), "RCCE_" + call.lower())

    def Gather(self, sendbuf: Any, recvbuf: Any, root: int = 0) -> None:
        """Every UE's len(sendbuf) bytes into recvbuf at @p root (size *
        len(sendbuf) bytes there; ignored elsewhere)."""
        n = memoryview(sendbuf).nbytes
        if self.rank != root:
            recvbuf = bytearray(n * self.size) if recvbuf is None else recvbuf
        self._check_len("Gather", recvbuf, n * self.size)
        self._blocks("Gather", _lib.RCCE_gather, sendbuf, recvbuf, n, root)

    def Allgather(self, sendbuf: Any, recvbuf: Any) -> None:
        n = memoryview(sendbuf).nbytes
        self._check_len("Allgather", recvbuf, n * self.size)
        self._blocks("Allgather", _lib.RCCE_allgather, sendbuf, recvbuf, n)

    def Scatter(self, sendbuf: Any, recvbuf: Any, root: int = 0) -> None:
        n = memoryview(recvbuf).nbytes
        if self.rank != root and sendbuf is None:
            sendbuf = bytes(n * self.size)
        self._check_len("Scatter", sendbuf, n * self.size)
        self._blocks("Scatter", _lib.RCCE_scatter, sendbuf, recvbuf, n, root)

    def Alltoall(self, sendbuf: Any, recvbuf: Any) -> None:
        n = memoryview(sendbuf).nbytes
        if n % self.size or memoryview(recvbuf).nbytes != n:
            raise ValueError("Alltoall: both buffers need size equal blocks")
        self._blocks("Alltoall", _lib.RCCE_alltoall, sendbuf, recvbuf, n // self.size)

    @staticmethod
    def _check_len(call: str, buf: Any, want: int) -> None:
        if memoryview(buf).nbytes != want:
            raise ValueError("%s: the buffer has %d bytes, needs %d" % (
                call, memoryview(buf).nbytes, want))

    # objects: pickled, over point to point from / to the root
    def bcast(self, obj: Any = None, root: int = 0) -> Any:
        """@p obj of UE @p root, on every UE: its length, then its pickle,
        by RCCE_comm_bcast."""
        import array
        n = array.array("q", [0])
        data = b""
        me = self.rank
        if me == root:
            data = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
            n[0] = len(data)
        self.Bcast(n, root)
        buf = bytearray(data) if me == root else bytearray(n[0])
        if n[0]:
            self.Bcast(buf, root)
        return obj if me == root else pickle.loads(buf)

    def gather(self, obj: Any, root: int = 0) -> Optional[List[Any]]:
        if self.rank != root:
            self.send(obj, self.ue_of(root))
            return None
        out: List[Any] = [None] * self.size
        out[root] = obj
        for r in range(self.size):
            if r != root:
                out[r] = self.recv(self.ue_of(r))
        return out

    def scatter(self, objs: Optional[Sequence[Any]], root: int = 0) -> Any:
        if self.rank == root:
            if objs is None or len(objs) != self.size:
                raise ValueError("scatter: the root needs one object per rank")
            for r in range(self.size):
                if r != root:
                    self.send(objs[r], self.ue_of(r))
            return objs[root]
        return self.recv(self.ue_of(root))

    def allgather(self, obj: Any) -> List[Any]:
        return self.bcast(self.gather(obj, 0), 0)

    def reduce(self, obj: Any, op: Callable[[Any, Any], Any] = None, root: int = 0) -> Any:
        """Combine every UE's object at @p root with @p op (default +), in
        UE order; None elsewhere."""
        vals = self.gather(obj, root)
        if vals is None:
            return None
        acc = vals[0]
        for v in vals[1:]:
            acc = (op or (lambda a, b: a + b))(acc, v)
        return acc

    def allreduce(self, obj: Any, op: Callable[[Any, Any], Any] = None) -> Any:
        return self.bcast(self.reduce(obj, op, 0), 0)


COMM_WORLD = Comm()


# ---- power API (RCCE's; docs/POWER.md) ----

def power_domain() -> int:
    _need()
    return int(_lib.RCCE_power_domain())


def power_domain_master() -> int:
    _need()
    return int(_lib.RCCE_power_domain_master())


def power_domain_size() -> int:
    _need()
    return int(_lib.RCCE_power_domain_size())


def set_frequency_divider(fdiv: int) -> int:
    """RCCE_set_frequency_divider: returns the divider now in effect."""
    _need()
    new = _ffi.new("int *")
    _check(_lib.RCCE_set_frequency_divider(fdiv, new), "RCCE_set_frequency_divider",
           "divider %d" % fdiv)
    return int(new[0])


class PowerRequest:
    """An RCCE_iset_power in flight: ``wait()`` (RCCE_wait_power)."""

    def __init__(self, req: Any, fdiv: int, vlevel: int):
        self._req = req
        self.fdiv = fdiv
        self.vlevel = vlevel

    def wait(self) -> None:
        _check(_lib.RCCE_wait_power(self._req), "RCCE_wait_power")


def iset_power(fdiv: int) -> PowerRequest:
    """RCCE_iset_power (power domain masters): the divider and voltage
    level chosen; wait() for the change."""
    _need()
    req = _ffi.new("RCCE_REQUEST *")
    f = _ffi.new("int *")
    v = _ffi.new("int *")
    _check(_lib.RCCE_iset_power(fdiv, req, f, v), "RCCE_iset_power", "divider %d" % fdiv)
    return PowerRequest(req, int(f[0]), int(v[0]))


# ---- module-level forms of COMM_WORLD's methods ----
barrier = COMM_WORLD.Barrier
send = COMM_WORLD.send
recv = COMM_WORLD.recv
isend = COMM_WORLD.isend
peek = COMM_WORLD.peek
probe = COMM_WORLD.probe
iprobe = COMM_WORLD.iprobe
