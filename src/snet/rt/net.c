/*
 * net.c: the network's descriptions (built by the generated code through
 * the constructors of rcksnet.h) and their instances, which run records.
 *
 * Evaluation: one task per UE that takes one input record at a time and
 * runs it through the network to the end, depth-first: each entity, fed one
 * record, hands every record it emits at once to its sink, the rest of the
 * network after it, which runs it on before the entity continues (a box's
 * C4SNetOut returns when the record has gone as far as it can). No stream
 * between two entities holds a record. Serial replication and feedback go
 * depth-first for RCK_SNET_DEPTH levels (rounds); deeper, a record waits
 * in the loop's queue (at most RCK_SNET_STREAM records) and starts again
 * from the top of the stack once the levels above return (docs/SNET.md,
 * "Scheduling"). Serial replication and the index split create their
 * instances on demand; synchrocells keep their state in their instance.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "rt.h"

/* ---- settings (registered for the launcher by settings.c) ------------- */

static int set_depth = RT_SNET_DEPTH_DEFAULT, set_stream = RT_SNET_STREAM_DEFAULT;

/* RCK_<name>, an integer from lo to hi, or dflt if unset; a value that is
 * not one stops the program naming it (as `rck run` does before a run) */
static int setting(const char *name, int dflt, long lo, long hi)
{
    char env[64];
    snprintf(env, sizeof(env), "RCK_%s", name);
    const char *v = getenv(env);
    if (v == NULL)
        return dflt;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end != '\0' || errno != 0 || x < lo || x > hi)
        rt_fatal("%s='%s': not an integer from %ld to %ld", env, v, lo, hi);
    return (int)x;
}

void rt_settings_load(void)
{
    set_depth = setting("SNET_DEPTH", RT_SNET_DEPTH_DEFAULT, 1,
                        RT_SNET_DEPTH_MAX);
    set_stream = setting("SNET_STREAM", RT_SNET_STREAM_DEFAULT, 1,
                         RT_SNET_STREAM_MAX);
}

/* The stack guard: a record run deeper than the stack allows stops the
 * program with a message instead of overflowing it. */
static uintptr_t stack_base;
static size_t stack_room;

void rt_stack_base(void)
{
    char here;
    if (stack_room == 0) {
        struct rlimit rl;
        size_t lim = 8u << 20;
        if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
            lim = rl.rlim_cur;
        stack_room = lim > (2u << 20) ? lim - (1u << 20) : lim / 2;
    }
    stack_base = (uintptr_t)&here;
}

static void stack_check(const char *loc)
{
    char here;
    uintptr_t at = (uintptr_t)&here;
    if (stack_base != 0 && stack_base > at && stack_base - at > stack_room)
        rt_fatal("%s: records run deeper than the stack allows (%zu KiB "
                 "used; RCK_SNET_DEPTH=%d, RCK_SNET_STREAM=%d): lower "
                 "RCK_SNET_DEPTH, raise RCK_SNET_STREAM or the stack limit",
                 loc, (size_t)(stack_base - at) >> 10, set_depth, set_stream);
}

enum { N_IDENTITY, N_INIT, N_BOX, N_FILTER, N_SYNC, N_SERIAL, N_PAR, N_STAR, N_SPLIT, N_FEEDBACK,
       N_NET, N_PLACE };

struct rcksnet_node {
    int kind, id;
    const char *loc, *name;
    int det, label, place;
    rcksnet_node_t *a, *b;
    int n;
    rcksnet_node_t *const *branches;
    const rcksnet_type_t *const *accepts, *const *first;
    const rcksnet_type_t *type; /* box: out; sync: patterns; star/fb: exit */
    const rcksnet_variant_t *in;
    const rcksnet_guardfn_t *guards;
    rcksnet_guardfn_t guard;
    rcksnet_boxfn_t box;
    rcksnet_filterfn_t filter;
};


/* every description made, freed together (rt_nodes_free) */
static rcksnet_node_t **all_nodes;
static int nall, capall;

static rcksnet_node_t *node(int kind, const char *loc)
{
    rcksnet_node_t *n = rt_alloc(sizeof(*n));
    if (nall == capall) {
        capall = capall ? 2 * capall : 64;
        all_nodes = rt_realloc(all_nodes, capall * sizeof(*all_nodes));
    }
    n->id = nall;
    all_nodes[nall++] = n;
    n->kind = kind;
    n->loc = loc;
    n->place = -1;
    return n;
}

