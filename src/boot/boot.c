/* Bootstrap: which launcher started this process, and which ranks share a
 * node.  A process started by a launcher ordo cannot join fails here with
 * the launcher named: running as a silent singleton would be a wrong answer
 * delivered quietly. */
#define _GNU_SOURCE
#include "../base/activity.h"
#include "boot.h"
#include "../base/threads.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boot_proto.h"
#include "../base/log.h"

int ordo_boot_env_int(const char *name, int *v)
{
    const char *s = getenv(name);
    if (s == NULL)
        return 0;
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end || errno || x < 0 || x > 1 << 24)
        return -1;
    *v = (int)x;
    return 1;
}

static const char *env_or(const char *name, const char *otherwise)
{
    const char *s = getenv(name);
    return s ? s : otherwise;
}

long long ordo_boot_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static _Thread_local unsigned hold_depth;

void ordo_boot_hold_begin(void) { hold_depth++; }
void ordo_boot_hold_end(void) { hold_depth--; }

void ordo_boot_idle(ordo_boot_t *b, unsigned spins)
{
    ordo_activity_wait_pass();
    if (hold_depth == 0)
        ordo_threads_wait_pass();
    if (b->while_waiting == NULL || hold_depth > 0) {
        /* nothing to drive: a short sleep, not a spin, while the launcher
         * or a peer takes its time */
        struct timespec ts = {0, 200 * 1000};
        nanosleep(&ts, NULL);
        return;
    }
    b->while_waiting(b->while_waiting_arg);
    if (spins % 64 == 63)
        sched_yield();
}

void ordo_boot_describe_binding(char *out, size_t cap)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        snprintf(out, cap, "unknown");
        return;
    }
    size_t n = (size_t)snprintf(out, cap, "cpus ");
    int first = -1;
    for (int c = 0; c <= CPU_SETSIZE && n < cap; c++) {
        int in = c < CPU_SETSIZE && CPU_ISSET(c, &set);
        if (in && first < 0)
            first = c;
        if (!in && first >= 0) {
            const char *sep = out[n - 1] == ' ' ? "" : ",";
            n += (size_t)(first == c - 1 ? snprintf(out + n, cap - n, "%s%d", sep, first)
                                         : snprintf(out + n, cap - n, "%s%d-%d", sep, first,
                                                    c - 1));
            first = -1;
        }
    }
}

/* node_of from machine_of and ORDO_NODES=K (ordorun --nodes: rank r in
 * group r*K/N, blocks of consecutive ranks, which share no memory even on
 * one machine).  Nodes are numbered in the order their first rank appears. */
static ordo_status_t learn_nodes(ordo_boot_t *b)
{
    int k = 1;
    int have = ordo_boot_env_int(ORDO_ENV_NODES, &k);
    if (have < 0 || k < 1 || k > b->size) {
        ordo_error("%s=\"%s\" is not valid: a group count from 1 to the job size %d",
                   ORDO_ENV_NODES, getenv(ORDO_ENV_NODES), b->size);
        return ORDO_ERR_BOOTSTRAP;
    }
    int machines = 1;
    for (int r = 0; b->machine_of && r < b->size; r++)
        if (b->machine_of[r] >= machines)
            machines = b->machine_of[r] + 1;
    int *node_of = malloc((size_t)b->size * sizeof(int));
    /* per machine: the group its last node belongs to, and that node */
    int *group_at = malloc((size_t)machines * sizeof(int));
    int *node_at = malloc((size_t)machines * sizeof(int));
    if (node_of == NULL || group_at == NULL || node_at == NULL) {
        free(node_of);
        free(group_at);
        free(node_at);
        return ORDO_ERR_NO_MEMORY;
    }
    for (int m = 0; m < machines; m++)
        group_at[m] = -1;
    /* groups grow with the rank, so a (group, machine) pair seen before is
     * the current group's */
    int nodes = 0;
    for (int r = 0; r < b->size; r++) {
        int group = (int)((long long)r * k / b->size);
        int machine = b->machine_of ? b->machine_of[r] : 0;
        if (group_at[machine] != group) {
            group_at[machine] = group;
            node_at[machine] = nodes++;
        }
        node_of[r] = node_at[machine];
    }
    free(group_at);
    free(node_at);
    b->node_of = node_of;
    b->nnodes = nodes;
    b->node = node_of[b->rank];
    return ORDO_OK;
}

int ordo_boot_cut_off(ordo_boot_t *b, int rank)
{
    if (rank < 0 || rank >= b->size)
        return 0;
    if (b->cut_off == NULL && (b->cut_off = calloc((size_t)b->size, 1)) == NULL)
        return 0;
    b->cut_off[rank] = 1;
    return 1;
}

const char *ordo_boot_loss(const ordo_boot_t *b, int rank)
{
    return b->health != NULL && b->health[rank] != 0 ? "died" : "was cut off";
}

void ordo_boot_close(ordo_boot_t *b, int clean)
{
    free(b->node_of);
    b->node_of = NULL;
    free(b->cut_off);
    b->cut_off = NULL;
    b->ops->fini(b, clean);
}

static ordo_status_t open_backend(int timeout_s, ordo_boot_t **boot_p);

