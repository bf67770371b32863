/*
 * rt.h: librcksnet's internals (records, labels, lists, errors), shared by
 * the files of the runtime. The API generated code calls is
 * include/snet/rcksnet.h; docs/SNET.md describes the design.
 */
#ifndef RCKSNET_RT_H
#define RCKSNET_RT_H

#include <stdarg.h>
#include <stddef.h>

#include "snet/rcksnet.h"

typedef struct {
    int kind;
    int label;
    int tag;               /* tags and binding tags */
    c4snet_data_t *field;  /* fields (a reference) */
} rt_ent_t;

struct rcksnet_record {
    int n, cap;
    rt_ent_t *e;
};

/* A list of records. */
typedef struct {
    int n, cap;
    rcksnet_record_t **r;
} rt_list_t;

/* Where an entity's outputs go: the rest of the network after it. A record
 * an entity emits is handed to its sink at once and run on depth-first
 * (docs/SNET.md, "Scheduling"); a sink takes the record.
 *
 * Most sinks live in the frame of the call that made them. UE 0's
 * asynchronous calls (dist.c, "Cores in parallel") need a continuation that
 * outlives the call: keep returns one (on the heap, or the sink itself if it
 * is static), or NULL if this sink cannot be kept (a loop's, a reply's, one
 * past a merge: the call then stays synchronous); keep NULL: cannot. drop
 * releases a kept sink (NULL: nothing to release). A kept sink never
 * changes (shared, reference counted). */
typedef struct rt_sink rt_sink_t;
struct rt_sink {
    void (*put)(rt_sink_t *self, rcksnet_record_t *r);
    rt_sink_t *(*keep)(rt_sink_t *self);
    void (*drop)(rt_sink_t *self);
};
/* s->keep(s), or NULL if s cannot be kept; rt_sink_drop: s->drop(s) */
rt_sink_t *rt_sink_keep(rt_sink_t *s);
void rt_sink_drop(rt_sink_t *s);
/* UE 0 keeps continuations (RCK_SNET_ASYNC=on with a distribution layer):
 * the merge points (a parallel composition's, a split's shared output) are
 * then wrapped so that only the network's output is kept past them */
extern int rt_async;
extern rt_sink_t *rt_async_out; /* the network's output sink (UE 0) */

struct rcksnet_out {
    rt_sink_t *sink;
};

/* Errors: print "rcksnet: ..." and end the program (status 1). */
void rt_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2),
                                                   noreturn));
void *rt_alloc(size_t size);
void *rt_realloc(void *p, size_t size);

/* Labels: the program's, then those met in the input. */
void rt_labels_init(const char *const *labels, int n);
int rt_label_id(const char *name); /* interned */
const char *rt_label_name(int id);
void rt_labels_free(void);

/* Records. */
rt_ent_t *rt_find(const rcksnet_record_t *r, int kind, int label);
void rt_add(rcksnet_record_t *r, const rt_ent_t *e); /* takes the field */
void rt_record_free(rcksnet_record_t *r); /* kept for reuse (a few) */
void rt_records_release(void);             /* frees the ones kept */
/* -1 if r does not match v, else the number of entries v names */
int rt_match(const rcksnet_record_t *r, const rcksnet_variant_t *v);
/* the best score of r over t's variants, -1 if none matches */
int rt_match_type(const rcksnet_record_t *r, const rcksnet_type_t *t);
/* copy onto out the entries of in that pattern does not name and out lacks */
void rt_inherit(rcksnet_record_t *out, const rcksnet_record_t *in,
                const rcksnet_variant_t *pattern);
/* "{A, <T>=3}" into buf */
const char *rt_record_str(const rcksnet_record_t *r, char *buf, size_t size);
const char *rt_variant_str(const rcksnet_variant_t *v, char *buf,
                           size_t size);

void rt_list_push(rt_list_t *l, rcksnet_record_t *r);
void rt_list_free(rt_list_t *l);

/* Fields: textual form. */
void rt_field_write(FILE *f, c4snet_data_t *d);
/* parse "(type[n])v,v,..." from text; NULL and *why on error */
c4snet_data_t *rt_field_parse(const char *text, const char **why);

/* The box being called (C4SNetOut's handle). */
typedef struct {
    unsigned magic;
    const rcksnet_node_t *box;
    const rcksnet_record_t *in;
    rt_sink_t *out;
} rt_call_t;
#define RT_CALL_MAGIC 0x5e7b0c5u
const rcksnet_type_t *rt_box_out(const rcksnet_node_t *box,
                                 const char **name);
const rcksnet_variant_t *rt_box_in(const rcksnet_node_t *box);

