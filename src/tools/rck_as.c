/*
 * rck-as: the assembler rckcc puts in front of the real one (gcc -B) so
 * that compiled code counts its own instructions and P54C cycles
 * (docs/P54C-COUNTERS.md). GCC's output is assembled twice by the real
 * assembler: pass 1 with a label before every instruction, to read each
 * instruction's bytes from the object and classify them (p54c_classify);
 * pass 2 with every block's adds, to the real output. Anything that is
 * not GCC's output is handed to the real assembler unchanged.
 *
 *   RCK_AS        the real assembler (default: the one CMake found)
 *   RCK_AS_STATS  1: print the blocks and sequences per file on stderr
 */
#include "rck_as.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "p54c_abi.h"
#include "p54c_cpi.h"
#include "qemu/p54c_classify.h"
#include "rck/elf.h"

#ifndef RCK_AS_DEFAULT
#define RCK_AS_DEFAULT "as"
#endif

static char tmp_s[PATH_MAX], tmp_o[PATH_MAX];

static void cleanup(void)
{
    if (tmp_s[0])
        unlink(tmp_s);
    if (tmp_o[0])
        unlink(tmp_o);
}

static void on_signal(int sig)
{
    cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((format(printf, 1, 2))) static int die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "rck-as: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

/* The real assembler: $RCK_AS or the configured one, never this program. */
static const char *real_as(void)
{
    const char *env = getenv("RCK_AS");
    const char *as = env && *env ? env : RCK_AS_DEFAULT;
    const char *why = env && *env ? "RCK_AS" : "the configured assembler";
    char self[PATH_MAX], other[PATH_MAX];
    if (!realpath(as, other) || access(other, X_OK) != 0) {
        die("%s=%s: not an executable file (set RCK_AS to the real "
            "assembler, e.g. /usr/bin/as)", why, as);
        return NULL;
    }
    if (realpath("/proc/self/exe", self) && strcmp(self, other) == 0) {
        die("%s=%s: is rck-as itself (set RCK_AS to the real assembler)",
            why, as);
        return NULL;
    }
    return as;
}

/* Run @p argv; feed @p in (if not NULL) on its standard input; its
 * standard error to /dev/null if @p quiet. @return its exit status
 * (128+signal), or -1. */
static int run(char *const *argv, const char *in, size_t in_len, int quiet)
{
    int fd[2] = {-1, -1};
    if (in && pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (in) {
            dup2(fd[0], 0);
            close(fd[0]);
            close(fd[1]);
        }
        if (quiet) {
            int nul = open("/dev/null", O_WRONLY);
            if (nul >= 0)
                dup2(nul, 2);
        }
        execv(argv[0], argv);
        fprintf(stderr, "rck-as: %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (in) {
        void (*old)(int) = signal(SIGPIPE, SIG_IGN);
        close(fd[0]);
        for (size_t off = 0; off < in_len;) {
            ssize_t w = write(fd[1], in + off, in_len - off);
            if (w <= 0 && errno != EINTR)
                break;
            off += w > 0 ? (size_t)w : 0;
        }
        close(fd[1]);
        signal(SIGPIPE, old);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char *read_stream(FILE *fp, size_t *len)
{
    size_t cap = 1 << 16, n = 0, r;
    char *buf = malloc(cap + 1);
    while (buf && (r = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += r;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (buf && ferror(fp)) {
        free(buf);
        return NULL;
    }
    if (buf)
        buf[n] = 0;
    *len = n;
    return buf;
}

typedef struct {
    int argc;
    char **argv;      /* the real assembler's arguments (argv[0] = it) */
    int in_idx;       /* index of the input argument (a file or -), -1 */
    int input;        /* index of the input file, -1: standard input */
    int ninput;
    int output;       /* index of -o's value, -1: none */
    int other_mode;   /* --32, --x32, --version, --help: not instrumented */
} args_t;

static int takes_value(const char *a)
{
    static const char *const opts[] = {"-o", "-I", "--defsym", "--MD",
                                       "--debug-prefix-map", NULL};
    for (const char *const *o = opts; *o; o++)
        if (strcmp(a, *o) == 0)
            return 1;
    return 0;
}

static void scan_args(args_t *a)
{
    a->in_idx = a->input = a->output = -1;
    for (int i = 1; i < a->argc; i++) {
        const char *s = a->argv[i];
        if (strcmp(s, "--32") == 0 || strcmp(s, "--x32") == 0 ||
            strcmp(s, "--version") == 0 || strcmp(s, "--help") == 0)
            a->other_mode = 1;
        if (takes_value(s) && i + 1 < a->argc) {
            if (strcmp(s, "-o") == 0)
                a->output = i + 1;
            i++;
        } else if (s[0] != '-' || strcmp(s, "-") == 0) {
            a->ninput++;
            a->in_idx = i;
            a->input = strcmp(s, "-") == 0 ? -1 : i;
        }
    }
}

/* The arguments with the input replaced by @p in and, if @p out, -o's
 * value by it; -v dropped if @p quiet. NULL-terminated, malloc'd. */
static char **pass_argv(const args_t *a, const char *in, const char *out,
                        int quiet)
{
    char **v = calloc((size_t)a->argc + 2, sizeof(*v));
    int n = 0, have_in = 0;
    if (!v)
        return NULL;
    for (int i = 0; i < a->argc; i++) {
        char *s = a->argv[i];
        /* pass 1 prints no version and no listing (-a...) */
        if (quiet && (strcmp(s, "-v") == 0 ||
                      (s[0] == '-' && s[1] == 'a' && i != a->in_idx)))
            continue;
        if (i == a->output && out)
            s = (char *)out;
        else if (i == a->in_idx) {
            s = (char *)in;
            have_in = 1;
        }
        v[n++] = s;
    }
    if (!have_in)
        v[n++] = (char *)in;
    return v;
}

static int is_gcc_output(const char *text)
{
    return strstr(text, "\t.ident\t\"GCC: ") != NULL;
}

/* Units of instruction item @p it from its bytes @p b (@p n). */
static void classify_item(as_item_t *it, const uint8_t *b, size_t n,
                          const uint32_t *units)
{
    int cls;
    it->units = p54c_insn_units(b, n, units, &cls);
    /* not a string instruction after all */
    if (cls != P54C_C_STRING || p54c_string_width(b, n) == 0)
        it->rep_string = 0;
}

typedef struct {
    unsigned shndx;
    uint64_t value;
    int id;
} at_t;

static int at_cmp(const void *x, const void *y)
{
    const at_t *a = x, *b = y;
    if (a->shndx != b->shndx)
        return a->shndx < b->shndx ? -1 : 1;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return 0;
}

/* Each instruction's bytes: from its pass 1 label to the next label of
 * the same section (or the section's end). */
static int classify_all(as_file_t *f, const rck_elf_t *e,
                        const uint32_t *units)
{
    at_t *at = calloc((size_t)f->ninsn + 1, sizeof(*at));
    int *item = calloc((size_t)f->ninsn + 1, sizeof(*item));
    int n = 0, rc = -1;
    if (!at || !item)
        goto done;
    for (size_t i = 0; i < f->n; i++)
        if (f->it[i].id >= 0)
            item[f->it[i].id] = (int)i;
    for (size_t s = 0; s < rck_elf_nsyms(e); s++) {
        rck_elf_sym_t y;
        char *end;
        if (rck_elf_sym(e, s, &y) != 0 || strncmp(y.name, "__rck_i", 7))
            continue;
        long id = strtol(y.name + 7, &end, 10);
        if (*end || id < 0 || id >= f->ninsn || n >= f->ninsn)
            continue;
        at[n++] = (at_t){y.shndx, y.value, (int)id};
    }
    if (n != f->ninsn) {
        fprintf(stderr, "rck-as: %d of %d instruction labels in the "
                "first pass's object\n", n, f->ninsn);
        goto done;
    }
    qsort(at, (size_t)n, sizeof(*at), at_cmp);
    for (int k = 0; k < n; k++) {
        size_t len;
        const uint8_t *sec = rck_elf_section_at(e, at[k].shndx, &len);
        uint64_t end = k + 1 < n && at[k + 1].shndx == at[k].shndx
                           ? at[k + 1].value : len;
        if (!sec || at[k].value >= len || end > len || end <= at[k].value) {
            fprintf(stderr, "rck-as: instruction %d has no bytes\n", at[k].id);
            goto done;
        }
        size_t sz = end - at[k].value;
        classify_item(&f->it[item[at[k].id]], sec + at[k].value,
                      sz > 15 ? 15 : sz, units);
    }
    rc = 0;
done:
    free(at);
    free(item);
    return rc;
}

static int make_temp(char *path, const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, PATH_MAX, "%s/rck-as-XXXXXX%s", dir && *dir ? dir : "/tmp",
             suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) {
        path[0] = 0;
        return -1;
    }
    close(fd);
    return 0;
}

static int write_text(as_file_t *f, int pass, const uint32_t *units)
{
    FILE *fp = fopen(tmp_s, "w");
    if (!fp)
        return -1;
    int rc = pass == 1 ? as_write_pass1(f, fp) : as_write_pass2(f, units, fp);
    return fclose(fp) == 0 ? rc : -1;
}

/* The two passes. @return the exit status. */
static int instrument(const args_t *a, const char *text, size_t len)
{
    uint32_t units[P54C_NCLASS];
    p54c_default_units(units);
    as_file_t f;
    if (as_parse(text, len, &f) != 0)
        return die("out of memory");
    atexit(cleanup);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    if (make_temp(tmp_s, ".s") != 0 || make_temp(tmp_o, ".o") != 0)
        return die("temporary file: %s", strerror(errno));
    char **v1 = pass_argv(a, tmp_s, tmp_o, 1);
    char **v2 = pass_argv(a, tmp_s, NULL, 0);
    int st = !v1 || !v2 ? -1 : write_text(&f, 1, units);
    /* pass 1 is silent: pass 2 (or the rerun below) says it all */
    if (st == 0 && (st = run(v1, NULL, 0, 1)) != 0) {
        /* the input's own error: let the real assembler say it */
        char **pt = pass_argv(a, a->input >= 0 ? a->argv[a->input] : "-",
                              NULL, 0);
        st = pt ? run(pt, a->input >= 0 ? NULL : text, len, 0) : -1;
        free(pt);
        if (st == 0)
            st = die("the first pass failed (a bug in rck-as; RCKCC_COUNT=0 "
                     "builds without counting)");
        goto out;
    }
    rck_elf_t *e = NULL;
    char why[256];
    if (st == 0 && rck_elf_load(tmp_o, &e, why, sizeof(why)) != 0)
        st = die("first pass: %s", why);
    if (st == 0 && (classify_all(&f, e, units) != 0 ||
                    write_text(&f, 2, units) != 0))
        st = die("cannot write %s", tmp_s);
    rck_elf_free(e);
    if (st == 0 && (st = run(v2, NULL, 0, 0)) != 0)
        die("the instrumented assembly failed (a bug in rck-as; "
            "RCKCC_COUNT=0 builds without counting)");
    const char *stats = getenv("RCK_AS_STATS");
    if (st == 0 && stats && strchr("1yYtToO", stats[0]) &&
        strcasecmp(stats, "off") != 0)
        fprintf(stderr, "rck-as: %s: %d instructions, %d blocks, %d plain "
                "adds (%d at the start, %d at a flag writer), %d with "
                "pushfq, %d rep strings\n",
                a->output >= 0 ? a->argv[a->output] : "?", f.ninsn,
                as_stats.blocks, as_stats.seq1, as_stats.at_start,
                as_stats.at_writer, as_stats.seq2, as_stats.seq3);
out:
    if (st < 0)
        st = die("%s", strerror(errno));
    free(v1);
    free(v2);
    as_file_free(&f);
    return st;
}

int main(int argc, char **argv)
{
    const char *as = real_as();
    if (!as)
        return 1;
    args_t a = {.argc = argc, .argv = argv};
    argv[0] = (char *)as;
    scan_args(&a);
    /* several inputs, 32-bit code, no -o, --version: the real one alone */
    if (a.ninput > 1 || a.other_mode || a.output < 0 ||
        (a.input < 0 && isatty(0))) {
        execv(as, argv);
        return die("%s: %s", as, strerror(errno));
    }
    FILE *fp = a.input >= 0 ? fopen(argv[a.input], "r") : stdin;
    size_t len = 0;
    char *text = fp ? read_stream(fp, &len) : NULL;
    if (fp && fp != stdin)
        fclose(fp);
    if (!text && a.input >= 0) {
        execv(as, argv);   /* it says what is wrong with the file */
        return die("%s: %s", as, strerror(errno));
    }
    if (!text)
        return die("standard input: %s", strerror(errno));
    int st;
    if (!is_gcc_output(text)) {
        /* hand-written assembly: unchanged, no record */
        st = run(argv, a.input >= 0 ? NULL : text, len, 0);
        if (st < 0)
            st = die("%s: %s", as, strerror(errno));
    } else {
        st = instrument(&a, text, len);
    }
    free(text);
    return st;
}
