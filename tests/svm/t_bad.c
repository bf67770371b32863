/*
 * t_bad.c: bad input never hangs or crashes the library.
 *   usage: t_bad strong|lazy           every bad call returns its error
 *          t_bad strong|lazy segv      a wild pointer after svm_init: the
 *                                      program must crash with SIGSEGV as
 *                                      it would without SVM
 *          t_bad strong|lazy freed     a load from a freed block: crashes
 *                                      too, with SVM's message
 */
#include "svmt.h"

#include "rck_mbox.h"

#include <stdint.h>

static char private_buf[8192];

static void before_init(void)
{
    svm_stats_t st;

    CHECK(svm_alloc(4096, 0) == NULL);
    CHECK_ST(svm_free(private_buf), RCK_ERR_STATE);
    CHECK_ST(svm_flush(private_buf, 16), RCK_ERR_STATE);
    CHECK_ST(svm_invalidate(private_buf, 16), RCK_ERR_STATE);
    CHECK_ST(svm_barrier(), RCK_ERR_STATE);
    CHECK_ST(svm_lock(0), RCK_ERR_STATE);
    CHECK_ST(svm_unlock(0), RCK_ERR_STATE);
    CHECK_ST(svm_finalize(), RCK_ERR_STATE);
    CHECK(svm_ue() == -1 && svm_num_ues() == 0);
    svm_stats(&st);
    CHECK(st.faults == 0);
    CHECK_ST(svm_init((svm_model_t)7), RCK_ERR_INVALID);
}

static void after_init(svm_model_t model)
{
    int nues = svm_num_ues(), local;
    char *p;

    CHECK_ST(svm_init(model), RCK_ERR_STATE);
    CHECK(svm_alloc(0, 0) == NULL);
    CHECK(svm_alloc(4096, 77) == NULL);
    CHECK(svm_alloc(4096, -5) == NULL);
    CHECK(svm_alloc((size_t)1 << 40, SVM_MC_ALL) == NULL);

    p = svm_alloc(10000, SVM_MC_ALL); /* three pages */
    CHECK(p != NULL);
    p[0] = 1;
    p[9999] = 2;
    CHECK_OK(svm_flush(p, 10000));
    CHECK_OK(svm_invalidate(p + 100, 12288 - 100));
    CHECK_OK(svm_flush(p + 12287, 1));
    CHECK_OK(svm_flush(p + 4096, 0));
    CHECK_ST(svm_flush(p + 8000, 5000), RCK_ERR_INVALID); /* past the end */
    CHECK_ST(svm_flush(private_buf, 16), RCK_ERR_INVALID);
    CHECK_ST(svm_invalidate(&local, sizeof(local)), RCK_ERR_INVALID);
    CHECK_ST(svm_flush(NULL, 1), RCK_ERR_INVALID);
    CHECK_ST(svm_invalidate(p + 12288, 4), RCK_ERR_INVALID);
    CHECK_ST(svm_free(p + 4096), RCK_ERR_INVALID);
    CHECK_ST(svm_free(private_buf), RCK_ERR_INVALID);
    CHECK_ST(svm_free(NULL), RCK_ERR_INVALID);

    CHECK_ST(svm_lock(-1), RCK_ERR_INVALID);
    CHECK_ST(svm_lock(nues), RCK_ERR_INVALID);
    CHECK_ST(svm_unlock(nues + 3), RCK_ERR_INVALID);
    CHECK_ST(svm_unlock(0), RCK_ERR_STATE); /* not held */
    CHECK_OK(svm_lock(svm_ue()));
    CHECK_ST(svm_lock(svm_ue()), RCK_ERR_STATE); /* already held */
    CHECK_OK(svm_unlock(svm_ue()));

    if (model == SVM_STRONG) /* the mailbox library's own check */
        CHECK_ST(rck_mbox_send(nues + 5, 1, "x", 1), RCK_ERR_INVALID);

    CHECK_OK(svm_barrier());
    CHECK(p[0] == 1 && p[9999] == 2);
    CHECK_OK(svm_barrier());
    CHECK_OK(svm_free(p));
    CHECK_ST(svm_free(p), RCK_ERR_INVALID); /* double free */
    CHECK_ST(svm_flush(p, 16), RCK_ERR_INVALID);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 2 ? argv[2] : "";
    svm_model_t model;

    svmt_start("t_bad");
    model = svmt_model(argc > 1 ? argv[1] : NULL);
    before_init();
    CHECK_OK(svm_init(model));
    if (!strcmp(mode, "segv")) {
        volatile uintptr_t where = 64; /* hidden from the compiler */
        volatile int *wild = (volatile int *)where;
        if (svm_ue() == svm_num_ues() - 1) {
            fprintf(stderr, "t_bad: UE %d stores through a wild pointer\n",
                    svm_ue());
            *wild = 1;
            fprintf(stderr, "t_bad: FAILED: the store did not crash\n");
            return 1;
        }
        svm_barrier(); /* the launcher ends this when the other crashes */
        return 1;
    }
    if (!strcmp(mode, "freed")) {
        volatile int *q = svm_alloc(4096, 0);
        CHECK(q != NULL);
        q[svm_ue()] = 1;
        CHECK_OK(svm_free((void *)q));
        if (svm_ue() == svm_num_ues() - 1) {
            fprintf(stderr, "t_bad: UE %d loads from a freed block\n",
                    svm_ue());
            printf("%d\n", q[0]);
            fprintf(stderr, "t_bad: FAILED: the load did not crash\n");
            return 1;
        }
        svm_barrier();
        return 1;
    }
    after_init(model);
    CHECK_OK(svm_finalize());
    CHECK_ST(svm_barrier(), RCK_ERR_STATE);
    CHECK(svm_alloc(64, 0) == NULL);

    /* a second session in the same run reuses the region */
    CHECK_OK(svm_init(model == SVM_STRONG ? SVM_LAZY : SVM_STRONG));
    {
        int *q = svm_alloc(8192, 0);
        CHECK(q != NULL);
        q[svm_ue()] = svm_ue() + 1;
        CHECK_OK(svm_barrier());
        for (int u = 0; u < svm_num_ues(); u++)
            CHECK(q[u] == u + 1);
        CHECK_OK(svm_barrier());
        CHECK_OK(svm_free(q));
    }
    CHECK_OK(svm_finalize());
    printf("t_bad: ok\n");
    return 0;
}
