#include "boot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_proto.h"
#include "../base/log.h"

static int env_int(const char *name, int *v)
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

/* The launcher's groups: ORDO_NODES=K puts rank r in group r*K/N, blocks
 * of consecutive ranks (ordorun --nodes).  Without it every rank shares one
 * node. */
static ordo_status_t learn_nodes(ordo_boot_t *b)
{
    int k = 1;
    int have = env_int(ORDO_ENV_NODES, &k);
    if (have < 0 || k < 1 || k > b->size) {
        ordo_error("%s=\"%s\" is not valid: a group count from 1 to the job size %d",
                   ORDO_ENV_NODES, getenv(ORDO_ENV_NODES), b->size);
        return ORDO_ERR_BOOTSTRAP;
    }
    b->node_of = malloc((size_t)b->size * sizeof(int));
    if (b->node_of == NULL)
        return ORDO_ERR_NO_MEMORY;
    for (int r = 0; r < b->size; r++)
        b->node_of[r] = (int)((long long)r * k / b->size);
    b->nnodes = k;
    b->node = b->node_of[b->rank];
    return ORDO_OK;
}

void ordo_boot_close(ordo_boot_t *b, int clean)
{
    free(b->node_of);
    b->node_of = NULL;
    b->ops->fini(b, clean);
}

static ordo_status_t open_backend(int timeout_s, ordo_boot_t **boot_p);

ordo_status_t ordo_boot_open(int timeout_s, ordo_boot_t **boot_p)
{
    ordo_boot_t *b;
    ordo_status_t st = open_backend(timeout_s, &b);
    if (st != ORDO_OK)
        return st;
    st = learn_nodes(b);
    if (st != ORDO_OK) {
        ordo_boot_close(b, 0);
        return st;
    }
    *boot_p = b;
    return ORDO_OK;
}

static ordo_status_t open_backend(int timeout_s, ordo_boot_t **boot_p)
{
    int fd, rank, size;
    int have_fd = env_int(ORDO_ENV_BOOT_FD, &fd);
    if (have_fd == 0)
        return ordo_boot_single_open(boot_p);
    if (have_fd < 0 || env_int(ORDO_ENV_RANK, &rank) != 1 ||
        env_int(ORDO_ENV_SIZE, &size) != 1 || size < 1 || rank >= size) {
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

ordo_status_t ordo_boot_allgather(ordo_boot_t *b, const char *tag, const void *mine,
                                  size_t len, void *all)
{
    char key[ORDO_BOOT_KEY_MAX];
    snprintf(key, sizeof(key), "%s/%d", tag, b->rank);
    ordo_status_t st = b->ops->put(b, key, mine, len);
    if (st != ORDO_OK)
        return st;
    for (int r = 0; r < b->size; r++) {
        size_t got;
        snprintf(key, sizeof(key), "%s/%d", tag, r);
        st = b->ops->get(b, key, (char *)all + (size_t)r * len, len, &got);
        if (st != ORDO_OK)
            return st;
        if (got != len) {
            ordo_error("bootstrap allgather '%s': rank %d sent %zu bytes, expected %zu",
                       tag, r, got, len);
            return ORDO_ERR_BOOTSTRAP;
        }
    }
    return ORDO_OK;
}
