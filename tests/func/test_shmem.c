/* OpenSHMEM on ordo, routine group by group, against values every PE can
 * compute: setup and queries, the symmetric heap, RMA (typed, sized, mem,
 * p/g, strided, _nbi), put-with-signal, AMOs, ordering and waits, teams and
 * their collectives, contexts.  argv[1] chooses the ordering mode of the
 * context the RMA and AMO checks run on: "default" (SHMEM_CTX_DEFAULT),
 * "strict", "ordered" (SHMEMX_CTX_ORDER_DEFAULT) or "relaxed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../shmem_harness.h"


static shmem_ctx_t ctx;

/* Global and static data: symmetric, as the standard allows. */
long global_array[16];
static uint64_t static_counter;
static int static_flag;

static long value_of(int pe, int k) { return (long)pe * 100003 + k * 7 + 1; }

static void queries(void)
{
    int major = 0, minor = 0;
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_version(&major, &minor);
    CHECK(major == 1 && minor == 5);
    shmem_info_get_name(name);
    CHECK(strcmp(name, "ordo") == 0);
    CHECK(me >= 0 && me < npes);
    for (int pe = 0; pe < npes; pe++)
        CHECK(shmem_pe_accessible(pe));
    CHECK(!shmem_pe_accessible(npes) && !shmem_pe_accessible(-1));
    int *x = shmem_malloc(sizeof(int));
    int local;
    CHECK(shmem_addr_accessible(x, (me + 1) % npes));
    CHECK(!shmem_addr_accessible(&local, me));   /* the stack is not symmetric */
    /* on one node every PE's heap is mapped: shmem_ptr gives a pointer */
    int *peer = shmem_ptr(x, (me + 1) % npes);
    *x = me;
    shmem_barrier_all();
    if (peer)
        CHECK(*peer == (me + 1) % npes);
    CHECK(shmem_ptr(&local, me) == NULL);
    shmem_barrier_all();
    shmem_free(x);
    int provided = -1;
    shmem_query_thread(&provided);
    CHECK(provided == SHMEM_THREAD_SINGLE);
}

static void heap(void)
{
    /* the same sequence everywhere gives the same addresses */
    char *a = shmem_malloc(100), *b = shmem_align(4096, 10), *c = shmem_calloc(50, 8);
    CHECK(a && b && c);
    CHECK(((uintptr_t)b & 4095) == 0);
    for (int i = 0; i < 400; i++)
        CHECK(c[i] == 0);
    long *addr = shmem_malloc(3 * sizeof(long));
    addr[0] = (long)(a - (char *)addr), addr[1] = (long)(b - (char *)addr),
    addr[2] = (long)(c - (char *)addr);
    shmem_barrier_all();
    long theirs[3];
    shmem_long_get(theirs, addr, 3, (me + 1) % npes);
    CHECK(theirs[0] == addr[0] && theirs[1] == addr[1] && theirs[2] == addr[2]);
    shmem_barrier_all();
    strcpy(a, "kept across realloc");
    char *a2 = shmem_realloc(a, 100000);
    CHECK(a2 && strcmp(a2, "kept across realloc") == 0);
    shmem_free(b);
    shmem_free(c);
    shmem_free(a2);
    shmem_free(addr);
    CHECK(shmem_malloc(0) == NULL);
    shmem_free(NULL);
    /* without a setting the heap takes what common programs ask (OSU's
     * message-rate programs: 200 MiB), touched at both ends */
    if (getenv("SHMEM_SYMMETRIC_SIZE") == NULL) {
        char *big = shmem_malloc((size_t)200 << 20);
        CHECK(big != NULL);
        if (big) {
            big[0] = 1;
            big[((size_t)200 << 20) - 1] = 2;
            shmem_barrier_all();
            char end;
            shmem_getmem(&end, big + ((size_t)200 << 20) - 1, 1, (me + 1) % npes);
            CHECK(end == 2);
            shmem_barrier_all();
            shmem_free(big);
        }
    }
    /* more than the heap holds: NULL on every PE, and the heap still works */
    CHECK(shmem_malloc((size_t)1 << 40) == NULL);
    int *after = shmem_malloc(sizeof(int));
    CHECK(after != NULL);
    shmem_free(after);
}