static void need(const void *p, const char *what, const char *loc)
{
    if (p == NULL)
        rt_fatal("%s: %s missing in the network's description", loc, what);
}

rcksnet_node_t *rcksnet_box(const char *name, const char *loc,
                            rcksnet_boxfn_t fn, const rcksnet_variant_t *in,
                            const rcksnet_type_t *out)
{
    need(fn, "the box function", loc);
    need(in, "the box's input", loc);
    need(out, "the box's outputs", loc);
    rcksnet_node_t *n = node(N_BOX, loc);
    n->name = name;
    n->box = fn;
    n->in = in;
    n->type = out;
    return n;
}

rcksnet_node_t *rcksnet_filter(const char *loc, const rcksnet_variant_t *in,
                               rcksnet_filterfn_t fn)
{
    need(fn, "the filter function", loc);
    need(in, "the filter's pattern", loc);
    rcksnet_node_t *n = node(N_FILTER, loc);
    n->in = in;
    n->filter = fn;
    return n;
}

rcksnet_node_t *rcksnet_init_box(const char *name, const char *loc,
                                 rcksnet_boxfn_t fn,
                                 const rcksnet_variant_t *in,
                                 const rcksnet_type_t *out)
{
    rcksnet_node_t *n = rcksnet_box(name, loc, fn, in, out);
    n->kind = N_INIT;
    return n;
}

rcksnet_node_t *rcksnet_identity(const char *loc)
{
    return node(N_IDENTITY, loc);
}

rcksnet_node_t *rcksnet_sync(const char *loc, const rcksnet_type_t *patterns,
                             const rcksnet_guardfn_t *guards)
{
    need(patterns, "the synchrocell's patterns", loc);
    rcksnet_node_t *n = node(N_SYNC, loc);
    n->type = patterns;
    n->guards = guards;
    return n;
}

rcksnet_node_t *rcksnet_serial(const char *loc, rcksnet_node_t *a,
                               rcksnet_node_t *b)
{
    need(a, "the serial composition's left operand", loc);
    need(b, "the serial composition's right operand", loc);
    rcksnet_node_t *n = node(N_SERIAL, loc);
    n->a = a;
    n->b = b;
    return n;
}

rcksnet_node_t *rcksnet_parallel(const char *loc, int det, int nb,
                                 rcksnet_node_t *const *branches,
                                 const rcksnet_type_t *const *accepts,
                                 const rcksnet_type_t *const *first)
{
    need(branches, "the parallel composition's branches", loc);
    need(accepts, "the parallel composition's branch types", loc);
    need(first, "the parallel composition's branch types", loc);
    rcksnet_node_t *n = node(N_PAR, loc);
    n->det = det;
    n->n = nb;
    rcksnet_node_t **copy = rt_alloc(nb * sizeof(*copy));
    memcpy(copy, branches, nb * sizeof(*copy));
    n->branches = copy;
    n->accepts = accepts;
    n->first = first;
    return n;
}

rcksnet_node_t *rcksnet_star(const char *loc, int det, rcksnet_node_t *body,
                             const rcksnet_type_t *exit,
                             rcksnet_guardfn_t guard)
{
    need(body, "the replicated network", loc);
    need(exit, "the exit pattern", loc);
    rcksnet_node_t *n = node(N_STAR, loc);
    n->det = det;
    n->a = body;
    n->type = exit;
    n->guard = guard;
    return n;
}

rcksnet_node_t *rcksnet_split(const char *loc, int det, rcksnet_node_t *body,
                              int tag_label)
{
    need(body, "the split network", loc);
    rcksnet_node_t *n = node(N_SPLIT, loc);
    n->det = det;
    n->a = body;
    n->label = tag_label;
    return n;
}

rcksnet_node_t *rcksnet_feedback(const char *loc, int det,
                                 rcksnet_node_t *body,
                                 const rcksnet_type_t *back,
                                 rcksnet_guardfn_t guard)
{
    need(body, "the feedback network", loc);
    need(back, "the feedback pattern", loc);
    rcksnet_node_t *n = node(N_FEEDBACK, loc);
    n->det = det;
    n->a = body;
    n->type = back;
    n->guard = guard;
    return n;
}

