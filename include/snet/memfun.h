/*
 * memfun.h: the memory functions of the S-Net runtime's API that box code
 * of the era calls (SNetMemAlloc and friends, SNetNew...): allocation that
 * ends the program with a message when memory runs out. In librcksnet.
 */
#ifndef RCK_SNET_MEMFUN_H
#define RCK_SNET_MEMFUN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

#define SNetNew(type) ((type *)SNetMemAlloc(sizeof(type)))
#define SNetNewN(num, type) ((type *)SNetMemAlloc((num) * sizeof(type)))
#define SNetNewAlign(type) ((type *)SNetMemAlign(sizeof(type)))
#define SNetNewAlignN(num, type) ((type *)SNetMemAlign((num) * sizeof(type)))
#define SNetDelete(ptr) SNetMemFree(ptr)
#define SNetDeleteN(num, ptr) SNetMemFree(ptr)

/* Ends the program: memory ran out. */
void SNetMemFailed(void);
void *SNetMemAlloc(size_t s);
void *SNetMemCalloc(size_t n, size_t s);
void *SNetMemResize(void *ptr, size_t size);
void SNetMemFree(void *ptr);
/* The usable size of a block. */
size_t SNetMemSize(void *ptr);
void SNetMemSizeFree(void *ptr, size_t size);
/* A block aligned to a cache line (64 bytes). */
void *SNetMemAlign(size_t size);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* RCK_SNET_MEMFUN_H */
