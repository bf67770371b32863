/*
 * check.c: rck-snetc's names and types. Resolves box and network names
 * through the enclosing networks, checks filters and guards, infers what
 * each component accepts, and follows the record types from the network's
 * input through every component, with flow inheritance (entries a
 * component's matched input variant does not name pass on to everything
 * it emits): a component that cannot accept a type that reaches it is an
 * error at its position. docs/SNET.md, "Types".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

static int has(const variant_t *v, int kind, const char *name)
{
    for (int i = 0; i < v->n; i++)
        if (v->e[i].kind == kind && !strcmp(v->e[i].name, name))
            return 1;
    return 0;
}

static int nbtags(const variant_t *v)
{
    int n = 0;
    for (int i = 0; i < v->n; i++)
        n += v->e[i].kind == E_BTAG;
    return n;
}

/* -1 if records of type v do not match pattern p, else p's size */
static int match(const variant_t *v, const variant_t *p)
{
    for (int i = 0; i < p->n; i++)
        if (!has(v, p->e[i].kind, p->e[i].name))
            return -1;
    return nbtags(v) == nbtags(p) ? p->n : -1;
}

static int match_type(const variant_t *v, const vtype_t *t, int *which)
{
    int best = -1;
    for (int i = 0; i < t->n; i++) {
        int s = match(v, t->v[i]);
        if (s > best) {
            best = s;
            if (which)
                *which = i;
        }
    }
    return best;
}

static int same(const variant_t *a, const variant_t *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (!has(b, a->e[i].kind, a->e[i].name))
            return 0;
    return 1;
}

/* add v to t unless t has it; 1 if added */
static int tadd(vtype_t *t, variant_t *v)
{
    for (int i = 0; i < t->n; i++)
        if (same(t->v[i], v))
            return 0;
    vtype_add(t, v);
    return 1;
}

static void tmerge(vtype_t *t, const vtype_t *u)
{
    for (int i = 0; i < u->n; i++)
        tadd(t, u->v[i]);
}

static vtype_t *single(variant_t *v)
{
    vtype_t *t = vtype_new();
    vtype_add(t, v);
    return t;
}

/* w with the entries of v that p does not name and w lacks */
static variant_t *inherit(const variant_t *w, const variant_t *v,
                          const variant_t *p)
{
    variant_t *r = variant_new(w->loc);
    for (int i = 0; i < w->n; i++)
        if (!has(r, w->e[i].kind, w->e[i].name))
            variant_add(r, w->e[i].kind, w->e[i].name);
    for (int i = 0; i < v->n; i++)
        if (!has(p, v->e[i].kind, v->e[i].name) &&
            !has(r, v->e[i].kind, v->e[i].name))
            variant_add(r, v->e[i].kind, v->e[i].name);
    return r;
}

static const char *missing(const variant_t *v, const variant_t *p, char *buf,
                           size_t size)
{
    variant_t m = {0, 0, NULL, p->loc};
    for (int i = 0; i < p->n; i++)
        if (!has(v, p->e[i].kind, p->e[i].name))
            variant_add(&m, p->e[i].kind, p->e[i].name);
    if (m.n == 0)
        snprintf(buf, size, "binding tags that differ");
    else
        variant_str(&m, buf, size);
    free(m.e);
    return buf;
}

/* ---- names ----------------------------------------------------------- */

static void *lookup(net_t *scope, const char *name, int *is_box)
{
    for (net_t *n = scope; n != NULL; n = n->parent) {
        for (int i = 0; i < n->nbox; i++)
            if (!strcmp(n->boxes[i]->name, name)) {
                *is_box = 1;
                return n->boxes[i];
            }
        for (int i = 0; i < n->nnet; i++)
            if (!strcmp(n->nets[i]->name, name)) {
                *is_box = 0;
                return n->nets[i];
            }
    }
    return NULL;
}