rcksnet_node_t *rcksnet_net(const char *name, const char *loc,
                            rcksnet_node_t *body,
                            const rcksnet_type_t *accepts)
{
    need(body, "the network's body", loc);
    rcksnet_node_t *n = node(N_NET, loc);
    n->name = name;
    n->a = body;
    n->type = accepts;
    return n;
}

rcksnet_node_t *rcksnet_place(const char *loc, rcksnet_node_t *body, int at)
{
    need(body, "the placed network", loc);
    rcksnet_node_t *n = node(N_PLACE, loc);
    n->a = body;
    n->place = at;
    return n;
}

rcksnet_node_t *rcksnet_place_split(const char *loc, int det,
                                    rcksnet_node_t *body, int tag_label)
{
    /* a split whose replica for tag value v runs on UE v (mod the UEs) */
    rcksnet_node_t *n = rcksnet_split(loc, det, body, tag_label);
    n->place = -2;
    return n;
}

const rcksnet_node_t *rt_node_by_id(int id)
{
    if (id < 0 || id >= nall)
        rt_fatal("no component %d in the network's description (the UEs "
                 "run different programs?)", id);
    return all_nodes[id];
}

int rt_node_id(const rcksnet_node_t *n)
{
    return n->id;
}

/* the component has initialisers that fire when it is made (not those of
 * the bodies of stars and splits, made on demand) */
static int starts(const rcksnet_node_t *n)
{
    switch (n->kind) {
    case N_INIT:
        return 1;
    case N_SERIAL:
        return starts(n->a) || starts(n->b);
    case N_PAR:
        for (int i = 0; i < n->n; i++)
            if (starts(n->branches[i]))
                return 1;
        return 0;
    case N_FEEDBACK:
    case N_NET:
    case N_PLACE:
        return starts(n->a);
    default:
        return 0;
    }
}

void rt_nodes_free(void)
{
    for (int i = 0; i < nall; i++) {
        if (all_nodes[i]->kind == N_PAR)
            free((void *)all_nodes[i]->branches);
        free(all_nodes[i]);
    }
    free(all_nodes);
    all_nodes = NULL;
    nall = capall = 0;
}

const rcksnet_type_t *rt_box_out(const rcksnet_node_t *box, const char **name)
{
    *name = box->name;
    return box->type;
}

const rcksnet_variant_t *rt_box_in(const rcksnet_node_t *box)
{
    return box->in;
}

/* ---- instances ------------------------------------------------------- */

rt_inst_t *rt_inst_new(const rcksnet_node_t *n)
{
    rt_inst_t *in = rt_alloc(sizeof(*in));
    in->node = n;
    in->remote = -1;
    if (n->kind == N_PLACE && rt_dist_mode != RT_DIST_NODIST &&
        rt_dist_target(n->place) != rt_dist_ue) {
        rt_dist_proxy(in, rt_dist_target(n->place)); /* made there */
        return in;
    }
    switch (n->kind) {
    case N_SERIAL:
        in->a = rt_inst_new(n->a);
        in->b = rt_inst_new(n->b);
        break;
    case N_PAR:
        in->v = rt_alloc(n->n * sizeof(*in->v));
        for (int i = 0; i < n->n; i++)
            in->v[i] = rt_inst_new(n->branches[i]);
        in->nv = n->n;
        break;
    case N_FEEDBACK:
    case N_NET:
    case N_PLACE:
        in->a = rt_inst_new(n->a);
        break;
    case N_SYNC:
        in->stored = rt_alloc(n->type->n * sizeof(*in->stored));
        break;
    default: /* boxes, filters; stars and splits grow on demand */
        break;
    }
    return in;
}

void rt_inst_free(rt_inst_t *in)
{
    if (in == NULL)
        return;
    rt_inst_free(in->a);
    rt_inst_free(in->b);
    for (int i = 0; i < in->nv; i++)
        rt_inst_free(in->v[i]);
    free(in->v);
    free(in->keys);
    if (in->stored != NULL)
        for (int i = 0; i < in->node->type->n; i++)
            rt_record_free(in->stored[i]);
    free(in->stored);
    free(in);
}

static void __attribute__((noreturn, noinline))
refuse(const rcksnet_node_t *n, const rcksnet_record_t *r,
                   const char *what)
{
    char buf[512];
    rt_fatal("%s: %s does not accept the record %s", n->loc, what,
             rt_record_str(r, buf, sizeof(buf)));
}

