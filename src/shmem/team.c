/* OpenSHMEM teams and contexts on ordo: a team is an ordo context over its
 * PEs (ordered as in the team), a context an ordo stream whose ordering
 * mode the SHMEMX_CTX_ORDER_* options choose. */
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

struct shmem_team_s shmem_world_team, shmem_shared_team;
shmem_team_t const SHMEM_TEAM_WORLD = &shmem_world_team;
shmem_team_t const SHMEM_TEAM_SHARED = &shmem_shared_team;

struct shmem_team_s *shmem_team_of(const char *routine, shmem_team_t team)
{
    if (team != NULL && team->magic == SHMEM_MAGIC_TEAM)
        return team;
    if (routine)
        shmem_error(routine, "not a team (SHMEM_TEAM_INVALID, destroyed, or never made)");
    return NULL;
}

/* A team over the members of comm (this PE among them), their order. */
static int team_fill(struct shmem_team_s *t, ordo_comm_h comm, int owns)
{
    int n = 0, me = -1;
    if (ordo_comm_size(comm, &n) != ORDO_OK || ordo_comm_rank(comm, &me) != ORDO_OK)
        return -1;
    int *pes = malloc((size_t)n * sizeof(int));
    if (pes == NULL)
        return -1;
    for (int i = 0; i < n; i++)
        ordo_comm_member(comm, i, &pes[i]);
    *t = (struct shmem_team_s){.magic = SHMEM_MAGIC_TEAM, .comm = comm, .n = n, .my_pe = me,
                               .pes = pes, .owns_comm = owns};
    return 0;
}

void shmem_teams_init(void)
{
    team_fill(&shmem_world_team, ORDO_COMM_WORLD, 0);
    /* the PEs that share this one's memory: its node */
    ordo_comm_h shared = NULL;
    if (ordo_comm_split(ORDO_COMM_WORLD, ordo_node_of(shmem_g.me), shmem_g.me, &shared) ==
            ORDO_OK &&
        team_fill(&shmem_shared_team, shared, 1) == 0)
        return;
    shmem_error("shmem_init", "SHMEM_TEAM_SHARED could not be made: it is invalid");
}

static void team_release(struct shmem_team_s *t)
{
    if (t->owns_comm)
        ordo_comm_destroy(t->comm);
    free(t->pes);
    t->pes = NULL;
    t->magic = 0;
}

void shmem_teams_fini(void)
{
    if (shmem_shared_team.magic == SHMEM_MAGIC_TEAM)
        team_release(&shmem_shared_team);
    free(shmem_world_team.pes);
    shmem_world_team.magic = 0;
}

int shmem_team_my_pe(shmem_team_t team)
{
    struct shmem_team_s *t = shmem_team_of(NULL, team);
    return t ? t->my_pe : -1;
}

int shmem_team_n_pes(shmem_team_t team)
{
    struct shmem_team_s *t = shmem_team_of(NULL, team);
    return t ? t->n : -1;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    if (shmem_team_of("shmem_team_get_config", team) == NULL || config == NULL)
        return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = 0;   /* no contexts are reserved for a team */
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    struct shmem_team_s *s = shmem_team_of(NULL, src_team), *d = shmem_team_of(NULL, dest_team);
    if (s == NULL || d == NULL || src_pe < 0 || src_pe >= s->n)
        return -1;
    int world = s->pes[src_pe];
    for (int i = 0; i < d->n; i++)
        if (d->pes[i] == world)
            return i;
    return -1;
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team)
{
    (void)config, (void)config_mask;   /* no contexts are reserved for a team */
    if (new_team == NULL)
        return -1;
    *new_team = SHMEM_TEAM_INVALID;
    struct shmem_team_s *p = shmem_team_of("shmem_team_split_strided", parent_team);
    if (p == NULL || !shmem_ready("shmem_team_split_strided"))
        return -1;
    /* every parent member calls, so every one takes part in the split, even
     * with arguments it must refuse: they are the same everywhere */
    int ok = size >= 1 && start >= 0 && start < p->n && (size == 1 || stride >= 1) &&
             (long)start + (long)(size - 1) * (size > 1 ? stride : 0) < p->n;
    int mine = ok && p->my_pe >= start && (p->my_pe - start) % (size > 1 ? stride : 1) == 0 &&
               (p->my_pe - start) / (size > 1 ? stride : 1) < size;
    ordo_comm_h c = NULL;
    ordo_status_t st = ordo_comm_split(p->comm, mine ? 0 : -1, p->my_pe, &c);
    if (!ok) {
        shmem_error("shmem_team_split_strided", "start %d, stride %d, size %d do not fit a "
                                                "team of %d", start, stride, size, p->n);
        if (st == ORDO_OK && c != ORDO_COMM_NULL)
            ordo_comm_destroy(c);
        return -1;
    }
    if (st != ORDO_OK) {
        shmem_error("shmem_team_split_strided", "%s", ordo_status_string(st));
        return -1;
    }
    if (!mine)
        return 0;   /* SHMEM_TEAM_INVALID: not a member */
    struct shmem_team_s *t = malloc(sizeof(*t));
    if (t == NULL || team_fill(t, c, 1) != 0) {
        free(t);
        ordo_comm_destroy(c);
        return -1;
    }
    t->start = start;
    t->stride = stride;
    *new_team = t;
    return 0;
}

