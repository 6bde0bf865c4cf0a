/* Dynamic regions: memory each rank attaches and detaches alone, reached by
 * the owner's addresses; access outside what is attached is an error that
 * touches nothing; attach / detach misuse is refused; churn (attach, use,
 * detach, many times) keeps working.  argv[1] "mapped": the region moves
 * attached pages into shared memory (atomics from local peers then work).
 * Runs on every transport (shm, self, ofi with --nodes). */
#include <stdint.h>
#include <string.h>

#include "../harness.h"

static int me, n;
static unsigned flags;

static unsigned char pattern(int owner, size_t i, int round)
{
    return (unsigned char)(owner * 31 + (int)(i % 251) + round * 7);
}

/* Every rank's address of its buffer. */
static void exchange(void *mine, uint64_t *all)
{
    uint64_t a = (uint64_t)(uintptr_t)mine;
    REQUIRE_OK(ordo_coll_allgather(NULL, &a, sizeof(a), all));
}

static void check_data(ordo_region_h r, size_t len, int round)
{
    /* each rank's buffer: len bytes, not page aligned (malloc + 24) */
    unsigned char *raw = malloc(len + 64), *buf = raw + 24;
    for (size_t i = 0; i < len; i++)
        buf[i] = 0;
    REQUIRE_OK(ordo_region_attach(r, buf, len));
    uint64_t *addr = malloc(sizeof(uint64_t) * (size_t)n);
    exchange(buf, addr);
    /* rank me writes its pattern into its right neighbour's buffer ... */
    int right = (me + 1) % n, left = (me + n - 1) % n;
    unsigned char *src = malloc(len), *back = malloc(len);
    for (size_t i = 0; i < len; i++)
        src[i] = pattern(me, i, round);
    CHECK_OK(ordo_put(NULL, src, len, r, right, (size_t)addr[right], 0));
    CHECK_OK(ordo_quiet(NULL));
    REQUIRE_OK(ordo_barrier());
    size_t bad = 0;
    for (size_t i = 0; i < len; i++)
        bad += buf[i] != pattern(left, i, round);
    CHECK(bad == 0);
    /* ... and reads it back from there, whole and as a middle piece */
    CHECK_OK(ordo_get(NULL, back, len, r, right, (size_t)addr[right], 0));
    CHECK(memcmp(back, src, len) == 0);
    if (len > 16) {
        ordo_request_h rq = NULL;
        memset(back, 0, len);
        ordo_status_t st = ordo_get_nb(NULL, back, len - 16, r, right, (size_t)addr[right] + 8,
                                       0, &rq);
        CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
        if (st == ORDO_INPROGRESS)
            CHECK_OK(ordo_request_wait(&rq, NULL));
        CHECK(memcmp(back, src + 8, len - 16) == 0);
    }
    /* outside what the right neighbour attached: refused, nothing moves */
    CHECK_STATUS(ordo_put(NULL, src, 1, r, right, (size_t)addr[right] + len, 0),
                 ORDO_ERR_OUT_OF_BOUNDS);
    CHECK_STATUS(ordo_put(NULL, src, len, r, right, (size_t)addr[right] + 1, 0),
                 ORDO_ERR_OUT_OF_BOUNDS);
    CHECK_STATUS(ordo_get(NULL, back, 8, r, right, (size_t)addr[right] - 8, 0),
                 ORDO_ERR_OUT_OF_BOUNDS);
    CHECK_STATUS(ordo_put(NULL, src, 8, r, right, 0, 0), ORDO_ERR_OUT_OF_BOUNDS);
    CHECK_STATUS(ordo_put(NULL, src, 8, r, right, SIZE_MAX - 3, 0), ORDO_ERR_OUT_OF_BOUNDS);
    /* a zero-length operation moves nothing, wherever it points */
    CHECK_OK(ordo_put(NULL, src, 0, r, right, 12345, 0));
    CHECK_OK(ordo_quiet(NULL));
    REQUIRE_OK(ordo_barrier());
    bad = 0;
    for (size_t i = 0; i < len; i++)
        bad += buf[i] != pattern(left, i, round);
    CHECK(bad == 0);
    CHECK_OK(ordo_region_detach(r, buf));
    REQUIRE_OK(ordo_barrier());
    /* detached: the neighbour's operations on it fail, and touch nothing */
    CHECK_STATUS(ordo_put(NULL, src, len, r, right, (size_t)addr[right], 0),
                 ORDO_ERR_OUT_OF_BOUNDS);
    REQUIRE_OK(ordo_barrier());
    free(addr);
    free(src);
    free(back);
    free(raw);
}

