/*
 * Unit tests for the util layer: status strings and the configuration
 * table, the program search (src/util/status.c, config.c, exec.c).
 */
#include "rck/config.h"
#include "rck/exec.h"
#include "rck/status.h"

#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

static void test_status(void)
{
#define STATUS_CODE(name, val, str) RCK_##name,
    static const rck_status_t codes[] = {RCK_STATUS_MAP(STATUS_CODE)};
#undef STATUS_CODE
    size_t n = sizeof(codes) / sizeof(codes[0]), i, j;
    const char *unknown = rck_status_string((rck_status_t)12345);

    CHECK(n >= 2);
    CHECK(codes[0] == RCK_OK && RCK_OK == 0);
    CHECK(unknown != NULL && strlen(unknown) > 0);
    for (i = 0; i < n; i++) {
        const char *s = rck_status_string(codes[i]);
        CHECK(s != NULL);
        if (s == NULL)
            continue;
        CHECK(strlen(s) > 0);
        CHECK(strcmp(s, unknown) != 0);
        if (i > 0)
            CHECK(codes[i] < 0); /* errors are negative */
        for (j = 0; j < i; j++) {
            CHECK(codes[i] != codes[j]);
            CHECK(strcmp(s, rck_status_string(codes[j])) != 0);
        }
    }
    CHECK(strcmp(rck_status_string(RCK_ERR_CONFIG), "bad configuration") ==
          0);
}

static void size_ok(const char *text, size_t want, int line)
{
    size_t v = 7;

    if (rck_config_parse_size(text, &v) != 0 || v != want) {
        fprintf(stderr, "%s:%d: size '%s' gave %zu, expected %zu\n",
                __FILE__, line, text, v, want);
        failures++;
    }
}

static void size_bad(const char *text, int line)
{
    size_t v = 7;

    if (rck_config_parse_size(text, &v) != -1 || v != 7) {
        fprintf(stderr, "%s:%d: size '%s' was accepted (%zu)\n", __FILE__,
                line, text ? text : "(null)", v);
        failures++;
    }
}

static void test_parse_size(void)
{
    size_ok("0", 0, __LINE__);
    size_ok("1", 1, __LINE__);
    size_ok("4096", 4096, __LINE__);
    size_ok("4k", 4096, __LINE__);
    size_ok("4K", 4096, __LINE__);
    size_ok("16kb", 16384, __LINE__);
    size_ok("16KB", 16384, __LINE__);
    size_ok("64m", (size_t)64 << 20, __LINE__);
    size_ok("64M", (size_t)64 << 20, __LINE__);
    size_ok("1g", (size_t)1 << 30, __LINE__);
    size_ok("2G", (size_t)2 << 30, __LINE__);
    size_ok("0x100", 256, __LINE__);
    if (sizeof(size_t) >= 8)
        size_ok("16g", (size_t)16 << 30, __LINE__);

    size_bad(NULL, __LINE__);
    size_bad("", __LINE__);
    size_bad("-1", __LINE__);
    size_bad("-1k", __LINE__);
    size_bad("k", __LINE__);
    size_bad("abc", __LINE__);
    size_bad("12q", __LINE__);
    size_bad("1kk", __LINE__);
    size_bad("1mb2", __LINE__);
    size_bad("16b", __LINE__);
    size_bad("1.5m", __LINE__);
    size_bad("99999999999999999999999", __LINE__);
    size_bad("17179869184g", __LINE__); /* 2^64: overflows */
}

static void test_table(void)
{
    const rck_config_entry_t *t = rck_config_table(), *e, *f;
    int n = 0;

    CHECK(t != NULL);
    CHECK(rck_config_next(NULL) == t);
    for (e = rck_config_next(NULL); e != NULL; e = rck_config_next(e), n++) {
        size_t v;
        CHECK(e->dflt != NULL);
        CHECK(e->help != NULL && strlen(e->help) > 0);
        CHECK(strncmp(e->name, "RCK_", 4) != 0);
        /* a size default is a size, or "auto" with the values "auto=SIZE" */
        if (e->type == RCK_CONFIG_SIZE && strcmp(e->dflt, "auto") == 0)
            CHECK(e->values != NULL && strncmp(e->values, "auto=", 5) == 0 &&
                  rck_config_parse_size(e->values + 5, &v) == 0);
        else if (e->type == RCK_CONFIG_SIZE)
            CHECK(rck_config_parse_size(e->dflt, &v) == 0);
        for (f = rck_config_next(NULL); f != e; f = rck_config_next(f))
            CHECK(strcmp(f->name, e->name) != 0);
    }
    CHECK(n > 0);
}