/* The refusals build their messages in frames of their own: the frames
 * of the run (one per entity a record passes, on the stack together) stay
 * small. */
static void __attribute__((noreturn, noinline))
refuse_in(const rcksnet_node_t *n, const rcksnet_record_t *r,
          const char *what)
{
    char buf[512], v[200];
    snprintf(buf, sizeof(buf), "%s%s%s (input %s)", what, n->name ? " " : "",
             n->name ? n->name : "", rt_variant_str(n->in, v, sizeof(v)));
    refuse(n, r, buf);
}

static void __attribute__((noreturn, noinline))
refuse_named(const rcksnet_node_t *n, const rcksnet_record_t *r,
             const char *fmt, const char *name)
{
    char what[256];
    snprintf(what, sizeof(what), fmt, name);
    refuse(n, r, what);
}

static void run_box(const rcksnet_node_t *n, rcksnet_record_t *r,
                    rt_sink_t *out)
{
    if (rt_match(r, n->in) < 0)
        refuse_in(n, r, "box");
    rt_call_t call = {RT_CALL_MAGIC, n, r, out};
    n->box(&call, r);
    call.magic = 0;
    rt_record_free(r);
}

static void run_sync(rt_inst_t *in, rcksnet_record_t *r, rt_sink_t *out)
{
    const rcksnet_node_t *n = in->node;
    const rcksnet_type_t *p = n->type;
    int slot = -1;
    for (int i = 0; !in->fired && i < p->n && slot < 0; i++)
        if (in->stored[i] == NULL && rt_match(r, p->v[i]) >= 0 &&
            (n->guards == NULL || n->guards[i] == NULL || n->guards[i](r)))
            slot = i;
    if (slot < 0) { /* fired, or no free pattern matches: passes */
        out->put(out, r);
        return;
    }
    in->stored[slot] = r;
    for (int i = 0; i < p->n; i++)
        if (in->stored[i] == NULL)
            return;
    /* all matched: the first pattern's record with the others' entries */
    rcksnet_record_t *m = in->stored[0];
    for (int i = 1; i < p->n; i++) {
        rcksnet_record_t *s = in->stored[i];
        for (int k = 0; k < p->v[i]->n; k++) {
            rt_ent_t *e = rt_find(s, p->v[i]->e[k].kind, p->v[i]->e[k].label);
            if (rt_find(m, e->kind, e->label) == NULL) {
                rt_add(m, e);
                e->field = NULL; /* moved */
            }
        }
        rt_record_free(s);
        in->stored[i] = NULL;
    }
    in->stored[0] = NULL;
    in->fired = 1; /* before the record goes on: it may come back here */
    out->put(out, m);
}

/* ---- continuations that outlive the call (rt.h, rt_sink_t) ------------ */

rt_sink_t *rt_sink_keep(rt_sink_t *s)
{
    return s != NULL && s->keep != NULL ? s->keep(s) : NULL;
}

void rt_sink_drop(rt_sink_t *s)
{
    if (s != NULL && s->drop != NULL)
        s->drop(s);
}

/* The shared output of a parallel composition's branches or a split's
 * replicas: a merge point, where records of different calls meet. Only
 * the network's output, which keeps the one-UE order itself (dist.c), may
 * be kept past it; a call whose outputs meet others' anywhere else stays
 * synchronous, so that what follows the merge gets its records in the
 * one-UE order. */
typedef struct {
    rt_sink_t s;
    rt_sink_t *out;
} merge_k;

static void merge_put(rt_sink_t *s, rcksnet_record_t *r)
{
    merge_k *k = (merge_k *)s;
    k->out->put(k->out, r);
}

static rt_sink_t *merge_keep(rt_sink_t *s)
{
    merge_k *k = (merge_k *)s;
    rt_sink_t *out = rt_sink_keep(k->out); /* (merges nest: a | b | c) */
    if (out != rt_async_out) {
        rt_sink_drop(out);
        return NULL;
    }
    return out;
}

static void run_par(rt_inst_t *in, rcksnet_record_t *r, rt_sink_t *out)
{
    const rcksnet_node_t *n = in->node;
    int best = -1, at = -1;
    for (int pass = 0; pass < 2 && at < 0; pass++)
        for (int i = 0; i < n->n; i++) {
            int s = rt_match_type(r, pass ? n->first[i] : n->accepts[i]);
            if (s > best) { /* the most specific; a tie goes to the first */
                best = s;
                at = i;
            }
        }
    if (at < 0)
        refuse(n, r, "no branch of the parallel composition");
    merge_k m = {{merge_put, merge_keep, NULL}, out};
    rt_run(in->v[at], r, rt_async ? &m.s : out);
}