static void check_expr(expr_t *x, const variant_t *in, const char *what)
{
    if (x == NULL)
        return;
    /* a name in an expression is a tag, or else a binding tag */
    if (x->kind == X_TAG && !x->btag && in != NULL &&
        !has(in, E_TAG, x->name) && has(in, E_BTAG, x->name))
        x->btag = 1;
    if (x->kind == X_TAG) {
        int kind = x->btag ? E_BTAG : E_TAG;
        if (in == NULL || !has(in, kind, x->name))
            error_at(x->loc, "%s uses <%s%s>, which its pattern does not "
                     "name", what, x->btag ? "#" : "", x->name);
    }
    check_expr(x->a, in, what);
    check_expr(x->b, in, what);
    check_expr(x->c, in, what);
}

static void check_filter(const filter_t *f)
{
    if (f->identity)
        return;
    for (int a = 0; a < f->n; a++) {
        action_t *act = f->a[a];
        check_expr(act->guard, f->in, "the filter's guard");
        for (int r = 0; r < act->n; r++) {
            outrec_t *o = act->r[r];
            for (int i = 0; i < o->n; i++) {
                item_t *it = &o->it[i];
                const char *src = it->src ? it->src : it->name;
                if (it->kind == E_FIELD && !has(f->in, E_FIELD, src))
                    error_at(it->loc, "the filter's output names field %s, "
                             "which its input pattern does not have "
                             "(a filter cannot make a field)", src);
                check_expr(it->val, f->in, "the filter's tag expression");
                for (int k = 0; k < i; k++)
                    if (o->it[k].kind == it->kind &&
                        !strcmp(o->it[k].name, it->name))
                        error_at(it->loc, "label %s twice in one output "
                                 "record of the filter", it->name);
            }
        }
    }
}

static void resolve(nexp_t *e, net_t *scope);

/* a label twice in a box's tuple: one C argument could not take both */
static void check_tuple(const box_t *b, const variant_t *v)
{
    for (int i = 0; i < v->n; i++)
        for (int k = 0; k < i; k++)
            if (v->e[k].kind == v->e[i].kind &&
                !strcmp(v->e[k].name, v->e[i].name))
                error_at(v->loc.line ? v->loc : b->loc, "box %s names %s%s%s "
                         "twice in one tuple of its signature", b->name,
                         v->e[i].kind == E_FIELD ? "" : "<",
                         v->e[i].name, v->e[i].kind == E_FIELD ? "" : ">");
}

static void resolve_net(net_t *n)
{
    for (int i = 0; i < n->nbox; i++) {
        check_tuple(n->boxes[i], n->boxes[i]->in);
        for (int k = 0; k < n->boxes[i]->out->n; k++)
            check_tuple(n->boxes[i], n->boxes[i]->out->v[k]);
    }
    for (int i = 0; i < n->nbox; i++)
        for (int k = 0; k < i; k++)
            if (!strcmp(n->boxes[i]->name, n->boxes[k]->name))
                error_at(n->boxes[i]->loc, "box %s declared twice in "
                         "network %s", n->boxes[i]->name, n->name);
    for (int i = 0; i < n->nnet; i++)
        resolve_net(n->nets[i]);
    resolve(n->body, n);
}

static void resolve(nexp_t *e, net_t *scope)
{
    if (e == NULL)
        return;
    if (e->kind == C_REF) {
        int is_box = 0;
        void *d = lookup(scope, e->name, &is_box);
        if (d == NULL)
            error_at(e->loc, "unknown box or network '%s'", e->name);
        else if (is_box)
            e->box = d;
        else
            e->net = d;
        if (e->box)
            e->box->used = 1;
    }
    if (e->kind == C_FILTER)
        check_filter(e->filter);
    if (e->kind == C_STAR || e->kind == C_FEEDBACK)
        /* a guard belongs to the last pattern: {a}, {<t>} if <t > 0> */
        check_expr(e->guard, e->pattern->v[e->pattern->n - 1],
                   "the pattern's guard");
    if (e->kind == C_SYNC)
        for (int i = 0; i < e->sync->n; i++)
            check_expr(e->sync_guards[i], e->sync->v[i],
                       "the synchrocell pattern's guard");
    resolve(e->a, scope);
    resolve(e->b, scope);
}

