/*
 * The MPBT lines in one core's L1 data cache (process-local: nobody else
 * can see a core's L1). Set-associative, 2 ways, LRU; lines are named by
 * their global index (core * lines_per_mpb + line). CL1INVMB drops them all
 * in O(1) by starting a new epoch. Only MPBT lines are modelled: the
 * program's other data would compete for the same sets on the chip, so real
 * lines may be evicted sooner than here (never later).
 */
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

#define SIM_L1_WAYS 2

rck_status_t sim_l1_init(sim_l1_t *l1, const rck_chip_t *c)
{
    size_t n;

    memset(l1, 0, sizeof(*l1));
    l1->line = c->line_bytes;
    l1->ways = SIM_L1_WAYS;
    l1->nsets = c->l1d_bytes / c->line_bytes / SIM_L1_WAYS;
    if (l1->nsets == 0)
        l1->nsets = 1;
    l1->epoch = 1;
    n = (size_t)l1->nsets * l1->ways;
    l1->tag = calloc(n, sizeof(*l1->tag));
    l1->tag_epoch = calloc(n, sizeof(*l1->tag_epoch));
    l1->lru = calloc(n, sizeof(*l1->lru));
    l1->data = calloc(n, l1->line);
    if (l1->tag == NULL || l1->tag_epoch == NULL || l1->lru == NULL ||
        l1->data == NULL) {
        sim_l1_fini(l1);
        return RCK_ERR_NOMEM;
    }
    return RCK_OK;
}

void sim_l1_fini(sim_l1_t *l1)
{
    free(l1->tag);
    free(l1->tag_epoch);
    free(l1->lru);
    free(l1->data);
    memset(l1, 0, sizeof(*l1));
}

unsigned char *sim_l1_find(sim_l1_t *l1, uint64_t idx)
{
    size_t set = (size_t)(idx % l1->nsets) * l1->ways;

    for (uint32_t w = 0; w < l1->ways; w++) {
        size_t e = set + w;
        if (l1->tag[e] == idx + 1 && l1->tag_epoch[e] == l1->epoch) {
            l1->lru[e] = ++l1->lru_clock;
            return l1->data + e * l1->line;
        }
    }
    return NULL;
}

void sim_l1_fill(sim_l1_t *l1, uint64_t idx, const unsigned char *data)
{
    size_t set = (size_t)(idx % l1->nsets) * l1->ways;
    size_t victim = set;

    for (uint32_t w = 0; w < l1->ways; w++) {
        size_t e = set + w;
        if (l1->tag_epoch[e] != l1->epoch || l1->tag[e] == 0) {
            victim = e;
            break;
        }
        if (l1->lru[e] < l1->lru[victim])
            victim = e;
    }
    l1->tag[victim] = idx + 1;
    l1->tag_epoch[victim] = l1->epoch;
    l1->lru[victim] = ++l1->lru_clock;
    memcpy(l1->data + victim * l1->line, data, l1->line);
}

void sim_l1_invalidate(sim_l1_t *l1)
{
    l1->epoch++;
    if (l1->epoch == 0) { /* wrapped: clear for real */
        memset(l1->tag, 0, (size_t)l1->nsets * l1->ways * sizeof(*l1->tag));
        l1->epoch = 1;
    }
}
