/*
 * The library registry (src/hal/rck/lib.h) and the communication matrix's
 * report (src/backends/common/comm.c): ids in order of registration, bad
 * names and a full registry refused, and rows of processes whose ids
 * differ merged by name, in rank order, an idle library listed only when
 * it asks to be.
 */
#include "common/comm.h"
#include "rck/lib.h"
#include "rck/monitor.h"
#include "unit.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define NUES 3

static const rck_config_entry_t alpha_settings[] = {
    {"TEST_ALPHA", "7", RCK_CONFIG_INT, "a test library's setting", NULL},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

static const rck_lib_desc_t alpha = {.name = "alpha", .rank = 20,
                                     .flags = RCK_LIB_LISTED,
                                     .settings = alpha_settings};
static const rck_lib_desc_t beta = {.name = "beta", .rank = 10,
                                    .flags = RCK_LIB_LISTED};

/* Name library @p id of UE @p ue's row. */
static void name_col(uint64_t *rows, int ue, int col, const char *name,
                     int rank, unsigned flags)
{
    rck_comm_lib_t *h =
        (rck_comm_lib_t *)(void *)(rows + rck_comm_row_words(NUES) * ue);

    memset(&h[col], 0, sizeof(h[col]));
    strncpy(h[col].name, name, sizeof(h[col].name) - 1);
    h[col].rank = (int16_t)rank;
    h[col].flags = (uint16_t)flags;
}

static void count(uint64_t *rows, int ue, int col, int dest, uint64_t bytes)
{
    uint64_t *c = rows + rck_comm_row_words(NUES) * ue + RCK_COMM_HEAD_WORDS;

    c[((size_t)col * 2) * NUES + dest] += bytes;
    c[((size_t)col * 2 + 1) * NUES + dest] += 1;
}

static json_int_t cell(json_t *comm, const char *kind, const char *lib,
                       int i, int j)
{
    json_t *m = json_object_get(json_object_get(comm, kind), lib);

    return json_integer_value(json_array_get(json_array_get(m, (size_t)i),
                                             (size_t)j));
}

static void test_register(void)
{
    static const rck_lib_desc_t bad1 = {.name = "Upper"};
    static const rck_lib_desc_t bad2 = {.name = "much_too_long_a_name"};
    static const rck_lib_desc_t bad3 = {.name = ""};
    static char names[RCK_LIB_MAX][8];
    static rck_lib_desc_t many[RCK_LIB_MAX];
    int a = rck_lib_register(&alpha), b = rck_lib_register(&beta);

    CHECK(a == 0 && b == 1);
    CHECK(rck_lib_register(&alpha) == a); /* again: the same id */
    CHECK(rck_lib_count() == 2);
    CHECK(rck_lib_find("beta") == b && rck_lib_find("gamma") == -1);
    CHECK(!strcmp(rck_lib_name(a), "alpha") && !strcmp(rck_lib_name(9), "?"));
    CHECK(rck_lib_desc(b) == &beta && rck_lib_desc(-1) == NULL);
    /* the settings came with the descriptor */
    CHECK(rck_config_find("TEST_ALPHA") != NULL);
    CHECK(rck_lib_register(&bad1) == -1 && rck_lib_register(&bad2) == -1 &&
          rck_lib_register(&bad3) == -1 && rck_lib_register(NULL) == -1);
    CHECK(rck_lib_count() == 2);
    /* fill it: the one too many is refused */
    for (int i = 0; i < RCK_LIB_MAX; i++) {
        snprintf(names[i], sizeof(names[i]), "lib%d", i);
        many[i] = (rck_lib_desc_t){.name = names[i], .rank = 100 + i};
    }
    for (int i = 0; i < RCK_LIB_MAX - 2; i++)
        CHECK(rck_lib_register(&many[i]) == 2 + i);
    CHECK(rck_lib_count() == RCK_LIB_MAX);
    CHECK(rck_lib_register(&many[RCK_LIB_MAX - 2]) == -1);
    CHECK(rck_lib_register(&alpha) == a); /* known ones still are */
}

/* Three UEs of different programs: UE 0 has alpha at 0 and beta at 1,
 * UE 1 the other way round plus "late" (unlisted, used) at 2, UE 2 has
 * "idle" (unlisted, never used) and alpha. */
static void test_report(void)
{
    size_t words = rck_comm_row_words(NUES) * NUES;
    uint64_t *rows = calloc(words, sizeof(uint64_t));
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    rck_jsonw_t w;
    json_t *comm, *libs;
    json_error_t err;
    const char *want[] = {"beta", "alpha", "late"};

    CHECK(rows != NULL && fp != NULL);
    if (rows == NULL || fp == NULL)
        return;
    name_col(rows, 0, 0, "alpha", 20, RCK_LIB_LISTED);
    name_col(rows, 0, 1, "beta", 10, RCK_LIB_LISTED);
    name_col(rows, 1, 0, "beta", 10, RCK_LIB_LISTED);
    name_col(rows, 1, 1, "alpha", 20, RCK_LIB_LISTED);
    name_col(rows, 1, 2, "late", 30, 0);
    name_col(rows, 2, 0, "idle", 5, 0);
    name_col(rows, 2, 1, "alpha", 20, RCK_LIB_LISTED);
    count(rows, 0, 0, 1, 100);  /* alpha 0 -> 1 */
    count(rows, 1, 1, 2, 200);  /* alpha 1 -> 2 */
    count(rows, 1, 0, 0, 30);   /* beta 1 -> 0 */
    count(rows, 1, 2, 0, 7);    /* late 1 -> 0 */
    count(rows, 1, 2, 0, 8);
    count(rows, 2, 1, 0, 50);   /* alpha 2 -> 0 */
    rck_jsonw_init(&w, fp, 0);
    rck_be_comm_json(&w, NULL, rows, NUES, 2);
    CHECK(rck_jsonw_finish(&w) == RCK_OK);
    fclose(fp);
    comm = json_loads(text, 0, &err);
    CHECK(comm != NULL);
    if (comm == NULL) {
        fprintf(stderr, "%s\n%s\n", err.text, text);
        free(text);
        free(rows);
        return;
    }
    /* this process registered alpha, beta (listed) and lib0.. (idle,
     * unlisted): the report has beta, alpha (rank order), late (used);
     * idle and lib0.. are left out */
    libs = json_object_get(comm, "libraries");
    CHECK(json_array_size(libs) == 3);
    for (size_t i = 0; i < 3 && i < json_array_size(libs); i++)
        CHECK(!strcmp(json_string_value(json_array_get(libs, i)), want[i]));
    CHECK(cell(comm, "bytes", "alpha", 0, 1) == 100);
    CHECK(cell(comm, "bytes", "alpha", 1, 2) == 200);
    CHECK(cell(comm, "bytes", "alpha", 2, 0) == 50);
    CHECK(cell(comm, "messages", "alpha", 2, 0) == 1);
    CHECK(cell(comm, "bytes", "beta", 1, 0) == 30);
    CHECK(cell(comm, "bytes", "beta", 2, 0) == 0); /* UE 2 has no beta */
    CHECK(cell(comm, "bytes", "late", 1, 0) == 15);
    CHECK(cell(comm, "messages", "late", 1, 0) == 2);
    CHECK(cell(comm, "messages", "late", 0, 1) == 0);
    CHECK(json_object_get(json_object_get(comm, "bytes"), "idle") == NULL);
    json_decref(comm);
    free(text);
    free(rows);
}

int main(void)
{
    test_register();
    test_report();
    return failures != 0;
}