static void rma(void)
{
    int right = (me + 1) % npes, left = (me - 1 + npes) % npes;
    long *dst = shmem_calloc(64, sizeof(long));
    long src[64];
    for (int k = 0; k < 64; k++)
        src[k] = value_of(me, k);
    shmem_barrier_all();
    /* typed put, then quiet and a barrier */
    shmem_ctx_long_put(ctx, dst, src, 64, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int k = 0; k < 64; k++)
        CHECK(dst[k] == value_of(left, k));
    /* typed get */
    long got[64];
    shmem_ctx_long_get(ctx, got, dst, 64, right);
    for (int k = 0; k < 64; k++)
        CHECK(got[k] == value_of(me, k));
    shmem_barrier_all();
    /* p and g */
    shmem_ctx_long_p(ctx, &dst[3], -77L - me, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    CHECK(dst[3] == -77L - left);
    CHECK(shmem_ctx_long_g(ctx, &dst[3], right) == -77L - me);
    shmem_barrier_all();
    /* sized and mem forms, nbi, into a byte buffer */
    unsigned char *bytes = shmem_calloc(4096, 1);
    unsigned char out[4096];
    for (int k = 0; k < 4096; k++)
        out[k] = (unsigned char)(me * 31 + k);
    shmem_barrier_all();
    shmem_ctx_putmem_nbi(ctx, bytes, out, 1000, right);
    shmem_ctx_put32(ctx, bytes + 1000, out + 1000, 10, right);
    shmem_ctx_put64_nbi(ctx, bytes + 1040, out + 1040, 6, right);
    shmem_ctx_put128(ctx, bytes + 1088, out + 1088, 2, right);
    shmem_ctx_put8(ctx, bytes + 1120, out + 1120, 4, right);
    shmem_ctx_put16(ctx, bytes + 1124, out + 1124, 2, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int k = 0; k < 1128; k++)
        CHECK(bytes[k] == (unsigned char)(left * 31 + k));
    unsigned char back[1128];
    shmem_ctx_getmem_nbi(ctx, back, bytes, 1128, right);
    shmem_ctx_quiet(ctx);
    for (int k = 0; k < 1128; k++)
        CHECK(back[k] == (unsigned char)(me * 31 + k));
    shmem_barrier_all();
    /* strided: every other element of src into every third of dst */
    memset(dst, 0, 64 * sizeof(long));
    shmem_barrier_all();
    shmem_ctx_long_iput(ctx, dst, src, 3, 2, 10, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int k = 0; k < 10; k++)
        CHECK(dst[3 * k] == value_of(left, 2 * k));
    long strided[20] = {0};
    shmem_ctx_long_iget(ctx, strided, dst, 2, 3, 10, right);
    for (int k = 0; k < 10; k++)
        CHECK(strided[2 * k] == value_of(me, 2 * k));
    shmem_barrier_all();
    /* other types: double, short, uint64 */
    double *dd = shmem_malloc(8 * sizeof(double));
    double ds[8];
    for (int k = 0; k < 8; k++)
        ds[k] = me + k / 4.0;
    shmem_barrier_all();
    shmem_ctx_double_put(ctx, dd, ds, 8, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int k = 0; k < 8; k++)
        CHECK(dd[k] == left + k / 4.0);
    shmem_barrier_all();
    shmem_free(dd);
    shmem_free(bytes);
    shmem_free(dst);
}

/* Put-with-signal: the signal is never seen before the data, in many
 * seeded trials of random sizes. */
static void signal_litmus(int trials)
{
    int right = (me + 1) % npes, left = (me - 1 + npes) % npes;
    size_t max = 8192;
    unsigned char *data = shmem_malloc(max);
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    unsigned char *out = malloc(max);
    shmem_barrier_all();
    uint64_t seed = 12345;
    for (int t = 1; t <= trials; t++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        size_t len = 1 + (size_t)(seed >> 33) % max;
        for (size_t k = 0; k < len; k++)
            out[k] = (unsigned char)(t + k + me);
        if (t % 2)
            shmem_ctx_putmem_signal(ctx, data, out, len, sig, (uint64_t)t, SHMEM_SIGNAL_SET,
                                    right);
        else
            shmem_ctx_putmem_signal_nbi(ctx, data, out, len, sig, 1, SHMEM_SIGNAL_ADD, right);
        uint64_t seen = shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)t);
        CHECK(seen == (uint64_t)t);
        int bad = 0;
        for (size_t k = 0; k < len; k++)
            bad |= data[k] != (unsigned char)(t + k + left);
        CHECK(!bad);
        CHECK(shmem_signal_fetch(sig) == (uint64_t)t);
        /* nobody sends trial t+1 before its target read trial t */
        shmem_ctx_quiet(ctx);
        shmem_sync_all();
    }
    shmem_barrier_all();
    free(out);
    shmem_free(sig);
    shmem_free(data);
}

