/* Regions over a context's members (ordo_region_alloc_on / create_on /
 * create_dynamic_on), as MPI windows over a communicator: data moves
 * between members, a rank outside the region is ORDO_ERR_INVALID_RANK for
 * every call that names it, epochs over every rank (fence, lock_all,
 * flush_all) span the members only, ids stay apart when groups create
 * different numbers of regions, errors are agreed among the members, and
 * regions over every rank still work around them. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

static int me, np;

enum { SLOT = 64 };

/* The members of c, as world ranks, in member order. */
static int *members_of(ordo_comm_h c, int *n_p)
{
    int n = 0;
    REQUIRE_OK(ordo_comm_size(c, &n));
    int *m = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        REQUIRE_OK(ordo_comm_member(c, i, &m[i]));
    *n_p = n;
    return m;
}

static int is_member(const int *m, int n, int rank)
{
    for (int i = 0; i < n; i++)
        if (m[i] == rank)
            return 1;
    return 0;
}

/* Every member puts a slot into every member; checks what arrived and
 * what a rank outside gets. */
static void exchange_plain(ordo_comm_h c, const int *m, int n)
{
    ordo_region_h r;
    char *mem;
    REQUIRE_OK(ordo_region_alloc_on(c, SLOT * (size_t)np, 0, &r, (void **)&mem));
    char src[SLOT];
    memset(src, 'a' + me % 26, sizeof(src));
    for (int i = 0; i < n; i++)
        CHECK_OK(ordo_put(NULL, src, SLOT, r, m[i], (size_t)me * SLOT, 0));
    CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_coll_barrier(c));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < SLOT; k++)
            CHECK(mem[(size_t)m[i] * SLOT + (size_t)k] == 'a' + m[i] % 26);
    for (int rank = 0; rank < np; rank++) {
        size_t sz = 7;
        void *ptr;
        if (is_member(m, n, rank)) {
            CHECK_OK(ordo_region_size(r, rank, &sz));
            CHECK(sz == SLOT * (size_t)np);
            continue;
        }
        CHECK_STATUS(ordo_put(NULL, src, 8, r, rank, 0, 0), ORDO_ERR_INVALID_RANK);
        CHECK_STATUS(ordo_put_nb(NULL, src, 8, r, rank, 0, 0, NULL), ORDO_ERR_INVALID_RANK);
        CHECK_STATUS(ordo_get(NULL, src, 8, r, rank, 0, 0), ORDO_ERR_INVALID_RANK);
        uint64_t v = 1, old;
        CHECK_STATUS(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &v, NULL, &old, r, rank, 0,
                                 0),
                     ORDO_ERR_INVALID_RANK);
        CHECK_STATUS(ordo_region_size(r, rank, &sz), ORDO_ERR_INVALID_RANK);
        CHECK_STATUS(ordo_region_ptr(r, rank, &ptr), ORDO_ERR_INVALID_RANK);
    }
    CHECK_OK(ordo_region_free(r));
}

/* The program's own memory, with epochs: fence, lock_all + flush_all,
 * PSCW; a rank outside is refused by every epoch call that names it. */