/* ---- what a component accepts ---------------------------------------- */

static vtype_t *net_accepts(net_t *n);
static vtype_t *accepts(nexp_t *e);
static vtype_t *flow(nexp_t *e, vtype_t *in);

static int starts_with_sync(const nexp_t *e)
{
    while (e->kind == C_SERIAL || e->kind == C_PLACE)
        e = e->a;
    return e->kind == C_SYNC;
}

/* A .. B accepts what A accepts, with the entries B needs that A's
 * outputs lack (they must reach B by flow inheritance) */
static void accepts_serial(nexp_t *e, vtype_t *t)
{
    vtype_t *a = accepts(e->a), *b = accepts(e->b);
    for (int i = 0; i < a->n; i++) {
        if (starts_with_sync(e->b)) {
            tadd(t, a->v[i]);
            continue;
        }
        snetc_quiet++;
        vtype_t *o = flow(e->a, single(a->v[i]));
        snetc_quiet--;
        variant_t *u = inherit(a->v[i], a->v[i], a->v[i]);
        for (int k = 0; k < o->n; k++) {
            if (match_type(o->v[k], b, NULL) >= 0)
                continue;
            const variant_t *best = NULL;
            int fewest = 1 << 30;
            for (int j = 0; j < b->n; j++) {
                if (nbtags(b->v[j]) != nbtags(o->v[k]))
                    continue;
                int miss = 0;
                for (int m = 0; m < b->v[j]->n; m++)
                    miss += !has(o->v[k], b->v[j]->e[m].kind,
                                 b->v[j]->e[m].name);
                if (miss < fewest) {
                    fewest = miss;
                    best = b->v[j];
                }
            }
            for (int m = 0; best != NULL && m < best->n; m++)
                if (!has(o->v[k], best->e[m].kind, best->e[m].name) &&
                    !has(u, best->e[m].kind, best->e[m].name))
                    variant_add(u, best->e[m].kind, best->e[m].name);
        }
        tadd(t, u);
    }
}

/* 0: inferred through serial compositions; 1: by the first component */
static int base_mode;

static vtype_t *accepts(nexp_t *e)
{
    if (base_mode && e->accepts_base)
        return e->accepts_base;
    if (!base_mode && e->accepts)
        return e->accepts;
    vtype_t *t = vtype_new();
    switch (e->kind) {
    case C_REF:
        if (e->box && !e->box->init)
            vtype_add(t, e->box->in);
        else if (e->net)
            tmerge(t, net_accepts(e->net));
        break;
    case C_FILTER:
        vtype_add(t, e->filter->identity ? variant_new(e->loc)
                                         : e->filter->in);
        break;
    case C_SYNC:
        tmerge(t, e->sync);
        break;
    case C_PAR:
        tmerge(t, accepts(e->a));
        tmerge(t, accepts(e->b));
        break;
    case C_STAR:
        tmerge(t, accepts(e->a));
        tmerge(t, e->pattern);
        break;
    case C_SPLIT: {
        vtype_t *a = accepts(e->a);
        for (int i = 0; i < a->n; i++) {
            variant_t *v = inherit(a->v[i], a->v[i], a->v[i]);
            if (!has(v, E_TAG, e->name))
                variant_add(v, E_TAG, e->name);
            tadd(t, v);
        }
        break;
    }
    case C_SERIAL:
        if (base_mode)
            tmerge(t, accepts(e->a));
        else
            accepts_serial(e, t);
        break;
    default: /* feedback, placement: the operand's */
        tmerge(t, accepts(e->a));
        break;
    }
    if (base_mode)
        e->accepts_base = t;
    else
        e->accepts = t;
    return t;
}

vtype_t *snetc_accepts_base(nexp_t *e)
{
    base_mode++;
    vtype_t *t = accepts(e);
    base_mode--;
    return t;
}

