/* OpenSHMEM on ordo: what the files of the layer share.  Built on ordo's
 * public API only (include/ordo/ordo.h), so it is a client of ordo like any
 * program, in a library of its own (libordo-shmem). */
#ifndef ORDO_SHMEM_INTERNAL_H
#define ORDO_SHMEM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ordo/ordo.h>

#include "../../include/ordo/shmem.h"

/* What follows stays inside the library: calls to it are direct, not
 * through the PLT (every routine of the API reaches ordo through them). */
#pragma GCC visibility push(hidden)

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

/* Memory that is symmetric: an ordo region, and where it lies here. */
typedef struct shmem_segment {
    ordo_region_h region;
    char         *base;
    size_t        size;
} shmem_segment_t;

typedef struct shmem_state {
    int            initialized, finalized;
    int            me, npes;
    ordo_region_h  heap;
    char          *heap_base;     /* this PE's part */
    size_t         heap_size;
    int            thread_level;
    /* the heap, then the program's global and static data where it could
     * be made symmetric (static.c) */
    shmem_segment_t seg[2];
    int            nseg;
} shmem_state_t;

extern shmem_state_t shmem_g;
extern struct shmem_ctx_s shmem_default_ctx;
extern struct shmem_team_s shmem_world_team, shmem_shared_team;

/* Report a misuse of a routine: logged, never fatal. */
void shmem_error(const char *routine, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The checks every routine makes, inline (an 8-byte put is a few dozen
 * nanoseconds: a call per check would show); the _slow halves log what
 * was wrong and return 0 (or -1). */
int shmem_ready_slow(const char *routine);
int shmem_symmetric_slow(const char *routine, const void *addr, size_t len);
ordo_stream_h shmem_ctx_stream_slow(const char *routine, shmem_ctx_t ctx);
int shmem_ctx_world_pe_slow(const char *routine, shmem_ctx_t ctx, int pe);

/* Whether the library is up. */
static inline int shmem_ready(const char *routine)
{
    return __builtin_expect(shmem_g.initialized && !shmem_g.finalized, 1) ||
           shmem_ready_slow(routine);
}

/* The region and offset of [addr, addr + len) where it is symmetric (the
 * heap, or global and static data): 0 when it is not. */
static inline int shmem_symmetric(const char *routine, const void *addr, size_t len,
                                  ordo_region_h *region_p, size_t *off_p)
{
    const char *a = addr;
    for (int i = 0; i < shmem_g.nseg; i++) {
        const shmem_segment_t *g = &shmem_g.seg[i];
        if (a >= g->base && a <= g->base + g->size && len <= (size_t)(g->base + g->size - a)) {
            *region_p = g->region;
            *off_p = (size_t)(a - g->base);
            return 1;
        }
    }
    return shmem_symmetric_slow(routine, addr, len);
}

/* The stream of a context (NULL for a bad one). */
static inline ordo_stream_h shmem_ctx_stream(const char *routine, shmem_ctx_t ctx)
{
    if (__builtin_expect(ctx != NULL && ctx->magic == SHMEM_MAGIC_CTX, 1))
        return ctx->stream;
    return shmem_ctx_stream_slow(routine, ctx);
}

/* A PE that is in the job. */
int shmem_pe_ok(const char *routine, int pe);

/* The world rank of PE pe of ctx's team (ctx valid), or -1. */
static inline int shmem_ctx_world_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    if (__builtin_expect(ctx->team == SHMEM_TEAM_WORLD && pe >= 0 && pe < shmem_g.npes, 1))
        return pe;
    return shmem_ctx_world_pe_slow(routine, ctx, pe);
}

/* heap.c */
int  shmem_heap_init(void);
void shmem_heap_fini(void);

/* static.c: the program's global and static data made symmetric (where
 * the pages can be moved into shared memory); logged and left out when
 * not. */
void shmem_static_init(void);
void shmem_static_fini(void);

/* team.c */
/* The deprecated active sets (active.c): the set's ordo context, made the
 * first time; -1 (logged) for a malformed set or a PE outside it. */
int  shmem_active_set(const char *routine, int PE_start, int logPE_stride, int PE_size,
                      ordo_comm_h *comm_p);
void        shmem_active_sets_fini(void);
/* alltoalls over an ordo context of n members; strides in elements of size
 * bytes.  0, or -1 (logged). */
int shmem_alltoalls_over(const char *routine, ordo_comm_h c, int n, void *dest,
                         const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                         size_t size);

void shmem_teams_init(void);
void shmem_teams_fini(void);
struct shmem_team_s *shmem_team_of(const char *routine, shmem_team_t team);

#pragma GCC visibility pop

#endif
