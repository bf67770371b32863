#include "seg.h"

#include "rck/config.h"
#include "rck/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

rck_status_t rck_seg_create(const char *name, size_t bytes, int *fd_out,
                            void **map_out)
{
    int fd = (int)syscall(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */);
    void *map;

    if (fd < 0) {
        rck_error("memfd_create failed: %s", strerror(errno));
        return RCK_ERR_IO;
    }
    if (ftruncate(fd, (off_t)bytes) != 0) {
        rck_error("cannot size the %zu-byte shared segment: %s", bytes,
                  strerror(errno));
        close(fd);
        return RCK_ERR_NOMEM;
    }
    map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        rck_error("cannot map the shared segment: %s", strerror(errno));
        close(fd);
        return RCK_ERR_NOMEM;
    }
    *fd_out = fd;
    *map_out = map;
    return RCK_OK;
}

rck_status_t rck_seg_child_env(int fd, const char *fd_var, int ue,
                               const char *backend)
{
    char buf[32];
    int flags = fcntl(fd, F_GETFD);

    if (flags < 0 || fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
        return RCK_ERR_IO;
    snprintf(buf, sizeof(buf), "%d", fd);
    if (setenv(fd_var, buf, 1) != 0)
        return RCK_ERR_IO;
    snprintf(buf, sizeof(buf), "%d", ue);
    if (setenv("RCK_UE", buf, 1) != 0 || setenv("RCK_BACKEND", backend, 1) != 0)
        return RCK_ERR_IO;
    return RCK_OK;
}

rck_status_t rck_seg_attach(int fd, uint64_t magic, uintptr_t addr,
                            const char *what, void **map_out, size_t *bytes)
{
    rck_seg_prefix_t pre;
    void *map;

    if (pread(fd, &pre, sizeof(pre), 0) != (ssize_t)sizeof(pre) ||
        pre.magic != magic) {
        rck_error("file descriptor %d is not a %s", fd, what);
        return RCK_ERR_CONFIG;
    }
    map = mmap((void *)addr, pre.seg_bytes, PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
    if (map == MAP_FAILED || map != (void *)addr) {
        rck_error("cannot map the shared segment at %p: %s", (void *)addr,
                  map == MAP_FAILED ? strerror(errno) : "address taken");
        if (map != MAP_FAILED)
            munmap(map, pre.seg_bytes);
        return RCK_ERR_NOMEM;
    }
    *map_out = map;
    *bytes = pre.seg_bytes;
    return RCK_OK;
}

rck_status_t rck_seg_solo_params(rck_chip_t *chip, int *core0,
                                 rck_job_params_t *p)
{
    const char *path = rck_config_get("CHIP");
    rck_status_t st = path[0] ? rck_chip_load_file(path, chip)
                              : rck_chip_load_default(chip);

    if (st != RCK_OK)
        return st;
    *core0 = 0;
    p->chip = chip;
    p->nues = 1;
    p->cores = core0;
    p->shm_bytes = rck_config_get_size("SHM_SIZE");
    p->nstart = 0;
    p->program = NULL;
    return RCK_OK;
}
