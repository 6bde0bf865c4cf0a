/* Bootstrap for a process started without a launcher: rank 0 of 1.  Its
 * descriptors live in this process. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot.h"
#include "boot_proto.h"
#include "../base/log.h"

typedef struct single_entry {
    struct single_entry *next;
    char   key[ORDO_BOOT_KEY_MAX];
    int    fd;
} single_entry_t;

typedef struct boot_single {
    ordo_boot_t     super;
    single_entry_t *entries;
} boot_single_t;

static single_entry_t *find(boot_single_t *b, const char *key)
{
    for (single_entry_t *e = b->entries; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

static ordo_status_t s_allgather(ordo_boot_t *base, const char *tag, const void *mine,
                                 size_t len, void *all)
{
    (void)base;
    (void)tag;
    if (len)
        memcpy(all, mine, len);
    return ORDO_OK;
}

static ordo_status_t s_barrier(ordo_boot_t *base)
{
    (void)base;
    return ORDO_OK;
}

static ordo_status_t s_fd_put(ordo_boot_t *base, const char *key, int fd)
{
    boot_single_t *b = (boot_single_t *)base;
    if (strlen(key) >= ORDO_BOOT_KEY_MAX)
        return ORDO_ERR_INVALID_PARAM;
    single_entry_t *e = calloc(1, sizeof(*e));
    if (e == NULL)
        return ORDO_ERR_NO_MEMORY;
    e->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (e->fd < 0) {
        free(e);
        return ORDO_ERR_IO;
    }
    strcpy(e->key, key);
    e->next = b->entries;
    b->entries = e;
    return ORDO_OK;
}

static ordo_status_t s_fd_get(ordo_boot_t *base, int owner, const char *key, int *fd_p)
{
    (void)owner;
    single_entry_t *e = find((boot_single_t *)base, key);
    if (e == NULL) {
        ordo_error("bootstrap descriptor '%s' was never published", key);
        return ORDO_ERR_BOOTSTRAP;
    }
    int dup = fcntl(e->fd, F_DUPFD_CLOEXEC, 0);
    if (dup < 0)
        return ORDO_ERR_IO;
    *fd_p = dup;
    return ORDO_OK;
}

static ordo_status_t s_fd_del(ordo_boot_t *base, const char *key)
{
    boot_single_t *b = (boot_single_t *)base;
    for (single_entry_t **pp = &b->entries; *pp; pp = &(*pp)->next) {
        single_entry_t *e = *pp;
        if (strcmp(e->key, key) == 0) {
            *pp = e->next;
            close(e->fd);
            free(e);
            return ORDO_OK;
        }
    }
    return ORDO_ERR_INVALID_PARAM;
}

static void s_fini(ordo_boot_t *base, int clean)
{
    (void)clean;
    boot_single_t *b = (boot_single_t *)base;
    while (b->entries) {
        single_entry_t *e = b->entries;
        b->entries = e->next;
        close(e->fd);
        free(e);
    }
    free(b);
}

static const ordo_boot_ops_t single_ops = {
    .size = sizeof(ordo_boot_ops_t), .name = "singleton",
    .allgather = s_allgather, .barrier = s_barrier,
    .fd_put = s_fd_put, .fd_get = s_fd_get, .fd_del = s_fd_del, .fini = s_fini,
};

ordo_status_t ordo_boot_single_open(ordo_boot_t **boot_p)
{
    boot_single_t *b = calloc(1, sizeof(*b));
    if (b == NULL)
        return ORDO_ERR_NO_MEMORY;
    b->super.ops = &single_ops;
    b->super.rank = 0;
    b->super.size = 1;
    strcpy(b->super.binding, "none (singleton)");
    *boot_p = &b->super;
    return ORDO_OK;
}
