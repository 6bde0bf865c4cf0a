/* Bootstrap: how a rank learns its peers.  Back ends, chosen at ordo_init
 * from the environment (boot.c): the ordorun socket, PMIx (Open MPI's
 * mpirun, srun --mpi=pmix), PMI-1 (MPICH's Hydra), the caller's own
 * collectives (ordo_oob_t), and a singleton for a process started alone.
 * Back ends without a launcher that passes descriptors share them
 * between the ranks of one node through boot_local.c. */
#ifndef ORDO_BOOT_H
#define ORDO_BOOT_H

#include <stddef.h>
#include <ordo/ordo.h>

typedef struct ordo_boot ordo_boot_t;

typedef struct ordo_boot_ops {
    size_t        size;
    const char   *name;
    /* Collective: every rank contributes len bytes (the same len on every
     * rank, at most ORDO_BOOT_VALUE_MAX) and all[] receives size * len in
     * rank order.  tag names this call; every rank makes the same calls in
     * the same order, and a tag is used once per job. */
    ordo_status_t (*allgather)(ordo_boot_t *b, const char *tag, const void *mine, size_t len,
                               void *all);
    ordo_status_t (*barrier)(ordo_boot_t *b);
    ordo_status_t (*fd_put)(ordo_boot_t *b, const char *key, int fd);
    /* A descriptor owner (a rank of this node) published under key; waits
     * (bounded by the boot timeout) until it has. */
    ordo_status_t (*fd_get)(ordo_boot_t *b, int owner, const char *key, int *fd_p);
    ordo_status_t (*fd_del)(ordo_boot_t *b, const char *key);
    /* Tell the launcher this rank finished cleanly, and release. */
    void          (*fini)(ordo_boot_t *b, int clean);
    /* Ask the launcher to end the whole job with exit status `status`
     * (ordo_abort).  Returns 1 when the caller should wait a moment for
     * the launcher to end it (so the launcher reports the abort, not the
     * rank's exit), 0 when it may end its own process at once. */
    int           (*abort)(ordo_boot_t *b, int status, const char *why);
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
     * node = node_of[rank of this process].  boot.c makes it from
     * machine_of (set by a back end that tells machines apart; NULL: every
     * rank on one) and ORDO_NODES (groups that share no memory on purpose). */
    int  node, nnodes;
    int *node_of;
    int *machine_of;
    /* The local descriptor service, for back ends whose launcher passes no
     * descriptors (boot_local.h); NULL otherwise. */
    struct boot_local *local;
    /* Set by the core once transports are open: called over and over while
     * a call waits for the launcher or peers, so transports that need this
     * process's help to complete peers' operations get it (a peer may be
     * waiting on a put into us before it reaches the same barrier). */
    void (*while_waiting)(void *arg);
    void  *while_waiting_arg;
    /* Ranks this process stopped trusting (a transport found them breaking
     * the rules of memory they write into this process): treated as dead
     * here, and here only.  NULL until the first. */
    unsigned char *cut_off;
};

/* Whether rank shares this process's node (memory, single copy). */
static inline int ordo_boot_same_node(const ordo_boot_t *b, int rank)
{
    return b->node_of[rank] == b->node;
}

/* Whether rank is known to have died, or this process cut it off: either
 * way, what needs it fails with ORDO_ERR_PEER_DEAD. */
static inline int ordo_boot_rank_dead(const ordo_boot_t *b, int rank)
{
    return (b->health != NULL && b->health[rank] != 0) ||
           (b->cut_off != NULL && b->cut_off[rank] != 0);
}

/* Stop trusting rank (see cut_off).  Without memory for the mark the rank
 * is not cut off, and 0 is returned. */
int           ordo_boot_cut_off(ordo_boot_t *b, int rank);
/* How rank was lost, for logs: "died" or "was cut off". */
const char   *ordo_boot_loss(const ordo_boot_t *b, int rank);

/* The back end the environment selects, in words (ordo-info). */
void          ordo_boot_which(char *out, size_t cap);
/* Join over oob when given, else pick the back end from the environment
 * and connect; learn the nodes. */
ordo_status_t ordo_boot_open(int timeout_s, const ordo_oob_t *oob, ordo_boot_t **boot_p);
/* Release (clean: this rank finished well) and free the node map. */
void          ordo_boot_close(ordo_boot_t *b, int clean);

/* b->ops->allgather, checking len against what every back end carries. */
ordo_status_t ordo_boot_allgather(ordo_boot_t *b, const char *tag, const void *mine,
                                  size_t len, void *all);

/* A launcher's number: 1 with *v set (0 .. 2^24), 0 if name is unset, -1 if
 * it is not such a number. */
int           ordo_boot_env_int(const char *name, int *v);
/* Milliseconds of CLOCK_MONOTONIC: the back ends' deadlines. */
long long     ordo_boot_now_ms(void);
/* What the back ends' waits call between polls: the transports' progress
 * (while_waiting), and the core given away now and then. */
void          ordo_boot_idle(ordo_boot_t *b, unsigned spins);
/* Between begin and end, this thread's bootstrap waits (ordo_boot_idle)
 * neither drive progress nor hand the process-wide lock to other threads:
 * a transport asking for a peer's descriptor in the middle of an operation
 * (a send's first message maps the peer's mailbox) must not let other
 * operations run half-way through its own (a message's sequence number is
 * taken before it goes out). */
void          ordo_boot_hold_begin(void);
void          ordo_boot_hold_end(void);
/* This process's CPU binding in words ("cpus 0-3"), for reports. */
void          ordo_boot_describe_binding(char *out, size_t cap);

/* back ends */
ordo_status_t ordo_boot_ordorun_open(int fd, int rank, int size, int timeout_s,
                                     ordo_boot_t **boot_p);
ordo_status_t ordo_boot_single_open(ordo_boot_t **boot_p);
ordo_status_t ordo_boot_pmix_open(int timeout_s, ordo_boot_t **boot_p);
ordo_status_t ordo_boot_pmi1_open(int timeout_s, ordo_boot_t **boot_p);
ordo_status_t ordo_boot_oob_open(const ordo_oob_t *oob, int timeout_s, ordo_boot_t **boot_p);

#endif
