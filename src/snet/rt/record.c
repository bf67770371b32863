/*
 * record.c: fields (the C4SNet interface's data), records, labels and the
 * runtime's error exit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

struct cdata {
    int ref;
    c4snet_type_t type;
    size_t n;
    void *ext; /* the elements when not in data[]: in a LUT page (or
                * malloc'd: ext_free), NULL with a handle: not fetched */
    int lut;   /* its handle (dist.c), or -1 */
    int ext_free;
    union {
        long double ld;
        void *p;
        long l;
    } data[]; /* the elements, aligned for every type */
};

void rt_fatal(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("rcksnet: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_FAILURE);
}

void *rt_alloc(size_t size)
{
    void *p = calloc(1, size ? size : 1);
    if (p == NULL)
        rt_fatal("out of memory (%zu bytes)", size);
    return p;
}

void *rt_realloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (q == NULL)
        rt_fatal("out of memory (%zu bytes)", size);
    return q;
}

/* ---- C4SNet ---------------------------------------------------------- */

static size_t type_size(c4snet_type_t t)
{
    switch (t) {
    case CTYPE_uchar: return sizeof(unsigned char);
    case CTYPE_char: return sizeof(signed char);
    case CTYPE_ushort: return sizeof(unsigned short);
    case CTYPE_short: return sizeof(short);
    case CTYPE_uint: return sizeof(unsigned int);
    case CTYPE_int: return sizeof(int);
    case CTYPE_ulong: return sizeof(unsigned long);
    case CTYPE_long: return sizeof(long);
    case CTYPE_float: return sizeof(float);
    case CTYPE_double: return sizeof(double);
    case CTYPE_ldouble: return sizeof(long double);
    case CTYPE_pointer: return sizeof(void *);
    }
    rt_fatal("C4SNet: unknown element type %d", (int)t);
}

void C4SNetInit(int id, snet_distrib_t distImpl)
{
    (void)id;
    (void)distImpl;
}

c4snet_data_t *C4SNetAlloc(c4snet_type_t type, size_t size, void **data)
{
    size_t es = type_size(type);
    if (size != 0 && es > (SIZE_MAX - sizeof(c4snet_data_t)) / size)
        rt_fatal("C4SNetAlloc: %zu elements of %zu bytes do not fit", size,
                 es);
    int h = -1;
    void *page = NULL;
    if (es * size > RT_LUT_MIN && rt_dist_mode == RT_DIST_SCC)
        page = rt_dist_lut_alloc(es * size, &h);
    if (page != NULL) {
        if (data != NULL)
            *data = page;
        return rt_field_wrap(type, size, page, h);
    }
    c4snet_data_t *d = malloc(sizeof(*d) + es * size);
    if (d == NULL)
        rt_fatal("C4SNetAlloc: out of memory (%zu elements of %zu bytes)",
                 size, es);
    d->ref = 1;
    d->type = type;
    d->n = size;
    d->ext = NULL;
    d->lut = -1;
    d->ext_free = 0;
    if (data != NULL)
        *data = d->data;
    return d;
}

c4snet_data_t *rt_field_wrap(c4snet_type_t type, size_t n, void *p,
                             int handle)
{
    c4snet_data_t *d = malloc(sizeof(*d));
    if (d == NULL)
        rt_fatal("C4SNetAlloc: out of memory");
    d->ref = 1;
    d->type = type;
    d->n = n;
    d->ext = p;
    d->lut = handle;
    d->ext_free = 0;
    rt_dist_lut_bind(handle, d);
    return d;
}

int rt_field_lut(c4snet_data_t *d)
{
    return d->lut;
}

c4snet_data_t *C4SNetCreate(c4snet_type_t type, size_t size, const void *data)
{
    void *p;
    c4snet_data_t *d = C4SNetAlloc(type, size, &p);
    if (size > 0)
        memcpy(p, data, size * type_size(type));
    return d;
}

void C4SNetFree(c4snet_data_t *ptr)
{
    if (ptr != NULL && --ptr->ref == 0) {
        if (ptr->lut >= 0)
            rt_dist_lut_release(ptr->lut);
        if (ptr->ext_free)
            free(ptr->ext);
        free(ptr);
    }
}

