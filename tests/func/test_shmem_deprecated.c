/* OpenSHMEM on ordo: what OpenSHMEM 1.5 deprecates but programs and
 * benchmarks still call, written as they call it (start_pes, _my_pe,
 * shmalloc, pSync arrays set to SHMEM_SYNC_VALUE, pWrk arrays), and the
 * 1.5 routines added beside them: the AMO names before 1.4, the active-set
 * collectives (barrier,
 * broadcast32/64, collect, fcollect, alltoall, alltoalls) and the _to_all
 * reductions on the whole job and on sets of every other PE, the complex
 * reductions, strided alltoalls on teams, shmem_team_split_2d, the old
 * waits, and an active set a PE is not in (refused by name, nothing
 * done).  Any PE count. */
#include <complex.h>
#include <stdio.h>
#include <string.h>

#include "../shmem_harness.h"


/* Global, as the old programs keep them. */
long pSync[SHMEM_BCAST_SYNC_SIZE > SHMEM_REDUCE_SYNC_SIZE ? SHMEM_BCAST_SYNC_SIZE
                                                          : SHMEM_REDUCE_SYNC_SIZE];
long pSync2[_SHMEM_COLLECT_SYNC_SIZE];
int ipWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
long flag;
short sflag;

static long value_of(int pe, int k) { return (long)pe * 1009 + k * 13 + 5; }

