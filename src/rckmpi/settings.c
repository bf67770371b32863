/*
 * The MPI library's settings (listed by `rck config --list`; docs/MPI.md).
 * Their own object file, so that the launcher can list them without
 * linking the library's code (it names rckmpi_settings_registered).
 */
#include "rck/config.h"
#include "rck/lib.h"

static const rck_config_entry_t rckmpi_settings[] = {
    {"MPI_CHANNEL", "auto", RCK_CONFIG_STRING,
     "channel of the MPI library: sccmpb-ext (48 base EWS of 64 B and a "
     "4 KiB gEWS per core), sccmpb (the MPB split among the senders), "
     "sccshm (rings in shared DRAM), sccmulti (sccmpb-ext for small "
     "packets, the rings for large ones) or auto (sccmulti on native, "
     "sccmpb-ext elsewhere)",
     "sccmpb-ext|sccmpb|sccshm|sccmulti|auto"},
    {"MPI_SHM_CHAN", "auto", RCK_CONFIG_SIZE,
     "shared DRAM the sccshm and sccmulti channels take for their rings "
     "(at most half of the window's free part), split among the ordered "
     "pairs of processes: up to 8 slots of 64 KiB per pair; auto = 16m, "
     "on native 256k per pair if that is more (beyond 8 processes)",
     "auto=16m"},
    {"MPI_EAGER", "auto", RCK_CONFIG_STRING,
     "MPI messages above this many bytes go by rendezvous (RTS/CTS); "
     "smaller ones are sent eagerly and buffered by the receiver; auto = "
     "16k on the MPB channels, on sccshm and sccmulti what a pair's ring "
     "holds, between 16k and 256k",
     "auto|#|#k|#m|#g"},
    {"MPI_OUTBOX", "1m", RCK_CONFIG_SIZE,
     "eager MPI messages a sender may hold while their pipe is busy: a "
     "collective's send of up to 4 KiB that cannot go out at once is "
     "copied and completes (sent in the sender's next MPI calls, several "
     "small messages in one packet); at most this many bytes per process "
     "(0 = none: such a send waits for its pipe)", NULL},
    {"MPI_WIN_SHM", "16m", RCK_CONFIG_SIZE,
     "shared DRAM MPI_Init reserves for one-sided windows, split evenly "
     "among the UEs: MPI_Win_allocate_shared's memory, and "
     "MPI_Win_allocate's with MPI_WIN_ALLOCATE=shm (0 = none; "
     "docs/MPI-ONESIDED-IO.md)", NULL},
    {"MPI_WIN_ALLOCATE", "auto", RCK_CONFIG_STRING,
     "MPI_Win_allocate's memory: heap (put and get are messages through "
     "the MPBs), shm (shared DRAM when it fits: put and get are direct "
     "copies, slower than the MPBs beyond a few bytes on the chip's "
     "uncached DRAM) or auto (shm in host memory, i.e. on native; heap on "
     "the sim)",
     "auto|heap|shm"},
    {"MPI_TREE_MAX", "auto", RCK_CONFIG_STRING,
     "MPI_Gather/MPI_Scatter: blocks of at most this many bytes go through "
     "a binomial tree, larger ones directly; auto = by channel (docs/"
     "MPI-COLLECTIVES.md)",
     "auto|#"},
    {"MPI_GATHER_SYNC", "auto", RCK_CONFIG_STRING,
     "MPI_Gather(v): a block of at least this many bytes is sent "
     "synchronously (into the root's posted receive, never through its "
     "unexpected queue); auto = 32768 on native, never elsewhere "
     "(docs/MPI.md)",
     "auto|#"},
    {"MPI_GATHER_SLOTS", "auto", RCK_CONFIG_STRING,
     "MPI_Gather on MPI_COMM_WORLD where the counter barrier runs: blocks "
     "of up to this many bytes (at most 56) go through per-rank entries "
     "of the shared window instead of messages; 0 = never; auto = 56 "
     "(docs/MPI-COLLECTIVES.md)",
     "auto|#"},
    {"MPI_BARRIER_COUNTER", "auto", RCK_CONFIG_STRING,
     "MPI_Barrier and MPI_Allreduce of up to 2 KiB on MPI_COMM_WORLD: 1 = "
     "the arrivals counted on a GIC "
     "atomic counter (the chip's third from the top), the last to arrive "
     "releases the others (only when no process can be spawned); 0 = "
     "messages only; auto = 1 on native (docs/MPI.md)",
     "auto|#"},
    {"MPI_BCAST_FANOUT", "auto", RCK_CONFIG_STRING,
     "MPI_Bcast's tree: 0 = binomial (the root sends ceil(log2 p) "
     "messages), k = a k-ary tree (every rank sends at most k); auto = 2 "
     "on native, binomial elsewhere (docs/MPI.md)",
     "auto|#"},
    {"MPI_COLL_FLAT", "auto", RCK_CONFIG_STRING,
     "MPI_Barrier and MPI_Allreduce of up to 2 KiB: up to this many "
     "processes every rank sends to rank 0 and waits for its answer (one "
     "wait per rank), beyond it dissemination and recursive doubling; "
     "auto = by measurement (docs/MPI-COLLECTIVES.md)",
     "auto|#"},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

/* librckmpi's descriptor (rck/lib.h): its messages are counted as "mpi"
 * in the communication matrix, which lists the row even when idle; its
 * settings are listed after SVM's. */
static const rck_lib_desc_t mpi_lib_desc = {
    .name = "mpi",
    .rank = 35,
    .flags = RCK_LIB_LISTED,
    .settings = rckmpi_settings,
};

int rck__mpi_lib = -1;

/* Referenced by the launcher's link (rckmpi_static's link options). */
const int rckmpi_settings_registered = 1;

__attribute__((constructor)) static void rckmpi_settings_register(void)
{
    rck__mpi_lib = rck_lib_register(&mpi_lib_desc);
}