c4snet_data_t *C4SNetShallowCopy(c4snet_data_t *ptr)
{
    ptr->ref++;
    return ptr;
}

c4snet_data_t *C4SNetDeepCopy(c4snet_data_t *ptr)
{
    return C4SNetCreate(ptr->type, ptr->n, C4SNetGetData(ptr));
}

int C4SNetSizeof(c4snet_data_t *data)
{
    return (int)type_size(data->type);
}

size_t C4SNetArraySize(c4snet_data_t *data)
{
    return data->n;
}

void *C4SNetGetData(c4snet_data_t *ptr)
{
    if (ptr->ext == NULL && ptr->lut >= 0) {
        /* a field of another UE not fetched yet (lazy, dist.c) */
        int h = ptr->lut;
        ptr->ext = rt_dist_lut_fetch(h, ptr->n * type_size(ptr->type),
                                     &ptr->lut, &ptr->ext_free);
        if (ptr->lut >= 0)
            rt_dist_lut_bind(ptr->lut, ptr);
    }
    return ptr->ext != NULL ? ptr->ext : (void *)ptr->data;
}

c4snet_type_t C4SNetGetType(c4snet_data_t *data)
{
    return data->type;
}

char *C4SNetGetString(c4snet_data_t *data)
{
    if (data->type != CTYPE_char && data->type != CTYPE_uchar)
        rt_fatal("C4SNetGetString: the field holds type %d, not char",
                 (int)data->type);
    char *s = rt_alloc(data->n + 1);
    memcpy(s, C4SNetGetData(data), data->n);
    s[data->n] = '\0';
    return s;
}

void C4SNetOut(void *hnd, int variant, ...)
{
    rt_call_t *c = hnd;
    const char *name;
    if (c == NULL || c->magic != RT_CALL_MAGIC)
        rt_fatal("C4SNetOut: the handle is not the one the box was given");
    const rcksnet_type_t *out = rt_box_out(c->box, &name);
    if (variant < 1 || variant > out->n)
        rt_fatal("C4SNetOut: box %s emits variant %d; its signature has %d",
                 name, variant, out->n);
    const rcksnet_variant_t *v = out->v[variant - 1];
    rcksnet_record_t *r = rcksnet_record_new();
    va_list ap;
    va_start(ap, variant);
    for (int i = 0; i < v->n; i++) {
        rt_ent_t e = {v->e[i].kind, v->e[i].label, 0, NULL};
        if (e.kind == RCKSNET_FIELD) {
            e.field = va_arg(ap, c4snet_data_t *);
            if (e.field == NULL)
                rt_fatal("C4SNetOut: box %s emits a NULL field %s", name,
                         rt_label_name(e.label));
        } else {
            e.tag = va_arg(ap, int);
        }
        rt_ent_t *old = rt_find(r, e.kind, e.label);
        if (old != NULL) { /* a label twice in the variant: the last wins */
            if (old->field)
                C4SNetFree(old->field);
            *old = e;
        } else {
            rt_add(r, &e);
        }
    }
    va_end(ap);
    rt_inherit(r, c->in, rt_box_in(c->box));
    c->out->put(c->out, r); /* runs on through the network now */
}

/* ---- labels ---------------------------------------------------------- */

static char **labels;
static int nlabels, caplabels;

void rt_labels_init(const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        if (rt_label_id(names[i]) != i)
            rt_fatal("label table: '%s' twice", names[i]);
    }
}

int rt_label_id(const char *name)
{
    for (int i = 0; i < nlabels; i++)
        if (!strcmp(labels[i], name))
            return i;
    if (nlabels == caplabels) {
        caplabels = caplabels ? 2 * caplabels : 32;
        labels = rt_realloc(labels, caplabels * sizeof(*labels));
    }
    size_t len = strlen(name) + 1;
    labels[nlabels] = memcpy(rt_alloc(len), name, len);
    return nlabels++;
}

const char *rt_label_name(int id)
{
    return id >= 0 && id < nlabels ? labels[id] : "?";
}

