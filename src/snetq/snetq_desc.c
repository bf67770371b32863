/*
 * The S-Net scc layer's transport (snetq) descriptor (rck/lib.h),
 * registered with the HAL when the library is loaded; rck__snetq_lib is the
 * id its messages are counted under. In a file of its own so that a static
 * link (the launcher's) can pull the descriptor alone (rockcreek_static's
 * link options).
 */
#include "rck/lib.h"

static const rck_lib_desc_t snetq_lib_desc = {
    .name = "snetq",
    .rank = 41,
    .flags = 0,
};

int rck__snetq_lib = -1;

__attribute__((constructor)) static void snetq_lib_register(void)
{
    rck__snetq_lib = rck_lib_register(&snetq_lib_desc);
}