/* Rows of xrange PEs (the last may be shorter), in parent order: this PE
 * is at column my_pe % xrange of row my_pe / xrange.  Two splits of the
 * parent, by row then by column, each ordered by the parent's numbering. */
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team)
{
    (void)xaxis_config, (void)xaxis_mask, (void)yaxis_config, (void)yaxis_mask;
    if (xaxis_team == NULL || yaxis_team == NULL)
        return -1;
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    struct shmem_team_s *p = shmem_team_of("shmem_team_split_2d", parent_team);
    if (p == NULL || !shmem_ready("shmem_team_split_2d"))
        return -1;
    if (xrange < 1) {   /* the same on every member: all refuse */
        shmem_error("shmem_team_split_2d", "xrange %d is not positive", xrange);
        return -1;
    }
    if (xrange > p->n)
        xrange = p->n;
    struct shmem_team_s *made[2] = {NULL, NULL};
    int colors[2] = {p->my_pe / xrange, p->my_pe % xrange}, rc = 0;
    for (int axis = 0; axis < 2; axis++) {
        ordo_comm_h c = NULL;
        /* every member goes through both splits, even after a failure */
        ordo_status_t st = ordo_comm_split(p->comm, colors[axis], p->my_pe, &c);
        struct shmem_team_s *t = st == ORDO_OK ? malloc(sizeof(*t)) : NULL;
        if (t == NULL || team_fill(t, c, 1) != 0) {
            shmem_error("shmem_team_split_2d", "cannot make the %c-axis team: %s",
                        axis ? 'y' : 'x',
                        st != ORDO_OK ? ordo_status_string(st) : "no memory");
            free(t);
            if (st == ORDO_OK)
                ordo_comm_destroy(c);
            rc = -1;
            continue;
        }
        /* as a stride of the world where it is one (translate_pe uses it) */
        t->start = t->pes[0];
        t->stride = t->n > 1 ? t->pes[1] - t->pes[0] : 1;
        for (int i = 2; i < t->n; i++)
            if (t->pes[i] - t->pes[i - 1] != t->stride)
                t->stride = 0;
        made[axis] = t;
    }
    if (rc != 0) {
        for (int axis = 0; axis < 2; axis++)
            if (made[axis]) {
                team_release(made[axis]);
                free(made[axis]);
            }
        return -1;
    }
    *xaxis_team = made[0];
    *yaxis_team = made[1];
    return 0;
}

void shmem_team_destroy(shmem_team_t team)
{
    struct shmem_team_s *t = shmem_team_of("shmem_team_destroy", team);
    if (t == NULL)
        return;
    if (t == &shmem_world_team || t == &shmem_shared_team) {
        shmem_error("shmem_team_destroy", "the predefined teams are not destroyed");
        return;
    }
    team_release(t);
    free(t);
}

int shmem_team_sync(shmem_team_t team)
{
    struct shmem_team_s *t = shmem_team_of("shmem_team_sync", team);
    if (t == NULL || !shmem_ready("shmem_team_sync"))
        return -1;
    return ordo_coll_barrier(t->comm) == ORDO_OK ? 0 : -1;
}

/* ------------------------------------------------------------ contexts */

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    if (ctx == NULL)
        return -1;
    *ctx = SHMEM_CTX_INVALID;
    struct shmem_team_s *t = shmem_team_of("shmem_team_create_ctx", team);
    if (t == NULL || !shmem_ready("shmem_ctx_create"))
        return -1;
    long orders = options & (SHMEMX_CTX_ORDER_STRICT | SHMEMX_CTX_ORDER_DEFAULT |
                             SHMEMX_CTX_ORDER_RELAXED);
    if (orders & (orders - 1)) {
        shmem_error("shmem_ctx_create", "more than one SHMEMX_CTX_ORDER_* option");
        return -1;
    }
    ordo_order_t order = orders == SHMEMX_CTX_ORDER_STRICT    ? ORDO_ORDER_STRICT
                         : orders == SHMEMX_CTX_ORDER_DEFAULT ? ORDO_ORDER_DEFAULT
                                                              : ORDO_ORDER_RELAXED;
    struct shmem_ctx_s *c = malloc(sizeof(*c));
    if (c == NULL)
        return -1;
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = order};
    if (ordo_stream_create(&sp, &c->stream) != ORDO_OK) {
        free(c);
        return -1;
    }
    c->magic = SHMEM_MAGIC_CTX;
    c->team = t;
    c->options = options;
    *ctx = c;
    return 0;
}

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    return shmem_team_create_ctx(SHMEM_TEAM_WORLD, options, ctx);
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_DEFAULT) {
        shmem_error("shmem_ctx_destroy", "SHMEM_CTX_DEFAULT is not destroyed");
        return;
    }
    if (shmem_ctx_stream("shmem_ctx_destroy", ctx) == NULL)
        return;
    ordo_quiet(ctx->stream);   /* the standard: destroying completes the context's operations */
    ordo_stream_destroy(ctx->stream);
    ctx->magic = 0;
    free(ctx);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    if (team == NULL)
        return -1;
    if (ctx == NULL || ctx->magic != SHMEM_MAGIC_CTX) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = ctx->team;
    return 0;
}

int shmem_ctx_world_pe_slow(const char *routine, shmem_ctx_t ctx, int pe)
{
    struct shmem_team_s *t = ctx ? ctx->team : NULL;
    if (t == NULL || t == &shmem_world_team)
        return shmem_pe_ok(routine, pe) ? pe : -1;
    if (pe < 0 || pe >= t->n) {
        shmem_error(routine, "PE %d is not in the context's team (0 .. %d): nothing done", pe,
                    t->n - 1);
        return -1;
    }
    return t->pes[pe];
}