static void amos(void)
{
    long *counter = shmem_calloc(4, sizeof(long));
    unsigned int *bits = shmem_calloc(1, sizeof(unsigned int));
    double *fl = shmem_calloc(1, sizeof(double));
    int32_t *i32 = shmem_calloc(1, sizeof(int32_t));
    shmem_barrier_all();
    /* every PE adds to PE 0: the total is known */
    for (int k = 0; k < 10; k++)
        shmem_ctx_long_atomic_add(ctx, &counter[0], me + 1, 0);
    long before = shmem_ctx_long_atomic_fetch_inc(ctx, &counter[1], 0);
    CHECK(before >= 0 && before < npes);
    shmem_ctx_long_atomic_inc(ctx, &counter[2], 0);
    shmem_ctx_uint_atomic_or(ctx, bits, 1u << (me % 32), 0);
    shmem_ctx_int32_atomic_fetch_add(ctx, i32, -2, 0);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    if (me == 0) {
        CHECK(counter[0] == 10L * npes * (npes + 1) / 2);
        CHECK(counter[1] == npes && counter[2] == npes);
        unsigned want = 0;
        for (int pe = 0; pe < npes; pe++)
            want |= 1u << (pe % 32);
        CHECK(*bits == want);
        CHECK(*i32 == -2 * npes);
    }
    shmem_barrier_all();
    /* fetch, set, swap, compare-swap: one winner */
    CHECK(shmem_ctx_long_atomic_fetch(ctx, &counter[0], 0) == 10L * npes * (npes + 1) / 2);
    shmem_barrier_all();
    long old = shmem_ctx_long_atomic_compare_swap(ctx, &counter[3], 0, me + 1, 0);
    int won = old == 0;
    int *wins = shmem_calloc(1, sizeof(int));
    shmem_barrier_all();
    shmem_int_atomic_add(wins, won, 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK(*wins == 1);
    shmem_barrier_all();
    shmem_ctx_double_atomic_set(ctx, fl, 2.5, (me + 1) % npes);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    CHECK(*fl == 2.5);
    shmem_barrier_all();   /* read before the left PE swaps */
    double prev = shmem_ctx_double_atomic_swap(ctx, fl, 4.25, (me + 1) % npes);
    CHECK(prev == 2.5 || prev == 4.25);
    shmem_barrier_all();
    /* bitwise fetching forms and the _nbi ones */
    unsigned int was = shmem_ctx_uint_atomic_fetch_and(ctx, bits, ~0u, 0);
    CHECK(was != 0);
    long fetched = -1;
    shmem_ctx_long_atomic_fetch_add_nbi(ctx, &fetched, &counter[2], 0, 0);
    unsigned int xorred = 0;
    shmem_ctx_uint_atomic_fetch_xor_nbi(ctx, &xorred, bits, 0, 0);
    shmem_ctx_quiet(ctx);
    CHECK(fetched == npes);
    CHECK(xorred == was);
    shmem_barrier_all();
    shmem_free(wins);
    shmem_free(i32);
    shmem_free(fl);
    shmem_free(bits);
    shmem_free(counter);
}

static void waits(void)
{
    int right = (me + 1) % npes;
    long *flags = shmem_calloc(4, sizeof(long));
    int *ready = shmem_calloc(1, sizeof(int));
    shmem_barrier_all();
    /* a flag raised by the left PE */
    shmem_long_p(&flags[0], 5, right);
    shmem_long_wait_until(&flags[0], SHMEM_CMP_EQ, 5);
    CHECK(flags[0] == 5);
    shmem_long_atomic_set(&flags[2], 9, right);
    size_t idx = shmem_long_wait_until_any(flags, 4, NULL, SHMEM_CMP_EQ, 9);
    CHECK(idx == 2);
    int status[4] = {0, 1, 0, 1};
    shmem_long_wait_until_all(flags, 4, status, SHMEM_CMP_GT, 0);   /* 0 and 2 only */
    size_t found[4];
    CHECK(shmem_long_test_some(flags, 4, found, NULL, SHMEM_CMP_NE, 0) == 2);
    CHECK(found[0] == 0 && found[1] == 2);
    long want[4] = {5, 0, 9, 0};
    shmem_long_wait_until_all_vector(flags, 4, NULL, SHMEM_CMP_EQ, want);
    CHECK(shmem_long_test(&flags[1], SHMEM_CMP_EQ, 0) == 1);
    CHECK(shmem_long_test(&flags[1], SHMEM_CMP_NE, 0) == 0);
    CHECK(shmem_long_test_any(flags, 4, status, SHMEM_CMP_EQ, 12345) == SIZE_MAX);
    /* fence orders two puts to one PE */
    shmem_barrier_all();
    shmem_int_p(ready, 0, right);
    shmem_barrier_all();
    long payload = 4242 + me;
    shmem_long_put(&flags[3], &payload, 1, right);
    shmem_fence();
    shmem_int_p(ready, 1, right);
    shmem_int_wait_until(ready, SHMEM_CMP_EQ, 1);
    CHECK(flags[3] == 4242 + (me - 1 + npes) % npes);
    shmem_barrier_all();
    shmem_free(ready);
    shmem_free(flags);
}

static void teams_and_collectives(void)
{
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me && shmem_team_n_pes(SHMEM_TEAM_WORLD) == npes);
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) >= 1);
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_SHARED, shmem_team_my_pe(SHMEM_TEAM_SHARED),
                                  SHMEM_TEAM_WORLD) == me);
    long *src = shmem_malloc(8 * sizeof(long)), *dst = shmem_malloc(8 * (size_t)npes * 8);
    for (int k = 0; k < 8; k++)
        src[k] = value_of(me, k);
    /* broadcast from the last PE */
    CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 8, npes - 1) == 0);
    for (int k = 0; k < 8; k++)
        CHECK(dst[k] == value_of(npes - 1, k));
    /* fcollect and collect (each PE brings me + 1 elements) */
    CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, 8) == 0);
    for (int pe = 0; pe < npes; pe++)
        for (int k = 0; k < 8; k++)
            CHECK(dst[pe * 8 + k] == value_of(pe, k));
    long *var = shmem_malloc((size_t)npes * (npes + 1) / 2 * sizeof(long) + 8);
    CHECK(shmem_long_collect(SHMEM_TEAM_WORLD, var, src, (size_t)(me % 8) + 1) == 0);
    size_t at = 0;
    for (int pe = 0; pe < npes; pe++)
        for (int k = 0; k <= pe % 8; k++)
            CHECK(var[at++] == value_of(pe, k));
    /* alltoall: element j of my source goes to PE j */
    long *a2a = shmem_malloc((size_t)npes * sizeof(long)), *a2b = shmem_malloc((size_t)npes * 8);
    for (int pe = 0; pe < npes; pe++)
        a2a[pe] = me * 1000 + pe;
    CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, a2b, a2a, 1) == 0);
    for (int pe = 0; pe < npes; pe++)
        CHECK(a2b[pe] == pe * 1000 + me);
    /* reductions, in place and not */
    int *iv = shmem_malloc(4 * sizeof(int)), *ir = shmem_malloc(4 * sizeof(int));
    for (int k = 0; k < 4; k++)
        iv[k] = me + k;
    CHECK(shmem_int_sum_reduce(SHMEM_TEAM_WORLD, ir, iv, 4) == 0);
    for (int k = 0; k < 4; k++)
        CHECK(ir[k] == npes * (npes - 1) / 2 + npes * k);
    CHECK(shmem_int_max_reduce(SHMEM_TEAM_WORLD, ir, iv, 4) == 0);
    CHECK(ir[0] == npes - 1);
    CHECK(shmem_int_min_reduce(SHMEM_TEAM_WORLD, iv, iv, 4) == 0);   /* in place */
    CHECK(iv[0] == 0 && iv[3] == 3);
    unsigned *uv = shmem_malloc(sizeof(unsigned)), *ur = shmem_malloc(sizeof(unsigned));
    *uv = 1u << (me % 32);
    CHECK(shmem_uint_or_reduce(SHMEM_TEAM_WORLD, ur, uv, 1) == 0);
    CHECK(*ur == (npes >= 32 ? ~0u : (1u << npes) - 1));
    CHECK(shmem_uint_xor_reduce(SHMEM_TEAM_WORLD, ur, uv, 1) == 0);
    CHECK(*ur == (npes >= 32 ? ~0u : (1u << npes) - 1));
    double *dv = shmem_malloc(sizeof(double)), *dr = shmem_malloc(sizeof(double));
    *dv = 2.0;
    CHECK(shmem_double_prod_reduce(SHMEM_TEAM_WORLD, dr, dv, 1) == 0);
    CHECK(*dr == (double)(1ull << npes));
    /* a split team: the even PEs */
    shmem_team_t evens = SHMEM_TEAM_INVALID;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens) ==
          0);
    if (me % 2 == 0) {
        CHECK(evens != SHMEM_TEAM_INVALID);
        CHECK(shmem_team_my_pe(evens) == me / 2 && shmem_team_n_pes(evens) == (npes + 1) / 2);
        CHECK(shmem_team_translate_pe(evens, 1 % shmem_team_n_pes(evens), SHMEM_TEAM_WORLD) ==
              (shmem_team_n_pes(evens) > 1 ? 2 : 0));
        int one = 1, total = 0;
        int *o = shmem_malloc(sizeof(int)), *t = shmem_malloc(sizeof(int));
        (void)one, (void)total;
        *o = 1;
        CHECK(shmem_int_sum_reduce(evens, t, o, 1) == 0);
        CHECK(*t == (npes + 1) / 2);
        CHECK(shmem_team_sync(evens) == 0);
        /* a context on the team: PE numbers are the team's */
        shmem_ctx_t tc;
        CHECK(shmem_team_create_ctx(evens, 0, &tc) == 0);
        int *box = shmem_malloc(sizeof(int));
        *box = -1;
        shmem_team_sync(evens);
        int tn = shmem_team_n_pes(evens), tme = shmem_team_my_pe(evens);
        shmem_ctx_int_p(tc, box, tme, (tme + 1) % tn);
        shmem_ctx_quiet(tc);
        shmem_team_sync(evens);
        CHECK(*box == (tme - 1 + tn) % tn);
        shmem_team_t back;
        CHECK(shmem_ctx_get_team(tc, &back) == 0 && back == evens);
        shmem_ctx_destroy(tc);
        shmem_free(box);
        shmem_free(t);
        shmem_free(o);
        shmem_team_destroy(evens);
    } else {
        CHECK(evens == SHMEM_TEAM_INVALID);
        CHECK(shmem_team_my_pe(evens) == -1);
        /* the even PEs' shmem_malloc calls are collective over the world */
        int *o = shmem_malloc(sizeof(int)), *t = shmem_malloc(sizeof(int));
        int *box = shmem_malloc(sizeof(int));
        shmem_free(box);
        shmem_free(t);
        shmem_free(o);
    }
    /* splits that do not fit are refused, alike everywhere */
    shmem_team_t bad;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes + 1, NULL, 0, &bad) != 0);
    CHECK(bad == SHMEM_TEAM_INVALID);
    shmem_barrier_all();
    shmem_free(dr), shmem_free(dv), shmem_free(ur), shmem_free(uv);
    shmem_free(ir), shmem_free(iv), shmem_free(a2b), shmem_free(a2a), shmem_free(var);
    shmem_free(dst), shmem_free(src);
}

