/*
 * dist.c: the distribution layer (docs/SNET.md, "Across the chip").
 *
 * Every UE builds the same description and runs the same runtime. A
 * placed component (`A @ n`, a replica of `A !@ <t>`) whose UE is not this
 * one is a *proxy* here: a record that reaches it is sent, with its
 * connection id (this UE, a per-UE counter) and the description's node id,
 * to that UE, which makes an instance of the component on the first
 * message of the connection (dynamic instantiation) and runs the record
 * through it; every record the component emits comes back (OUT) and goes
 * on from the proxy into the rest of the network here, then DONE ends the
 * call. While it waits, a UE serves the messages that reach it (records
 * for components placed on it, from any UE), so calls may nest across UEs
 * in any pattern without deadlock. The order of the records is the one-UE
 * run's (depth-first: docs/SNET.md, "Scheduling"), so the output is the
 * same. UE 0 reads the input and writes the output; at the end of the
 * input it sends STOP to every other UE, which frees its instances and
 * returns.
 *
 * Transports: "scc" (include/rck_snetq.h: a ring in the receiver's MPB,
 * long messages by reference through shared DRAM); "mpi" (librckmpi:
 * MPI_Send/MPI_Probe/MPI_Recv on MPI_COMM_WORLD, in librcksnet_mpi only,
 * the runtime built again with RT_WITH_MPI and linked to librckmpi);
 * "nodist" uses none.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rck_snetq.h"
#include "rt.h"
#ifdef RT_WITH_MPI
#include "mpi.h"
#define TAG_SNET 0x5e7 /* the S-Net layer's messages (MPI_COMM_WORLD) */
#endif

int rt_dist_mode;   /* RT_DIST_* */
/* the era's distributed runtimes name the node (UE) code runs on so; box
 * code of the era reads it (extern int node_location) */
__attribute__((visibility("default"))) int node_location;
int rt_dist_ue, rt_dist_nues = 1;
static int prog_labels; /* labels below this are the program's: same ids on
                         * every UE; others travel by name */
static unsigned next_conn;
static int depth; /* calls waiting on this UE */

/* Asynchronous calls (docs/SNET.md, "Cores in parallel"). On UE 0 (the
 * hub), a call to a placed component whose continuation can be kept (the
 * rest of the network after it, up to the output, with no merge point but
 * the output: rt.h, rt_sink_t) does not wait for the component: the record
 * is sent and UE 0 goes on (the next input record, or the outputs of other
 * calls); the component's outputs come back later and are run on into the
 * kept continuation, whose own calls are again asynchronous, so a pipeline
 * across UEs has every stage working at once.
 *
 * INVARIANTS (what keeps the one-UE run's records and order):
 *  - the asynchronous calls to UE u wait in u's queue (outstanding[u] ..
 *    utail[u] by unext, uq[u] of them, at most UE_QUEUE, in issue order);
 *    only the first is sent (the one in progress there), the next as soon
 *    as it ends, so u works on without waiting for UE 0; a synchronous
 *    call to u first waits for u's queue to empty (async_wait);
 *  - the outputs of asynchronous calls are run on by one dispatcher (never
 *    nested: dispatching), call after call in the order the calls were
 *    issued (the FIFO qhead..qtail), each call's outputs in their order.
 *    Calls to a component are issued in its one-UE order, so every entity
 *    after it gets its records in the one-UE order: the only place where
 *    the records of different calls meet is the network's output;
 *  - the output keeps the one-UE order through a tree: a call takes its
 *    place among the items (records written, calls) of the call whose
 *    outputs were being run on when it was issued (cur; root for the input
 *    loop), and what its own outputs cause goes under it; the tree is
 *    written in preorder up to the first call not through (oflush);
 *  - backpressure: a call's outputs not yet run on are held at most
 *    ASYNC_WINDOW; beyond that its UE's next output waits for the ACK
 *    (owed), sent when one is run on, or at once while UE 0 waits for that
 *    UE (needed: the hub never waits for a UE it holds back); at most
 *    UE_QUEUE calls wait per UE, and the input loop issues no call while
 *    UE_QUEUE times the UEs' count of calls are not through (live). */
#define ASYNC_WINDOW 4
#define UE_QUEUE 4
typedef struct anode anode_t;
typedef struct item {
    struct item *next;
    rcksnet_record_t *rec; /* a record for the output, or */
    anode_t *call;         /* a call, with what its outputs cause */
} item_t;
struct anode {
    item_t *head, *tail;   /* what it caused, in the one-UE order */
    anode_t *qnext;        /* the next call issued */
    anode_t *unext;        /* the next call to the same UE */
    rcksnet_record_t *rec; /* its record, until it is sent */
    uint32_t node;         /* the component's node */
    rt_sink_t *k;          /* where its outputs go (kept) */
    rcksnet_record_t **in; /* its outputs come, not run on yet (a ring) */
    int inhead, nin, capin;
    int ue, owed;          /* owed: ACKs held back (window full) */
    uint32_t conn;         /* its connection: its answers name it */
    int ended, done;       /* ended: LAST/DONE came; done: all run on */
};
int rt_async;
rt_sink_t *rt_async_out;
static void (*async_write)(rcksnet_record_t *r);
static anode_t root, *cur = &root;
static anode_t *qhead, *qtail;
static anode_t **outstanding;  /* per UE: the call in progress, or NULL */
static anode_t **utail;        /* per UE: its last call waiting */
static int *uq;                /* per UE: its calls (in progress, waiting) */
static int *needed;            /* per UE: UE 0 waits for its call */
static int live;               /* calls not through (qhead..qtail) */
static int *acks; /* per UE: ACKs that came while another was awaited */
static unsigned long long async_calls, async_waits, async_held;
static int dispatching; /* running calls' outputs on (never nested) */
static int serving; /* calls from other UEs being served here (nested) */

