/*
 * rck-as: GCC's assembly text as a list of items (labels, instructions,
 * other lines, opaque inline-asm lines), the section each lies in, and
 * each instruction's effect on the status flags (docs/P54C-COUNTERS.md,
 * "Flags").
 */
#include "rck_as.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the flag effects ---------------------------------------------- */

/* @p mn is @p base with an optional operand-size suffix (b w l q). */
static int sized(const char *mn, const char *base)
{
    size_t n = strlen(base);
    if (strncmp(mn, base, n) != 0)
        return 0;
    return mn[n] == 0 || (mn[n + 1] == 0 && strchr("bwlq", mn[n]));
}

static int sized_any(const char *mn, const char *const *bases)
{
    for (; *bases; bases++)
        if (sized(mn, *bases))
            return 1;
    return 0;
}

static int one_of(const char *mn, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(mn, *names) == 0)
            return 1;
    return 0;
}

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static int ends(const char *s, const char *p)
{
    size_t n = strlen(s), m = strlen(p);
    return n >= m && strcmp(s + n - m, p) == 0;
}

/* A shift writes all the flags when its count is a nonzero immediate
 * (after the hardware's masking) or implicit (1); by %cl it may write
 * none. */
static int shift_writes(const char *mn, const char *ops)
{
    if (!strchr(ops, ','))
        return 1;  /* one operand: by 1 */
    if (ops[0] != '$')
        return 0;
    char *end;
    long v = strtol(ops + 1, &end, 0);
    if (end == ops + 1)
        return 0;
    long mask = ends(mn, "q") ? 63 : 31;
    return (v & mask) != 0;
}

/* Full writers that read no flag. */
static const char *const writer_sized[] = {
    "add", "sub", "cmp", "and", "or", "xor", "test", "neg", "imul", "mul",
    "div", "idiv", "popcnt", "lzcnt", "tzcnt", "andn", "bextr", "blsi",
    "blsmsk", "blsr", "bzhi", "cmpxchg", "xadd", NULL};
static const char *const writer_exact[] = {
    "ucomiss", "ucomisd", "comiss", "comisd", "vucomiss", "vucomisd",
    "vcomiss", "vcomisd", "fcomi", "fcomip", "fucomi", "fucomip", "ptest",
    "vptest", "vtestps", "vtestpd", NULL};
static const char *const shift_sized[] = {"shl", "sal", "shr", "sar", NULL};
static const char *const shiftd_sized[] = {"shld", "shrd", NULL};
/* Neither read nor write them (a partial writer counts as a reader). */
static const char *const pass_prefix[] = {
    "mov", "lea", "nop", "endbr", "xchg", "bswap", "prefetch", "cvt",
    "unpck", "shufp", "sqrt", "rcp", "rsqrt", "ldmxcsr", "stmxcsr", NULL};
static const char *const pass_sized[] = {"push", "pop", "not", "inc", "dec",
                                         "leave", NULL};
static const char *const pass_exact[] = {
    "cltq", "cqto", "cltd", "cwtl", "cbtw", "cwtd", "cqo", "cdq", "cdqe",
    "cwde", "mfence", "lfence", "sfence", "pause", "emms", "fwait", "wait",
    "stosb", "stosw", "stosl", "stosq", "lodsb", "lodsw", "lodsl", "lodsq",
    NULL};

int as_flag_effect(const char *mn, const char *ops)
{
    if (sized_any(mn, writer_sized) || one_of(mn, writer_exact))
        return FX_WRITE;
    if (sized_any(mn, shift_sized))
        return shift_writes(mn, ops) ? FX_WRITE : FX_READ;
    if (sized_any(mn, shiftd_sized))
        return ops[0] == '$' && shift_writes(mn, ops) ? FX_WRITE : FX_READ;
    if (starts(mn, "pushf") || starts(mn, "popf"))
        return FX_READ;
    if (sized_any(mn, pass_sized) || one_of(mn, pass_exact))
        return FX_PASS;
    for (const char *const *p = pass_prefix; *p; p++)
        if (starts(mn, *p))
            return FX_PASS;
    /* x87 (fcmov reads them), AVX, SSE integer: pass */
    if (mn[0] == 'f')
        return starts(mn, "fcmov") ? FX_READ : FX_PASS;
    if (mn[0] == 'v' || mn[0] == 'p')
        return FX_PASS;
    /* SSE arithmetic: addsd, mulps, xorpd, maxss, ... */
    if (ends(mn, "ss") || ends(mn, "sd") || ends(mn, "ps") || ends(mn, "pd"))
        return FX_PASS;
    return FX_READ; /* setcc, cmovcc, adc, sbb, rcl, lahf, unknown */
}