static void exchange_epochs(ordo_comm_h c, const int *m, int n)
{
    /* a slot per rank, then a counter; mapped, for the atomics */
    char *mem = calloc((size_t)np + 1, SLOT);
    size_t counter = SLOT * (size_t)np;
    ordo_region_h r;
    REQUIRE_OK(ordo_region_create_on(c, mem, SLOT * ((size_t)np + 1),
                                     ORDO_REGION_EPOCHS | ORDO_REGION_CREATE_MAPPED, &r));
    char src[SLOT];
    memset(src, 'A' + me % 26, sizeof(src));
    /* fence: every member's put into every member */
    CHECK_OK(ordo_epoch_fence(r, 0));
    for (int i = 0; i < n; i++)
        CHECK_OK(ordo_put_nb(NULL, src, SLOT, r, m[i], (size_t)me * SLOT, 0, NULL));
    CHECK_OK(ordo_epoch_fence(r, ORDO_ASSERT_NOSUCCEED));
    for (int i = 0; i < n; i++)
        CHECK(mem[(size_t)m[i] * SLOT] == 'A' + m[i] % 26 &&
              mem[(size_t)m[i] * SLOT + SLOT - 1] == 'A' + m[i] % 26);
    /* passive target over the members */
    memset(src, 'k', sizeof(src));
    CHECK_OK(ordo_epoch_lock_all(r, 0));
    for (int i = 0; i < n; i++)
        CHECK_OK(ordo_put_nb(NULL, src, 8, r, m[i], (size_t)me * SLOT + 8, 0, NULL));
    CHECK_OK(ordo_epoch_flush_all(r));
    CHECK_OK(ordo_epoch_unlock_all(r));
    CHECK_OK(ordo_coll_barrier(c));
    for (int i = 0; i < n; i++)
        CHECK(mem[(size_t)m[i] * SLOT + 8] == 'k');
    for (int rank = 0; rank < np; rank++) {
        if (is_member(m, n, rank))
            continue;
        CHECK_STATUS(ordo_epoch_lock(r, ORDO_LOCK_SHARED, rank, 0), ORDO_ERR_INVALID_RANK);
        CHECK_STATUS(ordo_epoch_unlock(r, rank), ORDO_ERR_INVALID_RANK);
        CHECK_STATUS(ordo_epoch_flush(r, rank), ORDO_ERR_INVALID_RANK);
        CHECK_STATUS(ordo_epoch_post(r, 1, &rank, 0), ORDO_ERR_INVALID_RANK);
        CHECK_STATUS(ordo_epoch_start(r, 1, &rank, 0), ORDO_ERR_INVALID_RANK);
    }
    /* exclusive lock of one member by every other, in turn */
    int target = m[0];
    CHECK_OK(ordo_epoch_lock(r, ORDO_LOCK_EXCLUSIVE, target, 0));
    uint64_t one = 1;
    CHECK_OK(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, NULL, r, target, counter,
                         0));
    CHECK_OK(ordo_epoch_unlock(r, target));
    CHECK_OK(ordo_coll_barrier(c));
    if (me == target) {
        uint64_t got;
        memcpy(&got, mem + counter, 8);
        CHECK(got == (uint64_t)n);
    }
    /* PSCW: each member exposes to all, accesses all */
    CHECK_OK(ordo_epoch_post(r, n, m, 0));
    CHECK_OK(ordo_epoch_start(r, n, m, 0));
    memset(src, 'p', sizeof(src));
    for (int i = 0; i < n; i++)
        CHECK_OK(ordo_put_nb(NULL, src, 8, r, m[i], (size_t)me * SLOT + 24, 0, NULL));
    CHECK_OK(ordo_epoch_complete(r));
    CHECK_OK(ordo_epoch_wait(r));
    for (int i = 0; i < n; i++)
        CHECK(mem[(size_t)m[i] * SLOT + 24] == 'p');
    CHECK_OK(ordo_region_free(r));
    free(mem);
}

/* A dynamic region over the members: each attaches a buffer and the
 * members swap its address over the context. */