static vtype_t *net_accepts(net_t *n)
{
    if (base_mode && n->accepts_base)
        return n->accepts_base;
    if (!base_mode && n->accepts)
        return n->accepts;
    if (n->checking) {
        error_at(n->loc, "network %s refers to itself", n->name);
        return n->accepts = vtype_new();
    }
    n->checking = 1;
    vtype_t *t = vtype_new();
    if (n->nsig > 0)
        for (int i = 0; i < n->nsig; i++)
            tmerge(t, n->sig[i].in);
    else
        tmerge(t, accepts(n->body));
    n->checking = 0;
    if (base_mode)
        return n->accepts_base = t;
    return n->accepts = t;
}

/* ---- following the types through the network ------------------------ */

static void check_net_body(net_t *n);

static vtype_t *flow_ref(nexp_t *e, vtype_t *in)
{
    vtype_t *out = vtype_new();
    char b1[256], b2[256];
    if (e->box) {
        box_t *b = e->box;
        if (b->init && in->n > 0) {
            error_at(e->loc, "initialiser box %s (no input) gets records of "
                     "type %s", b->name, variant_str(in->v[0], b1,
                                                     sizeof(b1)));
            return out;
        }
        if (b->init) /* its own records, from the start */
            for (int k = 0; k < b->out->n; k++)
                tadd(out, b->out->v[k]);
        for (int i = 0; i < in->n; i++) {
            if (match(in->v[i], b->in) < 0) {
                error_at(e->loc, "box %s cannot accept records of type %s: "
                         "it needs %s", b->name,
                         variant_str(in->v[i], b1, sizeof(b1)),
                         missing(in->v[i], b->in, b2, sizeof(b2)));
                continue;
            }
            for (int k = 0; k < b->out->n; k++)
                tadd(out, inherit(b->out->v[k], in->v[i], b->in));
        }
        return out;
    }
    if (e->net == NULL)
        return out;
    net_t *n = e->net;
    int open_out = 0; /* a signature "-> ...": outputs inferred */
    for (int m = 0; m < n->nsig; m++)
        open_out |= n->sig[m].out == NULL;
    if (n->nsig == 0 || open_out) {
        check_net_body(n);
        return flow(n->body, in);
    }
    check_net_body(n);
    for (int i = 0; i < in->n; i++) {
        int best = -1, at = -1, which = 0;
        for (int m = 0; m < n->nsig; m++) {
            int w = 0, s = match_type(in->v[i], n->sig[m].in, &w);
            if (s > best) {
                best = s;
                at = m;
                which = w;
            }
        }
        if (at < 0) {
            error_at(e->loc, "network %s cannot accept records of type %s",
                     n->name, variant_str(in->v[i], b1, sizeof(b1)));
            continue;
        }
        for (int k = 0; k < n->sig[at].out->n; k++)
            tadd(out, inherit(n->sig[at].out->v[k], in->v[i],
                              n->sig[at].in->v[which]));
    }
    return out;
}

static vtype_t *flow_filter(nexp_t *e, vtype_t *in)
{
    filter_t *f = e->filter;
    if (f->identity)
        return in;
    vtype_t *out = vtype_new();
    char b1[256], b2[256];
    for (int i = 0; i < in->n; i++) {
        if (match(in->v[i], f->in) < 0) {
            error_at(e->loc, "the filter cannot accept records of type %s: "
                     "it needs %s", variant_str(in->v[i], b1, sizeof(b1)),
                     missing(in->v[i], f->in, b2, sizeof(b2)));
            continue;
        }
        for (int a = 0; a < f->n; a++)
            for (int r = 0; r < f->a[a]->n; r++) {
                outrec_t *o = f->a[a]->r[r];
                variant_t *w = variant_new(o->loc);
                for (int k = 0; k < o->n; k++)
                    variant_add(w, o->it[k].kind, o->it[k].name);
                tadd(out, inherit(w, in->v[i], f->in));
            }
    }
    return out;
}