/* ---- the items ----------------------------------------------------- */

static as_item_t *add_item(as_file_t *f, int kind, const char *text,
                           size_t len)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 1024;
        as_item_t *n = realloc(f->it, cap * sizeof(*n));
        if (!n)
            return NULL;
        f->it = n;
        f->cap = cap;
    }
    as_item_t *it = &f->it[f->n];
    memset(it, 0, sizeof(*it));
    it->text = strndup(text, len);
    if (!it->text)
        return NULL;
    it->kind = kind;
    it->id = -1;
    it->block = -1;
    f->n++;
    return it;
}

/* Section tracking: the current and the previous section (ids into the
 * file's section table), and a stack for .pushsection. */
typedef struct {
    as_file_t *f;
    int cur, prev;
    int stack[64][2];
    int depth;
} sect_t;

static size_t word_len(const char *s)
{
    size_t n = 0;
    while (s[n] && !isspace((unsigned char)s[n]) && s[n] != ',')
        n++;
    return n;
}

/* The id of section @p s (@p n bytes, maybe quoted); -1: out of memory. */
static int sect_id(as_file_t *f, const char *s, size_t n)
{
    if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
        s++;
        n -= 2;
    }
    for (int i = 0; i < f->nsec; i++)
        if (strlen(f->sec_name[i]) == n && !memcmp(f->sec_name[i], s, n))
            return i;
    if (f->nsec % 64 == 0) {
        char **nn = realloc(f->sec_name, (f->nsec + 64) * sizeof(*nn));
        int *nt = realloc(f->sec_text, (f->nsec + 64) * sizeof(*nt));
        char **ng = realloc(f->sec_group, (f->nsec + 64) * sizeof(*ng));
        if (nn)
            f->sec_name = nn;
        if (nt)
            f->sec_text = nt;
        if (ng)
            f->sec_group = ng;
        if (!nn || !nt || !ng)
            return -1;
    }
    f->sec_group[f->nsec] = NULL;
    if (!(f->sec_name[f->nsec] = strndup(s, n)))
        return -1;
    f->sec_text[f->nsec] = (n == 5 && memcmp(s, ".text", 5) == 0) ||
                           (n > 6 && memcmp(s, ".text.", 6) == 0);
    return f->nsec++;
}

static int set_sect(sect_t *st, const char *name, size_t n)
{
    int id = sect_id(st->f, name, n);
    if (id < 0)
        return -1;
    st->prev = st->cur;
    st->cur = id;
    return 0;
}

/* The COMDAT group of section @p id from the rest of its .section
 * directive @p rest (`,"axG",@progbits,GROUP,comdat`), if its flags have
 * G. @return 0 or -1 (out of memory). */
static int sect_group(as_file_t *f, int id, const char *rest)
{
    const char *q = strchr(rest, '"'), *e = q ? strchr(q + 1, '"') : NULL;
    if (!q || !e || !memchr(q + 1, 'G', (size_t)(e - q - 1)) ||
        f->sec_group[id] != NULL)
        return 0;
    const char *g = strchr(e, ',');              /* ,@progbits */
    g = g ? strchr(g + 1, ',') : NULL;           /* ,GROUP */
    if (!g)
        return 0;
    g++;
    while (isspace((unsigned char)*g))
        g++;
    size_t n = 0;
    while (g[n] && g[n] != ',' && !isspace((unsigned char)g[n]))
        n++;
    if (n == 0)
        return 0;
    f->sec_group[id] = strndup(g, n);
    return f->sec_group[id] ? 0 : -1;
}

