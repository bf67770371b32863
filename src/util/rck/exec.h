/*
 * Finding a program the way execvp(3) would, for every place that checks
 * a program before it starts one (rck run, the P54C model's emulator,
 * MPI_Comm_spawn): one search, one set of answers.
 */
#ifndef RCK_EXEC_H
#define RCK_EXEC_H

#include <stddef.h>

/**
 * Find program @p name: the name itself if it has a slash, else the first
 * executable regular file of that name in PATH (an empty entry is the
 * current directory; no PATH: confstr(_CS_PATH), as execvp).
 * @param [in]  name  the program.
 * @param [out] out   its path as found (may be NULL).
 * @param [in]  len   size of @p out.
 * @return 0, or an errno value: ENOENT (not found; for a name with a
 *         slash, whatever stat(2) said), EISDIR, EACCES (found but not an
 *         executable regular file), ENAMETOOLONG.
 */
int rck_exec_find(const char *name, char *out, size_t len);

#endif