/* The network's instances. */
typedef struct rt_inst rt_inst_t;
struct rt_inst {
    const rcksnet_node_t *node;
    rt_inst_t *a, *b;
    rt_inst_t **v;          /* par: branches; star: stages; split: replicas */
    int *keys;              /* split: the tag value of each replica */
    int nv, cap;
    rcksnet_record_t **stored; /* sync */
    int fired;
    int remote;             /* a proxy: the UE the component runs on; -1 */
    unsigned conn;          /* a proxy's connection id */
};
rt_inst_t *rt_inst_new(const rcksnet_node_t *node);
void rt_inst_free(rt_inst_t *in);
/* frees every description the constructors made */
void rt_nodes_free(void);
extern int rt_trace;
/* start: what the initialiser boxes emit, run on to the outputs */
void rt_start(rt_inst_t *in, rt_sink_t *out);
/* feed one record; every output is handed to out as it is made */
void rt_run(rt_inst_t *in, rcksnet_record_t *r, rt_sink_t *out);
/* The settings (docs/SNET.md, "Scheduling"; settings.c lists them). */
#define RT_SNET_DEPTH_DEFAULT 256
#define RT_SNET_DEPTH_MAX 100000
#define RT_SNET_STREAM_DEFAULT 1024
#define RT_SNET_STREAM_MAX 16777216
/* the settings RCK_SNET_DEPTH and RCK_SNET_STREAM, read and checked (a bad
 * value stops the program naming it); the stack guard counts from the
 * caller of rt_stack_base (the stack's limit read once) */
void rt_settings_load(void);
void rt_stack_base(void);

/* The distribution layer (dist.c; docs/SNET.md, "Across the chip"). */
enum { RT_DIST_NODIST = 0, RT_DIST_SCC = 1, RT_DIST_MPI = 2 };
extern int rt_dist_mode, rt_dist_ue, rt_dist_nues;
extern int node_location; /* this UE, for era box code */
int rt_dist_parse(void);       /* RCK_SNET_DIST, checked */
/* before RCCE_init; mpi: MPI_Init (and no RCCE) */
void rt_dist_init(int mode, int *argc, char ***argv);
void rt_dist_labels(int n);    /* the program's labels: same ids everywhere */
int rt_dist_target(int at);    /* the UE of placement at (mod the UEs) */
void rt_dist_proxy(rt_inst_t *in, int ue);
void rt_dist_start(rt_inst_t *in, rt_sink_t *out);
void rt_dist_run(rt_inst_t *in, rcksnet_record_t *r, rt_sink_t *out);
void rt_dist_serve(void);      /* UEs other than 0: serve until STOP */
void rt_dist_stop(void);
/* UE 0's output with asynchronous calls (dist.c, "Cores in parallel"):
 * the network's output sink and the function writing a record; hold: 1 if
 * the record was queued behind an outstanding call; drain: wait for every
 * outstanding call and write what is queued */
void rt_dist_set_output(rt_sink_t *out, void (*write)(rcksnet_record_t *r));
int rt_dist_hold(rcksnet_record_t *r);
void rt_dist_drain(void);
const rcksnet_node_t *rt_node_by_id(int id);
/* Long fields in LUT pages (dist.c; docs/SNET.md, "Long fields through the
 * LUTs"): a field of more than RT_LUT_MIN bytes is allocated in this UE's
 * own LUT pages when the scc layer's mode (RCK_SNET_SCC) is copy or remap.
 * rt_dist_lut_alloc: its bytes' address and a handle (>= 0), or NULL;
 * rt_dist_lut_bind tells the handle its field; rt_dist_lut_release is
 * called when the field's last reference goes. */
#define RT_LUT_MIN (64u << 10)
void *rt_dist_lut_alloc(size_t bytes, int *handle);
void rt_dist_lut_bind(int handle, c4snet_data_t *field);
void rt_dist_lut_release(int handle);
/* a field of another UE (handle) read for the first time: its bytes
 * (@p handle becomes the field's new handle or -1; @p ext_free: malloc'd) */
void *rt_dist_lut_fetch(int handle, size_t bytes, int *newhandle,
                        int *ext_free);
/* the field's handle (-1: none); a field whose bytes are at p (not its
 * own), with a handle */
int rt_field_lut(c4snet_data_t *d);
c4snet_data_t *rt_field_wrap(c4snet_type_t type, size_t n, void *p,
                             int handle);
int rt_node_id(const rcksnet_node_t *n);

/* Textual record I/O. */
typedef struct rt_reader rt_reader_t;
rt_reader_t *rt_reader_new(FILE *f, const char *name);
/* 1: a record in *r; 0: terminate or end of input */
int rt_reader_next(rt_reader_t *rd, rcksnet_record_t **r);
void rt_reader_free(rt_reader_t *rd);
void rt_record_write(FILE *f, const rcksnet_record_t *r);
void rt_terminate_write(FILE *f);

#endif /* RCKSNET_RT_H */