static int directive(sect_t *st, const char *s)
{
    size_t n = word_len(s);
    const char *arg = s + n;
    while (isspace((unsigned char)*arg))
        arg++;
    size_t an = word_len(arg);
    if ((n == 5 && !strncmp(s, ".text", 5)) ||
        (n == 5 && !strncmp(s, ".data", 5)) ||
        (n == 4 && !strncmp(s, ".bss", 4)))
        return set_sect(st, s, n);
    if (n == 8 && !strncmp(s, ".section", 8)) {
        if (set_sect(st, arg, an) != 0)
            return -1;
        return sect_group(st->f, st->cur, arg + an);
    }
    if (n == 12 && !strncmp(s, ".pushsection", 12)) {
        if (st->depth < 64) {
            st->stack[st->depth][0] = st->cur;
            st->stack[st->depth][1] = st->prev;
        }
        st->depth++;
        return set_sect(st, arg, an);
    }
    if (n == 11 && !strncmp(s, ".popsection", 11)) {
        if (st->depth > 0 && --st->depth < 64) {
            st->cur = st->stack[st->depth][0];
            st->prev = st->stack[st->depth][1];
        }
    } else if (n == 9 && !strncmp(s, ".previous", 9)) {
        int t = st->cur;
        st->cur = st->prev;
        st->prev = t;
    }
    return 0;
}

static const char *const prefixes[] = {
    "rep", "repe", "repz", "repne", "repnz", "lock", "notrack", "bnd",
    "data16", "data32", "addr32", "rex", "rex64", "xacquire", "xrelease",
    "cs", "ds", "es", "fs", "gs", "ss", NULL};

/* Skip the prefixes at @p s; *rep: a rep/repe/repz was among them. */
static const char *skip_prefixes(const char *s, int *rep)
{
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        size_t n = word_len(s);
        int hit = 0;
        if (n > 0 && s[0] == '{') {
            hit = 1;   /* {vex}, {disp32}, ... */
        } else if (n > 4 && !strncmp(s, "rex.", 4)) {
            hit = 1;
        } else {
            for (const char *const *p = prefixes; *p && !hit; p++)
                hit = strlen(*p) == n && !strncasecmp(s, *p, n);
        }
        if (!hit)
            return s;
        if (n >= 3 && !strncasecmp(s, "rep", 3) &&
            (n == 3 || s[3] == 'e' || s[3] == 'z'))
            *rep = 1;
        s += n;
    }
}

static int is_rep_string(const char *mn)
{
    static const char *const b[] = {"movs", "stos", "lods", NULL};
    for (const char *const *p = b; *p; p++)
        if (starts(mn, *p) && (mn[4] == 0 || (mn[5] == 0 &&
                                              strchr("bwlqd", mn[4]))))
            return 1;
    return 0;
}

static int branch_of(const char *mn, const char *ops)
{
    if (sized(mn, "jmp"))
        return ops[0] == '*' ? BR_IJMP : BR_JMP;
    if (mn[0] == 'j' || starts(mn, "loop"))
        return BR_JCC;
    if (sized(mn, "call"))
        return BR_CALL;
    if (sized(mn, "ret") || starts(mn, "iret") || starts(mn, "sysret"))
        return BR_RET;
    if (!strcmp(mn, "ud2") || !strcmp(mn, "hlt"))
        return BR_STOP;
    return BR_NONE;
}

/* Fill an instruction item from statement @p s. */
static int insn(as_item_t *it, const char *s)
{
    int rep = 0;
    const char *m = skip_prefixes(s, &rep);
    size_t n = word_len(m);
    char mn[32];
    if (n >= sizeof(mn))
        n = sizeof(mn) - 1;
    for (size_t i = 0; i < n; i++)
        mn[i] = (char)tolower((unsigned char)m[i]);
    mn[n] = 0;
    const char *ops = m + n;
    while (isspace((unsigned char)*ops))
        ops++;
    it->br = branch_of(mn, ops);
    it->rep_string = rep && is_rep_string(mn);
    it->endbr = starts(mn, "endbr");
    if (it->br == BR_JCC)
        /* jrcxz, jecxz and loop read rcx, not the flags (loope/loopne do) */
        it->fx = (starts(mn, "jrcxz") || starts(mn, "jecxz") ||
                  !strcmp(mn, "loop")) ? FX_PASS : FX_READ;
    else if (it->br == BR_CALL || it->br == BR_RET || it->br == BR_IJMP)
        it->fx = FX_KILL;
    else if (it->br == BR_JMP || it->br == BR_STOP)
        it->fx = FX_PASS;
    else
        it->fx = as_flag_effect(mn, ops);
    if ((it->br == BR_JMP || it->br == BR_JCC) && ops[0] && ops[0] != '*') {
        size_t t = 0;
        while (ops[t] && ops[t] != '@' && ops[t] != ',' &&
               !isspace((unsigned char)ops[t]))
            t++;
        it->target = strndup(ops, t);
        if (!it->target)
            return -1;
    }
    if (as_mem_on())
        as_mem_analyze(it, mn, ops);
    return 0;
}