static void reset_psync(void)
{
    for (size_t i = 0; i < sizeof(pSync) / sizeof(pSync[0]); i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    for (size_t i = 0; i < sizeof(pSync2) / sizeof(pSync2[0]); i++)
        pSync2[i] = _SHMEM_SYNC_VALUE;
    shmem_barrier_all();
}

/* The whole job as an active set. */
static void whole_job(void)
{
    long *src = shmalloc(8 * sizeof(long)), *dst = shmalloc(8 * (size_t)npes * sizeof(long));
    for (int k = 0; k < 8; k++)
        src[k] = value_of(me, k);
    reset_psync();
    shmem_barrier(0, 0, npes, pSync);

    /* broadcast64 from the last PE: the root's dest is left alone */
    for (int k = 0; k < 8; k++)
        dst[k] = -7;
    shmem_broadcast64(dst, src, 8, npes - 1, 0, 0, npes, pSync);
    for (int k = 0; k < 8; k++)
        CHECK(dst[k] == (me == npes - 1 ? -7 : value_of(npes - 1, k)));
    for (size_t i = 0; i < sizeof(pSync) / sizeof(pSync[0]); i++)
        CHECK(pSync[i] == SHMEM_SYNC_VALUE);   /* as it was on entry */

    /* fcollect64, and collect32 of me % 3 + 1 ints each */
    shmem_fcollect64(dst, src, 8, 0, 0, npes, pSync2);
    for (int pe = 0; pe < npes; pe++)
        for (int k = 0; k < 8; k++)
            CHECK(dst[pe * 8 + k] == value_of(pe, k));
    int *isrc = shmalloc(4 * sizeof(int)), *idst = shmalloc(4 * (size_t)npes * sizeof(int));
    for (int k = 0; k < 4; k++)
        isrc[k] = (int)value_of(me, k);
    shmem_collect32(idst, isrc, (size_t)(me % 3) + 1, 0, 0, npes, pSync2);
    size_t at = 0;
    for (int pe = 0; pe < npes; pe++)
        for (int k = 0; k <= pe % 3; k++)
            CHECK(idst[at++] == (int)value_of(pe, k));

    /* alltoall32: element j to PE j; alltoalls64 with strides 2 and 3 */
    int *a = shmalloc((size_t)npes * sizeof(int)), *b = shmalloc((size_t)npes * sizeof(int));
    for (int pe = 0; pe < npes; pe++)
        a[pe] = me * 1000 + pe;
    shmem_alltoall32(b, a, 1, 0, 0, npes, pSync);
    for (int pe = 0; pe < npes; pe++)
        CHECK(b[pe] == pe * 1000 + me);
    long *s = shmalloc(3 * (size_t)npes * sizeof(long)), *d = shmalloc(2 * (size_t)npes * 8);
    for (int pe = 0; pe < npes; pe++)
        s[3 * pe] = me * 1000 + pe, s[3 * pe + 1] = s[3 * pe + 2] = -1;
    for (int pe = 0; pe < 2 * npes; pe++)
        d[pe] = -3;
    shmem_alltoalls64(d, s, 2, 3, 1, 0, 0, npes, pSync);
    for (int pe = 0; pe < npes; pe++)
        CHECK(d[2 * pe] == pe * 1000 + me && d[2 * pe + 1] == -3);

    /* reductions */
    int *iv = shmalloc(4 * sizeof(int)), *ir = shmalloc(4 * sizeof(int));
    for (int k = 0; k < 4; k++)
        iv[k] = me + k;
    shmem_int_sum_to_all(ir, iv, 4, 0, 0, npes, ipWrk, pSync);
    for (int k = 0; k < 4; k++)
        CHECK(ir[k] == npes * (npes - 1) / 2 + npes * k);
    shmem_barrier_all();   /* pSync reused: the standard asks for a barrier between */
    shmem_int_max_to_all(ir, iv, 4, 0, 0, npes, ipWrk, pSync);
    CHECK(ir[0] == npes - 1 && ir[3] == npes + 2);
    shmem_barrier_all();
    shmem_int_min_to_all(iv, iv, 4, 0, 0, npes, ipWrk, pSync);   /* in place */
    CHECK(iv[0] == 0 && iv[3] == 3);
    short *sv = shmalloc(sizeof(short)), *sr = shmalloc(sizeof(short));
    short swrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
    *sv = (short)(1 << (me % 15));
    shmem_barrier_all();
    shmem_short_or_to_all(sr, sv, 1, 0, 0, npes, swrk, pSync);
    CHECK(*sr == (short)(npes >= 15 ? 0x7fff : (1 << npes) - 1));
    shmem_barrier_all();
    shmem_short_and_to_all(sr, sv, 1, 0, 0, npes, swrk, pSync);
    CHECK(*sr == (npes == 1 ? 1 : 0));
    shmem_barrier_all();
    shmem_short_xor_to_all(sr, sv, 1, 0, 0, npes, swrk, pSync);
    CHECK(*sr == (short)(npes >= 15 ? 0x7fff : (1 << npes) - 1));
    long long *lv = shmalloc(sizeof(long long)), *lr = shmalloc(sizeof(long long));
    long long lwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
    *lv = 10 - me;
    shmem_barrier_all();
    shmem_longlong_min_to_all(lr, lv, 1, 0, 0, npes, lwrk, pSync);
    CHECK(*lr == 10 - (npes - 1));
    shmem_barrier_all();
    shmem_longlong_prod_to_all(lr, lv, 1, 0, 0, npes, lwrk, pSync);
    long long p = 1;
    for (int pe = 0; pe < npes; pe++)
        p *= 10 - pe;
    CHECK(*lr == p);
    double *dv = shmalloc(sizeof(double)), *dr = shmalloc(sizeof(double));
    double dwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
    *dv = 0.5 * me;
    shmem_barrier_all();
    shmem_double_sum_to_all(dr, dv, 1, 0, 0, npes, dwrk, pSync);
    CHECK(*dr == 0.25 * npes * (npes - 1));
    long double *xv = shmalloc(sizeof(long double)), *xr = shmalloc(sizeof(long double));
    long double xwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
    *xv = (long double)me;
    shmem_barrier_all();
    shmem_longdouble_max_to_all(xr, xv, 1, 0, 0, npes, xwrk, pSync);
    CHECK(*xr == (long double)(npes - 1));
    float *fv = shmalloc(sizeof(float)), *fr = shmalloc(sizeof(float));
    float fwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
    *fv = 2.0f;
    shmem_barrier_all();
    shmem_float_prod_to_all(fr, fv, 1, 0, 0, npes, fwrk, pSync);
    CHECK(*fr == (float)(1u << npes));

    /* complex: each PE brings (1 + i); the sum is n(1 + i), the product (1 + i)^n */
    double complex *cv = shmalloc(sizeof(double complex)), *cr = shmalloc(sizeof(*cr));
    double complex cwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
    *cv = 1.0 + 1.0 * I;
    shmem_barrier_all();
    shmem_complexd_sum_to_all(cr, cv, 1, 0, 0, npes, cwrk, pSync);
    CHECK(creal(*cr) == npes && cimag(*cr) == npes);
    double complex want = 1.0;
    for (int pe = 0; pe < npes; pe++)
        want *= 1.0 + 1.0 * I;
    shmem_barrier_all();
    shmem_complexd_prod_to_all(cr, cv, 1, 0, 0, npes, cwrk, pSync);
    CHECK(creal(*cr) == creal(want) && cimag(*cr) == cimag(want));
    float complex *gv = shmalloc(sizeof(float complex)), *gr = shmalloc(sizeof(*gr));
    float complex gwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
    *gv = 2.0f - 1.0f * I;
    shmem_barrier_all();
    shmem_complexf_sum_to_all(gr, gv, 1, 0, 0, npes, gwrk, pSync);
    CHECK(crealf(*gr) == 2.0f * npes && cimagf(*gr) == -1.0f * npes);
    /* the team forms of the complex reductions, and the type-generic one */
    CHECK(shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, cr, cv, 1) == 0);
    CHECK(creal(*cr) == npes && cimag(*cr) == npes);
    CHECK(shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, gr, gv, 1) == 0);
    float complex gwant = 1.0f;
    for (int pe = 0; pe < npes; pe++)
        gwant *= 2.0f - 1.0f * I;
    CHECK(crealf(*gr) == crealf(gwant) && cimagf(*gr) == cimagf(gwant));
    CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, cr, cv, 1) == 0);
    CHECK(creal(*cr) == npes);

    shmem_barrier_all();
    shfree(gr), shfree(gv), shfree(cr), shfree(cv), shfree(fr), shfree(fv), shfree(xr);
    shfree(xv), shfree(dr), shfree(dv), shfree(lr), shfree(lv), shfree(sr), shfree(sv);
    shfree(ir), shfree(iv), shfree(d), shfree(s), shfree(b), shfree(a), shfree(idst);
    shfree(isrc), shfree(dst), shfree(src);
}

