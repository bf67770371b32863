/*
 * rck-snetc: the S-Net compiler of rockcreek. Compiles a network file to C
 * that builds the network through librcksnet, and (unless told to stop at
 * the C) builds the program with rckcc and the box sources given:
 *
 *   rck-snetc net.snet boxes.c... [-o app] [cc options]   program
 *     (the era's -threading X, -distrib X and -v<n> are accepted, dropped)
 *   rck-snetc -C net.snet [-o net.c]                       C only
 *   rck-snetc --check net.snet                             check only
 *
 * Errors name file:line:column. docs/SNET.md.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ast.h"

#ifndef RCKSNETC_RCKMPICC
#define RCKSNETC_RCKMPICC "rckmpicc"
#endif
#ifndef RCKSNETC_RCKCC
#define RCKSNETC_RCKCC "rckcc"
#endif

/* The compiler's tree lives until it exits (one network per run, freed by
 * the exit): leak reports of a sanitizer build would be about that only. */
__attribute__((visibility("default"), used)) const char *
__lsan_default_options(void);
__attribute__((visibility("default"), used)) const char *
__lsan_default_options(void)
{
    return "detect_leaks=0";
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rck-snetc net.snet [box sources and cc options...] "
            "[-o program]\n"
            "       rck-snetc -C net.snet [-o net.c]   write the C only\n"
            "       rck-snetc --check net.snet         check only\n"
            "Builds with rckcc (RCK_SNETC_CC overrides it); the program "
            "runs with\n'rck run -n 1 ./program < input.xml'.\n");
}

/* @p rel (a path relative to the folder of this executable) in @p buf if
 * it can be accessed with @p mode; else NULL. */
static const char *beside_self(char *buf, size_t size, const char *rel,
                               int mode)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    char *slash;

    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    slash = strrchr(buf, '/');
    if (slash == NULL ||
        (size_t)(slash + 1 - buf) + strlen(rel) + 1 > size)
        return NULL;
    strcpy(slash + 1, rel);
    return access(buf, mode) == 0 ? buf : NULL;
}

/* -distrib mpi: the program links librcksnet_mpi through rckmpicc (the
 * runtime with the MPI distribution layer, docs/SNET.md) */
static int distrib_mpi;

/* rckcc (rckmpicc with -distrib mpi): $RCK_SNETC_CC, beside this program
 * (installed), or the build's */
static const char *find_rckcc(char *buf, size_t size)
{
    const char *env = getenv("RCK_SNETC_CC");
    if (env && *env)
        return env;
    if (beside_self(buf, size, distrib_mpi ? "rckmpicc" : "rckcc", X_OK) !=
        NULL)
        return buf;
    return distrib_mpi ? RCKSNETC_RCKMPICC : RCKSNETC_RCKCC;
}

/* the headers' folder (include/snet): beside an installed rck-snetc's
 * ../include, else the source tree's */
static const char *find_incdir(char *buf, size_t size)
{
    if (beside_self(buf, size, "../include/snet/C4SNet.h", R_OK) != NULL) {
        *strrchr(buf, '/') = '\0';
        return buf;
    }
    return RCKSNETC_INCDIR;
}

static int compile(const char *snet, FILE *out)
{
    if (snetc_parse_file(snet) != 0)
        return -1;
    if (snetc_nnets == 0) {
        fprintf(stderr, "%s: error: no network\n", snet);
        return -1;
    }
    net_t *top = snetc_nets[snetc_nnets - 1];
    if (snetc_check(top) != 0)
        return -1;
    if (out != NULL)
        return snetc_generate(top, out, snet);
    FILE *null = fopen("/dev/null", "w"); /* the generator's checks only */
    int rc = null ? snetc_generate(top, null, snet) : -1;
    if (null)
        fclose(null);
    return rc;
}

