/* What the ranks of one machine share when no launcher passes descriptors
 * between them (PMIx, and later PMI-1 and the caller's own bootstrap):
 * which ranks are on this machine, and a descriptor service between them.
 *
 * Each process serves its descriptors from a thread on a Unix socket in the
 * abstract namespace (nothing in the filesystem, gone with the process, even
 * after kill -9).  Anyone on the machine could connect to such a name, so
 * both ends check the other's credentials: the server answers only
 * processes of its own user that are ranks of this job on this machine, and
 * a client accepts a descriptor only from the pid of the rank it asked. */
#ifndef ORDO_BOOT_LOCAL_H
#define ORDO_BOOT_LOCAL_H

#include "boot.h"

typedef struct boot_local boot_local_t;

/* Collective: exchange identities over b's allgather, set b->machine_of,
 * start this process's descriptor service. */
ordo_status_t ordo_boot_local_open(ordo_boot_t *b, int timeout_s, boot_local_t **local_p);
void          ordo_boot_local_close(boot_local_t *l);

/* The fd_put / fd_get / fd_del ops of a back end that opened b->local. */
ordo_status_t ordo_boot_local_fd_put(ordo_boot_t *b, const char *key, int fd);
ordo_status_t ordo_boot_local_fd_get(ordo_boot_t *b, int owner, const char *key, int *fd_p);
ordo_status_t ordo_boot_local_fd_del(ordo_boot_t *b, const char *key);

#endif