static void check_misuse(ordo_region_h r)
{
    /* page aligned: attached mapped, areas on different pages may coexist */
    char *a = aligned_alloc(4096, 8192);
    CHECK_OK(ordo_region_attach(r, a, 128));
    CHECK_STATUS(ordo_region_attach(r, a + 64, 128), ORDO_ERR_INVALID_PARAM);   /* overlaps */
    CHECK_STATUS(ordo_region_attach(r, a, 16), ORDO_ERR_INVALID_PARAM);         /* same start */
    CHECK_OK(ordo_region_attach(r, a + 4096, 128));   /* after it */
    const char *sc = getenv("ORDO_SINGLE_COPY");
    if ((flags & ORDO_REGION_CREATE_MAPPED) || (sc && strcmp(sc, "off") == 0)) {
        /* pages moved once may not move again: another area on the same
         * page, or a region created mapped over it (agreed: every rank
         * tries the same) */
        CHECK_STATUS(ordo_region_attach(r, a + 256, 16), ORDO_ERR_BUSY);
        ordo_region_h over;
        CHECK_STATUS(ordo_region_create(a + 512, 64, ORDO_REGION_CREATE_MAPPED, &over),
                     ORDO_ERR_BUSY);
    } else {
        CHECK_OK(ordo_region_attach(r, a + 256, 16));   /* same page, single copy: fine */
        CHECK_OK(ordo_region_detach(r, a + 256));
    }
    CHECK_STATUS(ordo_region_attach(r, NULL, 8), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_region_attach(r, (void *)(UINTPTR_MAX - 4), 8), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_region_detach(r, a + 1), ORDO_ERR_INVALID_PARAM);
    CHECK_OK(ordo_region_detach(r, a + 4096));
    CHECK_OK(ordo_region_detach(r, a));
    CHECK_STATUS(ordo_region_detach(r, a), ORDO_ERR_INVALID_PARAM);
    CHECK_OK(ordo_region_attach(r, a, 0));   /* empty: allowed, reaches nothing */
    CHECK_OK(ordo_region_detach(r, a));
    size_t sz = 1;
    CHECK_OK(ordo_region_size(r, me, &sz));
    CHECK(sz == 0);
    void *p;
    CHECK_STATUS(ordo_region_ptr(r, me, &p), ORDO_ERR_UNSUPPORTED);
    CHECK_STATUS(ordo_region_create_dynamic(1u << 9, &r), ORDO_ERR_INVALID_PARAM);
    /* attach to a region that is not dynamic */
    void *mem;
    ordo_region_h plain;
    REQUIRE_OK(ordo_region_alloc(64, 0, &plain, &mem));
    CHECK_STATUS(ordo_region_attach(plain, a, 8), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_region_detach(plain, a), ORDO_ERR_INVALID_PARAM);
    CHECK_OK(ordo_region_free(plain));
    CHECK_STATUS(ordo_region_attach(NULL, a, 8), ORDO_ERR_INVALID_HANDLE);
    free(a);
}

/* The limit on areas attached at once, when the test sets it low. */
static void check_limit(ordo_region_h r)
{
    const char *e = getenv("ORDO_DYNAMIC_ATTACH_MAX");
    int max = e ? atoi(e) : 0;
    if (max <= 0 || max > 64)
        return;
    char *words = aligned_alloc(4096, 4096 * 65);   /* a page each: see check_misuse */
    for (int i = 0; i < max; i++)
        CHECK_OK(ordo_region_attach(r, words + 4096 * i, 8));
    CHECK_STATUS(ordo_region_attach(r, words + 4096 * max, 8), ORDO_ERR_NO_MEMORY);
    CHECK_OK(ordo_region_detach(r, words));
    CHECK_OK(ordo_region_attach(r, words + 4096 * max, 8));   /* a slot free again */
    for (int i = 1; i <= max; i++)
        CHECK_OK(ordo_region_detach(r, words + 4096 * i));
    free(words);
}

