/*
 * The mailboxes' (rck_mbox_send) descriptor (rck/lib.h), registered
 * with the HAL when the library is loaded; rck__mbox_lib is the id its
 * messages are counted under. In a file of its own so that a static link
 * (the launcher's) can pull the descriptor alone (rockcreek_static's link
 * options).
 */
#include "rck/lib.h"

static const rck_lib_desc_t mbox_lib_desc = {
    .name = "mbox",
    .rank = 28,
    .flags = RCK_LIB_LISTED,
};

int rck__mbox_lib = -1;

__attribute__((constructor)) static void mbox_lib_register(void)
{
    rck__mbox_lib = rck_lib_register(&mbox_lib_desc);
}