/* Every other PE: the evens (stride 2^1 from 0), then the odds, each
 * called by its members only; the others call the other set meanwhile. */
static void every_other(void)
{
    int odd = me % 2, start = odd, size = odd ? npes / 2 : (npes + 1) / 2, idx = me / 2;
    long *v = shmalloc(sizeof(long)), *r = shmalloc(sizeof(long));
    long *bc = shmalloc(4 * sizeof(long)), *all = shmalloc((size_t)npes * sizeof(long));
    reset_psync();
    if (size >= 1) {
        shmem_barrier(start, 1, size, pSync);
        *v = value_of(me, 0);
        long wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
        shmem_long_sum_to_all(r, v, 1, start, 1, size, wrk, pSync);
        long want = 0;
        for (int i = 0; i < size; i++)
            want += value_of(start + 2 * i, 0);
        CHECK(*r == want);
        /* broadcast32 from the set's last member (ordinal size - 1) */
        int root = start + 2 * (size - 1);
        int *ib = (int *)bc;
        for (int k = 0; k < 4; k++)
            ib[k] = me == root ? 40 + k : -1;
        shmem_barrier(start, 1, size, pSync2);
        shmem_broadcast32(ib + 4, ib, 4, size - 1, start, 1, size, pSync);
        if (me != root)
            for (int k = 0; k < 4; k++)
                CHECK(ib[4 + k] == 40 + k);
        shmem_fcollect64(all, v, 1, start, 1, size, pSync2);
        for (int i = 0; i < size; i++)
            CHECK(all[i] == value_of(start + 2 * i, 0));
        (void)idx;
    }
    shmem_barrier_all();
    shfree(all), shfree(bc), shfree(r), shfree(v);
}

/* Sets that are malformed, or that this PE is not in: refused by name, and
 * nothing is written or waited for. */
static void misuse(void)
{
    long v = 1, r = -5;
    long wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
    shmem_long_sum_to_all(&r, &v, 1, 0, 0, npes + 1, wrk, pSync);   /* too large */
    CHECK(r == -5);
    shmem_long_sum_to_all(&r, &v, 1, -1, 0, 1, wrk, pSync);         /* negative start */
    CHECK(r == -5);
    if (npes > 1) {
        int other = (me + 1) % npes;   /* a set of one PE, not this one */
        shmem_long_sum_to_all(&r, &v, 1, other, 0, 1, wrk, pSync);
        CHECK(r == -5);
        shmem_barrier(other, 0, 1, pSync);
    }
    shmem_long_sum_to_all(&r, &v, -1, 0, 0, npes, wrk, pSync);      /* negative count */
    CHECK(r == -5);
    shmem_barrier_all();
}