void rt_labels_free(void)
{
    for (int i = 0; i < nlabels; i++)
        free(labels[i]);
    free(labels);
    labels = NULL;
    nlabels = caplabels = 0;
}

/* ---- records --------------------------------------------------------- */

/* Records freed are kept for reuse, up to RT_POOL of them (with their
 * entry arrays): a record run depth-first through a pipeline is freed
 * after the records it caused, so malloc's own caches would not serve. */
#define RT_POOL 64
static rcksnet_record_t *pool[RT_POOL];
static int npool;

rcksnet_record_t *rcksnet_record_new(void)
{
    if (npool > 0)
        return pool[--npool]; /* n == 0, its entry array kept */
    return rt_alloc(sizeof(rcksnet_record_t));
}

void rt_records_release(void)
{
    while (npool > 0) {
        rcksnet_record_t *r = pool[--npool];
        free(r->e);
        free(r);
    }
}

rt_ent_t *rt_find(const rcksnet_record_t *r, int kind, int label)
{
    for (int i = 0; i < r->n; i++)
        if (r->e[i].label == label && r->e[i].kind == kind)
            return &r->e[i];
    return NULL;
}

void rt_add(rcksnet_record_t *r, const rt_ent_t *e)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 8;
        r->e = rt_realloc(r->e, r->cap * sizeof(*r->e));
    }
    r->e[r->n++] = *e;
}

void rt_record_free(rcksnet_record_t *r)
{
    if (r == NULL)
        return;
    for (int i = 0; i < r->n; i++)
        if (r->e[i].field)
            C4SNetFree(r->e[i].field);
    if (npool < RT_POOL && r->cap <= 32) {
        r->n = 0;
        pool[npool++] = r;
        return;
    }
    free(r->e);
    free(r);
}

int rt_match(const rcksnet_record_t *r, const rcksnet_variant_t *v)
{
    int vb = 0, rb = 0;
    for (int i = 0; i < v->n; i++) {
        if (rt_find(r, v->e[i].kind, v->e[i].label) == NULL)
            return -1;
        vb += v->e[i].kind == RCKSNET_BTAG;
    }
    for (int i = 0; i < r->n; i++)
        rb += r->e[i].kind == RCKSNET_BTAG;
    return rb == vb ? v->n : -1;
}

int rt_match_type(const rcksnet_record_t *r, const rcksnet_type_t *t)
{
    int best = -1;
    for (int i = 0; i < t->n; i++) {
        int s = rt_match(r, t->v[i]);
        if (s > best)
            best = s;
    }
    return best;
}

static int names(const rcksnet_variant_t *v, int kind, int label)
{
    for (int i = 0; v != NULL && i < v->n; i++)
        if (v->e[i].kind == kind && v->e[i].label == label)
            return 1;
    return 0;
}

void rt_inherit(rcksnet_record_t *out, const rcksnet_record_t *in,
                const rcksnet_variant_t *pattern)
{
    for (int i = 0; i < in->n; i++) {
        rt_ent_t e = in->e[i];
        if (names(pattern, e.kind, e.label) || rt_find(out, e.kind, e.label))
            continue;
        if (e.field)
            e.field = C4SNetShallowCopy(e.field);
        rt_add(out, &e);
    }
}

static void entry_str(char *buf, size_t size, size_t *len, int kind,
                      int label, const int *val)
{
    const char *name = rt_label_name(label);
    int k;
    if (kind == RCKSNET_FIELD)
        k = snprintf(buf + *len, size - *len, "%s%s", *len > 1 ? ", " : "",
                     name);
    else if (val != NULL)
        k = snprintf(buf + *len, size - *len, "%s<%s%s=%d>",
                     *len > 1 ? ", " : "", kind == RCKSNET_BTAG ? "#" : "",
                     name, *val);
    else
        k = snprintf(buf + *len, size - *len, "%s<%s%s>",
                     *len > 1 ? ", " : "", kind == RCKSNET_BTAG ? "#" : "",
                     name);
    if (k > 0)
        *len = *len + (size_t)k < size ? *len + (size_t)k : size - 1;
}

