/*
 * The initial stack of a core's program under a P54C model (sim_stack.c):
 * the same addresses whatever the sizes of its environment, arguments and
 * path (docs/P54C.md, "Determinism").
 *
 * Owns: the RCK_SIM_STACK_PAD, RCK_SIM_STACK_N<i> and RCK_SIM_ARGV0_PAD
 * variables of a core's environment. May call: util (rck/exec.h, the log). Called by
 * sim.c in the child of a core, after every other change to its
 * environment, just before the exec.
 */
#ifndef RCK_SIM_STACK_H
#define RCK_SIM_STACK_H

#include "rck/status.h"

#include <stddef.h>
#include <stdint.h>

/* Names of the padding variables: the padding itself, and the fillers
 * (RCK_SIM_STACK_N0, N1, ...: empty) that bring the number of pointers to
 * SIM_STACK_POINTERS. */
#define SIM_STACK_PAD_VAR "RCK_SIM_STACK_PAD"
#define SIM_STACK_FILL_VAR "RCK_SIM_STACK_N"

/* The number of argument and environment pointers the loader is given:
 * the stack pointer and the strings' start are both fixed only when it
 * is (every pointer moves the one or the other by 8 bytes). A larger
 * environment keeps an even number: the stack pointer fixed, its strings
 * 16 bytes lower for every two more variables. */
#define SIM_STACK_POINTERS 256u
/* The number of characters the launcher put in front of argv[0], which
 * the core takes off again before the program's code runs. */
#define SIM_STACK_ARGV0_VAR "RCK_SIM_ARGV0_PAD"

/* The bytes argv[0] takes (with its NUL) when it names the program by a
 * path: a path of up to SIM_STACK_ARGV0_BYTES - 3 characters is padded to
 * it, a longer one to the next multiple of it. */
#define SIM_STACK_ARGV0_BYTES 256u

/* The largest padding quantum: one environment string may hold at most
 * 32 pages (Linux's MAX_ARG_STRLEN). */
#define SIM_STACK_QUANTUM_MAX (64u << 10)

/**
 * The quantum the initial stack is placed to: the largest way of the
 * modelled caches (bytes / ways), rounded up to a power of two, at least a
 * page and at most SIM_STACK_QUANTUM_MAX. Two runs whose environments
 * differ by more than that still see the same cache sets and page offsets.
 * @param [in] l1i_bytes, l1d_bytes, l1_ways, l2_bytes, l2_ways  the model's
 *             caches (a zero size or way count is ignored).
 * @return the quantum in bytes.
 */
size_t sim_stack_quantum(unsigned l1i_bytes, unsigned l1d_bytes,
                         unsigned l1_ways, unsigned l2_bytes,
                         unsigned l2_ways);

/**
 * The bytes the loader places above the initial stack pointer that depend
 * on the program's inputs: the strings of the path, the arguments and the
 * environment (each with its NUL), and one pointer per argument and
 * environment string.
 * @param [in]  path  the path the loader copies (the one given to execve;
 *                    the emulator's: the program's real path).
 * @param [in]  argv  the program's arguments, NULL-terminated.
 * @param [in]  envp  its environment, NULL-terminated.
 * @param [out] npointers  how many pointers (arguments + environment).
 * @return the bytes.
 */
size_t sim_stack_bytes(const char *path, char *const *argv, char *const *envp,
                       size_t *npointers);

/**
 * In the child of a core, before sim_stack_pad: the arguments the core's
 * program is started with, argv[0] of a fixed length. The loader copies
 * the arguments' strings one after the other, argv[0] first, so without
 * this every later argument (and every environment string) lies where
 * argv[0]'s length puts it, and a program that reads its arguments reads
 * other addresses when it is started by a path of another length (a
 * one-core `p54c_kern_mem stencil 256 20`: 344,250 or 344,251 L2 misses).
 * A path (argv[0] with a '/') is prefixed with slashes (absolute: "////a/b")
 * or with "." and slashes (relative: ".///a/b"), the same file either way,
 * to SIM_STACK_ARGV0_BYTES, and SIM_STACK_ARGV0_VAR says by how many
 * characters: the core's constructor (sim_stack.c) takes them off before
 * the program's code runs, so the program sees its argv[0] as given, at
 * the same address, and its other arguments at fixed addresses.
 * @param [in]  argv  the program's arguments.
 * @param [out] out   a copy of @p argv with argv[0] padded (to be exec'd by
 *                    its argv[0]), or NULL when nothing changes (argv[0]
 *                    without a '/': found in PATH, its length does not
 *                    depend on where the program lies; not executable: the
 *                    launcher's exec says so).
 * @return RCK_OK, RCK_ERR_NOMEM (logged).
 */
rck_status_t sim_stack_argv(char *const *argv, char ***out);

/**
 * In the child of a core, just before its exec: add to the environment the
 * padding that puts the program's initial stack pointer at the same
 * address whatever its environment, arguments and path, as long as their
 * sizes stay within the same multiple of @p quantum (beyond, it moves by
 * whole multiples of it). Any padding inherited is replaced.
 *
 * Both loaders (Linux's and qemu-x86_64's) place the strings at the fixed
 * top of the stack, align down to 16 bytes, add fixed items (platform
 * string, random bytes, auxiliary vector) and the pointers, and align down
 * to 16 again: the stack pointer is fixed when the strings' bytes plus 8
 * per pointer are, and the number of pointers is even; the strings' start
 * (and with it argv[1] and on) also when the number of pointers is fixed:
 * fillers bring it to SIM_STACK_POINTERS, so that `--report`, `--trace`
 * or a variable more or less move nothing.
 * @param [in] argv     the program's arguments as it will see them.
 * @param [in] emulated the program runs under qemu-x86_64 (which copies
 *                      the program's real path, where execvp copies the
 *                      path it found).
 * @param [in] quantum  sim_stack_quantum's.
 * @return RCK_OK, RCK_ERR_NOT_FOUND (the program was not found: the exec
 *         fails and says so), RCK_ERR_NOMEM (logged).
 */
rck_status_t sim_stack_pad(char *const *argv, int emulated, size_t quantum);

/**
 * In a core's program under qemu-x86_64, at attach: where its stack is
 * (the [stack] line of /proc/self/maps, as qemu shows it), the main
 * program's load bias (0 for a fixed-address executable) and the number of
 * entries of its auxiliary vector (/proc/self/auxv, AT_NULL included), for
 * the plugin, which moves the stack's accesses to where Linux would have
 * put this stack (docs/P54C.md, "The stack under QEMU").
 * @param [out] lo, hi  the stack's mapping; both 0 if it was not found.
 * @param [out] bias    the main program's load bias.
 * @param [out] nauxv   the auxiliary vector's entries, 0 if unknown.
 * @return 0, or -1 when something could not be read (*lo, *hi 0).
 */
int sim_stack_guest(uint64_t *lo, uint64_t *hi, uint64_t *bias,
                    uint32_t *nauxv);

#endif