/* r matches an exit (or feedback) pattern; a guard belongs to the last */
static int leaves(const rcksnet_node_t *n, const rcksnet_record_t *r)
{
    const rcksnet_type_t *t = n->type;
    for (int i = 0; i < t->n; i++)
        if (rt_match(r, t->v[i]) >= 0 &&
            (n->guard == NULL || i + 1 < t->n || n->guard(r)))
            return 1;
    return 0;
}

/* ---- loops: serial replication and feedback -------------------------- */

/* One run of a loop (a record fed to a star or feedback instance, or a
 * feedback's initialisers): the records that went deeper than
 * RCK_SNET_DEPTH levels wait in its queue (FIFO) with their level. */
typedef struct {
    rt_inst_t *in;
    rt_sink_t *out;
    rcksnet_record_t **r;
    int *level;
    int head, n, cap;
} loop_t;

/* the sink after a star's stage (level - 1) or a feedback's body; a
 * star's can be kept when the star's outputs go to the network's output
 * (the merge point of its levels' exits: only the output keeps the one-UE
 * order), with a loop of its own on the heap (loop_keep) */
typedef struct {
    rt_sink_t s;
    loop_t *loop;
    int level, depth; /* depth: levels on the stack since the run began */
    int refs;         /* a kept copy's references; 0: in a frame */
} loop_k;

static rt_sink_t *loop_keep(rt_sink_t *s);

static int loop_wait(loop_t *l, rcksnet_record_t *r, int level)
{
    if (l->n == set_stream)
        return 0;
    if (l->n == l->cap) { /* grows to at most RCK_SNET_STREAM, as a ring */
        int cap = l->cap ? 2 * l->cap : 16;
        if (cap > set_stream)
            cap = set_stream;
        rcksnet_record_t **nr = rt_alloc(cap * sizeof(*nr));
        int *nl = rt_alloc(cap * sizeof(*nl));
        for (int i = 0; i < l->n; i++) {
            nr[i] = l->r[(l->head + i) % l->cap];
            nl[i] = l->level[(l->head + i) % l->cap];
        }
        free(l->r);
        free(l->level);
        l->r = nr;
        l->level = nl;
        l->head = 0;
        l->cap = cap;
    }
    int at = (l->head + l->n) % l->cap;
    l->r[at] = r;
    l->level[at] = level;
    l->n++;
    return 1;
}

/* stage i of a star, made on demand; what the initialisers of a new
 * stage emit joins the stage's outputs */
static rt_inst_t *stage(rt_inst_t *in, int i, rt_sink_t *next)
{
    if (i == in->nv) {
        if (in->nv == in->cap) {
            in->cap = in->cap ? 2 * in->cap : 4;
            in->v = rt_realloc(in->v, in->cap * sizeof(*in->v));
        }
        in->v[in->nv++] = rt_inst_new(in->node->a);
        rt_start(in->v[i], next);
    }
    return in->v[i];
}

static void loop_step(loop_t *l, int level, int depth, rcksnet_record_t *r);

static void loop_drain(loop_t *l);

static void loop_put(rt_sink_t *s, rcksnet_record_t *r)
{
    loop_k *k = (loop_k *)s;
    loop_step(k->loop, k->level, k->depth, r);
}

/* a kept loop's record (the output of an asynchronous call in the star,
 * run on by the dispatcher): from the top of the stack */
static void loop_put_kept(rt_sink_t *s, rcksnet_record_t *r)
{
    loop_k *k = (loop_k *)s;
    loop_step(k->loop, k->level, 0, r);
    loop_drain(k->loop);
}

static void loop_drop(rt_sink_t *s)
{
    loop_k *k = (loop_k *)s;
    if (--k->refs > 0)
        return;
    rt_sink_drop(k->loop->out);
    free(k->loop);
    free(k);
}

