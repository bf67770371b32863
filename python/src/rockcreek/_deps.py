"""Optional dependencies: a missing one is one clear line and exit status
2 from a command-line tool, never a traceback."""

import sys
from typing import Callable, List, Optional

# module -> what needs it
OPTIONAL = {
    "matplotlib": "plots and the HTML report",
    "numpy": "arrays (rockcreek.rcce, rockcreek.report.data)",
    "pandas": "data frames (rockcreek.report.data)",
    "cffi": "the RCCE binding (rockcreek.rcce)",
}


def missing_module(exc: BaseException) -> Optional[str]:
    """The optional module whose absence raised @p exc, or None."""
    if not isinstance(exc, ImportError):
        return None
    name = (getattr(exc, "name", None) or "").split(".")[0]
    return name if name in OPTIONAL else None


def message(prog: str, module: str) -> str:
    return "%s: needs the Python module %s for %s (pip install %s, or scripts/install-deps.sh)" % (
        prog, module, OPTIONAL[module], module)


def run_cli(prog: str, main: Callable[[Optional[List[str]]], int],
            argv: Optional[List[str]] = None) -> int:
    """Run @p main; a missing optional module gives one line on stderr and
    status 2."""
    try:
        return main(argv)
    except ImportError as e:
        mod = missing_module(e)
        if mod is None:
            raise
        print(message(prog, mod), file=sys.stderr)
        return 2


def require(module: str, prog: str = "rockcreek"):
    """Import @p module or raise ImportError with the one-line message."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as e:
        err = ImportError(message(prog, module))
        err.name = module
        raise err from e