static void globals(void)
{
    int right = (me + 1) % npes, left = (me - 1 + npes) % npes;
    CHECK(shmem_addr_accessible(global_array, right));
    long vals[16];
    for (int k = 0; k < 16; k++)
        vals[k] = value_of(me, k);
    shmem_barrier_all();
    shmem_ctx_long_put(ctx, global_array, vals, 16, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int k = 0; k < 16; k++)
        CHECK(global_array[k] == value_of(left, k));
    CHECK(shmem_ctx_long_g(ctx, &global_array[5], right) == value_of(me, 5));
    shmem_ctx_uint64_atomic_add(ctx, &static_counter, (uint64_t)me + 1, 0);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    if (me == 0)
        CHECK(static_counter == (uint64_t)npes * (npes + 1) / 2);
    shmem_int_p(&static_flag, 1, right);
    shmem_int_wait_until(&static_flag, SHMEM_CMP_EQ, 1);
    shmem_barrier_all();
    static_flag = 0;
    shmem_barrier_all();
}

/* A lock guards a read-modify-write at PE 0 that is not atomic. */
static void locks(void)
{
    long *lock = shmem_calloc(1, sizeof(long));
    int *total = shmem_calloc(1, sizeof(int));
    for (int k = 0; k < 20; k++) {
        shmem_set_lock(lock);
        int v = shmem_int_g(total, 0);
        shmem_int_p(total, v + 1, 0);
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    if (me == 0)
        CHECK(*total == 20 * npes);
    shmem_barrier_all();
    if (me == 0) {
        CHECK(shmem_test_lock(lock) == 0);   /* free: taken */
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    shmem_free(total);
    shmem_free(lock);
}

static void contexts(void)
{
    shmem_ctx_t c;
    CHECK(shmem_ctx_create(SHMEMX_CTX_ORDER_STRICT | SHMEMX_CTX_ORDER_RELAXED, &c) != 0);
    CHECK(c == SHMEM_CTX_INVALID);
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) == 0);
    shmem_team_t t;
    CHECK(shmem_ctx_get_team(c, &t) == 0 && t == SHMEM_TEAM_WORLD);
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0 && t == SHMEM_TEAM_INVALID);
    shmem_ctx_destroy(c);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "default";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    long opt = strcmp(mode, "strict") == 0    ? SHMEMX_CTX_ORDER_STRICT
               : strcmp(mode, "ordered") == 0 ? SHMEMX_CTX_ORDER_DEFAULT
               : strcmp(mode, "relaxed") == 0 ? SHMEMX_CTX_ORDER_RELAXED
                                              : -1;
    ctx = SHMEM_CTX_DEFAULT;
    if (opt >= 0 && shmem_ctx_create(opt, &ctx) != 0) {
        fprintf(stderr, "shmem_ctx_create(%s) failed\n", mode);
        return 1;
    }
    queries();
    heap();
    rma();
    signal_litmus(npes > 4 ? 300 : 2000);
    amos();
    waits();
    teams_and_collectives();
    globals();
    locks();
    contexts();
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    char what[64];
    snprintf(what, sizeof(what), "test_shmem %s", mode);
    int rc = shmem_test_report(what);
    shmem_finalize();
    return rc;
}
