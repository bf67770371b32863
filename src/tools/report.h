/*
 * `rck report`: a run's JSON report as one self-contained HTML page or as
 * text. The work is done by the Python package rockcreek.report (python/src/rockcreek/report,
 * docs/REPORT.md); this finds it and runs it.
 */
#ifndef RCK_TOOLS_REPORT_H
#define RCK_TOOLS_REPORT_H

/**
 * rck report RUN.json [-o FILE.html] [--trace TRACE.json] [--text]
 * @param [in] argc, argv  the arguments after "report".
 * @return what the Python tool returns (0 done, 2 bad input), or 2 when
 *         the tool or python3 cannot be found.
 */
int rck_report_main(int argc, char **argv);

#endif
