/* OpenSHMEM on ordo: what the files of the layer share.  Built on ordo's
 * public API only (include/ordo/ordo.h), so it is a client of ordo like any
 * program, in a library of its own (libordo-shmem). */
#ifndef ORDO_SHMEM_INTERNAL_H
#define ORDO_SHMEM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ordo/ordo.h>

#include "../../include/ordo/shmem.h"

/* A context: an ordo stream (and the team it was made for). */
struct shmem_ctx_s {
    uint32_t      magic;
    ordo_stream_h stream;
    shmem_team_t  team;
    long          options;
};

/* A team: an ordo context over its PEs (world ranks, in team order). */
struct shmem_team_s {
    uint32_t     magic;
    ordo_comm_h  comm;        /* ORDO_COMM_WORLD for the world team */
    int          n, my_pe;    /* my_pe -1: not a member (a split of others) */
    int         *pes;         /* team PE -> world rank */
    int          start, stride;   /* as a stride of the world: world = start + i * stride */
    int          owns_comm;
};

#define SHMEM_MAGIC_CTX  0x53435458u   /* "SCTX" */
#define SHMEM_MAGIC_TEAM 0x5354454du   /* "STEM" */

typedef struct shmem_state {
    int            initialized, finalized;
    int            me, npes;
    ordo_region_h  heap;
    char          *heap_base;     /* this PE's part */
    size_t         heap_size;
    int            thread_level;
} shmem_state_t;

extern shmem_state_t shmem_g;
extern struct shmem_ctx_s shmem_default_ctx;
extern struct shmem_team_s shmem_world_team, shmem_shared_team;

/* Report a misuse of a routine that returns nothing: logged once per call
 * site kind, never fatal. */
void shmem_error(const char *routine, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether the library is up (logs the routine otherwise). */
int shmem_ready(const char *routine);

/* The offset of [addr, addr + len) in the symmetric heap, or 0 with an
 * error logged naming routine (not symmetric). */
int shmem_heap_offset(const char *routine, const void *addr, size_t len, size_t *off_p);

/* The stream of a context (logs and returns NULL for a bad one). */
ordo_stream_h shmem_ctx_stream(const char *routine, shmem_ctx_t ctx);

/* A PE that is in the job (logged otherwise). */
int shmem_pe_ok(const char *routine, int pe);

/* heap.c */
int  shmem_heap_init(void);
void shmem_heap_fini(void);

/* rma.c: nelems elements of size bytes to / from PE pe of ctx's team */
void ordo_shmem_put(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                    size_t nelems, size_t size, int pe, int nbi);
void ordo_shmem_get(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                    size_t nelems, size_t size, int pe, int nbi);

/* team.c */
/* The world rank of PE pe of ctx's team, or -1 (logged). */
int shmem_ctx_world_pe(const char *routine, shmem_ctx_t ctx, int pe);
void shmem_teams_init(void);
void shmem_teams_fini(void);
struct shmem_team_s *shmem_team_of(const char *routine, shmem_team_t team);

#endif
