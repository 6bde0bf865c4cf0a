/* ordo_comm_split and the calls that translate between a context's member
 * indices and world ranks. */
#include <stdlib.h>
#include <string.h>

#include "p2p.h"
#include "../base/log.h"

/* Never a live context (its magic is zero): ORDO_COMM_NULL. */
ORDO_API struct ordo_comm ordo_comm_null_object;

/* What each member of the parent brings: how it fared so far, its color
 * and key. */
typedef struct split_entry {
    int32_t status, color, key, index;
} split_entry_t;

static int by_key(const void *a, const void *b)
{
    const split_entry_t *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->index > y->index) - (x->index < y->index);
}

/* Every member's entry at every member: the first member collects them and
 * hands the table back (messages on the runtime's own context, so the
 * parent's traffic is not touched).  A member without memory for the
 * table (all == NULL) still takes its part, so the others learn of it:
 * its entry says so, or as the first member it sends a table of one. */
static ordo_status_t split_table(p2p_comm_t *c, split_entry_t mine, split_entry_t *all)
{
    int n = c->nmembers, lead = c->members[0];
    size_t bytes = (size_t)n * sizeof(split_entry_t);
    split_entry_t one;
    ordo_status_t st;
    if (c->my_index != 0) {
        if ((st = p2p_ctl_send(&mine, sizeof(mine), lead, P2P_TAG_SPLIT)) != ORDO_OK)
            return st;
        if (all == NULL) {   /* the table is taken (cut short) and dropped */
            p2p_ctl_recv(&one, sizeof(one), lead, P2P_TAG_SPLIT);
            return ORDO_ERR_NO_MEMORY;
        }
        return p2p_ctl_recv(all, bytes, lead, P2P_TAG_SPLIT);
    }
    st = ORDO_OK;
    for (int i = 1; i < n && st == ORDO_OK; i++) {
        st = p2p_ctl_recv(&one, sizeof(one), c->members[i], P2P_TAG_SPLIT);
        one.index = i;   /* the sender's word for it is not needed */
        if (all)
            all[i] = one;
    }
    if (all)
        all[0] = mine;
    one = (split_entry_t){.status = ORDO_ERR_NO_MEMORY};
    for (int i = 1; i < n; i++) {
        ordo_status_t s2 = all ? p2p_ctl_send(all, bytes, c->members[i], P2P_TAG_SPLIT)
                               : p2p_ctl_send(&one, sizeof(one), c->members[i], P2P_TAG_SPLIT);
        if (st == ORDO_OK)
            st = s2;
    }
    return all ? st : ORDO_ERR_NO_MEMORY;
}

ORDO_API ordo_status_t ordo_comm_split(ordo_comm_h comm, int color, int key,
                                       ordo_comm_h *comm_p)
{
    ORDO_CHECK_INIT();
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;   /* not a context: nobody to agree with */
    ordo_status_t mine = ORDO_OK;
    if (comm_p == NULL) {
        ordo_error("ordo_comm_split: comm_p is NULL");
        mine = ORDO_ERR_INVALID_PARAM;
    }
    int n = c->nmembers;
    split_entry_t *all = malloc((size_t)n * sizeof(*all));
    split_entry_t me = {.status = mine, .color = color, .key = key, .index = c->my_index};
    if (all == NULL)
        me.status = ORDO_ERR_NO_MEMORY;
    st = split_table(c, me, all);
    if (all == NULL)
        return ORDO_ERR_NO_MEMORY;
    if (st == ORDO_OK) {
        for (int i = 0; i < n; i++)
            if (all[i].status != ORDO_OK) {
                if (mine == ORDO_OK)
                    ordo_error("ordo_comm_split failed on rank %d (%s): it fails on every "
                               "member", c->members[i], ordo_status_string(all[i].status));
                st = all[i].status;
                break;
            }
    }
    if (st != ORDO_OK || color < 0) {
        free(all);
        if (st == ORDO_OK)
            *comm_p = ORDO_COMM_NULL;
        return st;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (all[i].color == color)
            all[m++] = (split_entry_t){.key = all[i].key, .index = i};
    qsort(all, (size_t)m, sizeof(*all), by_key);
    int *members = malloc((size_t)m * sizeof(int));
    if (members == NULL) {
        free(all);
        return ORDO_ERR_NO_MEMORY;
    }
    for (int i = 0; i < m; i++)
        members[i] = c->members[all[i].index];
    free(all);
    p2p_comm_t *nc = NULL;
    st = p2p_comm_create_over(c->match, members, m, "ordo_comm_split", &nc);
    free(members);
    if (st == ORDO_OK)
        *comm_p = nc;
    return st;
}

ORDO_API ordo_status_t ordo_comm_index(ordo_comm_h comm, int rank, int *index_p)
{
    ORDO_CHECK_INIT();
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;
    if (index_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    if (rank < 0 || rank >= p2p->size || c->index_of[rank] < 0) {
        *index_p = -1;
        return ORDO_ERR_INVALID_RANK;
    }
    *index_p = c->index_of[rank];
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_comm_rank(ordo_comm_h comm, int *index_p)
{
    ORDO_CHECK_INIT();
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;
    if (index_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    *index_p = c->my_index;
    return ORDO_OK;
}