static nexp_t **syncs;
static int nsyncs;

static void syncs_unreached(void)
{
    char b[256];
    for (int s = 0; s < nsyncs; s++)
        for (int i = 0; i < syncs[s]->sync->n; i++)
            if (!syncs[s]->reached[i])
                warning_at(syncs[s]->sync->v[i]->loc, "no record that "
                           "reaches the synchrocell matches its pattern %s: "
                           "it can never fire",
                           variant_str(syncs[s]->sync->v[i], b, sizeof(b)));
}

static vtype_t *flow_sync(nexp_t *e, vtype_t *in)
{
    vtype_t *out = vtype_new(), *p = e->sync;
    variant_t *all = variant_new(e->loc);
    for (int i = 0; i < p->n; i++)
        for (int k = 0; k < p->v[i]->n; k++)
            if (!has(all, p->v[i]->e[k].kind, p->v[i]->e[k].name))
                variant_add(all, p->v[i]->e[k].kind, p->v[i]->e[k].name);
    /* which patterns the types that reach it match, over every time the
     * checker comes here (warned about at the end: syncs_unreached) */
    if (e->reached == NULL) {
        e->reached = xalloc(p->n);
        syncs = xrealloc(syncs, (nsyncs + 1) * sizeof(*syncs));
        syncs[nsyncs++] = e;
    }
    for (int i = 0; i < p->n; i++)
        for (int k = 0; k < in->n && !e->reached[i]; k++)
            e->reached[i] = match(in->v[k], p->v[i]) >= 0;
    for (int k = 0; k < in->n; k++) {
        int w = 0;
        if (match_type(in->v[k], p, &w) < 0)
            tadd(out, in->v[k]); /* passes through */
        else if (match(in->v[k], p->v[0]) >= 0)
            tadd(out, inherit(all, in->v[k], p->v[0]));
    }
    return out;
}

static int has_init(const nexp_t *e)
{
    if (e == NULL)
        return 0;
    if (e->kind == C_REF)
        return e->box ? e->box->init : e->net ? has_init(e->net->body) : 0;
    return has_init(e->a) || has_init(e->b);
}

static vtype_t *flow_par(nexp_t *e, vtype_t *in)
{
    vtype_t *out = vtype_new();
    /* what initialisers in a branch emit of their own */
    if (has_init(e->a))
        tmerge(out, flow(e->a, vtype_new()));
    if (has_init(e->b))
        tmerge(out, flow(e->b, vtype_new()));
    for (int i = 0; i < in->n; i++) {
        int sa = match_type(in->v[i], accepts(e->a), NULL);
        int sb = match_type(in->v[i], accepts(e->b), NULL);
        if (sa < 0 && sb < 0) { /* as the runtime: by the first components */
            sa = match_type(in->v[i], snetc_accepts_base(e->a), NULL);
            sb = match_type(in->v[i], snetc_accepts_base(e->b), NULL);
        }
        if (sa < 0 && sb < 0) {
            char b[256];
            error_at(e->loc, "no branch of the parallel composition accepts "
                     "records of type %s",
                     variant_str(in->v[i], b, sizeof(b)));
            if (getenv("RCK_SNETC_DEBUG"))
                for (int k = 0; k < 2; k++) {
                    vtype_t *t = accepts(k ? e->b : e->a);
                    for (int j = 0; j < t->n; j++)
                        fprintf(stderr, "  branch %d accepts %s\n", k + 1,
                                variant_str(t->v[j], b, sizeof(b)));
                }
            continue;
        }
        tmerge(out, flow(sa >= sb ? e->a : e->b, single(in->v[i])));
    }
    return out;
}

/* v matches one of the patterns before the last (which has the guard) */
static int exits_unguarded(const variant_t *v, const nexp_t *e)
{
    for (int i = 0; i + 1 < e->pattern->n; i++)
        if (match(v, e->pattern->v[i]) >= 0)
            return 1;
    return 0;
}