static rt_sink_t *loop_keep(rt_sink_t *s)
{
    loop_k *k = (loop_k *)s;
    if (k->refs > 0) {
        k->refs++;
        return s;
    }
    if (k->loop->in->node->kind != N_STAR)
        return NULL; /* feedback: its body's input is a merge point */
    rt_sink_t *out = rt_sink_keep(k->loop->out);
    if (out != rt_async_out) {
        rt_sink_drop(out);
        return NULL;
    }
    loop_k *c = rt_alloc(sizeof(*c));
    c->loop = rt_alloc(sizeof(*c->loop));
    c->loop->in = k->loop->in;
    c->loop->out = out;
    c->s.put = loop_put_kept;
    c->s.keep = loop_keep;
    c->s.drop = loop_drop;
    c->level = k->level;
    c->refs = 1;
    return &c->s;
}

/* r reaches level (a star's stage; a feedback's round) */
static void loop_step(loop_t *l, int level, int depth, rcksnet_record_t *r)
{
    const rcksnet_node_t *n = l->in->node;
    int star = n->kind == N_STAR;
    if (star ? leaves(n, r) : level > 0 && !leaves(n, r)) {
        l->out->put(l->out, r);
        return;
    }
    if (depth >= set_depth && loop_wait(l, r, level))
        return;
    stack_check(n->loc);
    loop_k k = {{loop_put, loop_keep, NULL}, l, level + 1, depth + 1, 0};
    rt_run(star ? stage(l->in, level, &k.s) : l->in->a, r, &k.s);
}

static void loop_drain(loop_t *l)
{
    while (l->n > 0) {
        rcksnet_record_t *r = l->r[l->head];
        int level = l->level[l->head];
        l->head = (l->head + 1) % l->cap;
        l->n--;
        loop_step(l, level, 0, r); /* from the top of the stack again */
    }
    free(l->r);
    free(l->level);
    l->r = NULL;
    l->level = NULL;
    l->head = l->cap = 0;
}

static void run_loop(rt_inst_t *in, rcksnet_record_t *r, rt_sink_t *out)
{
    loop_t l = {in, out, NULL, NULL, 0, 0, 0};
    loop_step(&l, 0, 0, r);
    loop_drain(&l);
}

static void run_split(rt_inst_t *in, rcksnet_record_t *r, rt_sink_t *out)
{
    const rcksnet_node_t *n = in->node;
    merge_k m = {{merge_put, merge_keep, NULL}, out};
    if (rt_async)
        out = &m.s;
    rt_ent_t *t = rt_find(r, RCKSNET_TAG, n->label);
    if (t == NULL)
        refuse_named(n, r, "the index split on <%s>", rt_label_name(n->label));
    int lo = 0, hi = in->nv; /* replicas sorted by tag value */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (in->keys[mid] < t->tag)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == in->nv || in->keys[lo] != t->tag) {
        if (in->nv == in->cap) {
            in->cap = in->cap ? 2 * in->cap : 4;
            in->v = rt_realloc(in->v, in->cap * sizeof(*in->v));
            in->keys = rt_realloc(in->keys, in->cap * sizeof(*in->keys));
        }
        memmove(in->v + lo + 1, in->v + lo, (in->nv - lo) * sizeof(*in->v));
        memmove(in->keys + lo + 1, in->keys + lo,
                (in->nv - lo) * sizeof(*in->keys));
        if (n->place == -2 && rt_dist_mode != RT_DIST_NODIST &&
            rt_dist_target(t->tag) != rt_dist_ue) {
            in->v[lo] = rt_alloc(sizeof(rt_inst_t)); /* !@: made there */
            in->v[lo]->node = n->a;
            rt_dist_proxy(in->v[lo], rt_dist_target(t->tag));
        } else {
            in->v[lo] = rt_inst_new(n->a);
        }
        in->keys[lo] = t->tag;
        in->nv++;
        /* a new replica's initialisers; what they emit may come back
         * here (a feedback loop) and add replicas before this one */
        rt_inst_t *rep = in->v[lo];
        rt_start(rep, out);
        rt_run(rep, r, out);
        return;
    }
    rt_run(in->v[lo], r, out);
}

/* the sink after the left operand of a serial composition; kept (for an
 * asynchronous call before it), a copy on the heap with its own out kept,
 * shared by reference count */
typedef struct {
    rt_sink_t s;
    rt_inst_t *b;
    rt_sink_t *out;
    int refs; /* a kept copy's references; 0: in a frame */
} serial_k;

static void serial_put(rt_sink_t *s, rcksnet_record_t *r)
{
    serial_k *k = (serial_k *)s;
    rt_run(k->b, r, k->out);
}

