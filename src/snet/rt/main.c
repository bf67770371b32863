/*
 * main.c: the program rck-snetc generates runs its network here: UE 0 reads
 * the input records from stdin, runs each through the network and writes
 * the outputs to stdout. With RCK_SNET_DIST=nodist (the default) the other
 * UEs of a run have nothing to do; with scc they run the components placed
 * on them (dist.c). docs/SNET.md.
 */
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#include "rt.h"

struct rcksnet_instance {
    rt_sink_t out; /* the emit function, called as each output is made */
    rt_inst_t *net;
    rcksnet_emitfn_t emit;
    void *arg;
};

static void deliver(rt_sink_t *s, rcksnet_record_t *r)
{
    rcksnet_instance_t *in = (rcksnet_instance_t *)s;
    in->emit(in->arg, r);
}

/* the program's output: each record written as the network emits it */
static void write_now(rcksnet_record_t *r)
{
    rt_record_write(stdout, r);
    rt_record_free(r);
}

static void write_out(rt_sink_t *s, rcksnet_record_t *r)
{
    (void)s;
    if (!rt_dist_hold(r)) /* not behind an outstanding call (dist.c) */
        write_now(r);
}

/* the output lives as long as the run: kept as it is */
static rt_sink_t *out_keep(rt_sink_t *s)
{
    return s;
}

rcksnet_instance_t *rcksnet_instance_new(const char *const *labels,
                                         int nlabels, rcksnet_node_t *net,
                                         rcksnet_emitfn_t emit, void *arg)
{
    if (net == NULL || emit == NULL)
        rt_fatal("rcksnet_instance_new: no network or no emit function");
    rt_settings_load();
    rt_stack_base();
    rt_labels_init(labels, nlabels);
    rcksnet_instance_t *in = rt_alloc(sizeof(*in));
    in->out.put = deliver;
    in->net = rt_inst_new(net);
    in->emit = emit;
    in->arg = arg;
    rt_start(in->net, &in->out);
    return in;
}

void rcksnet_instance_feed(rcksnet_instance_t *in, rcksnet_record_t *rec)
{
    rt_stack_base(); /* the guard counts from the caller's frame */
    rt_run(in->net, rec, &in->out);
}

void rcksnet_instance_free(rcksnet_instance_t *in)
{
    if (in == NULL)
        return;
    rt_inst_free(in->net);
    free(in);
    rt_nodes_free();
    rt_labels_free();
    rt_records_release();
}

void rcksnet_record_free(rcksnet_record_t *rec)
{
    rt_record_free(rec);
}

int rcksnet_main(int argc, char **argv, const char *const *labels,
                 int nlabels, rcksnet_node_t *(*build)(void))
{
    /* the transport reserves its part of the MPB before RCCE takes the rest */
    rt_dist_init(rt_dist_parse(), &argc, &argv);
    int me = rt_dist_ue;
    if (rt_dist_mode != RT_DIST_MPI) { /* mpi: MPI_Init took the MPB */
        int rc = RCCE_init(&argc, &argv);
        if (rc != RCCE_SUCCESS)
            rt_fatal("RCCE_init failed (%d): run the program with 'rck run'",
                     rc);
        me = RCCE_ue();
    }
    node_location = me;
    const char *input = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-i") && i + 1 < argc)
            input = argv[++i];
        else
            rt_fatal("usage: %s [-i input.xml] (records on stdin by default)",
                     argv[0]);
    }
    const char *trace = getenv("RCKSNET_TRACE");
    rt_trace = trace != NULL && *trace && strcmp(trace, "0");
    if (rt_dist_mode != RT_DIST_NODIST && me != 0) {
        /* serve the components placed here until UE 0 stops the run */
        rt_settings_load();
        rt_stack_base();
        rt_labels_init(labels, nlabels);
        rt_dist_labels(nlabels);
        rcksnet_node_t *net = build();
        (void)net; /* the description, for the components placed here */
        rt_dist_serve();
        rt_dist_stop();
        rt_nodes_free();
        rt_labels_free();
        rt_records_release();
    } else if (me == 0) {
        FILE *in = stdin;
        if (input != NULL && (in = fopen(input, "r")) == NULL)
            rt_fatal("cannot open %s", input);
        rt_settings_load();
        rt_stack_base();
        rt_labels_init(labels, nlabels);
        rt_dist_labels(nlabels);
        rt_inst_t *net = rt_inst_new(build());
        rt_reader_t *rd = rt_reader_new(in, input ? input : "stdin");
        rcksnet_record_t *r;
        rt_sink_t out = {write_out, out_keep, NULL};
        rt_dist_set_output(&out, write_now);
        rt_start(net, &out);
        while (rt_reader_next(rd, &r)) {
            rt_run(net, r, &out);
            fflush(stdout);
        }
        rt_dist_drain(); /* the outstanding calls end, their outputs out */
        rt_terminate_write(stdout);
        fflush(stdout);
        rt_reader_free(rd);
        rt_dist_stop(); /* end of input: every other UE stops */
        rt_inst_free(net);
        rt_nodes_free();
        rt_labels_free();
        rt_records_release();
        if (in != stdin)
            fclose(in);
    }
    if (rt_dist_mode != RT_DIST_MPI)
        RCCE_finalize(); /* mpi: MPI_Finalize (rt_dist_stop) */
    return EXIT_SUCCESS;
}
