/*
 * RCCE (RCCE_send/recv, RCCE's and RCCE_comm's collectives) descriptor
 * (rck/lib.h), registered with the HAL when the library is loaded;
 * rck__rcce_lib is the id its messages are counted under. In a file of its
 * own so that a static link (the launcher's) can pull the descriptor alone
 * (rockcreek_static's link options).
 */
#include "rck/lib.h"

static const rck_lib_desc_t rcce_lib_desc = {
    .name = "rcce",
    .rank = 26,
    .flags = RCK_LIB_LISTED,
};

int rck__rcce_lib = -1;

__attribute__((constructor)) static void rcce_lib_register(void)
{
    rck__rcce_lib = rck_lib_register(&rcce_lib_desc);
}
