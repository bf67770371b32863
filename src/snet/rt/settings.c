/*
 * settings.c: the S-Net runtime's settings, for the launcher (`rck config
 * --list`, and `rck run` checks RCK_* values before a run). Its own
 * object (librcksnet_settings.a), as librockcreek.so does not export the
 * settings table's functions; librcksnet reads and checks the same values
 * itself (net.c, rt_settings_load) with the numbers of rt.h.
 */
#include "rck/config.h"
#include "rt.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const rck_config_entry_t snet_settings[] = {
    {"SNET_DEPTH", STR(RT_SNET_DEPTH_DEFAULT), RCK_CONFIG_INT,
     "S-Net runtime: star stages (feedback rounds) a record is run through "
     "depth-first on the stack; deeper, it waits in the loop's queue until "
     "the levels above return (docs/SNET.md)",
     "1.." STR(RT_SNET_DEPTH_MAX)},
    {"SNET_STREAM", STR(RT_SNET_STREAM_DEFAULT), RCK_CONFIG_INT,
     "S-Net runtime: records a star's or feedback loop's queue holds, the "
     "only buffer between entities; when it is full the record goes on "
     "depth-first (docs/SNET.md)",
     "1.." STR(RT_SNET_STREAM_MAX)},
    {"SNET_DIST", "nodist", RCK_CONFIG_STRING,
     "S-Net runtime: the distribution layer: nodist (UE 0 runs the whole "
     "network, placements ignored) or scc (placed components run on their "
     "UEs, records through a ring in the receiver's MPB, long ones by "
     "reference (RCK_SNET_SCC)) or mpi (librckmpi) (docs/SNET.md)",
     "nodist|mpi|scc"},
    {"SNET_SCC", "copy", RCK_CONFIG_STRING,
     "S-Net runtime, scc layer: how a field of more than 64 KiB goes to "
     "another UE: copy (made in the owner's LUT pages, the receiver copies "
     "it once through a LUT window), remap (the receiver maps the owner's "
     "pages into its own LUT and reads the field in place, no copy), slab "
     "(copied into shared DRAM and out again) (docs/SNET.md)",
     "copy|remap|slab"},
    {"SNET_ASYNC", "on", RCK_CONFIG_STRING,
     "S-Net runtime, scc and mpi layers: on: UE 0 sends a record to a "
     "placed component without waiting for its outputs, which it runs on "
     "into the rest of the network when they come (at most 4 calls "
     "queued per UE), so a farm's or a pipeline's UEs work at once; off: "
     "one UE works at a time (docs/SNET.md)",
     "on|off"},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

const int rcksnet_settings_registered = 1;

__attribute__((constructor)) static void rcksnet_settings_register(void)
{
    rck_config_register(snet_settings, 40 /* after librckmpi's, before librckip's */);
}