/* ---- statements ---------------------------------------------------- */

/* Split line @p s (@p n bytes) into statements at ';' outside strings;
 * a '#' outside strings ends the line. Calls @p fn for each (trimmed,
 * possibly empty). @return the number of statements, or -1. */
typedef int (*stmt_fn)(void *ctx, const char *s, size_t n);

static int split(const char *s, size_t n, stmt_fn fn, void *ctx)
{
    size_t start = 0, i = 0;
    int quote = 0, count = 0;
    for (; i <= n; i++) {
        char c = i < n ? s[i] : 0;
        if (quote) {
            if (c == '\\' && i + 1 < n)
                i++;
            else if (c == '"')
                quote = 0;
            continue;
        }
        if (c == '"') {
            quote = 1;
            continue;
        }
        if (c == ';' || c == '#' || i == n) {
            const char *a = s + start, *b = s + i;
            while (a < b && isspace((unsigned char)*a))
                a++;
            while (b > a && isspace((unsigned char)b[-1]))
                b--;
            if (fn(ctx, a, (size_t)(b - a)) != 0)
                return -1;
            count++;
            if (c != ';')
                break;
            start = i + 1;
        }
    }
    return count;
}

typedef struct {
    as_file_t *f;
    sect_t sect;
    const char *line;    /* the whole line */
    size_t line_len;
    int whole;           /* the line is one statement: keep it verbatim */
    char *pending;       /* a prefix-only statement waiting for its insn */
} parse_t;

static size_t label_len(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' ||
                     s[i] == '.' || s[i] == '$'))
        i++;
    return i > 0 && i < n && s[i] == ':' ? i : 0;
}

static int only_prefixes(const char *s, size_t n)
{
    int rep = 0;
    char *t = strndup(s, n);
    if (!t)
        return 0;
    int r = *skip_prefixes(t, &rep) == 0;
    free(t);
    return r;
}

static int emit_insn(parse_t *p, const char *s, size_t n)
{
    char *text;
    if (p->pending) {
        if (asprintf(&text, "%s\n\t%.*s", p->pending, (int)n, s) < 0)
            return -1;
        free(p->pending);
        p->pending = NULL;
    } else if (p->whole) {
        text = strndup(p->line, p->line_len);
    } else if (asprintf(&text, "\t%.*s", (int)n, s) < 0) {
        text = NULL;
    }
    if (!text)
        return -1;
    as_item_t *it = add_item(p->f, IT_INSN, "", 0);
    if (!it)
        return free(text), -1;
    free(it->text);
    it->text = text;
    it->sec = p->sect.cur;
    it->text_sec = p->f->sec_text[it->sec];
    char *stmt = strndup(s, n);
    int rc = stmt ? insn(it, stmt) : -1;
    free(stmt);
    if (it->text_sec)
        it->id = p->f->ninsn++;
    else
        it->kind = IT_OTHER;  /* outside text: kept, not analysed */
    return rc;
}

static int flush_pending(parse_t *p)
{
    if (!p->pending)
        return 0;
    as_item_t *it = add_item(p->f, IT_OTHER, p->pending,
                             strlen(p->pending));
    free(p->pending);
    p->pending = NULL;
    return it ? 0 : -1;
}

/* An item for a non-instruction statement: the whole line when it is the
 * line's only statement (comments kept), else the statement alone. */