enum { M_START = 1, M_RECORD, M_OUT, M_LAST, M_DONE, M_ACK, M_STOP, M_REL };

typedef struct {
    uint32_t kind, conn, node, pad;
} msg_hdr_t;

/* ---- settings ---------------------------------------------------------- */

int rt_dist_parse(void)
{
    const char *v = getenv("RCK_SNET_DIST");
    if (v == NULL || !strcmp(v, "nodist"))
        return RT_DIST_NODIST;
    if (!strcmp(v, "scc"))
        return RT_DIST_SCC;
    if (!strcmp(v, "mpi")) {
#ifdef RT_WITH_MPI
        return RT_DIST_MPI;
#else
        rt_fatal("RCK_SNET_DIST=mpi: this program was built without the MPI "
                 "layer: build it with `rck snetc -distrib mpi` or "
                 "rck_snet_add_network(... DISTRIB mpi) (docs/SNET.md)");
#endif
    }
    rt_fatal("RCK_SNET_DIST='%s': not one of nodist|mpi|scc", v);
}

/* ---- long fields in LUT pages ----------------------------------------- */

/* RCK_SNET_SCC (docs/SNET.md, "Long fields through the LUTs"): how a field
 * of more than RT_LUT_MIN bytes goes to another UE on the scc layer */
enum { LUT_SLAB = 0, LUT_COPY = 1, LUT_REMAP = 2 };
static int lut_mode;
static int stopping; /* rt_dist_stop: no more releases sent */
#define RUN_MAX 40   /* the pool's pages (rck_snetq.h) */

/* a field in LUT pages: a run of our own pages, or another UE's pages
 * mapped here (remap), which go back to that UE when the field is freed */
typedef struct {
    int used, own, slot;
    c4snet_data_t *field;
    int owner;      /* borrowed: the owner UE and its handle */
    uint32_t token;
    int n;          /* borrowed: the entries (to pass it on) */
    uint32_t ent[RUN_MAX];
} lutref_t;
static lutref_t *lrefs;
static int nlrefs;
static struct {
    unsigned long long by_ref, copied, remapped, released, in_pages,
        slab_fallback, passed;
} lstats;

static void send_msg(int dest, uint32_t kind, uint32_t conn, uint32_t node,
                     rcksnet_record_t *r);

static int rt_dist_lut_parse(void)
{
    const char *v = getenv("RCK_SNET_SCC");
    if (v == NULL || !strcmp(v, "copy"))
        return LUT_COPY;
    if (!strcmp(v, "remap"))
        return LUT_REMAP;
    if (!strcmp(v, "slab"))
        return LUT_SLAB;
    rt_fatal("RCK_SNET_SCC='%s': not one of copy|remap|slab", v);
}

static void lut_init(void)
{
    const char *why;
    lut_mode = rt_dist_lut_parse();
    if (lut_mode != LUT_SLAB && !rck_snetq_pages_usable(&why)) {
        if (getenv("RCK_SNET_SCC") != NULL && rt_dist_ue == 0)
            fprintf(stderr, "rcksnet: RCK_SNET_SCC=%s: no LUT pages here "
                    "(%s): long fields go through the shared-DRAM slab\n",
                    getenv("RCK_SNET_SCC"), why);
        lut_mode = LUT_SLAB;
    }
}

static int lref_new(void)
{
    for (int i = 0; i < nlrefs; i++)
        if (!lrefs[i].used) {
            memset(&lrefs[i], 0, sizeof(lrefs[i]));
            lrefs[i].used = 1;
            return i;
        }
    lrefs = rt_realloc(lrefs, (size_t)(nlrefs + 16) * sizeof(*lrefs));
    memset(lrefs + nlrefs, 0, 16 * sizeof(*lrefs));
    lrefs[nlrefs].used = 1;
    nlrefs += 16;
    return nlrefs - 16;
}

void *rt_dist_lut_alloc(size_t bytes, int *handle)
{
    void *addr;
    int run;
    if (lut_mode == LUT_SLAB)
        return NULL;
    rck_status_t st = rck_snetq_page_alloc(bytes, &addr, &run);
    if (st != RCK_OK) { /* the pool is used up: the heap, then the slab */
        lstats.slab_fallback++;
        return NULL;
    }
    int h = lref_new();
    lrefs[h].own = 1;
    lrefs[h].slot = run;
    lstats.in_pages++;
    *handle = h;
    return addr;
}