static int build(const char *snet, int argc, char **argv)
{
    char tmpl[] = "/tmp/rck-snetc-XXXXXX.c";
    int fd = mkstemps(tmpl, 2);
    if (fd < 0) {
        perror("rck-snetc: temporary file");
        return 1;
    }
    FILE *f = fdopen(fd, "w");
    int rc = compile(snet, f);
    fclose(f);
    if (rc != 0) {
        unlink(tmpl);
        return 1;
    }
    char rckcc[PATH_MAX];
    const char *cc = find_rckcc(rckcc, sizeof(rckcc));
    char **args = calloc((size_t)argc + 8, sizeof(*args));
    int k = 0;
    args[k++] = (char *)cc;
    args[k++] = tmpl;
    char incdir[PATH_MAX], iflag[PATH_MAX + 3];
    snprintf(iflag, sizeof(iflag), "-I%s", find_incdir(incdir, sizeof(incdir)));
    args[k++] = iflag;
    for (int i = 0; i < argc; i++)
        args[k++] = argv[i];
    args[k++] = distrib_mpi ? "-lrcksnet_mpi" : "-lrcksnet";
    args[k] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        execvp(cc, args);
        fprintf(stderr, "rck-snetc: cannot run %s\n", cc);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        st = 1 << 8;
    unlink(tmpl);
    free(args);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* The era's snetc options that choose its runtime's layers (-threading
 * pthread|lpel|front..., -distrib nodist|mpi|scc) or its verbosity (-v1):
 * accepted so that the era's Makefiles work, and dropped (one task per UE;
 * RCK_SNET_DIST chooses the layer at run time), except that -distrib mpi
 * links the runtime that has the MPI layer (docs/SNET.md). Returns the new
 * argc. */
static int drop_era_options(int argc, char **argv)
{
    int k = 1;
    for (int i = 1; i < argc; i++) {
        if ((!strcmp(argv[i], "-threading") || !strcmp(argv[i], "-distrib")) &&
            i + 1 < argc) {
            if (!strcmp(argv[i], "-distrib") && !strcmp(argv[i + 1], "mpi"))
                distrib_mpi = 1;
            i++;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] == 'v' && argv[i][2] >= '0' &&
            argv[i][2] <= '9' && argv[i][3] == '\0')
            continue;
        argv[k++] = argv[i];
    }
    argv[k] = NULL;
    return k;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("rck-snetc (rockcreek) " RCKSNETC_VERSION "\n");
        return 0;
    }
    if (!strcmp(argv[1], "--check")) {
        if (argc != 3) {
            usage(stderr);
            return 2;
        }
        return compile(argv[2], NULL) == 0 ? 0 : 1;
    }
    if (!strcmp(argv[1], "-C")) {
        if (argc != 3 && !(argc == 5 && !strcmp(argv[3], "-o"))) {
            usage(stderr);
            return 2;
        }
        FILE *out = argc == 5 ? fopen(argv[4], "w") : stdout;
        if (out == NULL) {
            fprintf(stderr, "rck-snetc: cannot write %s\n", argv[4]);
            return 1;
        }
        int rc = compile(argv[2], out);
        if (out != stdout && fclose(out) != 0)
            rc = -1;
        if (rc != 0 && out != stdout)
            unlink(argv[4]);
        return rc == 0 ? 0 : 1;
    }
    /* the network file: the first argument ending in .snet */
    int at = -1;
    for (int i = 1; i < argc && at < 0; i++) {
        size_t l = strlen(argv[i]);
        if (l > 5 && !strcmp(argv[i] + l - 5, ".snet"))
            at = i;
    }
    if (at < 0) {
        fprintf(stderr, "rck-snetc: no .snet file given\n");
        usage(stderr);
        return 2;
    }
    const char *snet = argv[at];
    for (int i = at; i + 1 < argc; i++)
        argv[i] = argv[i + 1];
    argc = drop_era_options(argc - 1, argv);
    return build(snet, argc - 1, argv + 1);
}
