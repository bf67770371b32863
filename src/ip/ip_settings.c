/*
 * ip_settings.c: librckip's settings, for the launcher (`rck config
 * --list`; `rck run` checks RCK_* values before a run). Its own object
 * (librckip_settings.a), as librockcreek.so does not export the settings
 * table's functions; librckip reads and checks the same values itself
 * (ip_link.c, read_settings) with the numbers of ip_priv.h.
 */
#include "ip_priv.h"
#include "rck/config.h"
#include "rck/lib.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const rck_config_entry_t ip_settings[] = {
    {"IP_MODE", "lwip", RCK_CONFIG_STRING,
     "librckip: how stream (TCP) sockets between cores travel: through "
     "each core's lwIP stack, or as messages through the rings without "
     "TCP/IP (the socket bypass; UDP stays on lwIP) (docs/IP.md)",
     "lwip|bypass"},
    {"IP_BUFFER", "mpb", RCK_CONFIG_STRING,
     "librckip: where each core's receive ring of frames lives: in its MPB "
     "(beside RCCE's buffer and the mailboxes) or in shared DRAM "
     "(docs/IP.md)",
     "mpb|shm"},
    {"IP_MTU", STR(RCK_IP_MTU_DEFAULT), RCK_CONFIG_INT,
     "librckip: largest IP packet on the link between cores (bytes); it "
     "must fit half of the ring's data area; larger frames are refused",
     STR(RCK_IP_MTU_MIN) "..65000"},
    {"IP_MPB_BYTES", STR(RCK_IP_MPB_BYTES_DEFAULT), RCK_CONFIG_SIZE,
     "librckip: bytes of each MPB taken by the receive ring "
     "(RCK_IP_BUFFER=mpb); RCCE keeps the rest",
     NULL},
    {"IP_SHM_BYTES", STR(RCK_IP_SHM_BYTES_DEFAULT), RCK_CONFIG_SIZE,
     "librckip: bytes of shared DRAM per core for its receive ring "
     "(RCK_IP_BUFFER=shm)",
     NULL},
    {"IP_ADDR", RCK_IP_ADDR_DEFAULT, RCK_CONFIG_STRING,
     "librckip: IPv4 address of UE 0; UE i has this address + i (they "
     "exist only in the cores' lwIP stacks, never on the host)",
     NULL},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

/* librckip's descriptor (rck/lib.h): its frames are counted as "ip" in
 * the communication matrix; its settings are listed after S-Net's. */
/* ip_link.c's hooks, referenced weakly: the launcher's copy
 * (librckip_settings.a) has them NULL, librckip has them. */
extern rck_status_t rck__ip_attach(rck_hal_t *hal) __attribute__((weak));
extern void rck__ip_irq(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                        void *arg) __attribute__((weak));
extern void rck__ip_fini(rck_hal_t *hal, rck_lib_fini_why_t why)
    __attribute__((weak));

static const rck_lib_desc_t ip_lib_desc = {
    .name = "ip",
    .rank = 45,
    .settings = ip_settings,
    .irq = {{RCK_IRQ_GIC, rck__ip_irq}},
    .init = rck__ip_attach,
    .fini = rck__ip_fini,
};

int rck__ip_lib = -1;

/* Referenced by the launcher's link (rckip_settings' link options), so
 * that `rck config --list` lists the settings and the report knows the
 * library. */
const int rckip_settings_registered = 1;

__attribute__((constructor)) static void rckip_settings_register(void)
{
    rck__ip_lib = rck_lib_register(&ip_lib_desc);
}
