#include "rck/status.h"

const char *rck_status_string(rck_status_t status)
{
    switch (status) {
#define RCK__STATUS_CASE(name, val, str)                                      \
    case RCK_##name:                                                          \
        return str;
        RCK_STATUS_MAP(RCK__STATUS_CASE)
#undef RCK__STATUS_CASE
    }
    return "unknown status";
}