void rt_dist_lut_bind(int handle, c4snet_data_t *field)
{
    lrefs[handle].field = field;
}

void rt_dist_lut_release(int handle)
{
    lutref_t *l = &lrefs[handle];
    if (l->own) {
        rck_snetq_page_free(l->slot);
    } else {
        if (l->slot >= 0)
            rck_snetq_unmap(l->slot);
        if (!stopping)
            send_msg(l->owner, M_REL, l->token, 0, NULL);
    }
    l->used = 0;
}

/* a REL from @p src: the reference it held on our handle @p token is gone */
static void lut_rel(int src, uint32_t token)
{
    if (token >= (uint32_t)nlrefs || !lrefs[token].used ||
        lrefs[token].field == NULL)
        rt_fatal("UE %d released LUT pages this UE does not hold "
                 "(handle %u; protocol error)", src, token);
    lstats.released++;
    C4SNetFree(lrefs[token].field);
}

/* The entries of field @p d's pages, for a reference sent to another UE
 * (which will release it: a reference held until then); 0 if @p d does not
 * go by reference. */
static int lut_ref_out(c4snet_data_t *d, uint32_t *ent, uint32_t *token)
{
    int h = rt_field_lut(d);
    if (h < 0 || lut_mode == LUT_SLAB)
        return 0;
    int n;
    if (lrefs[h].own) {
        n = rck_snetq_page_entries(lrefs[h].slot, ent, RUN_MAX);
        if (n <= 0)
            rt_fatal("the LUT entries of a field's pages cannot be read");
    } else {
        n = lrefs[h].n;
        memcpy(ent, lrefs[h].ent, (size_t)n * sizeof(*ent));
        if (lrefs[h].slot < 0)
            lstats.passed++; /* never read here */
    }
    (void)C4SNetShallowCopy(d);
    *token = (uint32_t)h;
    lstats.by_ref++;
    return n;
}

/* A field of @p cnt elements of @p type in another UE's pages (@p n
 * entries): a reference, fetched only when something reads its bytes
 * (rt_dist_lut_fetch, from C4SNetGetData); passed on unread it goes on as
 * the same reference (lut_ref_out). */
static c4snet_data_t *lut_ref_in(int src, c4snet_type_t type, size_t cnt,
                                 const uint32_t *ent, int n, uint32_t token)
{
    int h = lref_new();
    lrefs[h].own = 0;
    lrefs[h].slot = -1; /* not mapped */
    lrefs[h].owner = src;
    lrefs[h].token = token;
    lrefs[h].n = n;
    memcpy(lrefs[h].ent, ent, (size_t)n * sizeof(*ent));
    return rt_field_wrap(type, cnt, NULL, h);
}

/* The first read of such a field: remap maps its pages here and the field
 * reads them in place (held until the field is freed); copy (or remap with
 * no free slots) copies them once into memory of our own (our LUT pages,
 * else the heap) and releases them at once. */
void *rt_dist_lut_fetch(int h, size_t bytes, int *newhandle, int *ext_free)
{
    void *addr;
    int map;
    rck_status_t st;
    *ext_free = 0;
    if (lut_mode == LUT_REMAP &&
        rck_snetq_map(lrefs[h].ent, lrefs[h].n, 1, &addr, &map) == RCK_OK) {
        lrefs[h].slot = map;
        lstats.remapped++;
        *newhandle = h;
        return addr;
    }
    if ((st = rck_snetq_map(lrefs[h].ent, lrefs[h].n, 0, &addr, &map)) !=
        RCK_OK)
        rt_fatal("a field of UE %d: its %d LUT pages cannot be mapped: %s",
                 lrefs[h].owner, lrefs[h].n, rck_status_string(st));
    int own = -1;
    void *p = bytes > RT_LUT_MIN ? rt_dist_lut_alloc(bytes, &own) : NULL;
    if (p == NULL) {
        p = malloc(bytes ? bytes : 1);
        if (p == NULL)
            rt_fatal("out of memory (a field of %zu bytes)", bytes);
        *ext_free = 1;
        own = -1;
    }
    memcpy(p, addr, bytes); /* the one copy */
    rck_snetq_unmap(map);
    lstats.copied++;
    rt_dist_lut_release(h); /* back to the owner */
    *newhandle = own;
    return p;
}

static void lut_report(void)
{
    if (getenv("RCKSNET_STATS") == NULL)
        return;
    static const char *const names[] = {"slab", "copy", "remap"};
    fprintf(stderr, "rcksnet: UE %d: long fields (RCK_SNET_SCC %s): %llu "
            "made in LUT pages, %llu sent by reference, %llu of them passed "
            "on unread, %llu copied from a window, %llu remapped, %llu "
            "releases taken, %llu not in pages (pool full)\n", rt_dist_ue,
            names[lut_mode], lstats.in_pages, lstats.by_ref, lstats.passed,
            lstats.copied, lstats.remapped, lstats.released,
            lstats.slab_fallback);
}

