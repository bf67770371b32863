/*
 * gen.c: rck-snetc's C output. For a checked network it writes a C file
 * with the label table, the types the runtime needs (as static tables), a
 * wrapper per box that unpacks a record into the box's arguments, a
 * function per filter and per guard, a builder per network that
 * constructs its description through librcksnet's constructors
 * (include/snet/rcksnet.h), and main().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "parse.h"

static FILE *D;        /* declarations: tables, wrappers, filters */
static FILE *B;        /* builders */
static const char *src_name;
static char **labels;
static int nlabels, ntab, ntmp;
static box_t **boxes;
static int nboxes;

static int label(const char *name)
{
    for (int i = 0; i < nlabels; i++)
        if (!strcmp(labels[i], name))
            return i;
    labels = xrealloc(labels, (nlabels + 1) * sizeof(*labels));
    labels[nlabels] = xstrdup(name);
    return nlabels++;
}

static const char *kind_name(int kind)
{
    return kind == E_FIELD ? "RCKSNET_FIELD"
           : kind == E_TAG ? "RCKSNET_TAG" : "RCKSNET_BTAG";
}

static void cstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s < 32)
            fprintf(f, "\\%03o", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void loc_str(FILE *f, loc_t loc)
{
    char buf[64];
    snprintf(buf, sizeof(buf), ":%d:%d", loc.line, loc.col);
    char *s = xalloc(strlen(src_name) + sizeof(buf));
    strcpy(s, src_name);
    strcat(s, buf);
    cstr(f, s);
    free(s);
}

/* a variant's table; returns its number */
static int gen_variant(const variant_t *v)
{
    int id = ntab++;
    if (v->n == 0) {
        fprintf(D, "static const rcksnet_variant_t v%d = {0, NULL};\n", id);
        return id;
    }
    fprintf(D, "static const rcksnet_entry_t ve%d[] = {", id);
    for (int i = 0; i < v->n; i++)
        fprintf(D, "%s{%s, %d}", i ? ", " : "", kind_name(v->e[i].kind),
                label(v->e[i].name));
    fprintf(D, "};\nstatic const rcksnet_variant_t v%d = {%d, ve%d};\n", id,
            v->n, id);
    return id;
}

static int gen_type(const vtype_t *t)
{
    int *ids = xalloc(t->n * sizeof(int));
    for (int i = 0; i < t->n; i++)
        ids[i] = gen_variant(t->v[i]);
    int id = ntab++;
    if (t->n == 0) {
        fprintf(D, "static const rcksnet_type_t t%d = {0, NULL};\n", id);
        free(ids);
        return id;
    }
    fprintf(D, "static const rcksnet_variant_t *const tv%d[] = {", id);
    for (int i = 0; i < t->n; i++)
        fprintf(D, "%s&v%d", i ? ", " : "", ids[i]);
    fprintf(D, "};\nstatic const rcksnet_type_t t%d = {%d, tv%d};\n", id,
            t->n, id);
    free(ids);
    return id;
}

static void gen_expr(FILE *f, const expr_t *x, const char *rec)
{
    switch (x->kind) {
    case X_NUM:
        fprintf(f, "%d", x->val);
        return;
    case X_TAG:
        fprintf(f, "rcksnet_%s(%s, %d)", x->btag ? "btag" : "tag", rec,
                label(x->name));
        return;
    case X_UN:
        fprintf(f, "(%c", x->op);
        gen_expr(f, x->a, rec);
        fputc(')', f);
        return;
    case X_CALL:
        if (x->op == 'a') {
            fputs("rcksnet_abs(", f);
            gen_expr(f, x->a, rec);
        } else {
            fprintf(f, "rcksnet_%s(", x->op == 'n' ? "min" : "max");
            gen_expr(f, x->a, rec);
            fputs(", ", f);
            gen_expr(f, x->b, rec);
        }
        fputc(')', f);
        return;
    case X_COND:
        fputc('(', f);
        gen_expr(f, x->a, rec);
        fputs(" ? ", f);
        gen_expr(f, x->b, rec);
        fputs(" : ", f);
        gen_expr(f, x->c, rec);
        fputc(')', f);
        return;
    }
    if (x->op == '/' || x->op == '%') {
        fprintf(f, "rcksnet_%s(", x->op == '/' ? "div" : "mod");
        gen_expr(f, x->a, rec);
        fputs(", ", f);
        gen_expr(f, x->b, rec);
        fputs(", ", f);
        loc_str(f, x->loc);
        fputc(')', f);
        return;
    }
    const char *op = x->op == LE ? "<=" : x->op == GE ? ">=" : x->op == EQ
                     ? "==" : x->op == NE ? "!=" : x->op == AND2 ? "&&"
                     : x->op == OR2 ? "||" : NULL;
    fputc('(', f);
    gen_expr(f, x->a, rec);
    if (op)
        fprintf(f, " %s ", op);
    else
        fprintf(f, " %c ", x->op);
    gen_expr(f, x->b, rec);
    fputc(')', f);
}

static int gen_guard(const expr_t *g)
{
    if (g == NULL)
        return -1;
    int id = ntmp++;
    fprintf(D, "static int g%d(const rcksnet_record_t *in)\n{\n    return ",
            id);
    gen_expr(D, g, "in");
    fprintf(D, " != 0;\n}\n");
    return id;
}

static void gen_outrec(const outrec_t *o, int pat)
{
    fprintf(D, "        {\n            rcksnet_record_t *r = "
            "rcksnet_record_new();\n");
    for (int i = 0; i < o->n; i++) {
        const item_t *it = &o->it[i];
        if (it->kind == E_FIELD) {
            fprintf(D, "            rcksnet_set_field(r, %d, "
                    "rcksnet_ref_field(in, %d));\n", label(it->name),
                    label(it->src ? it->src : it->name));
            continue;
        }
        fprintf(D, "            rcksnet_set_tag(r, %s, %d, ",
                kind_name(it->kind), label(it->name));
        if (it->val) {
            gen_expr(D, it->val, "in");
        } else {
            fprintf(D, "rcksnet_tag_or_zero(in, %s, %d)",
                    kind_name(it->kind), label(it->name));
        }
        fprintf(D, ");\n");
    }
    fprintf(D, "            rcksnet_emit(out, in, &v%d, r);\n        }\n",
            pat);
}

static int gen_filter(const filter_t *f)
{
    int pat = gen_variant(f->in);
    int *guards = xalloc(f->n * sizeof(int));
    for (int a = 0; a < f->n; a++)
        guards[a] = gen_guard(f->a[a]->guard);
    int id = ntmp++;
    fprintf(D, "static void f%d(rcksnet_record_t *in, rcksnet_out_t *out)\n"
            "{\n", id);
    for (int a = 0; a < f->n; a++) {
        if (guards[a] >= 0)
            fprintf(D, "    %sif (g%d(in)) {\n", a ? "else " : "", guards[a]);
        else
            fprintf(D, "    %s{\n", a ? "else " : "");
        for (int r = 0; r < f->a[a]->n; r++)
            gen_outrec(f->a[a]->r[r], pat);
        fprintf(D, "    }\n");
    }
    fprintf(D, "    (void)in;\n    (void)out;\n}\n");
    free(guards);
    fprintf(D, "static const rcksnet_variant_t *const fp%d = &v%d;\n", id,
            pat);
    return id;
}

static const char *box_wrapper(box_t *b)
{
    for (int i = 0; i < nboxes; i++)
        if (boxes[i] == b)
            return b->name;
    boxes = xrealloc(boxes, (nboxes + 1) * sizeof(*boxes));
    boxes[nboxes++] = b;
    b->id = gen_variant(b->in);
    int out = gen_type(b->out);
    fprintf(D, "void *%s(void *hnd", b->name);
    for (int i = 0; i < b->in->n; i++)
        fprintf(D, ", %s", b->in->e[i].kind == E_FIELD ? "c4snet_data_t *"
                                                       : "int");
    fprintf(D, ");\nstatic const rcksnet_type_t *const bo%d = &t%d;\n",
            b->id, out);
    fprintf(D, "static void w%d(void *hnd, rcksnet_record_t *r)\n{\n"
            "    %s(hnd", b->id, b->name);
    for (int i = 0; i < b->in->n; i++) {
        const ent_t *e = &b->in->e[i];
        fprintf(D, ",\n        rcksnet_%s(r, %d)",
                e->kind == E_FIELD ? "take_field"
                : e->kind == E_TAG ? "tag" : "btag",
                label(e->name));
    }
    fprintf(D, ");\n}\n");
    return b->name;
}

static int gen_net(net_t *n);

/* emits the statements that build e into B; returns the variable's number */
static int gen_nexp(nexp_t *e)
{
    int a = -1, b = -1, id;
    if (e->kind != C_REF && e->kind != C_FILTER && e->kind != C_SYNC)
        a = gen_nexp(e->a);
    if (e->b)
        b = gen_nexp(e->b);
    id = ntmp++;
    fprintf(B, "    rcksnet_node_t *n%d = ", id);
    switch (e->kind) {
    case C_REF:
        if (e->box) {
            box_wrapper(e->box);
            fprintf(B, "rcksnet_%sbox(", e->box->init ? "init_" : "");
            cstr(B, e->box->name);
            fprintf(B, ", ");
            loc_str(B, e->loc);
            fprintf(B, ", w%d, &v%d, bo%d);\n", e->box->id, e->box->id,
                    e->box->id);
        } else {
            fprintf(B, "net%d();\n", gen_net(e->net));
        }
        break;
    case C_FILTER: {
        if (e->filter->identity) {
            fprintf(B, "rcksnet_identity(");
            loc_str(B, e->loc);
            fprintf(B, ");\n");
            break;
        }
        int f = gen_filter(e->filter);
        fprintf(B, "rcksnet_filter(");
        loc_str(B, e->loc);
        fprintf(B, ", fp%d, f%d);\n", f, f);
        break;
    }
    case C_SYNC: {
        int t = gen_type(e->sync), sg = ntmp++;
        int *g = xalloc(e->sync->n * sizeof(int));
        for (int i = 0; i < e->sync->n; i++)
            g[i] = gen_guard(e->sync_guards[i]);
        fprintf(D, "static const rcksnet_guardfn_t sg%d[] = {", sg);
        for (int i = 0; i < e->sync->n; i++)
            if (g[i] >= 0)
                fprintf(D, "%sg%d", i ? ", " : "", g[i]);
            else
                fprintf(D, "%sNULL", i ? ", " : "");
        fprintf(D, "};\n");
        free(g);
        fprintf(B, "rcksnet_sync(");
        loc_str(B, e->loc);
        fprintf(B, ", &t%d, sg%d);\n", t, sg);
        break;
    }
    case C_SERIAL:
        fprintf(B, "rcksnet_serial(");
        loc_str(B, e->loc);
        fprintf(B, ", n%d, n%d);\n", a, b);
        break;
    case C_PAR: {
        int ta = gen_type(e->a->accepts), tb = gen_type(e->b->accepts);
        int fa = gen_type(snetc_accepts_base(e->a));
        int fb = gen_type(snetc_accepts_base(e->b));
        int acc = ntab++;
        fprintf(D, "static const rcksnet_type_t *const pa%d[] = {&t%d, "
                "&t%d};\nstatic const rcksnet_type_t *const pf%d[] = "
                "{&t%d, &t%d};\n", acc, ta, tb, acc, fa, fb);
        fprintf(B, "rcksnet_parallel(");
        loc_str(B, e->loc);
        fprintf(B, ", %d, 2, (rcksnet_node_t *const[]){n%d, n%d}, pa%d, "
                "pf%d);\n", e->det, a, b, acc, acc);
        break;
    }
    case C_STAR:
    case C_FEEDBACK: {
        int t = gen_type(e->pattern), g = gen_guard(e->guard);
        fprintf(B, "rcksnet_%s(", e->kind == C_STAR ? "star" : "feedback");
        loc_str(B, e->loc);
        fprintf(B, ", %d, n%d, &t%d, ", e->det, a, t);
        if (g >= 0)
            fprintf(B, "g%d);\n", g);
        else
            fprintf(B, "NULL);\n");
        break;
    }
    case C_SPLIT:
        fprintf(B, "rcksnet_%s(", e->placed_split ? "place_split" : "split");
        loc_str(B, e->loc);
        fprintf(B, ", %d, n%d, %d);\n", e->det, a, label(e->name));
        break;
    case C_PLACE:
        fprintf(B, "rcksnet_place(");
        loc_str(B, e->loc);
        fprintf(B, ", n%d, %d);\n", a, e->place);
        break;
    }
    return id;
}

/* a builder per network, net<id>(), returning its description */
static int gen_net(net_t *n)
{
    if (n->id > 0)
        return n->id;
    n->id = ++ntmp;
    /* a network with a signature refuses what it does not declare; one
     * without leaves that to its components */
    int acc = n->nsig > 0 ? gen_type(n->accepts) : -1;
    FILE *saved = B;
    char *text = NULL;
    size_t len = 0;
    B = open_memstream(&text, &len);
    if (B == NULL) {
        fprintf(stderr, "rck-snetc: out of memory\n");
        exit(1);
    }
    int body = gen_nexp(n->body);
    fclose(B);
    B = saved;
    fprintf(D, "/* network %s (%s:%d:%d) */\n"
            "static rcksnet_node_t *net%d(void)\n{\n%s    return rcksnet_net(",
            n->name, src_name, n->loc.line, n->loc.col, n->id, text);
    cstr(D, n->name);
    fprintf(D, ", ");
    loc_str(D, n->loc);
    if (acc >= 0)
        fprintf(D, ", n%d, &t%d);\n}\n", body, acc);
    else
        fprintf(D, ", n%d, NULL);\n}\n", body);
    free(text);
    return n->id;
}

int snetc_generate(net_t *top, FILE *out, const char *src)
{
    char *dtext = NULL;
    size_t dlen = 0;
    src_name = src;
    D = open_memstream(&dtext, &dlen);
    if (D == NULL)
        return -1;
    int id = gen_net(top);
    fclose(D);
    for (int i = 0; i < nboxes; i++)
        for (int k = 0; k < i; k++)
            if (!strcmp(boxes[i]->name, boxes[k]->name)) {
                char a[256], b[256];
                if (boxes[i]->in->n != boxes[k]->in->n ||
                    strcmp(variant_str(boxes[i]->in, a, sizeof(a)),
                           variant_str(boxes[k]->in, b, sizeof(b))))
                    error_at(boxes[i]->loc, "box %s is declared with two "
                             "different signatures (the other at %d:%d): "
                             "one C function cannot have both",
                             boxes[i]->name, boxes[k]->loc.line,
                             boxes[k]->loc.col);
            }
    if (snetc_errors) {
        free(dtext);
        return -1;
    }
    fprintf(out, "/* Generated by rck-snetc from %s: do not edit. */\n"
            "#include <stddef.h>\n#include \"RCCE.h\"\n"
            "#include \"snet/rcksnet.h\"\n\n", src);
    fprintf(out, "static const char *const labels[] = {");
    for (int i = 0; i < nlabels; i++) {
        fprintf(out, "%s", i ? ", " : "");
        cstr(out, labels[i]);
    }
    if (nlabels == 0)
        fprintf(out, "NULL");
    fprintf(out, "};\n\n%s\n", dtext);
    fprintf(out, "int RCCE_APP(int argc, char **argv)\n{\n"
            "    return rcksnet_main(argc, argv, labels, %d, net%d);\n}\n",
            nlabels, id);
    free(dtext);
    return 0;
}
