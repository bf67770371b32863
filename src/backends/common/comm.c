/*
 * The communication matrix in JSON (comm.h).
 */
#include "common/comm.h"

#include "rck/config.h"
#include "rck/monitor.h"
#include "rck/log.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* One library of the report: its name and place, and where it is in
 * each UE's row (-1: that UE has none of that name). */
typedef struct {
    char name[RCK_LIB_NAME_BYTES];
    int rank, seq, listed;
    int *col;
} comm_lib_t;

static const rck_comm_lib_t *row_head(const uint64_t *rows, int nues, int ue)
{
    return (const rck_comm_lib_t *)(const void *)(rows +
                                                  rck_comm_row_words(nues) *
                                                      (size_t)ue);
}

static const uint64_t *row_counts(const uint64_t *rows, int nues, int ue,
                                  int col, int k)
{
    return rows + rck_comm_row_words(nues) * (size_t)ue +
           RCK_COMM_HEAD_WORDS + ((size_t)col * 2 + (size_t)k) * (size_t)nues;
}

/* Add library @p name (rank, flags) unless it is there. */
static void libs_add(comm_lib_t *libs, int *n, const char *name, int rank,
                     unsigned flags)
{
    for (int i = 0; i < *n; i++) {
        if (!strcmp(libs[i].name, name)) {
            libs[i].listed |= (flags & RCK_LIB_LISTED) != 0;
            return;
        }
    }
    if (*n == 2 * RCK_LIB_MAX)
        return;
    snprintf(libs[*n].name, sizeof(libs[*n].name), "%s", name);
    libs[*n].rank = rank;
    libs[*n].seq = *n;
    libs[*n].listed = (flags & RCK_LIB_LISTED) != 0;
    (*n)++;
}

static int libs_cmp(const void *a, const void *b)
{
    const comm_lib_t *x = a, *y = b;

    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->seq - y->seq;
}

/* The report's libraries: those registered here (the launcher links every
 * library's descriptor it knows) and those the UEs' rows name, merged by
 * name, in rank order; a library without RCK_LIB_LISTED only when it
 * carried a message. @return how many; *cols: nues columns per library,
 * to free. */
static int comm_libs(const uint64_t *rows, int nues, comm_lib_t *libs,
                     int **cols)
{
    int n = 0, kept = 0;

    for (int l = 0; l < rck_lib_count(); l++) {
        const rck_lib_desc_t *d = rck_lib_desc(l);
        libs_add(libs, &n, d->name, d->rank, d->flags);
    }
    for (int u = 0; u < nues; u++) {
        const rck_comm_lib_t *h = row_head(rows, nues, u);
        for (int c = 0; c < RCK_LIB_MAX; c++) {
            char name[RCK_LIB_NAME_BYTES];
            memcpy(name, h[c].name, sizeof(name));
            name[sizeof(name) - 1] = '\0';
            if (name[0] != '\0')
                libs_add(libs, &n, name, h[c].rank, h[c].flags);
        }
    }
    *cols = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1) *
                   (size_t)(nues > 0 ? nues : 1));
    for (int i = 0; i < n; i++) {
        int used = 0;
        libs[i].col = *cols != NULL ? *cols + (size_t)i * (size_t)nues : NULL;
        for (int u = 0; u < nues; u++) {
            const rck_comm_lib_t *h = row_head(rows, nues, u);
            int col = -1;
            for (int c = 0; c < RCK_LIB_MAX && col < 0; c++)
                if (!strncmp(h[c].name, libs[i].name, RCK_LIB_NAME_BYTES))
                    col = c;
            if (libs[i].col != NULL)
                libs[i].col[u] = col;
            for (int j = 0; col >= 0 && j < nues && !used; j++)
                used = row_counts(rows, nues, u, col, 1)[j] != 0;
        }
        if (libs[i].listed || used)
            libs[kept++] = libs[i];
    }
    qsort(libs, (size_t)kept, sizeof(*libs), libs_cmp);
    return *cols != NULL ? kept : 0;
}

