/*
 * memfun.c: the S-Net runtime API's memory functions (include/snet/memfun.h)
 * for box code that calls them.
 */
#include <malloc.h>
#include <stdlib.h>

#include "memfun.h"
#include "rt.h"

void SNetMemFailed(void)
{
    rt_fatal("out of memory (in a box)");
}

void *SNetMemAlloc(size_t s)
{
    void *p = malloc(s ? s : 1);
    if (p == NULL)
        SNetMemFailed();
    return p;
}

void *SNetMemCalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s ? s : 1);
    if (p == NULL)
        SNetMemFailed();
    return p;
}

void *SNetMemResize(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (p == NULL)
        SNetMemFailed();
    return p;
}

void SNetMemFree(void *ptr)
{
    free(ptr);
}

size_t SNetMemSize(void *ptr)
{
    return ptr != NULL ? malloc_usable_size(ptr) : 0;
}

void SNetMemSizeFree(void *ptr, size_t size)
{
    (void)size;
    free(ptr);
}

void *SNetMemAlign(size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, size ? size : 1) != 0)
        SNetMemFailed();
    return p;
}
