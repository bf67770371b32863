/*
 * SCC_API.h used the way programs of the era use it (S-Net's SCC layer,
 * RCCE's SCC build): every core finds itself through MYTILEID, maps the
 * interrupt pins, LUTs and locks of every core with MallocConfigReg and
 * their MPBs with MPBalloc, then
 *   - counts ROUNDS increments per core into shared DRAM (SHMalloc) under
 *     core 0's lock, taken by reading LOCK0 through its pointer and given
 *     back by writing 0; the total must be exact;
 *   - writes a line into the next core's MPB through its MPBalloc pointer
 *     and reads it back with ReadConfigReg of the MPB_ADDR address;
 *   - copies, through the LUT pointers (64-bit loads and stores), the next
 *     core's LUT entry 0 into its own entry 0x40, and reads what that core
 *     wrote at the start of its private memory through address 0x40000000;
 *   - raises the next core's interrupt with SetConfigBit on its GLCFG
 *     XINTR bit, then again as S-Net's SCC layer does, `*pin |= IRQ_BIT;
 *     *pin &= ~IRQ_BIT;` through its MallocConfigReg pointer (OR and AND
 *     on the register; gcc makes that a load and a store), and once more
 *     with an OR and an AND instruction on the register (x86-64); each
 *     core counts its interrupts (a HAL handler) and waits for them.
 * Core 0 prints "scc_api_era: ok" when everything held on every core.
 */
#include "SCC_API.h"

#include "rck/hal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { ROUNDS = 40, MAXC = 48 };

static t_vcharp mpbs[MAXC], locks[MAXC];
static volatile int *irq_pins[MAXC];
static volatile uint64_t *luts[MAXC];
static int fails;

#define CHECK(c, what)                                                        \
    do {                                                                      \
        if (!(c)) {                                                           \
            printf("scc_api_era: FAILED: %s (line %d)\n", what, __LINE__);    \
            fails++;                                                          \
        }                                                                     \
    } while (0)

static volatile int irqs;

static void on_irq(rck_hal_t *hal, rck_irq_kind_t kind, int sender, void *arg)
{
    (void)hal;
    (void)kind;
    (void)sender;
    (void)arg;
    irqs++;
}

static void await_irqs(rck_hal_t *hal, int n)
{
    while (irqs < n) {
        int which = 0;
        rck_status_t st = rck_hal_wait(hal, NULL, 0, RCK_WAIT_IRQ, -1, &which);
        if (st != RCK_OK && st != RCK_INTERRUPTED) {
            CHECK(0, "wait for an interrupt");
            return;
        }
    }
}

static void lock(int cpu)
{
    while (!(*locks[cpu] & 1))
        ;
}

static void unlock(int cpu)
{
    *locks[cpu] = 0;
}

static volatile int *counter_word(int i)
{
    t_vcharp shm;

    SHMalloc(&shm);
    return (volatile int *)(void *)(shm + 64 * i);
}

/* A barrier of the era: a count in shared DRAM under core 0's lock. */
static void barrier(int np, int gen)
{
    volatile int *c = counter_word(1);
    int done = 0;

    lock(0);
    (*c)++;
    unlock(0);
    while (!done) {
        lock(0);
        done = *c >= np * gen;
        unlock(0);
    }
}