void rt_dist_init(int mode, int *argc, char ***argv)
{
    rt_dist_mode = mode;
    if (mode == RT_DIST_NODIST)
        return;
    (void)argc;
    (void)argv;
#ifdef RT_WITH_MPI
    if (mode == RT_DIST_MPI) {
        if (MPI_Init(argc, argv) != MPI_SUCCESS)
            rt_fatal("RCK_SNET_DIST=mpi: MPI_Init failed");
        MPI_Comm_rank(MPI_COMM_WORLD, &rt_dist_ue);
        MPI_Comm_size(MPI_COMM_WORLD, &rt_dist_nues);
        return;
    }
#endif
    rck_status_t st = rck_snetq_init();
    if (st != RCK_OK)
        rt_fatal("RCK_SNET_DIST=scc: the transport cannot start: %s",
                 rck_status_string(st));
    rt_dist_ue = rck_snetq_ue();
    rt_dist_nues = rck_snetq_num_ues();
    lut_init();
}

void rt_dist_labels(int n)
{
    prog_labels = n;
}

int rt_dist_target(int at)
{
    int n = rt_dist_nues;
    return ((at % n) + n) % n;
}

/* ---- records on the wire ----------------------------------------------- */

typedef struct {
    unsigned char *p;
    size_t n, cap;
} buf_t;

static void put(buf_t *b, const void *src, size_t len)
{
    if (b->n + len > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + len)
            cap *= 2;
        b->p = rt_realloc(b->p, cap);
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, len);
    b->n += len;
}

static void put32(buf_t *b, uint32_t v)
{
    put(b, &v, 4);
}

#define TAIL_MIN 4096 /* a field this long goes as the message's 2nd part */
#define LABEL_NAMED 0x80000000u

/* entries: kind, label (or LABEL_NAMED | length, then the name), then a tag
 * or a field (type, elements, bytes; the longest field's bytes last, apart) */
static const void *encode(buf_t *b, const rcksnet_record_t *r,
                          size_t *taillen)
{
    int tail = -1;
    size_t best = TAIL_MIN - 1;
    for (int i = 0; i < r->n; i++)
        if (r->e[i].kind == RCKSNET_FIELD) {
            c4snet_data_t *d = r->e[i].field;
            size_t bytes = C4SNetArraySize(d) * (size_t)C4SNetSizeof(d);
            if (C4SNetGetType(d) == CTYPE_pointer)
                rt_fatal("field %s: a pointer field cannot go to another UE",
                         rt_label_name(r->e[i].label));
            if (bytes > best) {
                best = bytes;
                tail = i;
            }
        }
    put32(b, (uint32_t)r->n);
    put32(b, (uint32_t)tail);
    /* the tail by reference when it is in LUT pages: (count, handle,
     * entries), its bytes stay where they are */
    uint32_t ent[RUN_MAX], token = 0;
    int nref = tail >= 0 && rt_dist_mode == RT_DIST_SCC
                   ? lut_ref_out(r->e[tail].field, ent, &token)
                   : 0;
    put32(b, (uint32_t)nref);
    if (nref > 0) {
        put32(b, token);
        put(b, ent, (size_t)nref * sizeof(ent[0]));
    }
    for (int i = 0; i < r->n; i++) {
        const rt_ent_t *e = &r->e[i];
        put32(b, (uint32_t)e->kind);
        if (e->label < prog_labels) {
            put32(b, (uint32_t)e->label);
        } else {
            const char *name = rt_label_name(e->label);
            size_t len = strlen(name);
            put32(b, LABEL_NAMED | (uint32_t)len);
            put(b, name, len);
        }
        if (e->kind != RCKSNET_FIELD) {
            put32(b, (uint32_t)e->tag);
            continue;
        }
        c4snet_data_t *d = e->field;
        uint64_t n = C4SNetArraySize(d);
        put32(b, (uint32_t)C4SNetGetType(d));
        put(b, &n, 8);
        if (i != tail)
            put(b, C4SNetGetData(d), n * (size_t)C4SNetSizeof(d));
    }
    if (tail < 0 || nref > 0) {
        *taillen = 0;
        return NULL;
    }
    c4snet_data_t *d = r->e[tail].field;
    *taillen = C4SNetArraySize(d) * (size_t)C4SNetSizeof(d);
    return C4SNetGetData(d);
}

typedef struct {
    const unsigned char *p, *end;
} rd_t;

static void take(rd_t *rd, void *dst, size_t len)
{
    if ((size_t)(rd->end - rd->p) < len)
        rt_fatal("a record from another UE is cut short (protocol error)");
    memcpy(dst, rd->p, len);
    rd->p += len;
}

static uint32_t take32(rd_t *rd)
{
    uint32_t v;
    take(rd, &v, 4);
    return v;
}

