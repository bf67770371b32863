"""rck report: a run's report as one self-contained HTML page, or text
(docs/REPORT.md)."""
