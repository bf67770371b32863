/*
 * rcksnet.h: the S-Net runtime (librcksnet) as the code rck-snetc
 * generates calls it. A program builds a description of its network from
 * the constructors below (one per construct); the runtime instantiates it,
 * dynamic parts (serial replication, index split) on demand, reads records
 * in the textual record format from stdin and writes the output records to
 * stdout. Not meant to be written by hand: docs/SNET.md.
 */
#ifndef RCK_RCKSNET_H
#define RCK_RCKSNET_H

#include <stdio.h>

#include "C4SNet.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* Entry kinds of a record. */
enum { RCKSNET_FIELD = 0, RCKSNET_TAG = 1, RCKSNET_BTAG = 2 };

typedef struct {
    int kind;  /* RCKSNET_FIELD, _TAG, _BTAG */
    int label; /* index into the program's label table */
} rcksnet_entry_t;

/* A variant: a set of entries (for a box: in signature order). */
typedef struct {
    int n;
    const rcksnet_entry_t *e;
} rcksnet_variant_t;

/* A type: one or more variants. */
typedef struct {
    int n;
    const rcksnet_variant_t *const *v;
} rcksnet_type_t;

typedef struct rcksnet_record rcksnet_record_t;
typedef struct rcksnet_node rcksnet_node_t;
/* Where a filter or a box's wrapper puts the records it emits. */
typedef struct rcksnet_out rcksnet_out_t;

/* A box's wrapper: unpacks the record's matched entries into the box's
 * arguments (rcksnet_take_field, rcksnet_tag) and calls it with hnd. */
typedef void (*rcksnet_boxfn_t)(void *hnd, rcksnet_record_t *rec);
/* A filter's body: reads the input's tags and fields, builds its output
 * records and emits them (rcksnet_emit). */
typedef void (*rcksnet_filterfn_t)(rcksnet_record_t *in, rcksnet_out_t *out);
/* A guard on a record's tags: non-zero if it holds. */
typedef int (*rcksnet_guardfn_t)(const rcksnet_record_t *rec);

/* Constructors (loc: "file:line:column" of the construct, for errors). */
rcksnet_node_t *rcksnet_box(const char *name, const char *loc,
                            rcksnet_boxfn_t fn, const rcksnet_variant_t *in,
                            const rcksnet_type_t *out);
rcksnet_node_t *rcksnet_filter(const char *loc, const rcksnet_variant_t *in,
                               rcksnet_filterfn_t fn);
/* an initialiser box (box b( -> ...)): called once when the network
 * starts, with no input */
rcksnet_node_t *rcksnet_init_box(const char *name, const char *loc,
                                 rcksnet_boxfn_t fn,
                                 const rcksnet_variant_t *in,
                                 const rcksnet_type_t *out);
/* the identity filter [] (every record passes unchanged) */
rcksnet_node_t *rcksnet_identity(const char *loc);
/* patterns[i] with guards[i] (NULL: none) */
rcksnet_node_t *rcksnet_sync(const char *loc, const rcksnet_type_t *patterns,
                             const rcksnet_guardfn_t *guards);
rcksnet_node_t *rcksnet_serial(const char *loc, rcksnet_node_t *a,
                               rcksnet_node_t *b);
/* A record goes to the branch i whose accepts[i] it matches best (the
 * types inferred through the branch); if it matches none, to the branch
 * whose first[i] (what the branch's first component accepts) it matches
 * best. Ties go to the first branch. */
rcksnet_node_t *rcksnet_parallel(const char *loc, int det, int n,
                                 rcksnet_node_t *const *branches,
                                 const rcksnet_type_t *const *accepts,
                                 const rcksnet_type_t *const *first);
/* star and feedback: exit (back) patterns; guard (NULL: none) belongs to
 * the last of them */
rcksnet_node_t *rcksnet_star(const char *loc, int det, rcksnet_node_t *body,
                             const rcksnet_type_t *exit,
                             rcksnet_guardfn_t guard);
