/*
 * The table of windows (win_int.h, rk_wn) and its lookup: a handle is an
 * index into it. win.c fills and empties it; attributes (attr.c) and the
 * one-sided calls look windows up here, so that looking one up does not
 * depend on win.c.
 *
 * Owns: rk_wn. May call: nothing.
 */
#include "win_int.h"

rk_wins_t rk_wn;

rk_win_t *rk_win_of(MPI_Win h)
{
    if (h <= 0 || h > rk_wn.n || rk_wn.w[h - 1] == NULL || !rk_wn.w[h - 1]->used)
        return NULL;
    return rk_wn.w[h - 1];
}
