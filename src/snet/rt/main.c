/*
 * main.c: the program rck-snetc generates runs its network here, inside one
 * UE: UE 0 reads the input records from stdin, runs each through the
 * network and writes the outputs to stdout (the other UEs of a run have
 * nothing to do this issue). docs/SNET.md.
 */
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#include "rt.h"

int rcksnet_main(int argc, char **argv, const char *const *labels,
                 int nlabels, rcksnet_node_t *(*build)(void))
{
    int rc = RCCE_init(&argc, &argv);
    if (rc != RCCE_SUCCESS)
        rt_fatal("RCCE_init failed (%d): run the program with 'rck run'", rc);
    const char *input = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-i") && i + 1 < argc)
            input = argv[++i];
        else
            rt_fatal("usage: %s [-i input.xml] (records on stdin by default)",
                     argv[0]);
    }
    if (RCCE_ue() == 0) {
        FILE *in = stdin;
        if (input != NULL && (in = fopen(input, "r")) == NULL)
            rt_fatal("cannot open %s", input);
        const char *trace = getenv("RCKSNET_TRACE");
        rt_trace = trace != NULL && *trace && strcmp(trace, "0");
        rt_labels_init(labels, nlabels);
        rt_inst_t *net = rt_inst_new(build());
        rt_reader_t *rd = rt_reader_new(in, input ? input : "stdin");
        rcksnet_record_t *r;
        rt_list_t first = {0, 0, NULL};
        rt_start(net, &first);
        for (int i = 0; i < first.n; i++)
            rt_record_write(stdout, first.r[i]);
        rt_list_free(&first);
        while (rt_reader_next(rd, &r)) {
            rt_list_t out = {0, 0, NULL};
            rt_run(net, r, &out);
            for (int i = 0; i < out.n; i++)
                rt_record_write(stdout, out.r[i]);
            rt_list_free(&out);
            fflush(stdout);
        }
        rt_terminate_write(stdout);
        fflush(stdout);
        rt_reader_free(rd);
        rt_inst_free(net);
        rt_labels_free();
        if (in != stdin)
            fclose(in);
    }
    RCCE_finalize();
    return EXIT_SUCCESS;
}
