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
 * The arguments' strings lie above the environment's and the stack: their
 * addresses follow argv[0]'s length, which sim_stack_argv fixes (the path
 * padded with slashes, taken off again by a constructor in the core).
 *
 * Owns: the RCK_SIM_STACK_PAD, RCK_SIM_STACK_N<i> and RCK_SIM_ARGV0_PAD
 * variables. May call: util. sim_stack_argv and sim_stack_pad: called by
 * sim.c in the child of a core, just before its exec; sim_stack_guest: by
 * sim_p54c.c in the core, at attach; argv0_restore: by the C library
 * before the program's code.
 */
#include "sim_stack.h"

#include "p54c_elf.h"

#include "rck/exec.h"
#include "rck/log.h"

#include <errno.h>
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

/* Take off the fillers a launcher above this one left. */
static void fillers_drop(void)
{
    size_t len = strlen(SIM_STACK_FILL_VAR);
    char name[64];

    for (;;) {
        char **e = environ;
        while (*e != NULL && strncmp(*e, SIM_STACK_FILL_VAR, len) != 0)
            e++;
        if (*e == NULL)
            return;
        snprintf(name, sizeof(name), "%.*s", (int)strcspn(*e, "="), *e);
        if (unsetenv(name) != 0)
            return;
    }
}

rck_status_t sim_stack_pad(char *const *argv, int emulated, size_t quantum)
{
    char found[PATH_MAX], real[PATH_MAX], fill_name[64];
    const char *path = found;
    size_t bytes, n, nfill, target, fill;
    char *pad;

    if (rck_exec_find(argv[0], found, sizeof(found)) != 0)
        return RCK_ERR_NOT_FOUND;
    if (emulated) {
        if (realpath(found, real) == NULL)
            return RCK_ERR_NOT_FOUND;
        path = real;
    }
    unsetenv(SIM_STACK_PAD_VAR);
    fillers_drop();
    bytes = sim_stack_bytes(path, argv, environ, &n);
    /* the padding's own string and pointer, and the fillers' that bring
     * the pointers to SIM_STACK_POINTERS (beyond, to an even number) */
    n++;
    bytes += strlen(SIM_STACK_PAD_VAR) + 2 + sizeof(char *);
    nfill = n <= SIM_STACK_POINTERS ? SIM_STACK_POINTERS - n : n % 2;
    for (size_t i = 0; i < nfill; i++) {
        bytes += (size_t)snprintf(fill_name, sizeof(fill_name), "%s%zu",
                                  SIM_STACK_FILL_VAR, i) +
                 2 + sizeof(char *);
    }
    target = (bytes + quantum - 1) / quantum * quantum;
    fill = target - bytes;
    /* putenv keeps the strings: they live until the exec */
    for (size_t i = 0; i < nfill; i++) {
        char *f;
        snprintf(fill_name, sizeof(fill_name), "%s%zu", SIM_STACK_FILL_VAR, i);
        if ((f = pad_string(fill_name, 0)) == NULL)
            return RCK_ERR_NOMEM;
        if (putenv(f) != 0)
            goto nomem;
    }
    pad = pad_string(SIM_STACK_PAD_VAR, fill);
    if (pad == NULL)
        return RCK_ERR_NOMEM;
    if (putenv(pad) != 0)
        goto nomem;
    return RCK_OK;
nomem:
    rck_error("sim: cannot pad the core's environment: out of memory");
    return RCK_ERR_NOMEM;
}

/* argv[0] padded to @p total bytes (with its NUL) by @p j characters. */
static char *argv0_padded(const char *a0, size_t j, size_t total)
{
    char *s = malloc(total);

    if (s == NULL)
        return NULL;
    if (a0[0] == '/') {
        memset(s, '/', j);
    } else {
        s[0] = '.';
        memset(s + 1, '/', j - 1);
    }
    memcpy(s + j, a0, total - j);
    return s;
}

rck_status_t sim_stack_argv(char *const *argv, char ***out)
{
    size_t n = 0, len = strlen(argv[0]), total, j;
    char num[32], **v;

    *out = NULL;
    unsetenv(SIM_STACK_ARGV0_VAR);
    if (strchr(argv[0], '/') == NULL || access(argv[0], X_OK) != 0)
        return RCK_OK;
    /* at least 2 characters of prefix: "." and a slash for a relative
     * path */
    total = (len + 1 + 2 + SIM_STACK_ARGV0_BYTES - 1) / SIM_STACK_ARGV0_BYTES *
            SIM_STACK_ARGV0_BYTES;
    j = total - len - 1;
    while (argv[n] != NULL)
        n++;
    v = calloc(n + 1, sizeof(*v));
    if (v == NULL || (v[0] = argv0_padded(argv[0], j, total)) == NULL) {
        free(v);
        rck_error("sim: cannot pad the core's argv[0]: out of memory");
        return RCK_ERR_NOMEM;
    }
    for (size_t i = 1; i < n; i++)
        v[i] = argv[i];
    snprintf(num, sizeof(num), "%zu", j);
    if (setenv(SIM_STACK_ARGV0_VAR, num, 1) != 0) {
        free(v[0]);
        free(v);
        rck_error("sim: cannot pad the core's argv[0]: out of memory");
        return RCK_ERR_NOMEM;
    }
    *out = v;
    return RCK_OK;
}

/* In the core, before the program's code (and before it attaches, so
 * nothing of it is timed): take off the characters sim_stack_argv put in
 * front of argv[0], in place, so that argv[0] points at the path as it was
 * given; the bytes it leaves are zeroed. The C library (glibc) passes a
 * constructor the arguments, and has set program_invocation_name (argv[0])
 * and program_invocation_short_name (its last component) already. */
__attribute__((constructor)) static void argv0_restore(int argc, char **argv,
                                                       char **envp)
{
    const char *set = getenv(SIM_STACK_ARGV0_VAR);
    char *a0, *end;
    size_t j, len;

    (void)envp;
    if (set == NULL || argc < 1 || argv == NULL || argv[0] == NULL)
        return;
    j = (size_t)strtoul(set, &end, 10);
    a0 = argv[0];
    len = strlen(a0);
    if (*end != '\0' || j < 2 || j >= len)
        return;
    /* only what sim_stack_argv added: all slashes, or "." and slashes,
     * before a path of the same kind */
    for (size_t i = a0[0] == '.' ? 1 : 0; i < j; i++) {
        if (a0[i] != '/')
            return;
    }
    if ((a0[0] == '/') != (a0[j] == '/'))
        return;
    memmove(a0, a0 + j, len - j + 1);
    memset(a0 + len - j + 1, 0, j);
    if (program_invocation_name == a0) {
        const char *slash = strrchr(a0, '/');
        program_invocation_short_name = slash != NULL ? (char *)slash + 1 : a0;
    }
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