/* star and feedback: iterate until no new type goes round */
static vtype_t *flow_loop(nexp_t *e, vtype_t *in)
{
    vtype_t *out = vtype_new(), *seen = vtype_new(), *cur = vtype_new();
    int star = e->kind == C_STAR;
    for (int i = 0; i < in->n; i++)
        if (tadd(seen, in->v[i]))
            vtype_add(cur, in->v[i]);
    for (int round = 0; cur->n > 0 && round < 256; round++) {
        vtype_t *next = vtype_new(), *go = vtype_new();
        if (star) {
            for (int i = 0; i < cur->n; i++) {
                int m = match_type(cur->v[i], e->pattern, NULL) >= 0;
                int guarded = e->guard && m && !exits_unguarded(cur->v[i], e);
                if (m)
                    tadd(out, cur->v[i]);
                /* with a guard, a record of the exit type may go round
                 * again: if the body could take it (else the guard is
                 * taken to hold for it) */
                if (!m || (guarded &&
                           match_type(cur->v[i], accepts(e->a), NULL) >= 0))
                    tadd(go, cur->v[i]);
            }
            vtype_t *o = go->n ? flow(e->a, go) : vtype_new();
            for (int i = 0; i < o->n; i++)
                if (tadd(seen, o->v[i]))
                    vtype_add(next, o->v[i]);
        } else {
            vtype_t *o = flow(e->a, cur);
            for (int i = 0; i < o->n; i++) {
                int m = match_type(o->v[i], e->pattern, NULL) >= 0;
                if (!m || (e->guard && !exits_unguarded(o->v[i], e)))
                    tadd(out, o->v[i]);
                if (m && tadd(seen, o->v[i]))
                    vtype_add(next, o->v[i]);
            }
        }
        cur = next;
    }
    return out;
}

static vtype_t *flow(nexp_t *e, vtype_t *in)
{
    char b[256];
    switch (e->kind) {
    case C_REF:
        return flow_ref(e, in);
    case C_FILTER:
        return flow_filter(e, in);
    case C_SYNC:
        return flow_sync(e, in);
    case C_SERIAL:
        return flow(e->b, flow(e->a, in));
    case C_PAR:
        return flow_par(e, in);
    case C_STAR:
    case C_FEEDBACK:
        return flow_loop(e, in);
    case C_SPLIT:
        for (int i = 0; i < in->n; i++)
            if (!has(in->v[i], E_TAG, e->name))
                error_at(e->loc, "the index split on <%s> gets records of "
                         "type %s, which have no tag <%s>", e->name,
                         variant_str(in->v[i], b, sizeof(b)), e->name);
        return flow(e->a, in);
    default:
        return flow(e->a, in);
    }
}

/* a network with a signature: its body from the signature's inputs gives
 * only what the signature's outputs allow */
static void check_net_body(net_t *n)
{
    if (n->checked)
        return;
    n->checked = 1;
    vtype_t *in = net_accepts(n);
    vtype_t *out = flow(n->body, in);
    if (n->nsig == 0)
        return;
    vtype_t *decl = vtype_new();
    for (int i = 0; i < n->nsig; i++) {
        if (n->sig[i].out == NULL)
            return;
        tmerge(decl, n->sig[i].out);
    }
    for (int i = 0; i < out->n; i++)
        if (match_type(out->v[i], decl, NULL) < 0) {
            char b[256];
            error_at(n->loc, "network %s emits records of type %s, which "
                     "its signature's outputs do not include", n->name,
                     variant_str(out->v[i], b, sizeof(b)));
        }
}

static void accepts_all(net_t *n)
{
    for (int i = 0; i < n->nnet; i++)
        accepts_all(n->nets[i]);
    net_accepts(n);
}

int snetc_check(net_t *top)
{
    resolve_net(top);
    if (snetc_errors)
        return -1;
    accepts_all(top);
    check_net_body(top);
    if (!snetc_errors)
        syncs_unreached();
    return snetc_errors ? -1 : 0;
}