static int other_item(parse_t *p, const char *s, size_t n)
{
    as_item_t *it = p->whole ? add_item(p->f, IT_OTHER, p->line, p->line_len)
                             : add_item(p->f, IT_OTHER, s, n);
    if (!it)
        return -1;
    /* its section after it (the shadow copies text sections' directives) */
    it->sec = p->sect.cur;
    it->text_sec = p->f->sec_text[it->sec];
    return 0;
}

/* `name = value` (an assignment, like .set) */
static int assignment(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && !isspace((unsigned char)s[i]) && s[i] != '=')
        i++;
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    return i < n && s[i] == '=' && (i + 1 >= n || s[i + 1] != '=');
}

static int statement(void *ctx, const char *s, size_t n)
{
    parse_t *p = ctx;
    size_t l;
    while ((l = label_len(s, n)) > 0) {
        if (flush_pending(p) != 0)
            return -1;
        as_item_t *it = add_item(p->f, IT_LABEL, s, l + 1);
        if (!it || !(it->label = strndup(s, l)))
            return -1;
        it->sec = p->sect.cur;
        it->text_sec = p->f->sec_text[it->sec];
        p->whole = 0;
        s += l + 1;
        n -= l + 1;
        while (n > 0 && isspace((unsigned char)*s))
            s++, n--;
    }
    if (n == 0)
        return 0;
    if (s[0] == '.' || assignment(s, n)) {
        char *d = strndup(s, n);
        if (!d || flush_pending(p) != 0)
            return free(d), -1;
        int rc = directive(&p->sect, d);
        free(d);
        if (rc != 0)
            return -1;
        return other_item(p, s, n);
    }
    if (only_prefixes(s, n)) {
        char *t = p->whole ? strndup(p->line, p->line_len) : strndup(s, n);
        if (!t || flush_pending(p) != 0)
            return free(t), -1;
        p->pending = t;
        return 0;
    }
    return emit_insn(p, s, n);
}

static int count_stmt(void *ctx, const char *s, size_t n)
{
    (void)s;
    if (n > 0)
        ++*(int *)ctx;
    return 0;
}

static int is_marker(const char *s, size_t n, const char *m)
{
    while (n > 0 && isspace((unsigned char)*s))
        s++, n--;
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    return n == strlen(m) && memcmp(s, m, n) == 0;
}

/* A line between #APP and #NO_APP (both included): kept, never parsed. */
static int app_line(parse_t *p, const char *s, size_t n, int *in_app)
{
    if (!*in_app && !is_marker(s, n, "#APP"))
        return 0;
    if (flush_pending(p) != 0)
        return -1;
    as_item_t *it = add_item(p->f, IT_APP, s, n);
    if (!it)
        return -1;
    it->sec = p->sect.cur;
    it->text_sec = p->f->sec_text[it->sec];
    it->app_begin = !*in_app;
    *in_app = !is_marker(s, n, "#NO_APP");
    return 1;
}

int as_parse(const char *text, size_t len, as_file_t *f)
{
    parse_t p = {.f = f};
    int in_app = 0;
    memset(f, 0, sizeof(*f));
    p.sect.f = f;
    /* the assembler starts in .text */
    if ((p.sect.cur = p.sect.prev = sect_id(f, ".text", 5)) < 0)
        return -1;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        const char *line = text + at;
        at += n + 1;
        int r = app_line(&p, line, n, &in_app);
        if (r < 0)
            goto fail;
        if (r > 0)
            continue;
        int count = 0;
        split(line, n, count_stmt, &count);
        p.line = line;
        p.line_len = n;
        p.whole = count == 1;
        size_t before = f->n;
        if (split(line, n, statement, &p) < 0)
            goto fail;
        if (f->n == before && !p.pending &&
            !add_item(f, IT_OTHER, line, n))
            goto fail;
    }
    if (flush_pending(&p) == 0)
        return 0;
fail:
    free(p.pending);
    return -1;
}

void as_file_free(as_file_t *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->it[i].text);
        free(f->it[i].label);
        free(f->it[i].target);
        free(f->it[i].mem);
    }
    free(f->it);
    for (int i = 0; i < f->nsec; i++) {
        free(f->sec_name[i]);
        free(f->sec_group[i]);
    }
    free(f->sec_name);
    free(f->sec_text);
    free(f->sec_group);
    memset(f, 0, sizeof(*f));
}
