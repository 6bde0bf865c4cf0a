/* ordo_init / ordo_finalize and the process-wide context. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "../base/copy.h"
#include "../base/config.h"
#include "../base/log.h"
#include "../base/machine.h"

ordo_context_t *ordo_ctx;

/* Where Yama restricts ptrace to descendants, siblings may not single-copy
 * into each other unless each names a ptracer.  Yama lets the named process
 * and its descendants in, so naming the launcher that started us (ordorun,
 * the MPI launcher's daemon, slurmstepd: the parent of every rank of the
 * node) lets the job's ranks in and nobody else, where PR_SET_PTRACER_ANY
 * would open this process to every process of the user.  Ranks that do not
 * share a parent (each started through a wrapper) are refused single copy
 * by the kernel, and reach each other's regions through mapped memory. */
static void allow_single_copy(void)
{
#ifdef PR_SET_PTRACER
    if (access("/proc/sys/kernel/yama/ptrace_scope", F_OK) == 0)
        prctl(PR_SET_PTRACER, (unsigned long)getppid(), 0, 0, 0);
#endif
}

/* Whether the transports opened so far reach every rank. */
static int all_reached(const ordo_context_t *ctx)
{
    for (int r = 0; r < ctx->size; r++) {
        int reached = 0;
        for (int i = 0; i < ctx->n_ifaces && !reached; i++)
            reached = ctx->ifaces[i]->ops->reaches(ctx->ifaces[i], r);
        if (!reached)
            return 0;
    }
    return 1;
}

static void drive_transports(void *arg);

/* Ranks of the job on this machine: the groups of ordorun --nodes share
 * its cores, so machines count here, not nodes. */
static int ranks_on_machine(const ordo_boot_t *b)
{
    if (b->machine_of == NULL)
        return b->size;
    int n = 0;
    for (int r = 0; r < b->size; r++)
        n += b->machine_of[r] == b->machine_of[b->rank];
    return n;
}

/* Whether some machine holds more than one rank of the job (the same
 * answer on every rank: it reads the bootstrap's machine map only). */
static int machine_shared(const ordo_boot_t *b)
{
    if (b->machine_of == NULL)
        return b->size > 1;
    int machines = 0;   /* numbered from 0 as each first appears */
    for (int r = 0; r < b->size; r++)
        if (b->machine_of[r] >= machines)
            machines = b->machine_of[r] + 1;
    return machines < b->size;
}

/* Make m's measured rates those of the ranks of this machine together
 * (ordo_machine_agree), so that they all choose alike.  Collective over
 * the job where a machine is shared. */
static ordo_status_t agree_with_machine(ordo_boot_t *b, ordo_machine_t *m)
{
    if (!machine_shared(b))
        return ORDO_OK;
    ordo_machine_rates_t mine = {m->copy_GBps, m->sc_us, m->sc_GBps};
    ordo_machine_rates_t *all = malloc((size_t)b->size * sizeof(*all));
    if (all == NULL)
        return ORDO_ERR_NO_MEMORY;
    ordo_status_t st = ordo_boot_allgather(b, "ordo.machine", &mine, sizeof(mine), all);
    if (st == ORDO_OK) {
        int n = 0;
        for (int r = 0; r < b->size; r++)
            if (b->machine_of == NULL || b->machine_of[r] == b->machine_of[b->rank])
                all[n++] = all[r];
        ordo_machine_agree(m, all, n);
    }
    free(all);
    return st;
}

/* Resolve the settings whose auto value depends on the machine (engines,
 * the PIO limit, the two-sided eager / single-copy crossover) before the
 * transports open with them.  m was probed
 * before the bootstrap started threads of its own (PMIx's progress
 * thread), so its thread count is the program's. */