const char *rt_record_str(const rcksnet_record_t *r, char *buf, size_t size)
{
    size_t len = 1;
    buf[0] = '{';
    buf[1] = '\0';
    for (int i = 0; i < r->n; i++)
        entry_str(buf, size - 1, &len, r->e[i].kind, r->e[i].label,
                  r->e[i].kind == RCKSNET_FIELD ? NULL : &r->e[i].tag);
    strcat(buf, "}");
    return buf;
}

const char *rt_variant_str(const rcksnet_variant_t *v, char *buf,
                           size_t size)
{
    size_t len = 1;
    buf[0] = '{';
    buf[1] = '\0';
    for (int i = 0; i < v->n; i++)
        entry_str(buf, size - 1, &len, v->e[i].kind, v->e[i].label, NULL);
    strcat(buf, "}");
    return buf;
}

void rt_list_push(rt_list_t *l, rcksnet_record_t *r)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->r = rt_realloc(l->r, l->cap * sizeof(*l->r));
    }
    l->r[l->n++] = r;
}

void rt_list_free(rt_list_t *l)
{
    for (int i = 0; i < l->n; i++)
        rt_record_free(l->r[i]);
    free(l->r);
    l->r = NULL;
    l->n = l->cap = 0;
}

/* ---- access for generated code --------------------------------------- */

int rcksnet_tag(const rcksnet_record_t *rec, int label)
{
    rt_ent_t *e = rt_find(rec, RCKSNET_TAG, label);
    if (e == NULL)
        rt_fatal("the record has no tag <%s>", rt_label_name(label));
    return e->tag;
}

int rcksnet_btag(const rcksnet_record_t *rec, int label)
{
    rt_ent_t *e = rt_find(rec, RCKSNET_BTAG, label);
    if (e == NULL)
        rt_fatal("the record has no binding tag <#%s>", rt_label_name(label));
    return e->tag;
}

int rcksnet_tag_or_zero(const rcksnet_record_t *rec, int kind, int label)
{
    rt_ent_t *e = rt_find(rec, kind, label);
    return e != NULL ? e->tag : 0;
}

c4snet_data_t *rcksnet_take_field(rcksnet_record_t *rec, int label)
{
    rt_ent_t *e = rt_find(rec, RCKSNET_FIELD, label);
    if (e == NULL || e->field == NULL)
        rt_fatal("the record has no field %s", rt_label_name(label));
    c4snet_data_t *f = e->field;
    e->field = NULL; /* stays named (for inheritance), owned by the box */
    return f;
}

c4snet_data_t *rcksnet_ref_field(const rcksnet_record_t *rec, int label)
{
    rt_ent_t *e = rt_find(rec, RCKSNET_FIELD, label);
    if (e == NULL || e->field == NULL)
        rt_fatal("the record has no field %s", rt_label_name(label));
    return C4SNetShallowCopy(e->field);
}

void rcksnet_set_tag(rcksnet_record_t *rec, int kind, int label, int value)
{
    rt_ent_t *e = rt_find(rec, kind, label);
    if (e != NULL) {
        e->tag = value;
        return;
    }
    rt_ent_t n = {kind, label, value, NULL};
    rt_add(rec, &n);
}

void rcksnet_set_field(rcksnet_record_t *rec, int label, c4snet_data_t *f)
{
    rt_ent_t *e = rt_find(rec, RCKSNET_FIELD, label);
    if (e != NULL) {
        C4SNetFree(e->field);
        e->field = f;
        return;
    }
    rt_ent_t n = {RCKSNET_FIELD, label, 0, f};
    rt_add(rec, &n);
}

void rcksnet_emit(rcksnet_out_t *out, const rcksnet_record_t *in,
                  const rcksnet_variant_t *pattern, rcksnet_record_t *out_rec)
{
    rt_inherit(out_rec, in, pattern);
    out->sink->put(out->sink, out_rec);
}

int rcksnet_div(int a, int b, const char *loc)
{
    if (b == 0)
        rt_fatal("%s: division by zero in a tag expression", loc);
    return a / b;
}

int rcksnet_mod(int a, int b, const char *loc)
{
    if (b == 0)
        rt_fatal("%s: remainder by zero in a tag expression", loc);
    return a % b;
}