static rcksnet_record_t *decode(int src, rd_t *rd)
{
    rcksnet_record_t *r = rcksnet_record_new();
    uint32_t n = take32(rd);
    int tail = (int)take32(rd);
    uint32_t nref = take32(rd), token = 0, ent[RUN_MAX];
    if (nref > RUN_MAX)
        rt_fatal("a record from UE %d names %u LUT pages (protocol error)",
                 src, nref);
    if (nref > 0) {
        token = take32(rd);
        take(rd, ent, nref * sizeof(ent[0]));
    }
    c4snet_data_t *tailfield = NULL;
    for (uint32_t i = 0; i < n; i++) {
        rt_ent_t e = {0, 0, 0, NULL};
        e.kind = (int)take32(rd);
        uint32_t l = take32(rd);
        if (l & LABEL_NAMED) {
            size_t len = l & ~LABEL_NAMED;
            char name[256];
            if (len >= sizeof(name))
                rt_fatal("a label from another UE is too long");
            take(rd, name, len);
            name[len] = '\0';
            e.label = rt_label_id(name);
        } else {
            e.label = (int)l;
        }
        if (e.kind != RCKSNET_FIELD) {
            e.tag = (int)take32(rd);
            rt_add(r, &e);
            continue;
        }
        c4snet_type_t type = (c4snet_type_t)take32(rd);
        uint64_t cnt;
        take(rd, &cnt, 8);
        if ((int)i == tail && nref > 0) {
            e.field = lut_ref_in(src, type, (size_t)cnt, ent, (int)nref,
                                 token);
            rt_add(r, &e);
            continue;
        }
        void *data;
        e.field = C4SNetAlloc(type, (size_t)cnt, &data);
        size_t bytes = (size_t)cnt * (size_t)C4SNetSizeof(e.field);
        if ((int)i == tail)
            tailfield = e.field;
        else
            take(rd, data, bytes);
        rt_add(r, &e);
    }
    if (tailfield != NULL)
        take(rd, C4SNetGetData(tailfield),
             C4SNetArraySize(tailfield) * (size_t)C4SNetSizeof(tailfield));
    return r;
}

/* ---- the transports ---------------------------------------------------- */

static void t_send(int dest, const void *hdr, size_t hlen, const void *data,
                   size_t len)
{
#ifdef RT_WITH_MPI
    if (rt_dist_mode == RT_DIST_MPI) {
        /* the header part, then (if any) the long field as a message of its
         * own: MPI keeps the order of two messages between two ranks */
        if (MPI_Send(hdr, (int)hlen, MPI_BYTE, dest, TAG_SNET,
                     MPI_COMM_WORLD) != MPI_SUCCESS ||
            (len > 0 && MPI_Send(data, (int)len, MPI_BYTE, dest, TAG_SNET,
                                 MPI_COMM_WORLD) != MPI_SUCCESS))
            rt_fatal("sending to UE %d: MPI_Send failed", dest);
        return;
    }
#endif
    rck_status_t st = rck_snetq_send(dest, hdr, hlen, data, len);
    if (st != RCK_OK)
        rt_fatal("sending to UE %d: %s", dest, rck_status_string(st));
}

/* the next message from any UE: one buffer, malloc'd; 1, or 0 if @p block
 * is 0 and none has come */
