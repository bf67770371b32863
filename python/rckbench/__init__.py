"""rckbench: rockcreek's benchmark harness.

report: pure functions (parsing, aggregation, ratios, verdicts, tables);
plots: matplotlib figures; run: the driver (``python3 -m rckbench.run`` or
``python3 python/rckbench/run.py``).
"""
