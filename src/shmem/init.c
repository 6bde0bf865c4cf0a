/* OpenSHMEM on ordo: the library's life, PE queries, errors. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shmem_internal.h"

shmem_state_t shmem_g;
struct shmem_ctx_s shmem_default_ctx;
shmem_ctx_t const SHMEM_CTX_DEFAULT = &shmem_default_ctx;

void shmem_error(const char *routine, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    fprintf(stderr, "[ordo-shmem PE %d] %s: %s\n", shmem_g.initialized ? shmem_g.me : -1,
            routine, text);
}

int shmem_ready_slow(const char *routine)
{
    if (shmem_g.initialized && !shmem_g.finalized)
        return 1;
    shmem_error(routine, "called %s", shmem_g.finalized ? "after shmem_finalize"
                                                          : "before shmem_init");
    return 0;
}

int shmem_pe_ok(const char *routine, int pe)
{
    if (pe >= 0 && pe < shmem_g.npes)
        return 1;
    shmem_error(routine, "PE %d is not in the job (0 .. %d): nothing done", pe,
                shmem_g.npes - 1);
    return 0;
}

ordo_stream_h shmem_ctx_stream_slow(const char *routine, shmem_ctx_t ctx)
{
    if (ctx != NULL && ctx->magic == SHMEM_MAGIC_CTX)
        return ctx->stream;
    shmem_error(routine, "not a context (SHMEM_CTX_INVALID, destroyed, or never made): "
                         "nothing done");
    return NULL;
}

static int level_of(int shmem_level)
{
    switch (shmem_level) {
    case SHMEM_THREAD_SINGLE: return ORDO_THREAD_SINGLE;
    case SHMEM_THREAD_FUNNELED: return ORDO_THREAD_FUNNELED;
    case SHMEM_THREAD_SERIALIZED: return ORDO_THREAD_SERIALIZED;
    default: return ORDO_THREAD_MULTIPLE;
    }
}

int shmem_init_thread(int requested, int *provided)
{
    if (shmem_g.initialized && !shmem_g.finalized) {
        if (provided)
            *provided = shmem_g.thread_level;
        return 0;   /* OpenSHMEM allows a second init: nothing more happens */
    }
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
        shmem_error("shmem_init_thread", "thread level %d is none of SHMEM_THREAD_*",
                    requested);
        return 1;
    }
    ordo_init_params_t p = {.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL,
                            .thread_level = (ordo_thread_level_t)level_of(requested)};
    ordo_status_t st = ordo_init(&p);
    if (st != ORDO_OK) {
        shmem_error("shmem_init", "ordo_init failed: %s", ordo_status_string(st));
        return 1;
    }
    memset(&shmem_g, 0, sizeof(shmem_g));
    shmem_g.me = ordo_rank();
    shmem_g.npes = ordo_size();
    shmem_g.thread_level = requested;
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = ORDO_ORDER_RELAXED};
    shmem_default_ctx = (struct shmem_ctx_s){.magic = SHMEM_MAGIC_CTX};
    if ((st = ordo_stream_create(&sp, &shmem_default_ctx.stream)) != ORDO_OK ||
        shmem_heap_init() != 0) {
        shmem_error("shmem_init", "could not set up: %s", ordo_status_string(st));
        ordo_finalize();
        return 1;
    }
    shmem_g.initialized = 1;
    shmem_static_init();
    shmem_teams_init();
    shmem_default_ctx.team = SHMEM_TEAM_WORLD;
    if (provided)
        *provided = requested;
    /* every PE's heap is there before anyone reaches it */
    ordo_coll_barrier(ORDO_COMM_WORLD);
    return 0;
}

void shmem_init(void)
{
    if (shmem_init_thread(SHMEM_THREAD_SINGLE, NULL) != 0) {
        fprintf(stderr, "[ordo-shmem] shmem_init failed: ending this PE\n");
        ordo_abort(1);
        _Exit(1);   /* without a job to end (ordo_init failed) */
    }
}

void shmem_query_thread(int *provided)
{
    if (provided && shmem_ready("shmem_query_thread"))
        *provided = shmem_g.thread_level;
}

void shmem_finalize(void)
{
    if (!shmem_g.initialized || shmem_g.finalized)
        return;
    shmem_barrier_all();   /* OpenSHMEM: a collective synchronisation first */
    shmem_teams_fini();
    shmem_active_sets_fini();
    shmem_static_fini();
    shmem_heap_fini();
    ordo_stream_destroy(shmem_default_ctx.stream);
    shmem_default_ctx.magic = 0;
    shmem_g.finalized = 1;
    ordo_finalize();
}

void shmem_global_exit(int status)
{
    fflush(NULL);
    ordo_abort(status);
    _Exit(status);
}

int shmem_my_pe(void) { return shmem_g.initialized && !shmem_g.finalized ? shmem_g.me : -1; }
int shmem_n_pes(void) { return shmem_g.initialized && !shmem_g.finalized ? shmem_g.npes : -1; }

int shmem_pe_accessible(int pe)
{
    return shmem_g.initialized && !shmem_g.finalized && pe >= 0 && pe < shmem_g.npes &&
           ordo_node_of(pe) >= 0;
}

int shmem_addr_accessible(const void *addr, int pe)
{
    const char *a = addr;
    if (!shmem_pe_accessible(pe))
        return 0;
    for (int i = 0; i < shmem_g.nseg; i++)
        if (a >= shmem_g.seg[i].base && a < shmem_g.seg[i].base + shmem_g.seg[i].size)
            return 1;
    return 0;
}

void *shmem_ptr(const void *dest, int pe)
{
    size_t off = 0;
    ordo_region_h r = NULL;
    if (!shmem_addr_accessible(dest, pe) || !shmem_symmetric("shmem_ptr", dest, 1, &r, &off))
        return NULL;
    void *base;
    if (ordo_region_ptr(r, pe, &base) != ORDO_OK)
        return NULL;   /* not mapped here (another node) */
    return (char *)base + off;
}

void shmem_info_get_version(int *major, int *minor)
{
    if (major)
        *major = SHMEM_MAJOR_VERSION;
    if (minor)
        *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
    if (name)
        snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}
