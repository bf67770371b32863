/*
 * ast.h: rck-snetc's syntax tree of an S-Net network file, the type
 * checker's types and the entry points of the compiler's passes.
 */
#ifndef RCK_SNETC_AST_H
#define RCK_SNETC_AST_H

#include <stdio.h>

typedef struct {
    int line, col;
} loc_t;

enum { E_FIELD = 0, E_TAG = 1, E_BTAG = 2 };

/* An entry of a variant or a box tuple (kind and label). */
typedef struct {
    int kind;
    char *name;
} ent_t;

/* A variant: entries in written order (a box's: argument order). */
typedef struct {
    int n, cap;
    ent_t *e;
    loc_t loc;
} variant_t;

/* A type: variants. */
typedef struct {
    int n, cap;
    variant_t **v;
} vtype_t;

/* Tag expressions. */
enum { X_NUM, X_TAG, X_UN, X_BIN, X_COND, X_CALL }; /* X_CALL op: a(bs) mi(n) ma(x) */
typedef struct expr {
    int kind, op; /* op: the token or character of the operator */
    int val;
    char *name;   /* X_TAG: the tag (binding tags with btag set) */
    int btag;
    struct expr *a, *b, *c;
    loc_t loc;
} expr_t;

/* An entry of a filter's output record: a field (from src, or its own
 * name), or a tag or binding tag (from an expression or its own name). */
typedef struct {
    int kind;
    char *name, *src;
    expr_t *val;
    loc_t loc;
} item_t;

typedef struct {
    int n, cap;
    item_t *it;
    loc_t loc;
} outrec_t;

/* One guarded (or, last, unguarded) action: output records. */
typedef struct {
    expr_t *guard;
    int n, cap;
    outrec_t **r;
} action_t;

typedef struct {
    variant_t *in;
    int n, cap;
    action_t **a;
    int identity; /* [] */
} filter_t;

enum { C_REF, C_FILTER, C_SYNC, C_SERIAL, C_PAR, C_STAR, C_SPLIT, C_FEEDBACK,
       C_PLACE };

typedef struct net net_t;
typedef struct box box_t;

typedef struct nexp {
    int kind;
    loc_t loc;
    char *name;           /* C_REF: the box or net; C_SPLIT: the tag */
    struct nexp *a, *b;
    int det, place, placed_split;
    vtype_t *pattern;     /* C_STAR, C_FEEDBACK: the exit/back patterns */
    expr_t *guard;
    filter_t *filter;
    vtype_t *sync;        /* C_SYNC: patterns */
    expr_t **sync_guards;
    /* resolved by the checker */
    box_t *box;
    net_t *net;
    int id;
    vtype_t *accepts;      /* inferred, with what later components need */
    vtype_t *accepts_base; /* what its first component accepts */
    char *reached;         /* C_SYNC: which patterns a reaching type matched */
} nexp_t;

struct box {
    char *name;
    loc_t loc;
    variant_t *in;
    vtype_t *out;
    int used, id;
    int init; /* box b( -> ...): an initialiser, fired once at the start */
};

/* A net signature's mapping. */
typedef struct {
    vtype_t *in, *out;
} sigmap_t;

struct net {
    char *name;
    loc_t loc;
    int nsig;
    sigmap_t *sig;
    int nbox, nnet;
    box_t **boxes;
    net_t **nets;
    net_t *parent;
    nexp_t *body;
    int id, checking, checked;
    vtype_t *accepts, *accepts_base;
};

/* parse.y */
extern const char *snetc_file;
extern net_t **snetc_nets; /* the top-level networks */
extern int snetc_nnets;
int snetc_parse_file(const char *path);

/* util */
void *xalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
void error_at(loc_t loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
extern int snetc_errors, snetc_quiet;
void warning_at(loc_t loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

variant_t *variant_new(loc_t loc);
void variant_add(variant_t *v, int kind, char *name);
vtype_t *vtype_new(void);
void vtype_add(vtype_t *t, variant_t *v);
const char *variant_str(const variant_t *v, char *buf, size_t size);

/* check.c: what a component accepts only by its first component */
vtype_t *snetc_accepts_base(nexp_t *e);
/* check.c: resolve names, infer and check types. 0 if fine. */
int snetc_check(net_t *top);

/* gen.c: the C program for the network top. */
int snetc_generate(net_t *top, FILE *out, const char *src);

#endif /* RCK_SNETC_AST_H */
