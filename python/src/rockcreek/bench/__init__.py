"""rockcreek.bench: rockcreek's benchmark harness (rck-bench).

report: pure functions (parsing, aggregation, ratios, verdicts, tables);
plots: matplotlib figures; run: the driver (``rck-bench``, or
``PYTHONPATH=python/src python3 -m rockcreek.bench`` without installing).
"""
