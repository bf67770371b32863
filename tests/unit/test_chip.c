/*
 * Unit tests for the chip configuration (src/hal/chip.c): the built-in
 * SCC, files layered on top of it, derived fields and extrapolated hop
 * tables, every class of bad file, and the print/load round trip.
 */
#include "rck/chip.h"
#include "rck_published.h"
#include "sim/sim_costs.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#define CHECK_NEAR(a, b) CHECK(fabs((double)(a) - (double)(b)) < 1e-9)

/* Write @p text to a new temporary file; the caller unlinks and frees. */
static char *write_temp(const char *text, size_t len)
{
    const char *dir = getenv("TMPDIR");
    char *path;
    size_t n;
    int fd;

    if (dir == NULL || *dir == '\0')
        dir = "/tmp";
    n = strlen(dir) + 32;
    path = malloc(n);
    if (path == NULL)
        return NULL;
    snprintf(path, n, "%s/rck_test_chip_XXXXXX", dir);
    fd = mkstemp(path);
    if (fd < 0) {
        free(path);
        return NULL;
    }
    if (write(fd, text, len) != (ssize_t)len) {
        close(fd);
        unlink(path);
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

static rck_status_t load_text_as_file(const char *text, rck_chip_t *chip)
{
    char *path = write_temp(text, strlen(text));
    rck_status_t st;

    if (path == NULL) {
        fprintf(stderr, "cannot write a temporary file\n");
        failures++;
        return RCK_ERR_IO;
    }
    st = rck_chip_load_file(path, chip);
    unlink(path);
    free(path);
    return st;
}

/* The chip printed by rck_chip_print, as a malloc'd string. */
static char *print_chip(const rck_chip_t *chip)
{
    FILE *fp = tmpfile();
    char *text;
    long size;

    if (fp == NULL)
        return NULL;
    rck_chip_print(fp, chip);
    fflush(fp);
    size = ftell(fp);
    rewind(fp);
    text = malloc((size_t)size + 1);
    if (text != NULL) {
        size_t got = fread(text, 1, (size_t)size, fp);
        text[got] = '\0';
    }
    fclose(fp);
    return text;
}

static void round_trip(const rck_chip_t *c, int line);

/* frequencies_mhz.@p which of the built-in chip's source file
 * (RCK_CHIP_SOURCE_JSON), read with jansson, not through the loader. */
static double chip_file_mhz(const char *which)
{
    json_error_t err;
    json_t *root = json_load_file(RCK_CHIP_SOURCE_JSON, 0, &err);
    json_t *v = json_object_get(json_object_get(root, "frequencies_mhz"),
                                which);
    double mhz = json_is_number(v) ? json_number_value(v) : -1;

    if (mhz < 0) {
        fprintf(stderr, "%s: no frequencies_mhz.%s\n", RCK_CHIP_SOURCE_JSON,
                which);
        failures++;
    }
    json_decref(root);
    return mhz;
}

static void test_default(void)
{
    rck_chip_t c;
    int core, i, per_island[6] = {0};

    CHECK(rck_chip_load_default(&c) == RCK_OK);
    CHECK(strcmp(c.name, "scc-533-800-800") == 0);
    CHECK(c.mesh_x == 6 && c.mesh_y == 4 && c.cores_per_tile == 2);
    CHECK(c.ncores == 48);
    CHECK(c.ntiles == 24);
    CHECK(c.island_w == 2 && c.island_h == 2);
    CHECK(c.nislands == 6);
    CHECK(c.max_hops == 8);
    CHECK(c.mpb_bytes == 8192);
    CHECK(c.line_bytes == 32);
    CHECK(c.l1d_bytes == 16384);
    CHECK(c.l2_bytes == 262144);
    CHECK(c.atomic_counters == 96);
    CHECK(c.nmc == 4);
    CHECK(c.mc[0].x == 0 && c.mc[0].y == 0);
    CHECK(c.mc[1].x == 5 && c.mc[1].y == 0);
    CHECK(c.mc[2].x == 0 && c.mc[2].y == 2);
    CHECK(c.mc[3].x == 5 && c.mc[3].y == 2);
    /* the clocks: the chip file's (config/chips), read here directly */
    CHECK(c.core_mhz == chip_file_mhz("core") &&
          c.mesh_mhz == chip_file_mhz("mesh") &&
          c.mem_mhz == chip_file_mhz("memory"));

    /* topology */
    CHECK(rck_chip_hops(&c, 0, 47) == 8);
    CHECK(rck_chip_hops(&c, 47, 0) == 8);
    CHECK(rck_chip_hops(&c, 0, 1) == 0);
    CHECK(rck_chip_hops(&c, 0, 2) == 1);
    CHECK(rck_chip_hops(&c, 0, 12) == 1);
    CHECK(rck_chip_hops(&c, 10, 13) == 6);
    CHECK(rck_chip_tile(&c, 47) == 23);
    CHECK(rck_chip_island(&c, 0) == 0);
    CHECK(rck_chip_island(&c, 3) == 0);  /* tile 1 = (1, 0) */
    CHECK(rck_chip_island(&c, 4) == 1);  /* tile 2 = (2, 0) */
    CHECK(rck_chip_island(&c, 14) == 0); /* tile 7 = (1, 1) */
    CHECK(rck_chip_island(&c, 24) == 3); /* tile 12 = (0, 2) */
    CHECK(rck_chip_island(&c, 47) == 5);
    for (core = 0; core < c.ncores; core++) {
        int x, y, isl = rck_chip_island(&c, core);
        rck_chip_core_xy(&c, core, &x, &y);
        CHECK(isl == (y / 2) * 3 + x / 2);
        if (isl >= 0 && isl < 6)
            per_island[isl]++;
    }
    for (i = 0; i < 6; i++)
        CHECK(per_island[i] == 8);

    /* DVFS */
    CHECK(c.ndvfs == 15);
    CHECK(c.default_fdiv == 3);
    CHECK(rck_chip_fdiv_mhz(&c, 3) == c.core_mhz); /* the default divider */
    CHECK(rck_chip_fdiv_mhz(&c, 2) == 800);
    CHECK(rck_chip_fdiv_mhz(&c, 16) == 100);
    CHECK(rck_chip_fdiv_mhz(&c, 1) == 0);
    CHECK(rck_chip_fdiv_mhz(&c, 17) == 0);
    CHECK_NEAR(rck_chip_fdiv_volts(&c, 2), 1.1);
    CHECK_NEAR(rck_chip_fdiv_volts(&c, 3), 0.8);
    CHECK_NEAR(rck_chip_fdiv_volts(&c, 4), 0.7);
    CHECK_NEAR(rck_chip_fdiv_volts(&c, 16), 0.7);
    CHECK(rck_chip_fdiv_volts(&c, 0) == 0);

    /* costs: the published figures (config/published.json) where the
     * built-in chip takes them */
    {
        static const double lw[] = RCK_PUB_MPB_LINE_WRITE_BY_HOPS;
        static const double dr[] = RCK_PUB_MPB_DWORD_READ_BY_HOPS;
        for (int h = 0; h <= 8; h++) {
            CHECK(c.mpb_line_write_by_hops[h] == lw[h]);
            CHECK(c.mpb_dword_read_by_hops[h] == dr[h]);
        }
    }
    CHECK(c.mpb_line_write_by_hops[9] < 0); /* beyond max_hops: unset */
    CHECK(c.mpb_dword_read_by_hops[RCK_CHIP_MAX_HOPS] < 0);
    CHECK(sim_costs(&c)->dram_core_cycles == RCK_PUB_DRAM_LATENCY_CORE_CYCLES);
    CHECK(sim_costs(&c)->dram_mesh_cycles_per_hop ==
          RCK_PUB_DRAM_LATENCY_MESH_CYCLES_PER_HOP);
    CHECK(sim_costs(&c)->dram_mem_cycles == RCK_PUB_DRAM_LATENCY_MEMORY_CYCLES);
    /* fitted from dram_from_core_0_by_mc (see chip.c): about 201 */
    CHECK(sim_costs(&c)->dram_line_write_uncached_extra > 190 &&
          sim_costs(&c)->dram_line_write_uncached_extra < 215);
    CHECK(sim_costs(&c)->bw_mib_s_l2hit_read == RCK_PUB_BW_L2HIT_READ &&
          sim_costs(&c)->bw_mib_s_l2hit_write == RCK_PUB_BW_L2HIT_WRITE);
    CHECK(sim_costs(&c)->bw_mib_s_uncached_read == RCK_PUB_BW_UNCACHED_READ &&
          sim_costs(&c)->bw_mib_s_uncached_write ==
              RCK_PUB_BW_UNCACHED_WRITE);
    CHECK(sim_costs(&c)->bw_mib_s_mpbt_read == RCK_PUB_BW_MPBT_READ &&
          sim_costs(&c)->bw_mib_s_mpbt_write == RCK_PUB_BW_MPBT_WRITE);
    CHECK(sim_costs(&c)->cost_null_syscall == RCK_PUB_LOCAL_NULL_SYSCALL);
    CHECK(sim_costs(&c)->cost_rdtsc == RCK_PUB_LOCAL_RDTSC);
    CHECK(sim_costs(&c)->cost_xchg == RCK_PUB_LOCAL_XCHG);
    CHECK(sim_costs(&c)->cost_lock_cmpxchg == RCK_PUB_LOCAL_LOCK_CMPXCHG);
    CHECK(sim_costs(&c)->cost_lock_dec == RCK_PUB_LOCAL_LOCK_DEC);
    CHECK(sim_costs(&c)->cost_nop == RCK_PUB_LOCAL_NOP);
    CHECK(sim_costs(&c)->cost_cl1invmb == RCK_PUB_LOCAL_CL1INVMB);
    CHECK(sim_costs(&c)->cost_ipi_delivery == RCK_PUB_IRQ_IPI_DELIVERY_MIN);
    CHECK(sim_costs(&c)->cost_kernel_send == RCK_PUB_IRQ_KERNEL_SEND);
    CHECK(sim_costs(&c)->cost_mpb_write_raise ==
          RCK_PUB_IRQ_WRITE_MPB_RAISE_PIN);
    CHECK(sim_costs(&c)->cost_thread_switch ==
          RCK_PUB_THREAD_SWITCH_ROUND_TRIP);
    CHECK(sim_costs(&c)->l2_full_flush_cycles == RCK_PUB_L2_FULL_FLUSH);
    CHECK(sim_costs(&c)->l2_flush_line_clean == RCK_PUB_L2_FLUSH_LINE_CLEAN &&
          sim_costs(&c)->l2_flush_line_dirty == RCK_PUB_L2_FLUSH_LINE_DIRTY);
    CHECK_NEAR(sim_costs(&c)->relative_core_speed,
               RCK_PUB_RELATIVE_CORE_SPEED_VS_3GHZ_I7);
}

static void test_overlay(void)
{
    rck_chip_t dflt, c;

    CHECK(rck_chip_load_default(&dflt) == RCK_OK);

    /* an empty file is the default */
    memset(&c, 0x5a, sizeof(c));
    CHECK(rck_chip_load_string("{}", "empty", &c) == RCK_OK);
    CHECK(memcmp(&c, &dflt, sizeof(c)) == 0);

    /* documentation and the sections other parts check are accepted */
    CHECK(rck_chip_load_string("{\"about\": \"x\", \"p54c\": {\"l2_ways\": 4},"
                               " \"rcce_chunk_bytes\": 8160}",
                               "doc", &c) == RCK_OK);
    CHECK(memcmp(&c, &dflt, sizeof(c)) == 0);
    /* unknown keys are refused (issue 26), at any depth */
    CHECK(rck_chip_load_string("{\"future\": {\"a\": [1]}}", "future",
                               &c) == RCK_ERR_CONFIG);
    CHECK(rck_chip_load_string("{\"frequencies_mhz\": {\"cores\": 800}}",
                               "typo", &c) == RCK_ERR_CONFIG);
    CHECK(rck_chip_load_string("{\"local_ops\": {\"nopp\": 3}}", "typo2",
                               &c) == RCK_ERR_CONFIG);

    /* a partial object changes only the keys it names */
    CHECK(rck_chip_load_string("{\"frequencies_mhz\": {\"core\": 800},"
                               " \"local_ops\": {\"nop\": 3}}",
                               "partial", &c) == RCK_OK);
    CHECK(c.core_mhz == 800 && c.mesh_mhz == 800 && c.mem_mhz == 800);
    CHECK(c.default_fdiv == 2);
    CHECK(sim_costs(&c)->cost_nop == 3 && sim_costs(&c)->cost_rdtsc == 14);
    CHECK(c.ncores == 48);

    /* no exact DVFS entry: the closest divider */
    CHECK(rck_chip_load_string("{\"frequencies_mhz\": {\"core\": 390}}",
                               "closest", &c) == RCK_OK);
    CHECK(c.default_fdiv == 4);
    CHECK(rck_chip_load_string("{\"frequencies_mhz\": {\"core\": 533.3}}",
                               "round", &c) == RCK_OK);
    CHECK(c.default_fdiv == 3);

    /* a 64 KiB MPB */
    CHECK(rck_chip_load_string("{\"mpb_bytes_per_core\": 65536}", "mpb",
                               &c) == RCK_OK);
    CHECK(c.mpb_bytes == 65536);

    /* a custom DVFS table */
    CHECK(rck_chip_load_string(
              "{\"frequencies_mhz\": {\"core\": 1000},"
              " \"dvfs\": {\"fdiv\": [1, 2], \"core_mhz\": [1000, 500],"
              " \"volts\": [1.2, 0.9]}}",
              "dvfs", &c) == RCK_OK);
    CHECK(c.ndvfs == 2 && c.default_fdiv == 1);
    CHECK(rck_chip_fdiv_mhz(&c, 2) == 500);
    CHECK_NEAR(rck_chip_fdiv_volts(&c, 1), 1.2);
    CHECK(rck_chip_fdiv_mhz(&c, 3) == 0);
    CHECK(c.dvfs_fdiv[2] == 0 && c.dvfs_mhz[14] == 0);
    round_trip(&c, __LINE__);

    /* a smaller mesh with its own controller and shorter tables */
    CHECK(rck_chip_load_string(
              "{\"mesh\": {\"x\": 2, \"y\": 2, \"cores_per_tile\": 1,"
              " \"memory_controllers\": [{\"tile\": [1, 1]}],"
              " \"voltage_island_tiles\": [1, 2]}}",
              "small", &c) == RCK_OK);
    CHECK(c.ncores == 4 && c.ntiles == 4 && c.max_hops == 2);
    CHECK(c.nislands == 2);
    CHECK(rck_chip_island(&c, 1) == 1 && rck_chip_island(&c, 2) == 0);
    CHECK(c.nmc == 1 && c.mc[0].x == 1 && c.mc[0].y == 1);
    CHECK(c.mc[1].x == 0 && c.mc[3].x == 0); /* unused slots are cleared */
    round_trip(&c, __LINE__);
    CHECK(c.mpb_line_write_by_hops[2] == 89);
    CHECK(c.mpb_line_write_by_hops[3] < 0);

    /* one-entry tables are constant; decreasing ones stop at 0 */
    CHECK(rck_chip_load_string("{\"mpb_line_write_by_hops\": [50],"
                               " \"mpb_dword_read_by_hops\": [30, 10]}",
                               "tables", &c) == RCK_OK);
    CHECK(c.mpb_line_write_by_hops[0] == 50);
    CHECK(c.mpb_line_write_by_hops[8] == 50);
    CHECK(c.mpb_dword_read_by_hops[1] == 10);
    CHECK(c.mpb_dword_read_by_hops[2] == 0);
    CHECK(c.mpb_dword_read_by_hops[8] == 0);

    /* an explicit uncached line-write extra wins over the fit */
    CHECK(rck_chip_load_string("{\"dram_latency_model\":"
                               " {\"line_write_uncached_extra\": 0}}",
                               "extra", &c) == RCK_OK);
    CHECK(sim_costs(&c)->dram_line_write_uncached_extra == 0);
    CHECK(sim_costs(&c)->dram_core_cycles == 40);
}

static const char mesh16_json[] =
    "{\n"
    "  \"name\": \"mesh-16x16\",\n"
    "  \"about\": \"a hypothetical 1024-core successor\",\n"
    "  \"mesh\": {\"x\": 16, \"y\": 16, \"cores_per_tile\": 4,\n"
    "           \"memory_controllers\": [{\"id\": 0, \"tile\": [0, 0]},\n"
    "                                  {\"id\": 1, \"tile\": [15, 0]},\n"
    "                                  {\"id\": 2, \"tile\": [0, 15]},\n"
    "                                  {\"id\": 3, \"tile\": [15, 15]},\n"
    "                                  {\"id\": 4, \"tile\": [7, 7]}]},\n"
    "  \"mpb_bytes_per_core\": 65536\n"
    "}\n";

static void test_mesh16(void)
{
    rck_chip_t c, c2;
    int h;

    CHECK(load_text_as_file(mesh16_json, &c) == RCK_OK);
    CHECK(strcmp(c.name, "mesh-16x16") == 0);
    CHECK(c.ncores == 1024);
    CHECK(c.ntiles == 256);
    CHECK(c.nislands == 64);
    CHECK(c.max_hops == 30);
    CHECK(c.nmc == 5 && c.mc[4].x == 7 && c.mc[4].y == 7);
    CHECK(c.mpb_bytes == 65536);
    CHECK(c.core_mhz == chip_file_mhz("core")); /* kept from the default */
    CHECK(rck_chip_hops(&c, 0, 1023) == 30);
    CHECK(rck_chip_hops(&c, 0, 3) == 0);
    CHECK(rck_chip_island(&c, 1023) == 63);
    CHECK(rck_chip_island(&c, 4 * 17) == 0);  /* tile (1, 1) */
    CHECK(rck_chip_island(&c, 4 * 18) == 1);  /* tile (2, 1) */
    CHECK(rck_chip_island(&c, 4 * 34) == 9);  /* tile (2, 2) */
    /* the given 0..8 entries, then +6 cycles per hop as 7 -> 8 */
    CHECK(c.mpb_line_write_by_hops[8] == 119);
    CHECK(c.mpb_line_write_by_hops[9] == 125);
    CHECK(c.mpb_line_write_by_hops[30] == 119 + 22 * 6);
    CHECK(c.mpb_dword_read_by_hops[30] == 102 + 22 * 6);
    CHECK(c.mpb_line_write_by_hops[31] < 0);
    for (h = 1; h <= 30; h++) {
        CHECK(c.mpb_line_write_by_hops[h] >= c.mpb_line_write_by_hops[h - 1]);
        CHECK(c.mpb_dword_read_by_hops[h] >= c.mpb_dword_read_by_hops[h - 1]);
    }

    /* the same text from memory gives the same chip */
    CHECK(rck_chip_load_string(mesh16_json, "mesh16", &c2) == RCK_OK);
    CHECK(memcmp(&c, &c2, sizeof(c)) == 0);
}

static void test_validate(void)
{
    rck_chip_t c, c2;

    CHECK(rck_chip_load_default(&c) == RCK_OK);
    /* validating a valid chip changes nothing */
    c2 = c;
    CHECK(rck_chip_validate(&c2) == RCK_OK);
    CHECK(memcmp(&c, &c2, sizeof(c)) == 0);

    /* derived fields follow edits; tables are extended */
    c.mesh_x = 8;
    CHECK(rck_chip_validate(&c) == RCK_OK);
    CHECK(c.ncores == 64 && c.ntiles == 32 && c.nislands == 8);
    CHECK(c.max_hops == 10);
    CHECK(c.mpb_line_write_by_hops[10] == 131);
    c2 = c;
    CHECK(rck_chip_validate(&c2) == RCK_OK);
    CHECK(memcmp(&c, &c2, sizeof(c)) == 0);

    /* and a smaller mesh drops the entries beyond its diameter */
    c.mesh_x = 3;
    c.nmc = 1;
    CHECK(rck_chip_validate(&c) == RCK_OK);
    CHECK(c.max_hops == 5 && c.mpb_line_write_by_hops[6] < 0);

    CHECK(rck_chip_load_default(&c) == RCK_OK);
    c.line_bytes = 0;
    CHECK(rck_chip_validate(&c) == RCK_ERR_CONFIG);
    CHECK(rck_chip_load_default(&c) == RCK_OK);
    c.mpb_bytes = 8200;
    CHECK(rck_chip_validate(&c) == RCK_ERR_CONFIG);
    CHECK(rck_chip_load_default(&c) == RCK_OK);
    c.mc[2].y = 4;
    CHECK(rck_chip_validate(&c) == RCK_ERR_CONFIG);
    CHECK(rck_chip_load_default(&c) == RCK_OK);
    c.cores_per_tile = 0;
    CHECK(rck_chip_validate(&c) == RCK_ERR_CONFIG);
    CHECK(rck_chip_load_default(&c) == RCK_OK);
    c.mpb_line_write_by_hops[0] = -1;
    CHECK(rck_chip_validate(&c) == RCK_ERR_CONFIG);
    CHECK(rck_chip_load_default(&c) == RCK_OK);
    sim_costs_mut(&c)->cost_rdtsc = NAN;
    CHECK(rck_chip_validate(&c) == RCK_ERR_CONFIG);
    CHECK(rck_chip_load_default(&c) == RCK_OK);
    c.ndvfs = 0;
    CHECK(rck_chip_validate(&c) == RCK_ERR_CONFIG);
    CHECK(rck_chip_load_default(&c) == RCK_OK);
    memset(c.name, 'x', sizeof(c.name));
    CHECK(rck_chip_validate(&c) == RCK_ERR_CONFIG);
}

/* Bad files: each must fail with RCK_ERR_CONFIG and leave *chip alone. */
static const struct {
    const char *what;
    const char *json;
} bad_files[] = {
    /* syntax */
    {"syntax error", "{\"mesh\": {\"x\": 6,}}"},
    {"not an object", "[1, 2]"},
    {"empty file", ""},
    /* wrong types */
    {"string for a number", "{\"mpb_bytes_per_core\": \"8192\"}"},
    {"string for a frequency", "{\"frequencies_mhz\": {\"core\": \"533\"}}"},
    {"array for an object", "{\"frequencies_mhz\": [533, 800, 800]}"},
    {"number for an object", "{\"mesh\": 6}"},
    {"number for a name", "{\"name\": 5}"},
    {"bool for a number", "{\"local_ops\": {\"nop\": true}}"},
    {"null for a number", "{\"thread_switch_round_trip\": null}"},
    {"object for an array", "{\"mpb_line_write_by_hops\": {\"0\": 39}}"},
    {"string in a table", "{\"mpb_dword_read_by_hops\": [20, \"63\"]}"},
    {"fraction for an integer", "{\"mesh\": {\"x\": 6.5}}"},
    {"string for a tile", "{\"mesh\": {\"memory_controllers\": "
                          "[{\"tile\": \"0,0\"}]}}"},
    {"routing", "{\"mesh\": {\"routing\": \"yx\"}}"},
    {"name too long", "{\"name\": \"0123456789012345678901234567890123456789"
                      "012345678901234567890123\"}"},
    /* negative or zero sizes and values */
    {"zero MPB", "{\"mpb_bytes_per_core\": 0}"},
    {"negative L2", "{\"l2_bytes\": -262144}"},
    {"zero line", "{\"cache_line_bytes\": 0}"},
    {"zero mesh", "{\"mesh\": {\"x\": 0}}"},
    {"negative cores per tile", "{\"mesh\": {\"cores_per_tile\": -2}}"},
    {"zero island", "{\"mesh\": {\"voltage_island_tiles\": [0, 2]}}"},
    {"zero frequency", "{\"frequencies_mhz\": {\"mesh\": 0}}"},
    {"negative cost", "{\"local_ops\": {\"rdtsc\": -14}}"},
    {"negative table entry", "{\"mpb_line_write_by_hops\": [39, -84]}"},
    {"empty table", "{\"mpb_line_write_by_hops\": []}"},
    {"zero bandwidth", "{\"bandwidth_one_core_mib_s\": "
                       "{\"mpbt\": {\"read\": 0}}}"},
    {"zero volts", "{\"dvfs\": {\"fdiv\": [3], \"core_mhz\": [533], "
                   "\"volts\": [0]}}"},
    {"negative atomic counters", "{\"atomic_counters\": -1}"},
    {"zero relative speed", "{\"relative_core_speed_vs_3ghz_i7\": 0}"},
    /* too many entries */
    {"17 memory controllers",
     "{\"mesh\": {\"memory_controllers\": [{\"tile\": [0, 0]}, "
     "{\"tile\": [0, 0]}, {\"tile\": [0, 0]}, {\"tile\": [0, 0]}, "
     "{\"tile\": [0, 0]}, {\"tile\": [0, 0]}, {\"tile\": [0, 0]}, "
     "{\"tile\": [0, 0]}, {\"tile\": [0, 0]}, {\"tile\": [0, 0]}, "
     "{\"tile\": [0, 0]}, {\"tile\": [0, 0]}, {\"tile\": [0, 0]}, "
     "{\"tile\": [0, 0]}, {\"tile\": [0, 0]}, {\"tile\": [0, 0]}, "
     "{\"tile\": [0, 0]}]}}"},
    {"no memory controllers", "{\"mesh\": {\"memory_controllers\": []}}"},
    {"66 table entries",
     "{\"mpb_line_write_by_hops\": [0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,"
     "9,0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9,0,1,2,"
     "3,4,5,6,7,8,9,0,1,2,3,4,5]}"},
    {"33 DVFS entries",
     "{\"dvfs\": {\"fdiv\": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,"
     "19,20,21,22,23,24,25,26,27,28,29,30,31,32,33], \"core_mhz\": [1,1,1,"
     "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], "
     "\"volts\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
     "1,1,1,1,1]}}"},
    {"DVFS arrays of different lengths",
     "{\"dvfs\": {\"fdiv\": [2, 3], \"core_mhz\": [800, 533], "
     "\"volts\": [1.1]}}"},
    {"DVFS without volts", "{\"dvfs\": {\"fdiv\": [2], \"core_mhz\": [800]}}"},
    {"duplicate divider", "{\"dvfs\": {\"fdiv\": [2, 2], \"core_mhz\": "
                          "[800, 800], \"volts\": [1, 1]}}"},
    {"island tiles of 3 entries",
     "{\"mesh\": {\"voltage_island_tiles\": [2, 2, 2]}}"},
    /* too many cores, too wide */
    {"2048 cores", "{\"mesh\": {\"x\": 32, \"y\": 32}}"},
    {"66 hops", "{\"mesh\": {\"x\": 60, \"y\": 8, \"cores_per_tile\": 1}}"},
    /* alignment */
    {"MPB not a multiple of the line", "{\"mpb_bytes_per_core\": 8200}"},
    {"line not a power of two", "{\"cache_line_bytes\": 48}"},
    {"L1 not a multiple of the line", "{\"l1d_bytes\": 1000}"},
    /* memory controllers */
    {"default controllers outside a 2x2 mesh",
     "{\"mesh\": {\"x\": 2, \"y\": 2}}"},
    {"controller outside the mesh",
     "{\"mesh\": {\"memory_controllers\": [{\"id\": 0, \"tile\": [6, 0]}]}}"},
    {"negative controller tile",
     "{\"mesh\": {\"memory_controllers\": [{\"tile\": [0, -1]}]}}"},
    {"controller without a tile",
     "{\"mesh\": {\"memory_controllers\": [{\"id\": 0}]}}"},
    {"controller ids out of order",
     "{\"mesh\": {\"memory_controllers\": [{\"id\": 1, \"tile\": [0, 0]}, "
     "{\"id\": 0, \"tile\": [5, 0]}]}}"},
    {"bad measurement table",
     "{\"dram_from_core_0_by_mc\": {\"hops\": [0, 5], "
     "\"line_write_uncached\": [779]}}"},
};

static void test_bad_files(void)
{
    rck_chip_t c, untouched;
    size_t i;

    memset(&untouched, 0x5a, sizeof(untouched));
    for (i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
        rck_status_t st;

        fprintf(stderr, "-- expecting an error: %s\n", bad_files[i].what);
        c = untouched;
        st = load_text_as_file(bad_files[i].json, &c);
        if (st != RCK_ERR_CONFIG) {
            fprintf(stderr, "%s:%d: '%s' (file) gave %d, expected %d\n",
                    __FILE__, __LINE__, bad_files[i].what, (int)st,
                    (int)RCK_ERR_CONFIG);
            failures++;
        }
        CHECK(memcmp(&c, &untouched, sizeof(c)) == 0);
        st = rck_chip_load_string(bad_files[i].json, bad_files[i].what, &c);
        if (st != RCK_ERR_CONFIG) {
            fprintf(stderr, "%s:%d: '%s' (string) gave %d, expected %d\n",
                    __FILE__, __LINE__, bad_files[i].what, (int)st,
                    (int)RCK_ERR_CONFIG);
            failures++;
        }
        CHECK(memcmp(&c, &untouched, sizeof(c)) == 0);
    }

    /* a file that does not exist, and one with a NUL byte */
    fprintf(stderr, "-- expecting an error: missing file\n");
    CHECK(rck_chip_load_file("/nonexistent/rck/chip.json", &c) ==
          RCK_ERR_IO);
    CHECK(memcmp(&c, &untouched, sizeof(c)) == 0);
    {
        static const char nul_text[] = "{\"name\": \"a\"}\0garbage";
        char *path = write_temp(nul_text, sizeof(nul_text) - 1);
        CHECK(path != NULL);
        if (path != NULL) {
            fprintf(stderr, "-- expecting an error: NUL byte\n");
            CHECK(rck_chip_load_file(path, &c) == RCK_ERR_CONFIG);
            unlink(path);
            free(path);
        }
    }
}

/* Load @p json as "model.json" with stderr caught: @return the status,
 * the error text in @p err. */
static rck_status_t load_caught(const char *json, rck_chip_t *c, char *err,
                                size_t len)
{
    FILE *cap = tmpfile();
    int saved = dup(2);
    rck_status_t st;
    size_t got = 0;

    err[0] = '\0';
    if (cap == NULL || saved < 0) {
        fprintf(stderr, "cannot catch stderr\n");
        failures++;
        return RCK_ERR_IO;
    }
    fflush(stderr);
    dup2(fileno(cap), 2);
    st = rck_chip_load_string(json, "model.json", c);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(cap);
    got = fread(err, 1, len - 1, cap);
    err[got] = '\0';
    fclose(cap);
    return st;
}

/* The schema's generic checks name the file, the key and what is wrong. */
static void expect_param_error(const char *json, const char *key,
                               const char *why, int line)
{
    rck_chip_t c;
    char err[1024];
    rck_status_t st = load_caught(json, &c, err, sizeof(err));

    if (st != RCK_ERR_CONFIG || strstr(err, "model.json") == NULL ||
        strstr(err, key) == NULL || strstr(err, why) == NULL) {
        fprintf(stderr, "%s:%d: %s gave %d and '%s', expected an error "
                "naming model.json, '%s' and '%s'\n", __FILE__, line, json,
                (int)st, err, key, why);
        failures++;
    }
}

/* The parameter schema (sim_costs.h rows through the generic loader). */
static void test_schema(void)
{
    rck_chip_t c;
    FILE *fp;
    char buf[32768]; /* the whole schema: the HAL's rows, the model's */
    size_t got;

    /* a model assumption's default is its schema row's */
    CHECK(rck_chip_load_default(&c) == RCK_OK);
    CHECK(sim_costs(&c)->power_act_wait == 0.3);
    CHECK(sim_costs(&c)->power_act_compute == 1.0);
    CHECK(sim_costs(&c)->power_e_dram_tx == 18e-9);
    /* a chip file sets it */
    CHECK(rck_chip_load_string("{\"power_model\": {\"activity\": "
                               "{\"wait\": 0.5}}}", "f", &c) == RCK_OK);
    CHECK(sim_costs(&c)->power_act_wait == 0.5);
    CHECK(sim_costs(&c)->power_act_mpb == 0.6);
    round_trip(&c, __LINE__);

    /* out of range, both ends and open minimum */
    expect_param_error("{\"power_model\": {\"activity\": "
                       "{\"compute\": 1.5}}}",
                       "'power_model.activity.compute'",
                       "at most 1 fraction, got 1.5", __LINE__);
    expect_param_error("{\"power_model\": {\"activity\": {\"irq\": -0.1}}}",
                       "'power_model.activity.irq'", "got -0.1", __LINE__);
    expect_param_error("{\"bandwidth_one_core_mib_s\": {\"mpbt\": "
                       "{\"read\": 0}}}",
                       "'bandwidth_one_core_mib_s.mpbt.read'",
                       "greater than zero, got 0", __LINE__);
    expect_param_error("{\"local_ops\": {\"nop\": -2}}", "'local_ops.nop'",
                       "non-negative, got -2", __LINE__);
    /* bad type */
    expect_param_error("{\"power_model\": {\"energy_j\": "
                       "{\"dram_tx\": \"18e-9\"}}}",
                       "'power_model.energy_j.dram_tx'",
                       "expected a number, got a string", __LINE__);
    expect_param_error("{\"power_model\": {\"activity\": [1]}}",
                       "'power_model.activity'", "expected an object",
                       __LINE__);
    /* unknown keys: in a schema group, and a misspelt group */
    expect_param_error("{\"power_model\": {\"activity\": "
                       "{\"computer\": 1}}}",
                       "unknown key 'power_model.activity.computer'",
                       "compute", __LINE__);
    expect_param_error("{\"power_modle\": {}}", "unknown key 'power_modle'",
                       "power_model", __LINE__);

    /* the HAL's own fields: its rows, through the same generic checks */
    expect_param_error("{\"frequencies_mhz\": {\"core\": 0}}",
                       "'frequencies_mhz.core'", "greater than zero, got 0",
                       __LINE__);
    expect_param_error("{\"mesh\": {\"x\": 2.5}}", "'mesh.x'",
                       "expected an integer, got 2.5", __LINE__);
    expect_param_error("{\"mesh\": {\"cores_per_tile\": 0}}",
                       "'mesh.cores_per_tile'",
                       "at least 1 and at most 1024 cores, got 0", __LINE__);
    expect_param_error("{\"dvfs\": {\"volt_change_cycles\": -1}}",
                       "'dvfs.volt_change_cycles'", "non-negative, got -1",
                       __LINE__);
    expect_param_error("{\"l2_bytes\": \"big\"}", "'l2_bytes'",
                       "expected a number, got a string", __LINE__);
    expect_param_error("{\"atomic_counters\": -1}", "'atomic_counters'",
                       "got -1", __LINE__);
    expect_param_error("{\"mpb_line_write_by_hops\": [40, -2]}",
                       "'mpb_line_write_by_hops[1]'", "non-negative, got -2",
                       __LINE__);
    expect_param_error("{\"mpb_dword_read_by_hops\": [\"20\"]}",
                       "'mpb_dword_read_by_hops[0]'",
                       "expected a number, got a string", __LINE__);
    expect_param_error("{\"mpb_dword_read_by_hops\": []}",
                       "'mpb_dword_read_by_hops'", "expected 1 to 65 entries",
                       __LINE__);
    CHECK(rck_chip_load_string("{\"frequencies_mhz\": {\"mesh\": 1600}, "
                               "\"mesh\": {\"y\": 3}}", "f", &c) == RCK_OK);
    CHECK(c.mesh_mhz == 1600 && c.mesh_y == 3 && c.mesh_x == 6);

    /* the schema as JSON: every row, its default and where it lives */
    fp = tmpfile();
    CHECK(fp != NULL);
    if (fp == NULL)
        return;
    CHECK(rck_chip_load_default(&c) == RCK_OK);
    rck_chip_print_schema(fp, &c);
    rewind(fp);
    got = fread(buf, 1, sizeof(buf) - 1, fp);
    buf[got] = '\0';
    fclose(fp);
    CHECK(strstr(buf, "{\"key\": \"power_model.activity.wait\", \"type\": "
                      "\"number\", \"unit\": \"fraction\", \"min\": 0, "
                      "\"min_open\": false, \"max\": 1, \"default\": 0.3, "
                      "\"default_from\": \"schema\"") != NULL);
    CHECK(strstr(buf, "{\"key\": \"local_ops.rdtsc\", \"type\": \"number\", "
                      "\"unit\": \"core cycles\", \"min\": 0, \"min_open\": "
                      "false, \"max\": null, \"default\": 14, "
                      "\"default_from\": \"chip\"") != NULL);
    CHECK(strstr(buf, "\"field\": \"sim_costs_t.cost_rdtsc\"") != NULL);
    /* the HAL's rows come first, with the built-in chip's values */
    CHECK(!strncmp(buf, "[\n  {\"key\": \"frequencies_mhz.core\", \"type\": "
                        "\"number\", \"unit\": \"MHz\", \"min\": 0, "
                        "\"min_open\": true, \"max\": null, \"default\": "
                        "533, \"default_from\": \"chip\"",
                   strlen("[\n  {\"key\": \"frequencies_mhz.core\", "
                          "\"type\": \"number\", \"unit\": \"MHz\", "
                          "\"min\": 0, \"min_open\": true, \"max\": null, "
                          "\"default\": 533, \"default_from\": \"chip\"")));
    CHECK(strstr(buf, "{\"key\": \"mesh.x\", \"type\": \"integer\", "
                      "\"unit\": \"tiles\"") != NULL);
    CHECK(strstr(buf, "\"field\": \"rck_chip_t.volts_start\"") != NULL);
    CHECK(strstr(buf, "{\"key\": \"mpb_dword_read_by_hops\", \"type\": "
                      "\"number\", \"unit\": \"core cycles\", \"min\": 0, "
                      "\"min_open\": false, \"max\": null, \"default\": [20, "
                      "63, 69, 72, 78, 84, 90, 96, 102]") != NULL);
}

static void round_trip(const rck_chip_t *c, int line)
{
    char *text = print_chip(c);
    rck_chip_t back;

    if (text == NULL) {
        fprintf(stderr, "%s:%d: cannot print the chip\n", __FILE__, line);
        failures++;
        return;
    }
    memset(&back, 0, sizeof(back));
    if (rck_chip_load_string(text, "printed chip", &back) != RCK_OK) {
        fprintf(stderr, "%s:%d: printed chip does not load:\n%s", __FILE__,
                line, text);
        failures++;
    } else if (memcmp(&back, c, sizeof(back)) != 0) {
        fprintf(stderr, "%s:%d: printed chip loads differently:\n%s",
                __FILE__, line, text);
        failures++;
    }
    free(text);
}

static void test_round_trip(void)
{
    rck_chip_t c;
    char *text;

    CHECK(rck_chip_load_default(&c) == RCK_OK);
    round_trip(&c, __LINE__);
    text = print_chip(&c);
    CHECK(text != NULL);
    if (text != NULL) {
        CHECK(strstr(text, "\"mpb_line_write_by_hops\": [39, 84, 89, 90, 95, "
                           "101, 108, 113, 119]") != NULL);
        CHECK(strstr(text, "\"cores\": 48") != NULL);
        free(text);
    }

    CHECK(rck_chip_load_string(mesh16_json, "mesh16", &c) == RCK_OK);
    round_trip(&c, __LINE__);

    /* awkward values: fractions, escapes, one-entry tables */
    CHECK(rck_chip_load_string(
              "{\"name\": \"odd \\\"chip\\\" \\\\ \\t \\u00e9\","
              " \"frequencies_mhz\": {\"core\": 533.3333333333334,"
              " \"mesh\": 1600, \"memory\": 1066.6666666666667},"
              " \"mesh\": {\"x\": 1, \"y\": 1, \"cores_per_tile\": 3,"
              " \"memory_controllers\": [{\"tile\": [0, 0]}]},"
              " \"mpb_line_write_by_hops\": [0.1],"
              " \"relative_core_speed_vs_3ghz_i7\": 1e-7,"
              " \"local_ops\": {\"nop\": 0.30000000000000004},"
              " \"dvfs\": {\"fdiv\": [7], \"core_mhz\": [228.57142857142858],"
              " \"volts\": [0.75]}}",
              "odd", &c) == RCK_OK);
    CHECK(c.ncores == 3 && c.max_hops == 0 && c.default_fdiv == 7);
    round_trip(&c, __LINE__);
}

int main(void)
{
    test_default();
    test_overlay();
    test_mesh16();
    test_validate();
    test_bad_files();
    test_round_trip();
    test_schema();
    if (failures != 0) {
        fprintf(stderr, "test_chip: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_chip: all checks passed\n");
    return 0;
}