static ordo_status_t choose_for_machine(ordo_context_t *ctx, ordo_machine_t m)
{
    int here = ranks_on_machine(ctx->boot);
    int bind_rank = ordo_config.engine_bind == ORDO_ENGINE_BIND_RANK;
    ordo_auto_choose(&m, here, bind_rank, ordo_config.engines, ordo_config.pio_max,
                     &ctx->machine);
    int pio_from_rate = ctx->machine.engines > 0 && ordo_config.pio_max == SIZE_MAX;
    if (pio_from_rate)
        ordo_machine_measure_copy(&m);   /* only a limit below engines needs the rate */
    ordo_machine_measure_for_eager(&m, here);
    ordo_status_t st = agree_with_machine(ctx->boot, &m);
    if (st != ORDO_OK)
        return st;
    if (pio_from_rate)
        ordo_auto_choose(&m, here, bind_rank, ordo_config.engines, ordo_config.pio_max,
                         &ctx->machine);
    ctx->pio_max = ctx->machine.pio_max;
    ctx->pio_lone_max = ctx->machine.pio_lone_max;
    ordo_tl_am_limits_t lim;
    ordo_tl_am_limits(ctx->size, &lim);
    ordo_auto_eager_here(&m, here, lim.short_max, lim.eager_max, &ctx->machine);
    ordo_auto_stream_here(&ctx->machine);
    ordo_stream_min = ctx->machine.stream_min;
    /* What a put leaves behind in a copy of its own (deferred behind earlier
     * operations, or a short put over a network) stays small whatever the
     * CPU copies in place. */
    ctx->small_put_max = ordo_config.pio_max != SIZE_MAX ? ordo_config.pio_max
                         : ctx->pio_max < 4096 ? ctx->pio_max : 4096;
    if (ctx->rank == 0)
        ordo_info("offload engines %s; PIO limit %s; two-sided eager on shared memory up to "
                  "%s; short messages %s", ctx->machine.engines_why, ctx->machine.pio_why,
                  ctx->machine.eager_why, ctx->machine.lane_why);
    return ORDO_OK;
}

