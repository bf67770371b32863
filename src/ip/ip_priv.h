/*
 * ip_priv.h: what the parts of librckip offer each other (docs/IP.md).
 *   ip_link.c  the interface: the ring of frames in every core's buffer,
 *              the netif, the pump that drives lwIP from HAL waits.
 *   ip_sys.c   lwIP's sys_arch for one thread: semaphores and mailboxes
 *              whose waits run the pump.
 *   ip_sock.c  the BSD socket names, the descriptor table, name lookup.
 *   ip_bypass.c stream sockets carried as messages without TCP/IP.
 * Everything runs in the core's one thread: lwIP is entered only from the
 * program's socket calls and the pump they run while they wait, never from
 * an interrupt handler (which only notes that frames came).
 */
#ifndef RCK_IP_PRIV_H
#define RCK_IP_PRIV_H

#include "rck_ip.h"
#include "rck/lib.h"

#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

/** Defaults of the settings (ip_settings.c lists them, ip_link.c reads
 * them). */
#define RCK_IP_MTU_DEFAULT 1500
#define RCK_IP_MTU_MIN 576
#define RCK_IP_MPB_BYTES_DEFAULT 4096
#define RCK_IP_SHM_BYTES_DEFAULT 65536
#define RCK_IP_ADDR_DEFAULT "10.48.0.1" /* UE 0's; UE i adds i */

/** Run the pump until @p ready(@p arg) is true or @p timeout_ms (0: no
 * limit) passes. @return 0 when ready, -1 on timeout or when the job is
 * going down (a core failed: rck_ip_dead() is then true). */
int rck__ip_pump_until(int (*ready)(void *arg), void *arg,
                       uint32_t timeout_ms);
/** Wait in the HAL until a frame or an interrupt comes, lwIP's next timer
 * is due or @p timeout_ms (< 0: no limit) passes, then run the pump once. */
void rck__ip_pump_wait(int timeout_ms);
/** Take and hand to lwIP what has come, once, without waiting. */
void rck__ip_pump_once(void);
/** Milliseconds on this core's clock (virtual time on the sim). */
uint32_t rck__ip_now_ms(void);
/* librckip's library id (ip_settings.c, rck/lib.h). */
extern int rck__ip_lib;
/* The descriptor's hooks (ip_settings.c; ip_link.c): the ring and the
 * settings, the GIC handler, the HAL going down. */
rck_status_t rck__ip_attach(rck_hal_t *hal);
void rck__ip_irq(rck_hal_t *hal, rck_irq_kind_t kind, int sender, void *arg);
void rck__ip_fini(rck_hal_t *hal, rck_lib_fini_why_t why);
/** Non-zero once a core of the job failed: every wait is abandoned. */
int rck__ip_dead(void);
/** Non-zero once rck_ip_init succeeded. */
int rck__ip_ready(void);
/** Abort every TCP connection of this core (RST to the peers): at exit,
 * as the host's kernel does for a process's sockets, and when a core
 * failed. */
void rck__ip_abort_all(void);
/*
 * The link knows nothing above it: the parts above hand it what it calls
 * (as a network stack's protocols register their input handlers), so the
 * arrows between librckip's files all point down to ip_link.c.
 */
/** Bypass messages from UE @p ue go to @p fn (ip_bypass.c, at load). */
void rck__ip_link_on_bypass(void (*fn)(int ue, const void *msg,
                                       uint32_t len));
/** Every pump runs @p fn after handing on the frames: the body of lwIP's
 * tcpip thread, which is never started (ip_sys.c's sys_thread_new). */
void rck__ip_link_on_pump(void (*fn)(void));
/** At exit, before the link lingers, @p fn closes what the program left
 * open (ip_sock.c, at load). */
void rck__ip_link_on_exit(void (*fn)(void));
/** Send a socket bypass message (@p a, then @p b) to UE @p ue through
 * its ring. @return 0, or -1 (too large, the job is going down). */
int rck__ip_link_send(int ue, const void *a, uint32_t alen, const void *b,
                      uint32_t blen);
/** The largest record payload (RCK_IP_MTU). */
uint32_t rck__ip_mtu(void);
/** Non-zero when stream sockets take the bypass (RCK_IP_MODE=bypass). */
int rck__ip_bypass_mode(void);
/** Non-zero on the mpi backend, where librckip refuses to run: the MPI
 * library's own AF_INET sockets (and the program's) stay the host's. */
int rck__ip_host_sockets(void);
/** The UE whose address is @p addr (network order), or -1. */
int rck__ip_addr_ue(uint32_t addr);
/** This core's UE and the job's number of UEs. */
int rck__ip_ue(void);
int rck__ip_nues(void);

/* The socket bypass's calls (ip_bypass.c), on socket ids it gives out;
 * errors as the socket calls give them (-1 and errno). */
int rck__bp_socket(void);
int rck__bp_bind(int sid, const struct sockaddr *a, socklen_t len);
int rck__bp_listen(int sid);
int rck__bp_accept(int sid, struct sockaddr *a, socklen_t *len, int *nsid);
int rck__bp_connect(int sid, const struct sockaddr *a, socklen_t len);
ssize_t rck__bp_send(int sid, const void *buf, size_t n, int flags);
ssize_t rck__bp_recv(int sid, void *buf, size_t n, int flags);
int rck__bp_shutdown(int sid, int how);
int rck__bp_close(int sid);
/** poll()'s revents of @p events for the socket. */
int rck__bp_events(int sid, int events);
int rck__bp_fcntl(int sid, int cmd, int arg);
/** getsockname (@p peer 0) or getpeername (1). */
int rck__bp_name(int sid, int peer, struct sockaddr *a, socklen_t *len);
/** SO_ERROR: the pending error, cleared. */
int rck__bp_so_error(int sid);
void rck__bp_close_all(void);

#endif