rcksnet_node_t *rcksnet_split(const char *loc, int det, rcksnet_node_t *body,
                              int tag_label);
rcksnet_node_t *rcksnet_feedback(const char *loc, int det,
                                 rcksnet_node_t *body,
                                 const rcksnet_type_t *back,
                                 rcksnet_guardfn_t guard);
/* A named network: its input type (for the error a record it does not
 * accept gets), and the placement kept for the distribution layer
 * (node < 0: none). */
rcksnet_node_t *rcksnet_net(const char *name, const char *loc,
                            rcksnet_node_t *body,
                            const rcksnet_type_t *accepts);
rcksnet_node_t *rcksnet_place(const char *loc, rcksnet_node_t *body,
                              int node);
rcksnet_node_t *rcksnet_place_split(const char *loc, int det,
                                    rcksnet_node_t *body, int tag_label);

/* Record access for generated code. */
int rcksnet_tag(const rcksnet_record_t *rec, int label);
int rcksnet_btag(const rcksnet_record_t *rec, int label);
/* the tag's (kind RCKSNET_TAG or _BTAG) value, 0 if the record lacks it */
int rcksnet_tag_or_zero(const rcksnet_record_t *rec, int kind, int label);
/* the field, taken out of the record (the caller owns it) */
c4snet_data_t *rcksnet_take_field(rcksnet_record_t *rec, int label);
/* one more reference to the field, left in the record */
c4snet_data_t *rcksnet_ref_field(const rcksnet_record_t *rec, int label);
rcksnet_record_t *rcksnet_record_new(void);
void rcksnet_set_tag(rcksnet_record_t *rec, int kind, int label, int value);
void rcksnet_set_field(rcksnet_record_t *rec, int label, c4snet_data_t *f);
/* A filter emits out_rec built for input in matched by pattern: the entries
 * of in that pattern does not name are inherited (flow inheritance). */
void rcksnet_emit(rcksnet_out_t *out, const rcksnet_record_t *in,
                  const rcksnet_variant_t *pattern,
                  rcksnet_record_t *out_rec);
/* Integer division and remainder of tag expressions, refusing zero with an
 * error that names the construct. */
int rcksnet_div(int a, int b, const char *loc);
int rcksnet_mod(int a, int b, const char *loc);
/* abs, min and max of tag expressions */
static inline int rcksnet_abs(int a) { return a < 0 ? -a : a; }
static inline int rcksnet_min(int a, int b) { return a < b ? a : b; }
static inline int rcksnet_max(int a, int b) { return a > b ? a : b; }

/* Embedding: a network instance fed records from C (no record format). */
typedef struct rcksnet_instance rcksnet_instance_t;
typedef void (*rcksnet_emitfn_t)(void *arg, rcksnet_record_t *rec);
/* labels as for rcksnet_main; net: a description built by the constructors.
 * Initialiser boxes fire here, their records given to emit. */
rcksnet_instance_t *rcksnet_instance_new(const char *const *labels,
                                         int nlabels, rcksnet_node_t *net,
                                         rcksnet_emitfn_t emit, void *arg);
/* Runs rec (which it takes) through the network; each output record is
 * given to emit, which owns it (rcksnet_record_free). */
void rcksnet_instance_feed(rcksnet_instance_t *inst, rcksnet_record_t *rec);
/* frees the instance, and every description the constructors made */
void rcksnet_instance_free(rcksnet_instance_t *inst);
void rcksnet_record_free(rcksnet_record_t *rec);

/* The program: labels[0..nlabels) are the labels the network names; build
 * returns the top network. Runs the network inside this UE: records from
 * stdin to stdout. Returns the exit status. */
int rcksnet_main(int argc, char **argv, const char *const *labels,
                 int nlabels, rcksnet_node_t *(*build)(void));

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* RCK_RCKSNET_H */
