/*
 * iRCCE's point to point's descriptor (rck/lib.h): registered with the HAL
 * when the library is loaded; rck__ircce_lib is the id its messages are
 * counted under. In a file of its own so that a static link (the launcher's)
 * can pull the descriptor alone (rockcreek_static's link options).
 */
#include "rck/lib.h"

static const rck_lib_desc_t ircce_lib_desc = {
    .name = "ircce",
    .rank = 27,
    .flags = RCK_LIB_LISTED,
};

int rck__ircce_lib = -1;

__attribute__((constructor)) static void ircce_lib_register(void)
{
    rck__ircce_lib = rck_lib_register(&ircce_lib_desc);
}