static ordo_status_t open_transports(ordo_context_t *ctx)
{
    char list[sizeof(ordo_config.tl)];
    strcpy(list, ordo_config.tl);
    ordo_tl_params_t params = {.boot = ctx->boot, .rank = ctx->rank, .size = ctx->size,
                               .ptr_retire = ordo_streams_quiesce,
                               .engines = ctx->machine.engines,
                               .pio_max = ctx->machine.pio_max,
                               .eager_cross = ctx->machine.eager_cross,
                               .pipe_max = ctx->machine.pipe_max,
                               .bounce_rotate = ctx->machine.bounce_rotate,
                               .hot_max = ctx->machine.hot_max,
                               .spill_bytes = ctx->machine.spill_bytes,
                               .own_ahead = ctx->machine.own_ahead,
                               .demote = ctx->machine.demote};
    char *save = NULL;
    for (char *name = strtok_r(list, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
        const ordo_tl_ops_t *ops = ordo_tl_find(name);
        if (ops == NULL) {
            ordo_error("ORDO_TL names an unknown transport '%s'", name);
            return ORDO_ERR_INVALID_PARAM;
        }
        if (ctx->n_ifaces == ORDO_MAX_TL) {
            ordo_error("ORDO_TL names more than %d transports", ORDO_MAX_TL);
            return ORDO_ERR_INVALID_PARAM;
        }
        for (int i = 0; i < ctx->n_ifaces; i++)
            if (ctx->ifaces[i]->ops == ops)
                goto next;
        if ((ops->caps & ORDO_TL_CAP_ON_DEMAND) && ctx->n_ifaces > 0 && all_reached(ctx)) {
            ordo_debug("transport %s not opened: every rank is reached already", name);
            goto next;
        }
        ordo_status_t st = ops->open(&params, &ctx->ifaces[ctx->n_ifaces]);
        if (st != ORDO_OK) {
            ordo_error("could not open transport %s: %s", name, ordo_status_string(st));
            return st;
        }
        ctx->n_ifaces++;
    next:;
    }
    ctx->tl_of_rank = malloc((size_t)ctx->size * sizeof(int));
    if (ctx->tl_of_rank == NULL)
        return ORDO_ERR_NO_MEMORY;
    for (int r = 0; r < ctx->size; r++) {
        ctx->tl_of_rank[r] = -1;
        for (int i = 0; i < ctx->n_ifaces; i++) {
            if (ctx->ifaces[i]->ops->reaches(ctx->ifaces[i], r)) {
                ctx->tl_of_rank[r] = i;
                break;
            }
        }
        if (ctx->tl_of_rank[r] < 0) {
            ordo_error("no transport in ORDO_TL=\"%s\" reaches rank %d", ordo_config.tl, r);
            return ORDO_ERR_UNREACHABLE;
        }
    }
    for (int i = 0; i < ctx->n_ifaces; i++) {
        if (ctx->ifaces[i]->ops->drive) {
            ctx->boot->while_waiting = drive_transports;
            ctx->boot->while_waiting_arg = ctx;
        }
    }
    return ORDO_OK;
}

/* While a bootstrap call waits: drive the transports that need it. */
static void drive_transports(void *arg)
{
    ordo_context_t *ctx = arg;
    for (int i = 0; i < ctx->n_ifaces; i++)
        if (ctx->ifaces[i]->ops->drive)
            ctx->ifaces[i]->ops->drive(ctx->ifaces[i]);
}

static void close_transports(ordo_context_t *ctx)
{
    ctx->boot->while_waiting = NULL;
    for (int i = ctx->n_ifaces - 1; i >= 0; i--)
        ctx->ifaces[i]->ops->close(ctx->ifaces[i]);
    ctx->n_ifaces = 0;
    free(ctx->tl_of_rank);
}

static ordo_status_t arm_job_timeout(void);

ORDO_API ordo_status_t ordo_init(const ordo_init_params_t *params)
{
    ordo_activity_enter("ordo_init");
    if (ordo_ctx != NULL)
        return ORDO_ERR_ALREADY;
    const uint64_t known = ORDO_INIT_FIELD_OOB | ORDO_INIT_FIELD_THREAD_LEVEL;
    if (params && (params->field_mask & ~known)) {
        ordo_error("ordo_init: unknown field_mask bits 0x%llx",
                   (unsigned long long)(params->field_mask & ~known));
        return ORDO_ERR_INVALID_PARAM;
    }
    const int level_asked = params && (params->field_mask & ORDO_INIT_FIELD_THREAD_LEVEL);
    if (level_asked && ((unsigned)params->thread_level > ORDO_THREAD_MULTIPLE)) {
        ordo_error("ordo_init: thread_level %d is not an ordo_thread_level_t",
                   (int)params->thread_level);
        return ORDO_ERR_INVALID_PARAM;
    }
    const ordo_oob_t *oob = params && (params->field_mask & ORDO_INIT_FIELD_OOB) ?
                            &params->oob : NULL;
    ordo_status_t st = ordo_config_load();
    if (st != ORDO_OK)
        return st;
    ordo_threads_start(level_asked ? params->thread_level
                                   : (ordo_thread_level_t)ordo_config.thread_level);
    ordo_context_t *ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL)
        return ORDO_ERR_NO_MEMORY;
    ordo_machine_t machine;
    ordo_machine_probe(&machine);
    st = ordo_boot_open(ordo_config.boot_timeout, oob, &ctx->boot);
    if (st != ORDO_OK)
        goto err_free;
    ctx->rank = ctx->boot->rank;
    ctx->size = ctx->boot->size;
    ordo_log_set_rank(ctx->rank);
    st = choose_for_machine(ctx, machine);
    if (st == ORDO_OK)
        st = arm_job_timeout();
    if (st != ORDO_OK) {
        ordo_boot_close(ctx->boot, 0);
        goto err_free;
    }
    allow_single_copy();
    st = open_transports(ctx);
    if (st != ORDO_OK)
        goto err_tl;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    ctx->yield_idle = ordo_config.yield == ORDO_YIELD_ALWAYS ||
                      (ordo_config.yield == ORDO_YIELD_AUTO && cpus > 0 && ctx->size > cpus);
    ordo_ctx = ctx;   /* the stream constructor reads it */
    st = ordo_stream_new((ordo_order_t)ordo_config.order, &ctx->default_stream);
    if (st != ORDO_OK)
        goto err_ctx;
    size_t nlayers = 0;
    for (; nlayers < ordo_layer_count; nlayers++) {
        const ordo_layer_t *l = ordo_layers[nlayers];
        if (l->init && (st = l->init()) != ORDO_OK) {
            ordo_error("could not start the %s layer: %s", l->name, ordo_status_string(st));
            goto err_layers;
        }
    }
    st = ctx->boot->ops->barrier(ctx->boot);
    if (st != ORDO_OK)
        goto err_layers;
    ctx->layers_up = 1;   /* every rank's layers take messages now */
    return ORDO_OK;

err_layers:
    while (nlayers-- > 0)
        if (ordo_layers[nlayers]->fini)
            ordo_layers[nlayers]->fini();
    ordo_stream_delete(ctx->default_stream);
    ordo_stream_free_dead();
err_ctx:
    ordo_ctx = NULL;
err_tl:
    close_transports(ctx);
    ordo_boot_close(ctx->boot, 0);
err_free:
    ordo_activity_deadline_ms = 0;
    free(ctx);
    ordo_threads_stop();
    return st;
}

