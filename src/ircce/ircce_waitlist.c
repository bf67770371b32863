/*
 * Wait lists: sets of send and receive requests tested or waited for
 * together. Elements are allocated by the add calls and freed when their
 * request leaves the list (it completed, failed or was cancelled).
 */
#include "ircce_internal.h"

#include <stdlib.h>

void iRCCE_init_wait_list(iRCCE_WAIT_LIST *list)
{
    if (list == NULL)
        return;
    list->first = NULL;
    list->last = NULL;
}

static void list_add(iRCCE_WAIT_LIST *list, int type, void *req)
{
    iRCCE_WAIT_LISTELEM *e;

    if (list == NULL || req == NULL)
        return;
    e = malloc(sizeof(*e));
    if (e == NULL) {
        rck_error("iRCCE_add_to_wait_list: out of memory");
        return;
    }
    e->type = type;
    e->next = NULL;
    e->req = req;
    if (list->last != NULL)
        list->last->next = e;
    else
        list->first = e;
    list->last = e;
}

void iRCCE_add_send_to_wait_list(iRCCE_WAIT_LIST *list,
                                 iRCCE_SEND_REQUEST *request)
{
    list_add(list, iRCCE_WAIT_LIST_SEND_TYPE, request);
}

void iRCCE_add_recv_to_wait_list(iRCCE_WAIT_LIST *list,
                                 iRCCE_RECV_REQUEST *request)
{
    list_add(list, iRCCE_WAIT_LIST_RECV_TYPE, request);
}

void iRCCE_add_to_wait_list(iRCCE_WAIT_LIST *list,
                            iRCCE_SEND_REQUEST *send_request,
                            iRCCE_RECV_REQUEST *recv_request)
{
    iRCCE_add_send_to_wait_list(list, send_request);
    iRCCE_add_recv_to_wait_list(list, recv_request);
}

/* Test one element; @return its code, *over = 1 if it leaves the list. */
static int elem_test(const iRCCE_WAIT_LISTELEM *e, int *over)
{
    int st;

    if (e->type == iRCCE_WAIT_LIST_SEND_TYPE)
        st = iRCCE_isend_test(e->req, over);
    else
        st = iRCCE_irecv_test(e->req, over);
    return st;
}

static void list_remove(iRCCE_WAIT_LIST *list, iRCCE_WAIT_LISTELEM *prev,
                        iRCCE_WAIT_LISTELEM *e)
{
    if (prev != NULL)
        prev->next = e->next;
    else
        list->first = e->next;
    if (list->last == e)
        list->last = prev;
    free(e);
}

/* Test every element; those that are over leave the list. @return
 * iRCCE_PENDING if any remains, else iRCCE_SUCCESS or the first other code
 * an element ended with (in *first_err as well, if not yet set). */
static int test_all(iRCCE_WAIT_LIST *list, int *first_err)
{
    iRCCE_WAIT_LISTELEM *e = list->first, *prev = NULL;
    int pending = 0;

    while (e != NULL) {
        iRCCE_WAIT_LISTELEM *next = e->next;
        int over = 0, st = elem_test(e, &over);
        if (over) {
            if (st != iRCCE_SUCCESS && *first_err == iRCCE_SUCCESS)
                *first_err = st;
            list_remove(list, prev, e);
        } else {
            pending = 1;
            prev = e;
        }
        e = next;
    }
    return pending ? iRCCE_PENDING : *first_err;
}

int iRCCE_test_all(iRCCE_WAIT_LIST *list, int *test)
{
    int dummy, err = iRCCE_SUCCESS, st;

    if (test == NULL)
        test = &dummy;
    *test = 0;
    if (list == NULL)
        return iRCCE_ERROR;
    st = ircce_ready("iRCCE_test_all", 1);
    if (st != iRCCE_SUCCESS)
        return st;
    st = test_all(list, &err);
    *test = st != iRCCE_PENDING;
    return st;
}

typedef struct {
    iRCCE_WAIT_LIST *list;
    int err;
    int st;
    iRCCE_SEND_REQUEST *sreq;
    iRCCE_RECV_REQUEST *rreq;
} list_ctx_t;

static int all_done(void *arg)
{
    list_ctx_t *c = arg;
    c->st = test_all(c->list, &c->err);
    return c->st != iRCCE_PENDING;
}

int iRCCE_wait_all(iRCCE_WAIT_LIST *list)
{
    list_ctx_t c = {.list = list, .err = iRCCE_SUCCESS};
    int st;

    if (list == NULL)
        return iRCCE_ERROR;
    st = ircce_ready("iRCCE_wait_all", 1);
    if (st != iRCCE_SUCCESS)
        return st;
    st = ircce_block(all_done, &c, "iRCCE_wait_all", -1, IRCCE_WATCH_NONE);
    return st != iRCCE_SUCCESS ? st : c.st;
}

/* Test elements in order until one is over; it leaves the list and is
 * returned. @return its code, or iRCCE_PENDING if none is over. */
static int test_any(list_ctx_t *c)
{
    iRCCE_WAIT_LISTELEM *e = c->list->first, *prev = NULL;

    c->sreq = NULL;
    c->rreq = NULL;
    while (e != NULL) {
        int over = 0, st = elem_test(e, &over);
        if (over) {
            if (e->type == iRCCE_WAIT_LIST_SEND_TYPE)
                c->sreq = e->req;
            else
                c->rreq = e->req;
            list_remove(c->list, prev, e);
            return st;
        }
        prev = e;
        e = e->next;
    }
    return iRCCE_PENDING;
}

static void any_out(const list_ctx_t *c, iRCCE_SEND_REQUEST **sreq,
                    iRCCE_RECV_REQUEST **rreq)
{
    if (sreq != NULL)
        *sreq = c->sreq;
    if (rreq != NULL)
        *rreq = c->rreq;
}

int iRCCE_test_any(iRCCE_WAIT_LIST *list, iRCCE_SEND_REQUEST **send_request,
                   iRCCE_RECV_REQUEST **recv_request)
{
    list_ctx_t c = {.list = list};
    int st;

    any_out(&c, send_request, recv_request);
    if (list == NULL || list->first == NULL)
        return iRCCE_ERROR;
    st = ircce_ready("iRCCE_test_any", 1);
    if (st != iRCCE_SUCCESS)
        return st;
    st = test_any(&c);
    any_out(&c, send_request, recv_request);
    return st;
}

static int any_done(void *arg)
{
    list_ctx_t *c = arg;
    c->st = test_any(c);
    return c->st != iRCCE_PENDING;
}

int iRCCE_wait_any(iRCCE_WAIT_LIST *list, iRCCE_SEND_REQUEST **send_request,
                   iRCCE_RECV_REQUEST **recv_request)
{
    list_ctx_t c = {.list = list};
    int st;

    any_out(&c, send_request, recv_request);
    if (list == NULL || list->first == NULL) {
        rck_info("iRCCE_wait_any: the wait list is empty");
        return iRCCE_ERROR;
    }
    st = ircce_ready("iRCCE_wait_any", 1);
    if (st != iRCCE_SUCCESS)
        return st;
    st = ircce_block(any_done, &c, "iRCCE_wait_any", -1, IRCCE_WATCH_NONE);
    if (st != iRCCE_SUCCESS)
        return st;
    any_out(&c, send_request, recv_request);
    return c.st;
}
