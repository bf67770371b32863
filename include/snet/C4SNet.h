/*
 * C4SNet.h: the C box language interface of S-Net on rockcreek.
 *
 * Box code written for the S-Net runtime of the SCC era compiles against
 * this header unmodified: the same type, enumeration and function names,
 * with the same argument orders. A box is a C function
 *
 *     void *box(void *hnd, c4snet_data_t *field..., int tag...);
 *
 * taking its arguments in the order of its box signature; it emits records
 * with C4SNetOut(hnd, variant, entries...) where variant is the 1-based
 * number of an output variant of the signature and the entries follow that
 * variant's order (fields as c4snet_data_t *, tags and binding tags as
 * int). The box owns the fields it receives (it frees or emits them); a
 * field given to C4SNetOut belongs to the emitted record. docs/SNET.md.
 */
#ifndef RCK_C4SNET_H
#define RCK_C4SNET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* The type of a field in a record (opaque). */
typedef struct cdata c4snet_data_t;

/* The distribution layer an interface is initialised for (only one here). */
typedef int snet_distrib_t;

typedef enum {
    CTYPE_uchar,   /* unsigned char */
    CTYPE_char,    /* signed char */
    CTYPE_ushort,  /* unsigned short int */
    CTYPE_short,   /* signed short int */
    CTYPE_uint,    /* unsigned int */
    CTYPE_int,     /* signed int */
    CTYPE_ulong,   /* unsigned long int */
    CTYPE_long,    /* signed long int */
    CTYPE_float,   /* float */
    CTYPE_double,  /* double */
    CTYPE_ldouble, /* long double */
    CTYPE_pointer, /* pointer to void */
} c4snet_type_t;

/* Initialise the interface (the runtime does it; kept for old code). */
void C4SNetInit(int id, snet_distrib_t distImpl);

/* A new field of size elements of type, uninitialised; *data receives the
 * address of its elements. */
c4snet_data_t *C4SNetAlloc(c4snet_type_t type, size_t size, void **data);

/* A new field of size elements of type, copied from data. */
c4snet_data_t *C4SNetCreate(c4snet_type_t type, size_t size,
                            const void *data);

/* Drop one reference to a field; the last one frees it. */
void C4SNetFree(c4snet_data_t *ptr);

/* One more reference to the same field. */
c4snet_data_t *C4SNetShallowCopy(c4snet_data_t *ptr);

/* A new field with a copy of the elements. */
c4snet_data_t *C4SNetDeepCopy(c4snet_data_t *ptr);

/* The size in bytes of one element. */
int C4SNetSizeof(c4snet_data_t *data);

/* The number of elements. */
size_t C4SNetArraySize(c4snet_data_t *data);

/* The address of the elements. */
void *C4SNetGetData(c4snet_data_t *ptr);

/* The element type. */
c4snet_type_t C4SNetGetType(c4snet_data_t *data);

/* A NUL-terminated copy of a char array field (free() it). */
char *C4SNetGetString(c4snet_data_t *data);

/* Emit a record of output variant 'variant' (1-based) of the calling box's
 * signature; the entries follow in that variant's order. */
void C4SNetOut(void *hnd, int variant, ...);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* RCK_C4SNET_H */
