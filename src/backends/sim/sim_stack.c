/*
 * The initial stack of a core's program under a P54C model (sim_stack.h):
 * padding of the environment so that the program's stack starts at the
 * same address whatever the sizes of its environment, arguments and path.
 *
 * Why: without address randomisation the stack's top is fixed, and the
 * loader copies the path, the environment and the arguments there before
 * the stack begins. A longer environment (rck run --report FILE passes
 * RCK_REPORT; the working directory is in PWD) moved every stack address:
 * under `p54c` the cache sets the program's stack maps to, under both
 * models the code paths that depend on an address's alignment (a 1-core
 * p54c-fast stream counted 41,039, 41,107 or 41,427 instructions with
 * 0, 512 or 5,000 more bytes of environment).
 *
 * Under QEMU the padding is not enough: qemu-x86_64 maps the program's
 * stack elsewhere than Linux does, and its auxiliary vector is shorter, so
 * the stack's cache sets are not the compiled engine's (NAS BT.S: 20% more
 * L1D misses). sim_stack_guest tells the plugin where the stack is; the
 * plugin moves its accesses to Linux's place (docs/P54C.md, "The stack
 * under QEMU").
 *
 * Owns: the RCK_SIM_STACK_PAD and RCK_SIM_STACK_EVEN variables. May call:
 * util. sim_stack_pad: called by sim.c in the child of a core, just before
 * its exec; sim_stack_guest: by sim_p54c.c in the core, at attach.
 */
#include "sim_stack.h"

#include "p54c_elf.h"

#include "rck/exec.h"
#include "rck/log.h"

#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

size_t sim_stack_quantum(unsigned l1i_bytes, unsigned l1d_bytes,
                         unsigned l1_ways, unsigned l2_bytes,
                         unsigned l2_ways)
{
    const unsigned bytes[3] = {l1i_bytes, l1d_bytes, l2_bytes};
    const unsigned ways[3] = {l1_ways, l1_ways, l2_ways};
    size_t way = 0, q = 4096;

    for (int i = 0; i < 3; i++) {
        if (bytes[i] > 0 && ways[i] > 0 && bytes[i] / ways[i] > way)
            way = bytes[i] / ways[i];
    }
    while (q < way && q < SIM_STACK_QUANTUM_MAX)
        q <<= 1;
    return q;
}

size_t sim_stack_bytes(const char *path, char *const *argv, char *const *envp,
                       size_t *npointers)
{
    size_t bytes = strlen(path) + 1, n = 0;

    for (char *const *a = argv; *a != NULL; a++, n++)
        bytes += strlen(*a) + 1;
    for (char *const *e = envp; *e != NULL; e++, n++)
        bytes += strlen(*e) + 1;
    *npointers = n;
    return bytes + n * sizeof(char *);
}

/* "NAME=" followed by @p fill dots, or NULL (logged). */
static char *pad_string(const char *name, size_t fill)
{
    size_t len = strlen(name);
    char *s = malloc(len + 1 + fill + 1);

    if (s == NULL) {
        rck_error("sim: cannot pad the core's environment: out of memory");
        return NULL;
    }
    memcpy(s, name, len);
    s[len] = '=';
    memset(s + len + 1, '.', fill);
    s[len + 1 + fill] = '\0';
    return s;
}

rck_status_t sim_stack_pad(char *const *argv, int emulated, size_t quantum)
{
    char found[PATH_MAX], real[PATH_MAX];
    const char *path = found;
    size_t bytes, n, target, fill, pad_len, even_len = 0;
    char *pad, *even = NULL;

    if (rck_exec_find(argv[0], found, sizeof(found)) != 0)
        return RCK_ERR_NOT_FOUND;
    if (emulated) {
        if (realpath(found, real) == NULL)
            return RCK_ERR_NOT_FOUND;
        path = real;
    }
    unsetenv(SIM_STACK_PAD_VAR);
    unsetenv(SIM_STACK_EVEN_VAR);
    bytes = sim_stack_bytes(path, argv, environ, &n);
    /* the padding's own string and pointer, and an even pointer count */
    pad_len = strlen(SIM_STACK_PAD_VAR) + 2;
    bytes += pad_len + sizeof(char *);
    if ((n + 1) % 2 != 0) {
        even_len = strlen(SIM_STACK_EVEN_VAR) + 2;
        bytes += even_len + sizeof(char *);
    }
    target = (bytes + quantum - 1) / quantum * quantum;
    fill = target - bytes;
    pad = pad_string(SIM_STACK_PAD_VAR, fill);
    if (pad == NULL)
        return RCK_ERR_NOMEM;
    if (even_len > 0 && (even = pad_string(SIM_STACK_EVEN_VAR, 0)) == NULL) {
        free(pad);
        return RCK_ERR_NOMEM;
    }
    /* putenv keeps the strings: they live until the exec */
    if (putenv(pad) != 0 || (even != NULL && putenv(even) != 0)) {
        rck_error("sim: cannot pad the core's environment: out of memory");
        return RCK_ERR_NOMEM;
    }
    return RCK_OK;
}

static int main_bias(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    *(uint64_t *)arg = (uint64_t)info->dlpi_addr; /* the first: the program */
    return 1;
}

int sim_stack_guest(uint64_t *lo, uint64_t *hi, uint64_t *bias,
                    uint32_t *nauxv)
{
    char line[512];
    FILE *f = fopen("/proc/self/maps", "re");
    unsigned long long a, b;

    *lo = *hi = *bias = 0;
    *nauxv = 0;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strstr(line, "[stack]") != NULL &&
            sscanf(line, "%llx-%llx", &a, &b) == 2 && a < b) {
            *lo = a;
            *hi = b;
            break;
        }
    }
    fclose(f);
    dl_iterate_phdr(main_bias, bias);
    *nauxv = p54c_auxv_entries();
    if (*hi == 0 || *nauxv == 0) {
        *lo = *hi = 0;
        return -1;
    }
    return 0;
}
