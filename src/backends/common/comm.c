/*
 * The communication matrix in JSON (comm.h).
 */
#include "common/comm.h"

#include "rck/config.h"
#include "rck/log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void matrix(FILE *fp, const uint64_t *rows, int nues, int lib, int k,
                   int indent)
{
    size_t stride = rck_comm_row_words(nues);

    fprintf(fp, "[");
    for (int i = 0; i < nues; i++) {
        const uint64_t *r = rows + stride * (size_t)i +
                            ((size_t)lib * 2 + (size_t)k) * (size_t)nues;
        if (i > 0)
            fprintf(fp, ",\n%*s", indent + 1, "");
        fprintf(fp, "[");
        for (int j = 0; j < nues; j++)
            fprintf(fp, "%s%llu", j ? ", " : "", (unsigned long long)r[j]);
        fprintf(fp, "]");
    }
    fprintf(fp, "]");
}

void rck_be_comm_json(FILE *fp, const uint64_t *rows, int nues, int indent)
{
    static const char *const kinds[2] = {"bytes", "messages"};

    fprintf(fp, "{\"ues\": %d, \"libraries\": [", nues);
    for (int l = 0; l < RCK_LIB_N; l++)
        fprintf(fp, "%s\"%s\"", l ? ", " : "", rck_lib_name(l));
    fprintf(fp, "]");
    for (int k = 0; k < 2; k++) {
        fprintf(fp, ",\n%*s\"%s\": {", indent + 2, "", kinds[k]);
        for (int l = 0; l < RCK_LIB_N; l++) {
            fprintf(fp, "%s\n%*s\"%s\": ", l ? "," : "", indent + 4, "",
                    rck_lib_name(l));
            matrix(fp, rows, nues, l, k,
                   indent + 4 + (int)strlen(rck_lib_name(l)) + 4);
        }
        fprintf(fp, "}");
    }
    fprintf(fp, "}");
}

const char *rck_be_report_path(void)
{
    const char *s = rck_config_get("REPORT");

    if (*s == '\0' || !strcmp(s, "none") || !strcmp(s, "off"))
        return "";
    return s;
}

rck_status_t rck_be_report_write(const char *path, const char *backend,
                                 const rck_chip_t *chip, int nues,
                                 double host_seconds, const uint64_t *rows)
{
    char tmp[4096];
    FILE *fp;

    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
    fp = fopen(tmp, "w");
    if (fp == NULL) {
        rck_error("cannot write the report %s: %s", path, strerror(errno));
        return RCK_ERR_IO;
    }
    fprintf(fp,
            "{\n  \"rockcreek_report\": 1,\n  \"backend\": \"%s\",\n"
            "  \"chip\": \"%s\",\n  \"nues\": %d,\n"
            "  \"host_seconds\": %.6f,\n  \"comm\": ",
            backend, chip->name, nues, host_seconds);
    rck_be_comm_json(fp, rows, nues, 2);
    fprintf(fp, "\n}\n");
    if (fclose(fp) != 0 || rename(tmp, path) != 0) {
        rck_error("cannot write the report %s: %s", path, strerror(errno));
        unlink(tmp);
        return RCK_ERR_IO;
    }
    return RCK_OK;
}
