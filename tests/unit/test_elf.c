/*
 * The small ELF64 reader (src/util/elf.c, rck/elf.h): this test program
 * reads itself (a section it defines by name, its symbols with their
 * sections) and bad files give clear errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rck/elf.h"
#include "unit.h"

/* A section with known bytes, found by name. */
__attribute__((section(".rck_elf_test"), used)) static const char
    marker[16] = "rck-elf-marker!";

int elf_test_symbol(void);
int elf_test_symbol(void)
{
    return 42;
}

static void self(void)
{
    rck_elf_t *e;
    char why[256];
    CHECK(rck_elf_load("/proc/self/exe", &e, why, sizeof(why)) == 0);
    size_t len = 0;
    const char *p = rck_elf_section(e, ".rck_elf_test", &len);
    CHECK(p && len == sizeof(marker) && memcmp(p, marker, len) == 0);
    CHECK(rck_elf_section(e, ".no_such_section", &len) == NULL && len == 0);
    CHECK(rck_elf_nsections(e) > 5);
    int found = 0;
    for (size_t i = 0; i < rck_elf_nsyms(e); i++) {
        rck_elf_sym_t s;
        CHECK(rck_elf_sym(e, i, &s) == 0);
        if (strcmp(s.name, "elf_test_symbol") == 0) {
            found = 1;
            CHECK(strcmp(rck_elf_section_name(e, s.shndx), ".text") == 0);
            size_t tl;
            const unsigned char *text = rck_elf_section_at(e, s.shndx, &tl);
            CHECK(text != NULL && tl > 0);
        }
    }
    CHECK(found);
    rck_elf_sym_t s;
    CHECK(rck_elf_sym(e, rck_elf_nsyms(e), &s) == -1);
    CHECK(strcmp(rck_elf_section_name(e, 1u << 30), "") == 0);
    rck_elf_free(e);
}

static void bad_files(void)
{
    rck_elf_t *e = (rck_elf_t *)1;
    char why[256] = "";
    CHECK(rck_elf_load("/nonexistent/file", &e, why, sizeof(why)) == -1);
    CHECK(e == NULL && errno == ENOENT && strstr(why, "/nonexistent/file"));
    char path[] = "/tmp/rck-test-elf-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(write(fd, "\x7f" "ELF but short", 14) == 14);
    close(fd);
    CHECK(rck_elf_load(path, &e, why, sizeof(why)) == -1);
    CHECK(strstr(why, "not an ELF file") != NULL);
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK(write(fd, "hello, world", 12) == 12);
    close(fd);
    CHECK(rck_elf_load(path, &e, why, sizeof(why)) == -1);
    CHECK(strstr(why, "not an ELF file") != NULL);
    unlink(path);
}

int main(void)
{
    self();
    bad_files();
    if (failures == 0)
        printf("test_elf: OK\n");
    return failures != 0;
}