static void check_atomics(ordo_region_h r)
{
    uint64_t *w = calloc(4, sizeof(uint64_t));
    REQUIRE_OK(ordo_region_attach(r, w, 4 * sizeof(uint64_t)));
    uint64_t *addr = malloc(sizeof(uint64_t) * (size_t)n);
    exchange(w, addr);
    int target = (me + 1) % n;
    uint64_t one = 1, old = 0;
    ordo_status_t st = ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, &old, r,
                                   target, (size_t)addr[target] + 8, 0);
    /* without mapping, a peer on this node cannot do atomics on program
     * memory (single copy only); the header says so */
    int can = st == ORDO_OK;
    if (flags & ORDO_REGION_CREATE_MAPPED || target == me)
        CHECK_OK(st);
    else
        CHECK(st == ORDO_OK || st == ORDO_ERR_UNSUPPORTED);
    CHECK_STATUS(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, &old, r, target,
                             (size_t)addr[target] + 4, 0),
                 ORDO_ERR_MISALIGNED);
    CHECK_OK(ordo_quiet(NULL));
    int all_can = 0;
    REQUIRE_OK(ordo_coll_allreduce(NULL, &can, &all_can, 1, ORDO_DT_INT32, ORDO_REDUCE_MIN));
    REQUIRE_OK(ordo_barrier());
    if (all_can)
        CHECK(w[1] == 1 && w[0] == 0 && w[2] == 0);
    REQUIRE_OK(ordo_barrier());
    CHECK_OK(ordo_region_detach(r, w));
    REQUIRE_OK(ordo_barrier());
    free(addr);
    free(w);
}

static void check_epochs(void)
{
    ordo_region_h r;
    REQUIRE_OK(ordo_region_create_dynamic(flags | ORDO_REGION_EPOCHS, &r));
    int64_t *x = calloc(1, sizeof(int64_t));
    REQUIRE_OK(ordo_region_attach(r, x, sizeof(*x)));
    uint64_t *addr = malloc(sizeof(uint64_t) * (size_t)n);
    exchange(x, addr);
    int right = (me + 1) % n;
    int64_t v = 1000 + me;
    CHECK_STATUS(ordo_put(NULL, &v, sizeof(v), r, right, (size_t)addr[right], 0), ORDO_ERR_EPOCH);
    CHECK_OK(ordo_epoch_fence(r, 0));
    CHECK_OK(ordo_put(NULL, &v, sizeof(v), r, right, (size_t)addr[right], 0));
    CHECK_OK(ordo_epoch_fence(r, 0));
    CHECK(*x == 1000 + (me + n - 1) % n);
    CHECK_OK(ordo_region_free(r));   /* with x still attached */
    free(addr);
    free(x);
}

int main(int argc, char **argv)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    n = ordo_size();
    flags = argc > 1 && strcmp(argv[1], "mapped") == 0 ? ORDO_REGION_CREATE_MAPPED : 0;
    ordo_region_h r;
    REQUIRE_OK(ordo_region_create_dynamic(flags, &r));
    check_misuse(r);
    check_limit(r);
    REQUIRE_OK(ordo_barrier());
    size_t sizes[] = {1, 8, 4096 + 3, 300000, 2u << 20};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        check_data(r, sizes[i], (int)i);
    /* churn: the peers' caches follow attachments that come and go */
    for (int round = 0; round < 40; round++)
        check_data(r, 64 + (size_t)round * 8, round);
    check_atomics(r);
    CHECK_OK(ordo_region_free(r));
    check_epochs();
    CHECK_OK(ordo_finalize());
    return test_result("test_dynamic");
}