static void serial_drop(rt_sink_t *s)
{
    serial_k *k = (serial_k *)s;
    if (--k->refs > 0)
        return;
    rt_sink_drop(k->out);
    free(k);
}

static rt_sink_t *serial_keep(rt_sink_t *s)
{
    serial_k *k = (serial_k *)s;
    if (k->refs > 0) {
        k->refs++;
        return s;
    }
    rt_sink_t *out = rt_sink_keep(k->out);
    if (out == NULL)
        return NULL;
    serial_k *c = rt_alloc(sizeof(*c));
    c->s.put = serial_put;
    c->s.keep = serial_keep;
    c->s.drop = serial_drop;
    c->b = k->b;
    c->out = out;
    c->refs = 1;
    return &c->s;
}

/* Initialisers fire once, when their instance's network starts: at the
 * program's start, or when a star or split makes the replica. */
void rt_start(rt_inst_t *in, rt_sink_t *out)
{
    const rcksnet_node_t *n = in->node;
    if (in->remote >= 0) {
        if (starts(n))
            rt_dist_start(in, out);
        return;
    }
    switch (n->kind) {
    case N_INIT: {
        rcksnet_record_t *none = rcksnet_record_new();
        rt_call_t call = {RT_CALL_MAGIC, n, none, out};
        n->box(&call, none);
        call.magic = 0;
        rt_record_free(none);
        return;
    }
    case N_SERIAL: {
        serial_k k = {{serial_put, serial_keep, NULL}, in->b, out, 0};
        rt_start(in->a, &k.s);
        rt_start(in->b, out);
        return;
    }
    case N_PAR:
        for (int i = 0; i < in->nv; i++)
            rt_start(in->v[i], out);
        return;
    case N_FEEDBACK: { /* what it emits goes round as the body's output does */
        loop_t l = {in, out, NULL, NULL, 0, 0, 0};
        loop_k k = {{loop_put, loop_keep, NULL}, &l, 1, 1, 0};
        rt_start(in->a, &k.s);
        loop_drain(&l);
        return;
    }
    case N_NET:
    case N_PLACE:
        rt_start(in->a, out);
        return;
    default:
        return;
    }
}

int rt_trace; /* RCKSNET_TRACE=1: every record each construct gets */

static const char *const kind_names[] = {
    "identity", "initialiser", "box", "filter", "sync", "serial",
    "parallel", "star", "split", "feedback", "net", "placement"};

static void __attribute__((noinline))
trace(const rcksnet_node_t *n, const rcksnet_record_t *r)
{
    char buf[512];
    fprintf(stderr, "rcksnet: %s %s%s%s gets %s\n", n->loc,
            kind_names[n->kind], n->name ? " " : "", n->name ? n->name : "",
            rt_record_str(r, buf, sizeof(buf)));
}

void rt_run(rt_inst_t *in, rcksnet_record_t *r, rt_sink_t *out)
{
    const rcksnet_node_t *n = in->node;
    if (in->remote >= 0) {
        rt_dist_run(in, r, out);
        return;
    }
    if (rt_trace && n->kind != N_SERIAL)
        trace(n, r);
    switch (n->kind) {
    case N_IDENTITY:
        out->put(out, r);
        return;
    case N_INIT:
        refuse(n, r, "initialiser box");
    case N_BOX:
        run_box(n, r, out);
        return;
    case N_FILTER: {
        if (rt_match(r, n->in) < 0)
            refuse_in(n, r, "the filter");
        rcksnet_out_t o = {out};
        n->filter(r, &o);
        rt_record_free(r);
        return;
    }
    case N_SYNC:
        run_sync(in, r, out);
        return;
    case N_SERIAL: {
        serial_k k = {{serial_put, serial_keep, NULL}, in->b, out, 0};
        rt_run(in->a, r, &k.s);
        return;
    }
    case N_PAR:
        run_par(in, r, out);
        return;
    case N_STAR:
    case N_FEEDBACK:
        run_loop(in, r, out);
        return;
    case N_SPLIT:
        run_split(in, r, out);
        return;
    case N_NET:
        if (n->type != NULL && rt_match_type(r, n->type) < 0)
            refuse_named(n, r, "network %s", n->name);
        rt_run(in->a, r, out);
        return;
    case N_PLACE:
        rt_run(in->a, r, out);
        return;
    }
    rt_fatal("%s: unknown construct %d", n->loc, n->kind);
}