/* Library @p lib's N x N matrix of kind @p k, one row a line: the rows
 * after the first start under the first (column @p indent). */
static void matrix(rck_jsonw_t *w, const uint64_t *rows, int nues,
                   const comm_lib_t *lib, int k, int indent)
{
    rck_jsonw_array(w, lib->name);
    for (int i = 0; i < nues; i++) {
        const uint64_t *r =
            lib->col[i] >= 0 ? row_counts(rows, nues, i, lib->col[i], k)
                             : NULL;
        if (i > 0)
            rck_jsonw_break(w, indent + 1);
        rck_jsonw_array(w, NULL);
        for (int j = 0; j < nues; j++)
            rck_jsonw_uint(w, NULL, r != NULL ? r[j] : 0);
        rck_jsonw_end_array(w);
    }
    rck_jsonw_end_array(w);
}

void rck_be_comm_json(rck_jsonw_t *w, const char *key, const uint64_t *rows,
                      int nues, int indent)
{
    static const char *const kinds[2] = {"bytes", "messages"};
    comm_lib_t libs[2 * RCK_LIB_MAX];
    int *cols = NULL;
    int n = comm_libs(rows, nues, libs, &cols);

    rck_jsonw_object(w, key);
    rck_jsonw_int(w, "ues", nues);
    rck_jsonw_array(w, "libraries");
    for (int l = 0; l < n; l++)
        rck_jsonw_string(w, NULL, libs[l].name);
    rck_jsonw_end_array(w);
    for (int k = 0; k < 2; k++) {
        rck_jsonw_break(w, indent + 2);
        rck_jsonw_object(w, kinds[k]);
        for (int l = 0; l < n; l++) {
            rck_jsonw_break(w, indent + 4);
            matrix(w, rows, nues, &libs[l], k,
                   indent + 4 + (int)strlen(libs[l].name) + 4);
        }
        rck_jsonw_end_object(w);
    }
    rck_jsonw_end_object(w);
    free(cols);
}

const char *rck_be_report_path(void)
{
    const char *s = rck_config_get("REPORT");

    if (*s == '\0' || !strcmp(s, "none") || !strcmp(s, "off"))
        return "";
    return s;
}

rck_status_t rck_be_report_write(const char *path, const rck_hal_ops_t *ops,
                                 const rck_chip_t *chip, int nues,
                                 double host_seconds, const uint64_t *rows)
{
    char tmp[4096];
    rck_jsonw_t w;
    FILE *fp;

    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
    fp = fopen(tmp, "w");
    if (fp == NULL) {
        rck_error("cannot write the report %s: %s", path, strerror(errno));
        return RCK_ERR_IO;
    }
    rck_jsonw_init(&w, fp, RCK_JSONW_NEWLINE);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_indent_items(&w, 2);
    rck_jsonw_uint(&w, "rockcreek_report", 1);
    rck_jsonw_string(&w, "backend", ops->name);
    rck_jsonw_array(&w, "capabilities");
    for (unsigned b = 1; b != 0; b <<= 1)
        if ((ops->caps & b) && rck_cap_name(b) != NULL)
            rck_jsonw_string(&w, NULL, rck_cap_name(b));
    rck_jsonw_end_array(&w);
    rck_jsonw_string(&w, "chip", chip->name);
    rck_jsonw_int(&w, "nues", nues);
    rck_jsonw_fixed(&w, "host_seconds", host_seconds, 6);
    rck_be_comm_json(&w, "comm", rows, nues, 2);
    rck_jsonw_break(&w, 0);
    rck_jsonw_end_object(&w);
    if (rck_jsonw_finish(&w) != RCK_OK) {
        rck_error("cannot write the report %s: %s", path,
                  rck_jsonw_error(&w));
        fclose(fp);
        unlink(tmp);
        return RCK_ERR_IO;
    }
    if (fclose(fp) != 0 || rename(tmp, path) != 0) {
        rck_error("cannot write the report %s: %s", path, strerror(errno));
        unlink(tmp);
        return RCK_ERR_IO;
    }
    return RCK_OK;
}
