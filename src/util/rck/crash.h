/*
 * Crash reports: a core whose program dies of SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL or SIGABRT says so on its stderr (the launcher prefixes the
 * lines with the UE) before it dies: the signal, the fault address and a
 * backtrace. The signal is then raised again with its default action, so
 * the process still ends with it (exit status 128+N at the launcher).
 */
#ifndef RCK_CRASH_H
#define RCK_CRASH_H

/**
 * Install the crash handler for this process, once (later calls only
 * update the names). Signals whose handler is not the default (a
 * sanitizer's, the program's, an MPI library's) are left alone; a
 * library that installs its own handler later (SVM) and hands the faults
 * it does not serve back to the previous handler keeps the report.
 * Does nothing when RCK_BACKTRACE is 0.
 * @param [in] core  the physical core, printed in the report.
 * @param [in] ue    the UE, printed in the report.
 */
void rck_crash_install(int core, int ue);

#endif