static void exchange_dynamic(ordo_comm_h c, const int *m, int n)
{
    ordo_region_h r;
    REQUIRE_OK(ordo_region_create_dynamic_on(c, 0, &r));
    char *buf = calloc(1, SLOT);
    CHECK_OK(ordo_region_attach(r, buf, SLOT));
    uint64_t mine = (uint64_t)(uintptr_t)buf, *addr = calloc((size_t)n, 8);
    CHECK_OK(ordo_coll_allgather(c, &mine, 8, addr));
    int idx;
    CHECK_OK(ordo_comm_rank(c, &idx));
    char v = (char)('0' + me % 10);
    for (int i = 0; i < n; i++)
        CHECK_OK(ordo_put(NULL, &v, 1, r, m[i], (size_t)addr[i] + (size_t)idx, 0));
    CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_coll_barrier(c));
    for (int i = 0; i < n && i < SLOT; i++)
        CHECK(buf[i] == '0' + m[i] % 10);
    for (int rank = 0; rank < np; rank++)
        if (!is_member(m, n, rank))
            CHECK_STATUS(ordo_put(NULL, &v, 1, r, rank, (size_t)mine, 0), ORDO_ERR_INVALID_RANK);
    CHECK_OK(ordo_coll_barrier(c));
    CHECK_OK(ordo_region_detach(r, buf));
    CHECK_OK(ordo_region_free(r));
    free(addr);
    free(buf);
}

static void all_kinds(ordo_comm_h c)
{
    int n;
    int *m = members_of(c, &n);
    exchange_plain(c, m, n);
    exchange_epochs(c, m, n);
    exchange_dynamic(c, m, n);
    free(m);
}

/* A region over every rank, used by all: ids agree however many regions
 * over parts of the job each rank made before. */
static void world_region(void)
{
    ordo_region_h r;
    uint64_t *mem;
    REQUIRE_OK(ordo_region_alloc(8 * (size_t)np, 0, &r, (void **)&mem));
    uint64_t v = 1000 + (uint64_t)me;
    for (int rank = 0; rank < np; rank++)
        CHECK_OK(ordo_put(NULL, &v, 8, r, rank, 8 * (size_t)me, 0));
    CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_barrier());
    for (int rank = 0; rank < np; rank++)
        CHECK(mem[rank] == 1000 + (uint64_t)rank);
    CHECK_OK(ordo_region_free(r));
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();

    /* halves by parity: each half makes a different number of regions */
    ordo_comm_h half;
    REQUIRE_OK(ordo_comm_split(ORDO_COMM_WORLD, me % 2, me, &half));
    all_kinds(half);
    if (me % 2)
        all_kinds(half);
    world_region();

    /* a region over oneself: every other rank is outside it */
    ordo_comm_h self;
    ordo_comm_params_t p = {.field_mask = ORDO_COMM_FIELD_RANKS, .nranks = 1, .ranks = &me};
    REQUIRE_OK(ordo_comm_create(&p, &self));
    all_kinds(self);

    /* across the halves: the first and the last rank, whose halves made
     * different numbers of regions (the highest proposal wins) */
    int ends[2] = {0, np - 1};
    if (np > 1 && (me == 0 || me == np - 1)) {
        ordo_comm_h pair;
        p.nranks = 2;
        p.ranks = ends;
        REQUIRE_OK(ordo_comm_create(&p, &pair));
        all_kinds(pair);
        /* misuse is agreed among the members: one passes bad flags */
        ordo_region_h r = (ordo_region_h)0x1;
        void *mem;
        CHECK_STATUS(ordo_region_alloc_on(pair, 64, me == 0 ? 0x80u : 0, &r, &mem),
                     ORDO_ERR_INVALID_PARAM);
        CHECK_OK(ordo_comm_destroy(pair));
    }
    world_region();

    /* the whole job as a context: a region over every rank */
    ordo_comm_h dup;
    REQUIRE_OK(ordo_comm_create(NULL, &dup));
    all_kinds(dup);

    /* handles that name no collective are refused alone */
    ordo_region_h r;
    void *mem;
    CHECK_STATUS(ordo_region_alloc_on(ORDO_COMM_NULL, 64, 0, &r, &mem), ORDO_ERR_INVALID_HANDLE);

    CHECK_OK(ordo_comm_destroy(dup));
    CHECK_OK(ordo_comm_destroy(self));
    CHECK_OK(ordo_comm_destroy(half));
    int rc = test_result("test_region_comm");
    ordo_finalize();
    return rc;
}