ORDO_API ordo_status_t ordo_query_thread(ordo_thread_level_t *level_p)
{
    ORDO_CHECK_INIT();
    if (level_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    *level_p = ordo_threads_level();
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_finalize(void)
{
    ORDO_CHECK_INIT();
    ordo_context_t *ctx = ordo_ctx;
    ctx->in_finalize = 1;
    ctx->layers_up = 0;
    ordo_status_t st = ORDO_OK, s2;
    for (size_t i = 0; i < ordo_layer_count; i++) {
        if (ordo_layers[i]->quiesce) {
            s2 = ordo_layers[i]->quiesce();
            if (st == ORDO_OK)
                st = s2;
        }
    }
    /* Peers may still be reading our regions (or messages) until they
     * finish too. */
    s2 = ctx->boot->ops->barrier(ctx->boot);
    if (st == ORDO_OK)
        st = s2;
    /* A dead peer (the job runs on after failures, ordorun --on-failure
     * notify) is news the program had from its own calls; the survivors
     * still end their part of the job cleanly, and say so to the launcher. */
    if (st == ORDO_ERR_PEER_DEAD) {
        ordo_info("finalize: without the ranks that died");
        st = ORDO_OK;
    }
    ordo_region_destroy_all();
    for (size_t i = ordo_layer_count; i-- > 0;)
        if (ordo_layers[i]->fini)
            ordo_layers[i]->fini();
    while (ctx->streams)
        ordo_stream_delete(ctx->streams);
    ordo_stream_free_dead();
    ordo_activity_deadline_ms = 0;   /* the job's time no longer concerns us */
    close_transports(ctx);
    ordo_boot_close(ctx->boot, st == ORDO_OK);
    free(ctx);
    ordo_ctx = NULL;
    ordo_threads_stop();   /* the lock held here is given back on return */
    return st;
}

/* End the whole job with code, through the launcher where there is one. */
static _Noreturn void end_job(int code, const char *why)
{
    fflush(NULL);
    ordo_boot_t *b = ordo_ctx->boot;
    if (b->ops->abort && b->ops->abort(b, code, why)) {
        /* the launcher ends us; if it is slow, we go */
        for (int i = 0; i < 100; i++) {
            struct timespec nap = {0, 20 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    _exit(code);
}

ORDO_API ordo_status_t ordo_abort(int status)
{
    if (ordo_ctx == NULL)
        return ORDO_ERR_NOT_INITIALIZED;
    int code = status >= 1 && status <= 255 ? status : 1;
    ordo_error("ordo_abort(%d): ending the job with status %d", status, code);
    end_job(code, "ordo_abort");
}

/* ORDO_TIMEOUT outside ordorun (which keeps it itself, for every rank):
 * each rank keeps the job's time from its wait loops, and the first to
 * wait past it ends the job as ordorun would, with status 124. */
static const char *job_timeout_text;

static void job_timeout_expired(const char *call)
{
    ordo_error("ORDO_TIMEOUT=%s: the job ran past its time while this rank waited inside %s: "
               "ending the job (status 124)", job_timeout_text, call);
    /* the other ranks waiting in ordo reach the time within moments: a
     * short grace lets each name its call before the launcher ends them */
    struct timespec grace = {0, 300 * 1000 * 1000};
    fflush(NULL);
    nanosleep(&grace, NULL);
    end_job(124, "ORDO_TIMEOUT");
}

static ordo_status_t arm_job_timeout(void)
{
    const char *v = getenv("ORDO_TIMEOUT");
    if (ordo_activity != NULL || v == NULL || *v == '\0')
        return ORDO_OK;
    char *end;
    double t = strtod(v, &end);
    if (end == v || *end != '\0' || !(t >= 0) || t > 1e9) {
        ordo_error("ORDO_TIMEOUT=%s: seconds the job may run (fractions allowed), 0 for no "
                   "limit", v);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (t > 0) {
        job_timeout_text = v;
        ordo_activity_expired = job_timeout_expired;
        ordo_activity_deadline_ms = ordo_activity_now_ms() + (uint64_t)(t * 1000.0 + 0.5);
    }
    return ORDO_OK;
}

ORDO_API double ordo_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

ORDO_API double ordo_wtick(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1e-9;
    return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}

ORDO_API int ordo_rank(void) { return ordo_ctx ? ordo_ctx->rank : -1; }
ORDO_API int ordo_size(void) { return ordo_ctx ? ordo_ctx->size : -1; }
ORDO_API int ordo_node_of(int rank)
{
    if (ordo_ctx == NULL || rank < 0 || rank >= ordo_ctx->size)
        return -1;
    return ordo_ctx->boot->node_of[rank];
}
ORDO_API int ordo_node_count(void) { return ordo_ctx ? ordo_ctx->boot->nnodes : -1; }

ORDO_API ordo_status_t ordo_launcher_barrier(void)
{
    ORDO_CHECK_INIT();
    return ordo_ctx->boot->ops->barrier(ordo_ctx->boot);
}

ORDO_API ordo_status_t ordo_barrier(void)
{
    return ordo_launcher_barrier();
}

ORDO_API const char *ordo_order_name(ordo_order_t order)
{
    switch (order) {
    case ORDO_ORDER_STRICT:  return "strict";
    case ORDO_ORDER_DEFAULT: return "default";
    case ORDO_ORDER_RELAXED: return "relaxed";
    }
    return "invalid";
}

unsigned ordo_progress_once(void)
{
    unsigned n = 0;
    for (int i = 0; i < ordo_ctx->n_ifaces; i++)
        n += ordo_ctx->ifaces[i]->ops->progress(ordo_ctx->ifaces[i]);
    for (size_t i = 0; i < ordo_layer_count; i++)
        if (ordo_layers[i]->progress)
            n += ordo_layers[i]->progress();
    return n;
}

ordo_status_t ordo_layers_stream_drain(struct ordo_stream *s, int rank)
{
    ordo_status_t st = ORDO_OK;
    for (size_t i = 0; i < ordo_layer_count; i++) {
        if (ordo_layers[i]->stream_drain) {
            ordo_status_t s2 = ordo_layers[i]->stream_drain(s, rank);
            if (st == ORDO_OK)
                st = s2;
        }
    }
    return st;
}

void ordo_idle_pass(unsigned *idle)
{
    if (ordo_ctx->yield_idle && ++*idle >= 32) {
        *idle = 0;
        sched_yield();
    }
}

unsigned ordo_progress_wait(unsigned *idle)
{
    ordo_activity_wait_pass();
    ordo_threads_wait_pass();
    unsigned n = ordo_progress_once();
    if (n)
        *idle = 0;
    else
        ordo_idle_pass(idle);
    return n;
}

ORDO_API ordo_status_t ordo_transport_describe(int rank, char *buf, size_t len)
{
    ORDO_CHECK_INIT();
    if (rank < 0 || rank >= ordo_ctx->size)
        return ORDO_ERR_INVALID_RANK;
    if (buf == NULL || len == 0)
        return ORDO_ERR_INVALID_PARAM;
    ordo_tl_iface_t *f = ordo_iface_of(rank);
    if (f->ops->describe)
        return f->ops->describe(f, buf, len);
    snprintf(buf, len, "%s", f->ops->name);
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_setting_describe(const char *name, char *buf, size_t len)
{
    ORDO_CHECK_INIT();
    if (name == NULL || buf == NULL || len == 0)
        return ORDO_ERR_INVALID_PARAM;
    size_t i = 0;
    while (i < ordo_config_count() && strcmp(ordo_config_setting(i)->name, name) != 0)
        i++;
    if (i == ordo_config_count())
        return ORDO_ERR_INVALID_PARAM;
    ordo_config_value_string(i, buf, len);
    const ordo_auto_choice_t *m = &ordo_ctx->machine;
    ordo_tl_am_limits_t lim;
    ordo_tl_am_limits(ordo_ctx->size, &lim);
    /* what the machine and the job size made of the auto ones, and why */
    if (strcmp(name, "ORDO_ENGINES") == 0)
        snprintf(buf, len, "%s", m->engines_why);
    else if (strcmp(name, "ORDO_PIO_MAX") == 0)
        snprintf(buf, len, "%s", m->pio_why);
    else if (strcmp(name, "ORDO_STREAM_MIN") == 0)
        snprintf(buf, len, "%s", m->stream_why);
    else if (strcmp(name, "ORDO_EAGER_MAX") == 0)
        snprintf(buf, len, "%zu%s; on shared memory a message sent alone: up to %s", lim.eager_max,
                 ordo_config.eager_max ? "" : " (the job-size step)", m->eager_why);
    else if (strcmp(name, "ORDO_SHORT_MAX") == 0)
        snprintf(buf, len, "%zu%s; on shared memory %s", lim.short_max,
                 ordo_config.short_max ? "" : " (the job-size step)", m->lane_why);
    else if (strcmp(name, "ORDO_RNDV_SPLIT") == 0 && ordo_config.rndv_split == SIZE_MAX)
        snprintf(buf, len, "%zu on shared memory, where both CPUs copy at once (%zu for a "
                 "message that meets no rendezvous of the receiver's own to its sender, where "
                 "every rank has a CPU of its own%s); %zu over the network, where both halves "
                 "cross the same wire", ordo_rndv_split_from(0, 1), ordo_rndv_split_from(0, 0),
                 m->cores_shared ? ": not here" : "", ordo_rndv_split_from(1, 1));
    else if (strcmp(name, "ORDO_EAGER_BUFFERS") == 0) {
        unsigned n;
        size_t lap;
        ordo_tl_am_lane_layout(&lim, m->bounce_rotate, m->hot_max, &n, &lap);
        snprintf(buf, len, "%u%s; on shared memory %u, written round in laps of %zu KiB",
                 lim.nbounce, ordo_config.eager_buffers ? "" : " (the job-size step)", n,
                 lap >> 10);
    }
    else if (strcmp(name, "ORDO_P2P_CREDITS") == 0 && ordo_config.p2p_credits == 0)
        snprintf(buf, len, "%u (the job-size step)", lim.credits);
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_progress(void)
{
    ORDO_CHECK_INIT();
    ordo_progress_once();
    return ORDO_OK;
}

static void add_stats(ordo_stats_t *sum, const ordo_stats_t *s)
{
    const uint64_t *a = (const uint64_t *)s;
    uint64_t *b = (uint64_t *)sum;
    for (size_t i = 0; i < sizeof(*s) / sizeof(uint64_t); i++)
        b[i] += a[i];
}

/* A stream's counters into sum, its one-sided operations under its mode
 * (a stream's mode is fixed, so they are counted here, not per call). */
static void add_stream_stats(ordo_stats_t *sum, const struct ordo_stream *s)
{
    add_stats(sum, &s->stats);
    if ((unsigned)s->order <= ORDO_ORDER_RELAXED)
        sum->ops_by_order[s->order] += s->stats.puts + s->stats.gets + s->stats.atomics;
}

ORDO_API ordo_status_t ordo_stats_get(ordo_stats_t *stats_p)
{
    ORDO_CHECK_INIT();
    if (stats_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    ordo_stats_t sum = ordo_ctx->retired;
    for (struct ordo_stream *s = ordo_ctx->streams; s; s = s->next) {
        int taken = ordo_stream_lock(s);   /* its fast path counts under it */
        add_stream_stats(&sum, s);
        ordo_stream_unlock(s, taken);
    }
    for (int i = 0; i < ordo_ctx->n_ifaces; i++) {
        ordo_tl_iface_t *f = ordo_ctx->ifaces[i];
        if (f->ops->hold)
            f->ops->hold(f, 1);
        sum.pio_ops += f->pio_ops;
        sum.engine_ops += f->engine_ops;
        sum.single_copy_ops += f->single_copy_ops;
        sum.attach_hits += f->attach_hits;
        sum.attach_misses += f->attach_misses;
        sum.attach_evictions += f->attach_evictions;
        sum.deliveries_reordered += f->am_reordered;
        sum.registrations += f->registrations;
        sum.registration_ns += f->registration_ns;
        sum.bounce_ops += f->bounce_ops;
        sum.puts_batched += f->puts_batched;
        sum.put_batches += f->put_batches;
        sum.msgs_bundled += f->msgs_bundled;
        sum.msg_bundles += f->msg_bundles;
        sum.pinned_bytes += f->pinned_bytes;
        for (int l = 0; l < ORDO_STATS_LANES; l++)
            sum.lane_ops[l] += f->lane_ops[l];
        sum.lane_kept += f->lane_kept;
        sum.lane_spread += f->lane_spread;
        sum.rma_held += f->rma_held;
        sum.rcache_hits += f->rcache.hits;
        sum.rcache_misses += f->rcache.misses;
        sum.rcache_evictions += f->rcache.evictions;
        sum.rcache_invalidations += f->rcache.invalidations;
        if (f->ops->hold)
            f->ops->hold(f, 0);
    }
    for (size_t i = 0; i < ordo_layer_count; i++)
        if (ordo_layers[i]->stats)
            ordo_layers[i]->stats(&sum);
    *stats_p = sum;
    return ORDO_OK;
}

void ordo_stats_retire(const struct ordo_stream *s);
void ordo_stats_retire(const struct ordo_stream *s) { add_stream_stats(&ordo_ctx->retired, s); }

ORDO_API ordo_status_t ordo_stats_print(FILE *out)
{
    ordo_stats_t s;
    ordo_status_t st = ordo_stats_get(&s);
    if (st != ORDO_OK)
        return st;
    if (out == NULL)
        return ORDO_ERR_INVALID_PARAM;
#define P(f) fprintf(out, "%-18s %llu\n", #f, (unsigned long long)s.f)
    P(puts); P(gets); P(atomics); P(bytes_put); P(bytes_got);
    P(pio_ops); P(engine_ops); P(single_copy_ops);
    P(ops_deferred); P(ops_serialised); P(fences_inserted);
    P(fence_calls); P(quiet_calls); P(flush_calls);
    P(attach_hits); P(attach_misses); P(attach_evictions);
    P(sends); P(recvs); P(recvs_direct); P(bytes_sent); P(bytes_received);
    P(msgs_short); P(msgs_eager); P(msgs_rget); P(msgs_rput); P(msgs_pipelined);
    P(msgs_unexpected); P(msgs_early); P(credit_stalls); P(deliveries_reordered);
    P(collectives);
    P(epoch_syncs);
    P(epoch_skips);
    P(lock_retries);
    P(completions_reordered);
    P(registrations); P(registration_ns); P(bounce_ops); P(network_ordered);
    P(puts_batched); P(put_batches); P(msgs_bundled); P(msg_bundles); P(pinned_bytes);
    P(rcache_hits); P(rcache_misses); P(rcache_evictions); P(rcache_invalidations);
    P(signals); P(ops_stream_locked);
    for (int l = 0; l < ORDO_STATS_LANES; l++)
        if (s.lane_ops[l])
            fprintf(out, "lane_ops[%d]%*s %llu\n", l, 7, "", (unsigned long long)s.lane_ops[l]);
    P(lane_kept); P(lane_spread); P(rma_held);
    for (int m = ORDO_ORDER_STRICT; m <= ORDO_ORDER_RELAXED; m++)
        fprintf(out, "ops_%-14s %llu\n", ordo_order_name((ordo_order_t)m),
                (unsigned long long)s.ops_by_order[m]);
    P(msgs_overtook); P(msgs_split);
#undef P
    return ORDO_OK;
}