/* A component's table: its settings resolve and are listed after the
 * tables of lower rank, in rank order, whatever the order they came in. */
static void test_register(void)
{
    static const rck_config_entry_t late[] = {
        {"TEST_LATE", "7", RCK_CONFIG_INT, "a setting of rank 90", NULL},
        {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};
    static const rck_config_entry_t early[] = {
        {"TEST_EARLY", "x", RCK_CONFIG_STRING, "a setting of rank 5", NULL},
        {"TEST_EARLY2", "1k", RCK_CONFIG_SIZE, "another one", NULL},
        {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};
    const rck_config_entry_t *e;
    int pos = 0, at_early = -1, at_late = -1, at_general = -1;

    rck_config_register(late, 90);
    rck_config_register(early, 5);
    rck_config_register(early, 5); /* twice: once */
    CHECK(rck_config_get_int("TEST_LATE") == 7);
    CHECK(rck_config_get_size("TEST_EARLY2") == 1024);
    for (e = rck_config_next(NULL); e != NULL; e = rck_config_next(e), pos++) {
        if (!strcmp(e->name, "TEST_EARLY")) {
            CHECK(at_early < 0);
            at_early = pos;
        }
        if (!strcmp(e->name, "TEST_LATE"))
            at_late = pos;
        if (!strcmp(e->name, "BACKEND"))
            at_general = pos;
    }
    CHECK(at_general == 0 && at_early > at_general && at_late > at_early);
}

/* The table default of @p name, as text. */
static const char *dflt_of(const char *name)
{
    const rck_config_entry_t *e;

    for (e = rck_config_table(); e->name != NULL; e++) {
        if (strcmp(e->name, name) == 0)
            return e->dflt;
    }
    fprintf(stderr, "setting %s is not in the table\n", name);
    failures++;
    return "";
}

static void test_env(void)
{
    size_t shm_dflt = 0;
    long timeout_dflt = strtol(dflt_of("WAIT_TIMEOUT"), NULL, 0);
    long grace_dflt = strtol(dflt_of("KILL_GRACE_MS"), NULL, 0);

    /* the default is "auto": 64m except where the native launcher grows
     * it (docs/MPI.md) */
    CHECK(strcmp(dflt_of("SHM_SIZE"), "auto") == 0);
    shm_dflt = (size_t)64 << 20;
    /* start from a clean environment whatever the caller set */
    unsetenv("RCK_SHM_SIZE");
    unsetenv("RCK_WAIT_TIMEOUT");
    unsetenv("RCK_KILL_GRACE_MS");
    unsetenv("RCK_PREFIX");
    unsetenv("RCK_BACKEND");

    /* defaults */
    CHECK(strcmp(rck_config_get("SHM_SIZE"), dflt_of("SHM_SIZE")) == 0);
    CHECK(rck_config_get_size("SHM_SIZE") == shm_dflt);
    CHECK(rck_config_get_int("WAIT_TIMEOUT") == timeout_dflt);
    CHECK(rck_config_get_int("KILL_GRACE_MS") == grace_dflt);
    CHECK(strcmp(rck_config_get("BACKEND"), dflt_of("BACKEND")) == 0);

    /* environment overrides */
    CHECK(rck_config_size_is_auto("SHM_SIZE") == 1);
    setenv("RCK_SHM_SIZE", "AUTO", 1);
    CHECK(rck_config_get_size("SHM_SIZE") == shm_dflt);
    CHECK(rck_config_size_is_auto("SHM_SIZE") == 1);
    CHECK(rck_config_check(rck_config_find("SHM_SIZE"), "auto", NULL, 0) == 0);
    CHECK(rck_config_check(rck_config_find("SHM_SIZE"), "autox", NULL, 0) ==
          -1);
    CHECK(rck_config_check(rck_config_find("SHM_SIZE"), "3m", NULL, 0) == 0);
    setenv("RCK_SHM_SIZE", "1k", 1);
    CHECK(strcmp(rck_config_get("SHM_SIZE"), "1k") == 0);
    CHECK(rck_config_get_size("SHM_SIZE") == 1024);
    CHECK(rck_config_size_is_auto("SHM_SIZE") == 0);
    setenv("RCK_WAIT_TIMEOUT", "30", 1);
    CHECK(rck_config_get_int("WAIT_TIMEOUT") == 30);
    setenv("RCK_BACKEND", "sim", 1);
    CHECK(strcmp(rck_config_get("BACKEND"), "sim") == 0);
    setenv("RCK_PREFIX", "no", 1);
    CHECK(rck_config_get_bool("PREFIX") == 0);
    setenv("RCK_PREFIX", "0", 1);
    CHECK(rck_config_get_bool("PREFIX") == 0);
    setenv("RCK_PREFIX", "yes", 1);
    CHECK(rck_config_get_bool("PREFIX") == 1);
    setenv("RCK_PREFIX", "TRUE", 1);
    CHECK(rck_config_get_bool("PREFIX") == 1);
    setenv("RCK_PREFIX", "on", 1);
    CHECK(rck_config_get_bool("PREFIX") == 1);

    /* bad values fall back to the default (and log) */
    fprintf(stderr, "-- expecting errors about bad values\n");
    setenv("RCK_SHM_SIZE", "lots", 1);
    CHECK(rck_config_get_size("SHM_SIZE") == shm_dflt);
    setenv("RCK_SHM_SIZE", "-5m", 1);
    CHECK(rck_config_get_size("SHM_SIZE") == shm_dflt);
    setenv("RCK_WAIT_TIMEOUT", "abc", 1);
    CHECK(rck_config_get_int("WAIT_TIMEOUT") == timeout_dflt);
    setenv("RCK_WAIT_TIMEOUT", "12x", 1);
    CHECK(rck_config_get_int("WAIT_TIMEOUT") == timeout_dflt);
    setenv("RCK_KILL_GRACE_MS", "", 1);
    CHECK(rck_config_get_int("KILL_GRACE_MS") == grace_dflt);
    setenv("RCK_KILL_GRACE_MS", "99999999999999999999999", 1);
    CHECK(rck_config_get_int("KILL_GRACE_MS") == grace_dflt);

    /* unknown settings */
    fprintf(stderr, "-- expecting an error about an unknown setting\n");
    CHECK(strcmp(rck_config_get("NO_SUCH_SETTING"), "") == 0);

    unsetenv("RCK_SHM_SIZE");
    unsetenv("RCK_WAIT_TIMEOUT");
    unsetenv("RCK_KILL_GRACE_MS");
    unsetenv("RCK_PREFIX");
    unsetenv("RCK_BACKEND");
}

static void test_print(void)
{
    FILE *fp = tmpfile();
    char buf[8192];
    size_t got;

    CHECK(fp != NULL);
    if (fp == NULL)
        return;
    setenv("RCK_SHM_SIZE", "2m", 1);
    rck_config_print(fp, 0);
    rck_config_print(fp, 1);
    unsetenv("RCK_SHM_SIZE");
    rewind(fp);
    got = fread(buf, 1, sizeof(buf) - 1, fp);
    buf[got] = '\0';
    fclose(fp);
    CHECK(strstr(buf, "RCK_SHM_SIZE") != NULL);
    CHECK(strstr(buf, "default '") != NULL);
    CHECK(strstr(buf, "RCK_SHM_SIZE=2m") != NULL);
}

/* rck_config_check: each type's syntax and the values lists (issue 26). */
static void test_check(void)
{
    static const rck_config_entry_t t[] = {
        {"T_INT", "0", RCK_CONFIG_INT, "any integer", NULL},
        {"T_NONNEG", "3", RCK_CONFIG_INT, "from 0", "0.."},
        {"T_RANGE", "0", RCK_CONFIG_INT, "a seed", "0..18446744073709551615"},
        {"T_SIZE", "1k", RCK_CONFIG_SIZE, "a size", NULL},
        {"T_BOOL", "1", RCK_CONFIG_BOOL, "a bool", NULL},
        {"T_WORDS", "warn", RCK_CONFIG_STRING, "words", "error|warn"},
        {"T_NUM", "auto", RCK_CONFIG_STRING, "numbers", "auto|#|host:#.#"},
        {"T_FREE", "", RCK_CONFIG_STRING, "any text", NULL}};
    char why[128];

    CHECK(rck_config_check(&t[0], "-5", NULL, 0) == 0);
    CHECK(rck_config_check(&t[0], "0x10", NULL, 0) == 0);
    CHECK(rck_config_check(&t[0], "abc", why, sizeof(why)) == -1);
    CHECK(strcmp(why, "not an integer") == 0);
    CHECK(rck_config_check(&t[0], "", NULL, 0) == -1);
    CHECK(rck_config_check(&t[0], "4x", NULL, 0) == -1);
    CHECK(rck_config_check(&t[1], "3", NULL, 0) == 0);
    CHECK(rck_config_check(&t[1], "-1", why, sizeof(why)) == -1);
    CHECK(strcmp(why, "not an integer from 0") == 0);
    CHECK(rck_config_check(&t[2], "18446744073709551615", NULL, 0) == 0);
    CHECK(rck_config_check(&t[2], "18446744073709551616", NULL, 0) == -1);
    CHECK(rck_config_check(&t[3], "64m", NULL, 0) == 0);
    CHECK(rck_config_check(&t[3], "lots", NULL, 0) == -1);
    CHECK(rck_config_check(&t[4], "Yes", NULL, 0) == 0);
    CHECK(rck_config_check(&t[4], "off", NULL, 0) == 0);
    CHECK(rck_config_check(&t[4], "maybe", NULL, 0) == -1);
    CHECK(rck_config_check(&t[5], "warn", NULL, 0) == 0);
    CHECK(rck_config_check(&t[5], "ERROR", NULL, 0) == 0);
    CHECK(rck_config_check(&t[5], "verbose", why, sizeof(why)) == -1);
    CHECK(strcmp(why, "not one of: error, warn") == 0);
    CHECK(rck_config_check(&t[6], "auto", NULL, 0) == 0);
    CHECK(rck_config_check(&t[6], "250", NULL, 0) == 0);
    CHECK(rck_config_check(&t[6], "2.5", NULL, 0) == -1);
    CHECK(rck_config_check(&t[6], "host:0.25", NULL, 0) == 0);
    CHECK(rck_config_check(&t[6], "host:", NULL, 0) == -1);
    CHECK(rck_config_check(&t[6], "-3", why, sizeof(why)) == -1);
    CHECK(strcmp(why, "not one of: auto, INTEGER, host:NUMBER") == 0);
    CHECK(rck_config_check(&t[7], "anything at all", NULL, 0) == 0);
    /* every registered setting accepts its own default */
    for (const rck_config_entry_t *e = rck_config_next(NULL); e != NULL;
         e = rck_config_next(e))
        CHECK(rck_config_check(e, e->dflt, NULL, 0) == 0);
    CHECK(rck_config_find("LOG") != NULL);
    CHECK(rck_config_find("NO_SUCH_SETTING") == NULL);
}

/* rck_exec_find answers as execvp would search. */
static void test_exec_find(void)
{
    char out[256], dir[] = "/tmp/rck-test-exec-XXXXXXX", file[300];
    const char *old = getenv("PATH");
    char *saved = old != NULL ? strdup(old) : NULL;
    FILE *fp;

    CHECK(rck_exec_find("/bin/sh", out, sizeof(out)) == 0);
    CHECK(strcmp(out, "/bin/sh") == 0);
    CHECK(rck_exec_find("/nonexistent/prog", NULL, 0) == ENOENT);
    CHECK(rck_exec_find("/tmp", NULL, 0) == EISDIR);
    CHECK(rck_exec_find("", NULL, 0) == ENOENT);
    CHECK(mkdtemp(dir) != NULL);
    snprintf(file, sizeof(file), "%s/rck-plain", dir);
    fp = fopen(file, "w");
    CHECK(fp != NULL);
    if (fp != NULL)
        fclose(fp);
    CHECK(rck_exec_find(file, NULL, 0) == EACCES);
    /* PATH: found, not executable, not there, an empty entry (here) */
    setenv("PATH", "/nonexistent:/bin", 1);
    CHECK(rck_exec_find("sh", out, sizeof(out)) == 0);
    CHECK(strcmp(out, "/bin/sh") == 0);
    CHECK(rck_exec_find("sh", out, 5) == ENAMETOOLONG);
    setenv("PATH", dir, 1);
    CHECK(rck_exec_find("rck-plain", NULL, 0) == EACCES);
    CHECK(rck_exec_find("rck-no-such-program", NULL, 0) == ENOENT);
    CHECK(chmod(file, 0755) == 0);
    CHECK(rck_exec_find("rck-plain", out, sizeof(out)) == 0);
    CHECK(strcmp(out, file) == 0);
    CHECK(chdir(dir) == 0);
    setenv("PATH", ":/nonexistent", 1);
    CHECK(rck_exec_find("rck-plain", out, sizeof(out)) == 0);
    CHECK(strcmp(out, "./rck-plain") == 0);
    if (saved != NULL)
        setenv("PATH", saved, 1);
    free(saved);
    unlink(file);
    rmdir(dir);
}

int main(void)
{
    test_status();
    test_parse_size();
    test_table();
    test_register();
    test_env();
    test_print();
    test_check();
    test_exec_find();
    if (failures != 0) {
        fprintf(stderr, "test_util: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_util: all checks passed\n");
    return 0;
}