static int t_recv(int *src, void **data, size_t *len, int block)
{
#ifdef RT_WITH_MPI
    if (rt_dist_mode == RT_DIST_MPI) {
        MPI_Status s;
        int n, flag = 1;
        if ((block ? MPI_Probe(MPI_ANY_SOURCE, TAG_SNET, MPI_COMM_WORLD, &s)
                   : MPI_Iprobe(MPI_ANY_SOURCE, TAG_SNET, MPI_COMM_WORLD,
                                &flag, &s)) != MPI_SUCCESS)
            rt_fatal("waiting for records from other UEs: MPI_Probe failed");
        if (!flag)
            return 0;
        MPI_Get_count(&s, MPI_BYTE, &n);
        msg_hdr_t h;
        if ((size_t)n < sizeof(h))
            rt_fatal("a message of %d bytes from UE %d (protocol error)", n,
                     s.MPI_SOURCE);
        unsigned char *p = rt_alloc((size_t)n);
        MPI_Recv(p, n, MPI_BYTE, s.MPI_SOURCE, TAG_SNET, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        memcpy(&h, p, sizeof(h));
        if (h.pad > 0) { /* the long field's bytes follow */
            p = rt_realloc(p, (size_t)n + h.pad);
            MPI_Recv(p + n, (int)h.pad, MPI_BYTE, s.MPI_SOURCE, TAG_SNET,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        *src = s.MPI_SOURCE;
        *data = p;
        *len = (size_t)n + h.pad;
        return 1;
    }
#endif
    rck_status_t st = rck_snetq_recv(src, data, len, block ? -1 : 0);
    if (st == RCK_ERR_TIMEDOUT && !block)
        return 0;
    if (st != RCK_OK)
        rt_fatal("waiting for records from other UEs: %s",
                 rck_status_string(st));
    return 1;
}

static void send_msg(int dest, uint32_t kind, uint32_t conn, uint32_t node,
                     rcksnet_record_t *r)
{
    buf_t b = {NULL, 0, 0};
    msg_hdr_t h = {kind, conn, node, 0};
    put(&b, &h, sizeof(h));
    const void *tail = NULL;
    size_t taillen = 0;
    if (r != NULL)
        tail = encode(&b, r, &taillen);
    if (taillen > INT32_MAX)
        rt_fatal("a field of %zu bytes cannot go to another UE (2 GiB at "
                 "most)", taillen);
    ((msg_hdr_t *)b.p)->pad = (uint32_t)taillen; /* the tail's length */
    t_send(dest, b.p, b.n, tail, taillen);
    free(b.p);
    if (r != NULL)
        rt_record_free(r);
}

/* ---- instances served here ------------------------------------------- */

typedef struct {
    uint64_t key; /* source UE << 32 | connection */
    rt_inst_t *inst;
} conn_t;
static conn_t *conns;
static size_t nconns, capconns; /* open addressing, capconns a power of 2 */

static conn_t *conn_slot(uint64_t key)
{
    if (2 * (nconns + 1) > capconns) {
        size_t cap = capconns ? 2 * capconns : 64;
        conn_t *nc = calloc(cap, sizeof(*nc));
        if (nc == NULL)
            rt_fatal("out of memory (connections)");
        for (size_t i = 0; i < capconns; i++)
            if (conns[i].inst != NULL) {
                size_t h = (size_t)(conns[i].key * 0x9e3779b97f4a7c15ull) &
                           (cap - 1);
                while (nc[h].inst != NULL)
                    h = (h + 1) & (cap - 1);
                nc[h] = conns[i];
            }
        free(conns);
        conns = nc;
        capconns = cap;
    }
    size_t h = (size_t)(key * 0x9e3779b97f4a7c15ull) & (capconns - 1);
    while (conns[h].inst != NULL && conns[h].key != key)
        h = (h + 1) & (capconns - 1);
    return &conns[h];
}

static void pump(int from, rt_sink_t *out);
static int async_reply(int src, const msg_hdr_t *h, rd_t *rd);

/* Where a served component's outputs go: back to the caller. An output is
 * held until the next one (or the end) is made: then it goes as OUT, and
 * the caller acknowledges it once it has run it on (depth-first, as in one
 * UE: docs/SNET.md); the last goes as LAST, which also ends the call. */
typedef struct {
    rt_sink_t s;
    int to;
    rcksnet_record_t *held;
    uint32_t conn; /* the call's connection, named in every answer */
} reply_k;

static void reply_put(rt_sink_t *s, rcksnet_record_t *r)
{
    reply_k *k = (reply_k *)s;
    if (k->held != NULL) {
        send_msg(k->to, M_OUT, k->conn, 0, k->held);
        k->held = NULL;
        pump(k->to, NULL); /* until the caller's ACK */
    }
    k->held = r;
}

static void serve(int src, const msg_hdr_t *h, rd_t *rd)
{
    reply_k k = {{reply_put, NULL, NULL}, src, NULL, h->conn};
    serving++;
    conn_t *c = conn_slot((uint64_t)src << 32 | h->conn);
    if (c->inst == NULL) { /* the connection's first message */
        c->key = (uint64_t)src << 32 | h->conn;
        c->inst = rt_inst_new(rt_node_by_id((int)h->node));
        nconns++;
        rt_start(c->inst, &k.s);
    }
    rt_inst_t *inst = c->inst; /* the table may grow during the run */
    if (h->kind == M_RECORD)
        rt_run(inst, decode(src, rd), &k.s);
    if (k.held != NULL)
        send_msg(src, M_LAST, h->conn, 0, k.held);
    else
        send_msg(src, M_DONE, h->conn, 0, NULL);
    serving--;
}

/* Take messages, serving calls, until: the end of the call to @p from
 * (LAST or DONE; OUTs go to @p out, each acknowledged once it has run
 * on); the ACK from @p from (@p out NULL: an OUT was sent to it); STOP
 * (the server loop: from -1); one message (from PUMP_ONE); one message if
 * one has come (from PUMP_POLL: polled set if so). */
#define PUMP_ONE (-2)
#define PUMP_POLL (-3)
static int polled;
static void pump(int from, rt_sink_t *out)
{
    if (from >= 0 && out == NULL && acks != NULL && acks[from] > 0) {
        acks[from]--; /* its ACK came while another was awaited */
        return;
    }
    for (;;) {
        int src;
        void *data;
        size_t len;
        if (!t_recv(&src, &data, &len, from != PUMP_POLL))
            return; /* (PUMP_POLL: none has come) */
        polled = 1;
        rd_t rd = {data, (unsigned char *)data + len};
        msg_hdr_t h;
        take(&rd, &h, sizeof(h));
        if (async_reply(src, &h, &rd)) {
            free(data);
            if (from <= PUMP_ONE)
                return;
            continue;
        }
        if (h.kind == M_ACK && (src != from || out != NULL)) {
            /* awaited by an outer call of this UE (nested serves) */
            if (acks == NULL)
                acks = rt_alloc((size_t)rt_dist_nues * sizeof(*acks));
            acks[src]++;
            free(data);
            continue;
        }
        switch (h.kind) {
        case M_REL: /* whenever it comes: not part of a call */
            lut_rel(src, h.conn);
            break;
        case M_START:
        case M_RECORD:
            serve(src, &h, &rd);
            break;
        case M_OUT:
        case M_LAST:
        case M_DONE:
        case M_ACK:
            if (src != from || (out == NULL) != (h.kind == M_ACK))
                rt_fatal("UE %d sent message %u while UE %d was awaited "
                         "(protocol error)", src, h.kind, from);
            if (h.kind == M_DONE || h.kind == M_ACK) {
                free(data);
                return;
            }
            rcksnet_record_t *r = decode(src, &rd);
            free(data);
            out->put(out, r);
            if (h.kind == M_LAST)
                return;
            send_msg(src, M_ACK, 0, 0, NULL);
            continue;
        case M_STOP:
            if (from >= 0)
                rt_fatal("UE %d stopped the run while UE %d was awaited "
                         "(protocol error)", src, from);
            free(data);
            return;
        default:
            rt_fatal("unknown message %u from UE %d", h.kind, src);
        }
        free(data);
        if (from <= PUMP_ONE)
            return;
    }
}

/* ---- asynchronous calls: the dispatcher and the output tree ----------- */

void rt_dist_set_output(rt_sink_t *out, void (*write)(rcksnet_record_t *r))
{
    const char *v = getenv("RCK_SNET_ASYNC");
    if (rt_dist_mode == RT_DIST_NODIST || rt_dist_ue != 0)
        return;
    if (v != NULL && strcmp(v, "on") != 0) {
        if (strcmp(v, "off") != 0)
            rt_fatal("RCK_SNET_ASYNC='%s': not one of on|off", v);
        return;
    }
    rt_async = 1;
    rt_async_out = out;
    async_write = write;
    outstanding = rt_alloc((size_t)rt_dist_nues * sizeof(*outstanding));
    utail = rt_alloc((size_t)rt_dist_nues * sizeof(*utail));
    uq = rt_alloc((size_t)rt_dist_nues * sizeof(*uq));
    needed = rt_alloc((size_t)rt_dist_nues * sizeof(*needed));
}

static void item_add(anode_t *n, rcksnet_record_t *rec, anode_t *call)
{
    item_t *it = rt_alloc(sizeof(*it));
    it->rec = rec;
    it->call = call;
    if (n->tail != NULL)
        n->tail->next = it;
    else
        n->head = it;
    n->tail = it;
}

/* writes what @p n caused, from the front, up to the first call not
 * through; 1 if @p n is through (all run on and written) */
static int oflush(anode_t *n)
{
    while (n->head != NULL) {
        item_t *it = n->head;
        if (it->rec != NULL) {
            async_write(it->rec);
        } else {
            if (!oflush(it->call))
                return 0;
            free(it->call->in);
            free(it->call);
        }
        n->head = it->next;
        if (n->head == NULL)
            n->tail = NULL;
        free(it);
    }
    return n->done;
}

int rt_dist_hold(rcksnet_record_t *r)
{
    if (cur == &root && root.head == NULL)
        return 0; /* nothing before it: written at once */
    item_add(cur, r, NULL);
    return 1;
}

static void in_push(anode_t *o, rcksnet_record_t *r)
{
    if (o->nin == o->capin) {
        int cap = o->capin ? 2 * o->capin : ASYNC_WINDOW;
        rcksnet_record_t **in = rt_alloc((size_t)cap * sizeof(*in));
        for (int i = 0; i < o->nin; i++)
            in[i] = o->in[(o->inhead + i) % o->capin];
        free(o->in);
        o->in = in;
        o->inhead = 0;
        o->capin = cap;
    }
    o->in[(o->inhead + o->nin++) % o->capin] = r;
}

/* Runs the outputs that came on, call after call in issue order, while the
 * first call not through has some; then writes what can be written. */
static void dispatch(void)
{
    if (outstanding == NULL || dispatching || serving > 0)
        return;
    dispatching = 1;
    while (qhead != NULL) {
        anode_t *n = qhead;
        if (n->nin > 0) {
            rcksnet_record_t *r = n->in[n->inhead];
            n->inhead = (n->inhead + 1) % n->capin;
            n->nin--;
            if (n->owed > 0) { /* room again: its UE goes on meanwhile */
                n->owed--;
                send_msg(n->ue, M_ACK, 0, 0, NULL);
            }
            cur = n;
            n->k->put(n->k, r);
            cur = &root;
            continue;
        }
        if (!n->ended)
            break; /* its UE is still at work */
        n->done = 1;
        rt_sink_drop(n->k);
        n->k = NULL;
        live--;
        qhead = n->qnext;
        if (qhead == NULL)
            qtail = NULL;
    }
    dispatching = 0;
    oflush(&root);
}

void rt_dist_drain(void)
{
    if (outstanding == NULL)
        return;
    for (;;) {
        dispatch();
        if (qhead == NULL)
            break;
        pump(PUMP_ONE, NULL); /* the first call not through is at work */
    }
    if (getenv("RCKSNET_STATS") != NULL)
        fprintf(stderr, "rcksnet: UE 0: %llu calls asynchronous, %llu waits "
                "for a UE's previous call, %llu outputs held back (window "
                "%d)\n", async_calls, async_waits, async_held, ASYNC_WINDOW);
}

/* an answer of UE src's outstanding call: 1 if it was one */
static int async_reply(int src, const msg_hdr_t *h, rd_t *rd)
{
    anode_t *o = outstanding != NULL ? outstanding[src] : NULL;
    if (o == NULL || h->conn != o->conn ||
        (h->kind != M_OUT && h->kind != M_LAST && h->kind != M_DONE))
        return 0; /* (answers of a nested call name its own connection) */
    if (h->kind != M_DONE)
        in_push(o, decode(src, rd));
    if (h->kind == M_OUT) {
        if (o->nin < ASYNC_WINDOW || needed[src] > 0) {
            send_msg(src, M_ACK, 0, 0, NULL);
        } else {
            o->owed++;
            async_held++;
        }
        return 1;
    }
    o->ended = 1;
    outstanding[src] = o->unext; /* the next call waiting for src */
    if (--uq[src] == 0)
        utail[src] = NULL;
    anode_t *n = outstanding[src];
    if (n != NULL) {
        send_msg(src, M_RECORD, n->conn, n->node, n->rec);
        n->rec = NULL;
    }
    return 1;
}

/* Before a call to UE u: until u's queue has room for an asynchronous call
 * (@p max UE_QUEUE), or is empty for a synchronous one (@p max 1); the call
 * in progress there has its outputs acknowledged at once meanwhile. Not
 * while serving a call from another UE: the call in progress may be
 * waiting for that one (a nested call to us), so the call goes at once
 * (synchronous, its answers told apart by their connection). */
static void async_wait(int u, int max)
{
    if (outstanding == NULL || serving > 0 || uq[u] < max)
        return;
    async_waits++;
    needed[u]++;
    for (; outstanding[u]->owed > 0; outstanding[u]->owed--)
        send_msg(u, M_ACK, 0, 0, NULL);
    while (uq[u] >= max) {
        dispatch(); /* (not when already dispatching) */
        if (uq[u] < max)
            break;
        pump(PUMP_ONE, NULL);
    }
    needed[u]--;
}

/* the call of @p r to @p in without waiting for it, if its continuation
 * @p out can be kept: 1 if so */
static int async_call(rt_inst_t *in, rcksnet_record_t *r, rt_sink_t *out)
{
    if (outstanding == NULL || serving > 0)
        return 0;
    rt_sink_t *k = rt_sink_keep(out);
    if (k == NULL)
        return 0;
    int u = in->remote;
    if (!dispatching) { /* the input loop: older calls' outputs first */
        do {
            polled = 0;
            pump(PUMP_POLL, NULL);
        } while (polled);
        dispatch();
    }
    while (!dispatching && live >= UE_QUEUE * rt_dist_nues) {
        dispatch(); /* the input loop: not too far ahead */
        if (live >= UE_QUEUE * rt_dist_nues)
            pump(PUMP_ONE, NULL); /* the first call not through is at work */
    }
    async_wait(u, UE_QUEUE);
    anode_t *o = rt_alloc(sizeof(*o));
    o->k = k;
    o->ue = u;
    o->conn = in->conn;
    o->node = (uint32_t)rt_node_id(in->node);
    item_add(cur, NULL, o);
    if (qtail != NULL)
        qtail->qnext = o;
    else
        qhead = o;
    qtail = o;
    live++;
    async_calls++;
    if (uq[u]++ > 0) { /* sent when the calls before it have ended */
        utail[u]->unext = o;
        utail[u] = o;
        o->rec = r;
        return 1;
    }
    outstanding[u] = utail[u] = o;
    send_msg(u, M_RECORD, o->conn, o->node, r);
    return 1;
}

/* ---- proxies --------------------------------------------------------- */

void rt_dist_proxy(rt_inst_t *in, int ue)
{
    in->remote = ue;
    in->conn = next_conn++;
}

void rt_dist_start(rt_inst_t *in, rt_sink_t *out)
{
    async_wait(in->remote, 1);
    depth++;
    send_msg(in->remote, M_START, in->conn, (uint32_t)rt_node_id(in->node),
             NULL);
    pump(in->remote, out);
    depth--;
}

void rt_dist_run(rt_inst_t *in, rcksnet_record_t *r, rt_sink_t *out)
{
    if (async_call(in, r, out))
        return;
    async_wait(in->remote, 1);
    depth++;
    send_msg(in->remote, M_RECORD, in->conn, (uint32_t)rt_node_id(in->node),
             r);
    pump(in->remote, out);
    depth--;
    dispatch(); /* what came meanwhile (not when already dispatching) */
}

void rt_dist_serve(void)
{
    pump(-1, NULL);
}

void rt_dist_stop(void)
{
    if (rt_dist_mode == RT_DIST_NODIST)
        return;
    if (rt_dist_ue == 0)
        for (int u = 1; u < rt_dist_nues; u++)
            send_msg(u, M_STOP, 0, 0, NULL);
    lut_report();
    stopping = 1;
    for (size_t i = 0; i < capconns; i++)
        rt_inst_free(conns[i].inst);
    free(conns);
    conns = NULL;
    nconns = capconns = 0;
#ifdef RT_WITH_MPI
    if (rt_dist_mode == RT_DIST_MPI) {
        MPI_Finalize();
        return;
    }
#endif
    rck_snetq_finalize();
}