ordo_status_t ordo_boot_open(int timeout_s, const ordo_oob_t *oob, ordo_boot_t **boot_p)
{
    ordo_boot_t *b;
    ordo_status_t st = oob ? ordo_boot_oob_open(oob, timeout_s, &b)
                           : open_backend(timeout_s, &b);
    if (st != ORDO_OK)
        return st;
    st = learn_nodes(b);
    if (st != ORDO_OK) {
        ordo_boot_close(b, 0);
        return st;
    }
    ordo_info("bootstrap: %s, rank %d of %d, %d node%s", b->ops->name, b->rank, b->size,
              b->nnodes, b->nnodes == 1 ? "" : "s");
    *boot_p = b;
    return ORDO_OK;
}

static int env_above_one(const char *name)
{
    int v = 0;
    return ordo_boot_env_int(name, &v) == 1 && v > 1;
}

/* A launcher's environment that no back end here can join: its name and
 * what to do, or NULL when none is seen. */
static const char *unjoinable_launcher(char *why, size_t cap)
{
    if (getenv("PMI_PORT") && env_above_one("PMI_SIZE")) {
        snprintf(why, cap, "started by a PMI-1 launcher that serves on a port (PMI_PORT=%s, "
                 "PMI_SIZE=%s); ordo joins PMI-1 on an inherited descriptor (PMI_FD) only: "
                 "start it with mpiexec's default launch, ordorun or Open MPI's mpirun",
                 getenv("PMI_PORT"), getenv("PMI_SIZE"));
        return why;
    }
    if (env_above_one("OMPI_COMM_WORLD_SIZE")) {
        snprintf(why, cap, "started by Open MPI's mpirun (OMPI_COMM_WORLD_SIZE=%s) without a "
                 "PMIx server to join (no PMIX_NAMESPACE / PMIX_RANK in the environment)",
                 getenv("OMPI_COMM_WORLD_SIZE"));
        return why;
    }
    if (env_above_one("SLURM_STEP_NUM_TASKS") && getenv("SLURM_PROCID")) {
        snprintf(why, cap, "started by srun with %s tasks but without PMIx: run it with "
                 "srun --mpi=pmix", getenv("SLURM_STEP_NUM_TASKS"));
        return why;
    }
    if (env_above_one("PMI_SIZE")) {
        snprintf(why, cap, "started by a PMI launcher (PMI_SIZE=%s) that ordo cannot join: "
                 "start it with ordorun, Open MPI's mpirun or srun --mpi=pmix",
                 getenv("PMI_SIZE"));
        return why;
    }
    return NULL;
}

void ordo_boot_which(char *out, size_t cap)
{
    char why[256];
    if (getenv(ORDO_ENV_BOOT_FD))
        snprintf(out, cap, "ordorun (rank %s of %s)", env_or(ORDO_ENV_RANK, "?"),
                 env_or(ORDO_ENV_SIZE, "?"));
    else if (getenv("PMIX_NAMESPACE") && getenv("PMIX_RANK"))
        snprintf(out, cap, "pmix (namespace %s, rank %s)", getenv("PMIX_NAMESPACE"),
                 getenv("PMIX_RANK"));
    else if (getenv("PMI_FD"))
        snprintf(out, cap, "pmi1 (MPICH's Hydra: rank %s of %s)", env_or("PMI_RANK", "?"),
                 env_or("PMI_SIZE", "?"));
    else if (unjoinable_launcher(why, sizeof(why)))
        snprintf(out, cap, "none: %s", why);
    else
        snprintf(out, cap, "singleton (no launcher seen: rank 0 of 1)");
}

static ordo_status_t open_backend(int timeout_s, ordo_boot_t **boot_p)
{
    int fd, rank, size;
    int have_fd = ordo_boot_env_int(ORDO_ENV_BOOT_FD, &fd);
    if (have_fd != 0) {
        if (have_fd < 0 || ordo_boot_env_int(ORDO_ENV_RANK, &rank) != 1 ||
            ordo_boot_env_int(ORDO_ENV_SIZE, &size) != 1 || size < 1 || rank >= size) {
            ordo_error("malformed launcher environment (%s, %s, %s)", ORDO_ENV_BOOT_FD,
                       ORDO_ENV_RANK, ORDO_ENV_SIZE);
            return ORDO_ERR_BOOTSTRAP;
        }
        if (fcntl(fd, F_GETFD) < 0) {
            ordo_error("%s=%d is not an open descriptor: was this process started by ordorun?",
                       ORDO_ENV_BOOT_FD, fd);
            return ORDO_ERR_BOOTSTRAP;
        }
        return ordo_boot_ordorun_open(fd, rank, size, timeout_s, boot_p);
    }
    if (getenv("PMIX_NAMESPACE") && getenv("PMIX_RANK"))
        return ordo_boot_pmix_open(timeout_s, boot_p);
    if (getenv("PMI_FD"))
        return ordo_boot_pmi1_open(timeout_s, boot_p);
    char why[256];
    if (unjoinable_launcher(why, sizeof(why))) {
        ordo_error("%s", why);
        return ORDO_ERR_BOOTSTRAP;
    }
    return ordo_boot_single_open(boot_p);
}

ordo_status_t ordo_boot_allgather(ordo_boot_t *b, const char *tag, const void *mine,
                                  size_t len, void *all)
{
    if (len > ORDO_BOOT_VALUE_MAX || strlen(tag) + 16 >= ORDO_BOOT_KEY_MAX) {
        ordo_error("bootstrap allgather '%s' of %zu bytes: more than a launcher carries "
                   "(%d bytes, tags under %d characters)", tag, len, ORDO_BOOT_VALUE_MAX,
                   ORDO_BOOT_KEY_MAX - 16);
        return ORDO_ERR_INVALID_PARAM;
    }
    return b->ops->allgather(b, tag, mine, len, all);
}