int main(void)
{
    rck_hal_t *hal;
    int x, y, z, me, np, next, address;
    unsigned char line[32], got[32];
    volatile int *count;

    InitAPI(0);
    rck_hal_irq_set_handler(rck_hal_self(), on_irq, NULL);
    z = ReadConfigReg(CRB_OWN + MYTILEID);
    x = (z >> 3) & 0x0f;
    y = (z >> 7) & 0x0f;
    z = z & 7;
    me = PID(x, y, z);
    if (rck_hal_open(NULL, &hal) != RCK_OK)
        return 2;
    CHECK(me == hal->core, "MYTILEID names this core");
    np = hal->nues;
    next = hal->ue_core[(hal->ue + 1) % np];
    for (int cpu = 0; cpu < np; cpu++) {
        int c = hal->ue_core[cpu];
        x = X_PID(c);
        y = Y_PID(c);
        z = Z_PID(c);
        address = c == me ? (int)CRB_OWN : (int)CRB_ADDR(x, y);
        irq_pins[c] = MallocConfigReg((unsigned)address + (z ? GLCFG1 : GLCFG0));
        luts[c] = (volatile uint64_t *)MallocConfigReg((unsigned)address +
                                                       (z ? LUT1 : LUT0));
        locks[c] = (t_vcharp)MallocConfigReg((unsigned)address +
                                             (z ? LOCK1 : LOCK0));
        MPBalloc(&mpbs[c], x, y, z, c == me);
        CHECK(mpbs[c] != NULL, "MPBalloc");
    }
    /* private memory: a word for the core that maps it next */
    strcpy((char *)(uintptr_t)MallocConfigReg(0x00000000u) + 256,
           "private page 0");
    ((volatile int *)MallocConfigReg(0x00000000u))[0] = 1000 + me;

    count = counter_word(0);
    barrier(np, 1);
    for (int i = 0; i < ROUNDS; i++) {
        lock(0);
        *count = *count + 1;
        unlock(0);
    }
    for (int i = 0; i < 32; i++)
        line[i] = (unsigned char)(me * 3 + i);
    memcpy((void *)(uintptr_t)(mpbs[next] + 1024 + 32 * me), line, 32);
    barrier(np, 2);
    CHECK(*count == ROUNDS * np, "the lock kept the count exact");
    for (int i = 0; i < 8; i++) {
        int prev = hal->ue_core[(hal->ue + np - 1) % np];
        int w = ReadConfigReg(MPB_ADDR(X_PID(me), Y_PID(me), Z_PID(me)) +
                              1024 + 32 * (unsigned)prev + 4 * (unsigned)i);
        memcpy(got + 4 * i, &w, 4);
        (void)prev;
    }
    {
        int prev = hal->ue_core[(hal->ue + np - 1) % np];
        for (int i = 0; i < 32; i++)
            line[i] = (unsigned char)(prev * 3 + i);
        CHECK(memcmp(got, line, 32) == 0, "MPB_ADDR reads the line");
    }
    /* the next core's private page 0, mapped at my LUT entry 0x40 */
    luts[me][0x40] = luts[next][0];
    CHECK(ReadConfigReg(0x40000000u) == 1000 + next,
          "the next core's private page through entry 0x40");
    CHECK(strcmp((const char *)(uintptr_t)MallocConfigReg(0x40000000u) + 256,
                 "private page 0") == 0,
          "its bytes through the window");
    CHECK(ReadConfigReg(0x00000000u) == 1000 + me, "my page 0 is mine");
    /* interrupt the next core through its GLCFG */
    SetConfigBit((next == me ? CRB_OWN : CRB_ADDR(X_PID(next), Y_PID(next))) +
                     (Z_PID(next) ? GLCFG1 : GLCFG0),
                 GLCFG_XINTR_BIT, 1);
    SetConfigBit((next == me ? CRB_OWN : CRB_ADDR(X_PID(next), Y_PID(next))) +
                     (Z_PID(next) ? GLCFG1 : GLCFG0),
                 GLCFG_XINTR_BIT, 0);
    await_irqs(hal, 1);
    barrier(np, 3);
    /* again, the way S-Net's SCC layer does it */
    *irq_pins[next] |= 1 << GLCFG_XINTR_BIT;
    *irq_pins[next] &= ~(1 << GLCFG_XINTR_BIT);
    await_irqs(hal, 2);
    barrier(np, 4);
#if defined(__x86_64__)
    /* gcc splits the two into loads and stores; other compilers emit an
     * OR and an AND on memory: those too */
    __asm__ volatile("orl $2, %0" : "+m"(*irq_pins[next]));
    __asm__ volatile("andl $-3, %0" : "+m"(*irq_pins[next]));
    await_irqs(hal, 3);
    CHECK(irqs == 3, "three interrupts");
#endif
    CHECK((*irq_pins[next] & (1 << GLCFG_XINTR_BIT)) == 0,
          "the interrupt bit is clear again");
    /* tally the failures in shared DRAM */
    lock(0);
    *counter_word(2) += fails;
    unlock(0);
    barrier(np, 5);
    if (me == hal->ue_core[0] && *counter_word(2) == 0)
        printf("scc_api_era: ok\n");
    return fails != 0;
}
