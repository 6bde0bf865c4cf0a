/* Bootstrap: how a rank learns its peers.  Back ends: the ordorun socket
 * and a singleton for a process started alone (PMIx and MPI come later and
 * plug in through the same ops). */
#ifndef ORDO_BOOT_H
#define ORDO_BOOT_H

#include <stddef.h>
#include <ordo/status.h>

typedef struct ordo_boot ordo_boot_t;

typedef struct ordo_boot_ops {
    size_t        size;
    const char   *name;
    ordo_status_t (*put)(ordo_boot_t *b, const char *key, const void *val, size_t len);
    /* Blocks until some rank put key; ORDO_ERR_INVALID_PARAM if the value is
     * larger than cap. */
    ordo_status_t (*get)(ordo_boot_t *b, const char *key, void *val, size_t cap,
                         size_t *len_p);
    ordo_status_t (*barrier)(ordo_boot_t *b);
    ordo_status_t (*fd_put)(ordo_boot_t *b, const char *key, int fd);
    ordo_status_t (*fd_get)(ordo_boot_t *b, const char *key, int *fd_p);
    ordo_status_t (*fd_del)(ordo_boot_t *b, const char *key);
    /* Tell the launcher this rank finished cleanly, and release. */
    void          (*fini)(ordo_boot_t *b, int clean);
} ordo_boot_ops_t;

struct ordo_boot {
    const ordo_boot_ops_t *ops;
    int rank;
    int size;
    char binding[64];   /* what the launcher bound us to, for reports */
    /* One byte per rank, non-zero once the launcher saw that rank die;
     * NULL where the back end cannot tell.  Read with plain loads, so
     * waits may check it as often as they like. */
    const volatile unsigned char *health;
    /* Which ranks share this node's memory: node_of[rank] for every rank,
     * node = node_of[rank of this process]. */
    int  node, nnodes;
    int *node_of;
    /* Set by the core once transports are open: called over and over while
     * a call waits for the launcher or peers, so transports that need this
     * process's help to complete peers' operations get it (a peer may be
     * waiting on a put into us before it reaches the same barrier). */
    void (*while_waiting)(void *arg);
    void  *while_waiting_arg;
};

/* Whether rank shares this process's node (memory, single copy). */
static inline int ordo_boot_same_node(const ordo_boot_t *b, int rank)
{
    return b->node_of[rank] == b->node;
}

/* Whether rank is known to have died. */
static inline int ordo_boot_rank_dead(const ordo_boot_t *b, int rank)
{
    return b->health != NULL && b->health[rank] != 0;
}

/* Pick the back end from the environment and connect; learn the nodes. */
ordo_status_t ordo_boot_open(int timeout_s, ordo_boot_t **boot_p);
/* Release (clean: this rank finished well) and free the node map. */
void          ordo_boot_close(ordo_boot_t *b, int clean);

/* Every rank contributes len bytes under tag; all[] receives size * len. */
ordo_status_t ordo_boot_allgather(ordo_boot_t *b, const char *tag, const void *mine,
                                  size_t len, void *all);

/* back ends */
ordo_status_t ordo_boot_ordorun_open(int fd, int rank, int size, int timeout_s,
                                     ordo_boot_t **boot_p);
ordo_status_t ordo_boot_single_open(ordo_boot_t **boot_p);

#endif
