/*
 * The notification channels' (rck_chan_send) descriptor: its (rck/lib.h):
 * registered with the HAL when the library is loaded; rck__chan_lib is the
 * id its messages are counted under. In a file of its own so that a static
 * link (the launcher's) can pull the descriptor alone (rockcreek_static's
 * link options).
 */
#include "rck/lib.h"

static const rck_lib_desc_t chan_lib_desc = {
    .name = "chan",
    .rank = 29,
    .flags = RCK_LIB_LISTED,
};

int rck__chan_lib = -1;

__attribute__((constructor)) static void chan_lib_register(void)
{
    rck__chan_lib = rck_lib_register(&chan_lib_desc);
}
