"""rockcreek's Python package.

Subpackages and modules (each imported on its own; nothing is imported
here, so ``import rockcreek`` needs no optional dependency):

* ``rockcreek.rcce``: UE programs in Python over librockcreek (RCCE,
  iRCCE, RCCE_comm, power API), run as ``rck run -n 4 python3 prog.py``.
* ``rockcreek.report``: ``rck report`` (HTML/text) and loaders of a run's
  report, trace and message log into NumPy / pandas (``rockcreek.report.data``).
* ``rockcreek.bench``: the benchmark harness (``rck-bench``).

docs/PYTHON.md describes them.
"""

__version__ = "0.1.0"