/* Strided alltoalls and split_2d, on teams. */
static void teams(void)
{
    long *s = shmem_malloc(2 * (size_t)npes * sizeof(long));
    long *d = shmem_malloc(3 * (size_t)npes * sizeof(long));
    for (int pe = 0; pe < npes; pe++)
        s[2 * pe] = me * 100 + pe, s[2 * pe + 1] = -1;
    for (int i = 0; i < 3 * npes; i++)
        d[i] = -2;
    CHECK(shmem_long_alltoalls(SHMEM_TEAM_WORLD, d, s, 3, 2, 1) == 0);
    for (int pe = 0; pe < npes; pe++)
        CHECK(d[3 * pe] == pe * 100 + me && d[3 * pe + 1] == -2 && d[3 * pe + 2] == -2);
    CHECK(shmem_alltoallsmem(SHMEM_TEAM_WORLD, d, s, 1, 1, 0) == 0);   /* nothing moves */
    CHECK(shmem_long_alltoalls(SHMEM_TEAM_WORLD, d, s, 0, 1, 1) != 0); /* refused */

    int xr = 2;
    shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, NULL, 0, &x, NULL, 0, &y) == 0);
    int rows = (npes + xr - 1) / xr, row = me / xr, col = me % xr;
    int xn = row == rows - 1 && npes % xr ? npes % xr : (npes < xr ? npes : xr);
    CHECK(shmem_team_n_pes(x) == xn && shmem_team_my_pe(x) == col);
    int yn = rows - (col >= (npes % xr ? npes % xr : xr) ? 1 : 0);
    CHECK(shmem_team_n_pes(y) == yn && shmem_team_my_pe(y) == row);
    CHECK(shmem_team_translate_pe(x, 0, SHMEM_TEAM_WORLD) == row * xr);
    CHECK(shmem_team_translate_pe(y, 0, SHMEM_TEAM_WORLD) == col);
    int *o = shmem_malloc(sizeof(int)), *t = shmem_malloc(sizeof(int));
    *o = me;
    CHECK(shmem_int_sum_reduce(y, t, o, 1) == 0);   /* a column's PEs */
    int want = 0;
    for (int r = 0; r < yn; r++)
        want += r * xr + col;
    CHECK(*t == want);
    shmem_team_destroy(x);
    shmem_team_destroy(y);
    shmem_team_t bx, by;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &bx, NULL, 0, &by) != 0);
    CHECK(bx == SHMEM_TEAM_INVALID && by == SHMEM_TEAM_INVALID);
    shmem_barrier_all();
    shmem_free(t), shmem_free(o), shmem_free(d), shmem_free(s);
}

/* The AMO names before 1.4, at the next PE. */
static void old_amos(void)
{
    int *iw = shmalloc(sizeof(int));
    long *lw = shmalloc(sizeof(long));
    long long *qw = shmalloc(sizeof(long long));
    double *dw = shmalloc(sizeof(double));
    *iw = 0, *lw = 0, *qw = 0, *dw = 0;
    shmem_barrier_all();
    int next = (me + 1) % npes;
    CHECK(shmem_int_fadd(iw, 5, next) >= 0);
    shmem_int_add(iw, 2, next);
    shmem_int_inc(iw, next);
    CHECK(shmem_int_finc(iw, next) >= 5);   /* the add and inc may still be on their way */
    shmem_long_set(lw, 40, next);
    shmem_quiet();
    CHECK(shmem_long_fetch(lw, next) == 40);
    CHECK(shmem_long_cswap(lw, 40, 41, next) == 40);
    CHECK(shmem_long_swap(lw, 42, next) == 41);
    CHECK(shmem_swap(lw, 43, next) == 42);
    CHECK(shmem_longlong_fadd(qw, 3, next) == 0);
    CHECK(shmem_double_swap(dw, 2.5, next) == 0.0);
    shmem_barrier_all();
    CHECK(*iw == 9 && *lw == 43 && *qw == 3 && *dw == 2.5);
    shmem_barrier_all();
    shfree(dw), shfree(qw), shfree(lw), shfree(iw);
}

/* shmem_wait: each PE releases the next; and the cache routines. */
static void old_waits(void)
{
    flag = 0;
    sflag = 0;
    shmem_barrier_all();
    shmem_long_p(&flag, me + 1, (me + 1) % npes);
    shmem_short_p(&sflag, (short)(me + 1), (me + 1) % npes);
    shmem_long_wait(&flag, 0);
    shmem_short_wait(&sflag, 0);
    CHECK(flag == (me - 1 + npes) % npes + 1);
    CHECK(sflag == (short)((me - 1 + npes) % npes + 1));
    shmem_wait(&flag, 0);   /* already changed: returns at once */
    shmem_clear_cache_inv();
    shmem_set_cache_inv();
    shmem_clear_cache_line_inv(&flag);
    shmem_set_cache_line_inv(&flag);
    shmem_udcflush();
    shmem_udcflush_line(&flag);
    shmem_barrier_all();
}

int main(void)
{
    start_pes(0);
    me = _my_pe();
    npes = _num_pes();
    CHECK(me == shmem_my_pe() && npes == shmem_n_pes());
    long *grow = shmalloc(16);
    grow = shrealloc(grow, 64);
    long *al = shmemalign(256, 64);
    CHECK(grow != NULL && al != NULL && (uintptr_t)al % 256 == 0);
    shfree(al);
    shfree(grow);
    whole_job();
    every_other();
    misuse();
    teams();
    old_amos();
    old_waits();
    int rc = shmem_test_report("test_shmem_deprecated");
    shmem_finalize();
    return rc;
}
