"""rockcreek.rcce outside a run: what needs no launcher (the UE programs
are tests/python/ue_rcce.py, run by CTest under rck run)."""

import os

import pytest

from rockcreek import _deps, _rcce_ffi, rcce


def test_calls_before_init_raise():
    with pytest.raises(RuntimeError, match="init"):
        rcce.ue()
    with pytest.raises(RuntimeError, match="init"):
        rcce.COMM_WORLD.Send(b"x", 1)


def test_library_env_wins(monkeypatch):
    monkeypatch.setenv("ROCKCREEK_LIB", "/nonexistent/librockcreek.so")
    assert _rcce_ffi.candidates() == ["/nonexistent/librockcreek.so"]
    assert _rcce_ffi.library_path() is None


def test_error_codes_named():
    assert rcce.error_string(-2) == "iRCCE_PENDING"
    e = rcce.RCCEError(rcce.ERROR_BASE + 3, "RCCE_send")
    assert e.code == rcce.ERROR_BASE + 3 and "RCCE_send" in str(e)


def test_typecodes():
    np = pytest.importorskip("numpy")
    assert rcce._typecode(np.zeros(3, dtype=np.int32), "x") == (rcce.INT, 3)
    assert rcce._typecode(np.zeros(2, dtype=np.float64), "x") == (rcce.DOUBLE, 2)
    with pytest.raises(TypeError, match="int32, int64"):
        rcce._typecode(np.zeros(2, dtype=np.uint8), "x")


def test_missing_module_one_line(capsys):
    def main(argv):
        err = ImportError("No module named 'matplotlib'")
        err.name = "matplotlib"
        raise err
    assert _deps.run_cli("rck-bench", main, []) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "matplotlib" in err and "Traceback" not in err


def test_other_import_errors_propagate():
    def main(argv):
        raise ImportError("No module named 'rockcreek_nope'", name="rockcreek_nope")
    with pytest.raises(ImportError):
        _deps.run_cli("rck-bench", main, [])


def test_library_found_in_build_tree():
    lib = _rcce_ffi.library_path()
    build = os.path.join(os.path.dirname(__file__), "..", "..", "build", "librockcreek.so")
    if not os.path.exists(build) and lib is None:
        pytest.skip("no librockcreek built")
    assert lib is not None
