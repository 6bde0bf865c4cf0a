/* MPI conformance: one-sided.  Every window kind (create, allocate,
 * allocate_shared, dynamic), every synchronisation mode (fence, post /
 * start / complete / wait, lock / unlock, lock_all, flushes), put, get,
 * accumulate, get_accumulate, fetch_and_op, compare_and_swap and the
 * request forms; derived types; errors as their class. */
#include <stdint.h>

#include "mpi_harness.h"

static int right, left;

static void fence_allocate(void)
{
    int *base = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                        &win));
    for (int i = 0; i < 4; i++)
        base[i] = -1;
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    int mine[2] = {me, 10 * me};
    OK(MPI_Put(mine, 2, MPI_INT, right, 1, 2, MPI_INT, win));   /* slots 1, 2 */
    OK(MPI_Win_fence(0, win));
    CHECK(base[0] == -1 && base[1] == left && base[2] == 10 * left && base[3] == -1);
    int got[2] = {0};
    OK(MPI_Get(got, 2, MPI_INT, left, 1, 2, MPI_INT, win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    int ll = (left - 1 + np) % np;
    CHECK(got[0] == ll && got[1] == 10 * ll);
    /* attributes */
    void *attr = NULL;
    int flag = 0;
    OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &attr, &flag));
    CHECK(flag && attr == base);
    MPI_Aint *size = NULL;
    OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &flag));
    CHECK(flag && *size == 4 * (MPI_Aint)sizeof(int));
    int *unit = NULL, *flavor = NULL, *model = NULL;
    OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag));
    CHECK(flag && *unit == (int)sizeof(int));
    OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE);
    OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    CHECK(flag && *model == MPI_WIN_UNIFIED);
    /* errors: outside an epoch, a bad rank, past the window */
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK(class_of(MPI_Put(mine, 1, MPI_INT, right, 0, 1, MPI_INT, win)) == MPI_ERR_RMA_SYNC);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    CHECK(class_of(MPI_Put(mine, 1, MPI_INT, np, 0, 1, MPI_INT, win)) == MPI_ERR_RANK);
    CHECK(class_of(MPI_Put(mine, 2, MPI_INT, right, 3, 2, MPI_INT, win)) == MPI_ERR_RMA_RANGE);
    OK(MPI_Put(mine, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    OK(MPI_Win_unlock(right, win));
    CHECK(class_of(MPI_Win_unlock(right, win)) == MPI_ERR_RMA_SYNC);
    OK(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL);
}

static void passive_create(void)
{
    /* everyone writes its rank into rank 0's memory, slot me */
    int *mem = calloc((size_t)np, sizeof(int));
    MPI_Win win;
    OK(MPI_Win_create(mem, np * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL,
                      MPI_COMM_WORLD, &win));
    int v = 100 + me;
    OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    OK(MPI_Put(&v, 1, MPI_INT, 0, me, 1, MPI_INT, win));
    OK(MPI_Win_flush(0, win));
    int back = -1;
    OK(MPI_Get(&back, 1, MPI_INT, 0, me, 1, MPI_INT, win));
    OK(MPI_Win_unlock(0, win));
    CHECK(back == 100 + me);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (me == 0) {
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        for (int i = 0; i < np; i++)
            CHECK(mem[i] == 100 + i);
        OK(MPI_Win_unlock(0, win));
    }
    OK(MPI_Win_free(&win));
    free(mem);
}

/* Small puts and gets in lock epochs to memory mapped here are the CPU's
 * copies (the short way), larger ones and accumulates ordo's operations: a
 * flush completes either, and outside an epoch both fail alike. */
static void passive_direct(void)
{
    enum { N = 20480 };   /* ints: 80 KiB, past the short way's 64 KiB at most */
    int *mine = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate(N * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL,
                        MPI_COMM_WORLD, &mine, &win));
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    for (int i = 0; i < N; i++)
        mine[i] = -1;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    int *src = malloc(N * sizeof(int)), *back = malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)
        src[i] = me * 100000 + i;
    OK(MPI_Win_lock_all(0, win));
    OK(MPI_Put(src, 1, MPI_INT, right, 0, 1, MPI_INT, win));             /* 4 B */
    OK(MPI_Put(src + 1, 1023, MPI_INT, right, 1, 1023, MPI_INT, win));   /* 4 KiB - 4 */
    OK(MPI_Put(src + 1024, N - 1024, MPI_INT, right, 1024, N - 1024, MPI_INT, win));
    OK(MPI_Win_flush(right, win));
    OK(MPI_Get(back, 1024, MPI_INT, right, 0, 1024, MPI_INT, win));
    OK(MPI_Get(back + 1024, N - 1024, MPI_INT, right, 1024, N - 1024, MPI_INT, win));
    OK(MPI_Win_flush_local_all(win));
    int same = 1;
    for (int i = 0; i < N; i++)
        same &= back[i] == src[i];
    CHECK(same);
    /* an accumulate goes through ordo; the flush after it asks ordo */
    int one = 1, got = 0;
    OK(MPI_Accumulate(&one, 1, MPI_INT, right, 5, 1, MPI_INT, MPI_SUM, win));
    OK(MPI_Win_flush(right, win));
    OK(MPI_Get(&got, 1, MPI_INT, right, 5, 1, MPI_INT, win));
    OK(MPI_Win_flush_all(win));
    CHECK(got == src[5] + 1);
    CHECK(class_of(MPI_Put(src, 1, MPI_INT, right, N, 1, MPI_INT, win)) == MPI_ERR_RMA_RANGE);
    CHECK(class_of(MPI_Get(back, 2, MPI_INT, right, N - 1, 2, MPI_INT, win)) ==
          MPI_ERR_RMA_RANGE);
    CHECK(class_of(MPI_Put(src, 1, MPI_INT, np, 0, 1, MPI_INT, win)) == MPI_ERR_RANK);
    CHECK(class_of(MPI_Win_flush(np, win)) == MPI_ERR_RANK);
    /* atomics of integer elements, the CPU's on shared memory (displacements
     * in ints: 20 is the int64 of ints 20 and 21) */
    OK(MPI_Win_flush_all(win));   /* nothing of the window pending in ordo now */
    int64_t add = 3, old64 = -1, cmp64, new64, expect0;
    memcpy(&expect0, &src[20], sizeof(expect0));
    OK(MPI_Fetch_and_op(&add, &old64, MPI_INT64_T, right, 20, MPI_SUM, win));
    OK(MPI_Win_flush(right, win));
    CHECK(old64 == expect0);
    cmp64 = expect0 + 3;
    new64 = 77;
    OK(MPI_Compare_and_swap(&new64, &cmp64, &old64, MPI_INT64_T, right, 20, win));
    CHECK(old64 == expect0 + 3);
    cmp64 = 1;   /* no match: nothing swapped */
    OK(MPI_Compare_and_swap(&add, &cmp64, &old64, MPI_INT64_T, right, 20, win));
    CHECK(old64 == 77);
    int32_t x2[2] = {0x0f, 0xf0}, o2[2] = {0, 0};
    OK(MPI_Get_accumulate(x2, 2, MPI_INT32_T, o2, 2, MPI_INT32_T, right, 10, 2, MPI_INT32_T,
                          MPI_BXOR, win));
    CHECK(o2[0] == src[10] && o2[1] == src[11]);
    OK(MPI_Get_accumulate(NULL, 0, MPI_INT32_T, o2, 2, MPI_INT32_T, right, 10, 2, MPI_INT32_T,
                          MPI_NO_OP, win));
    CHECK(o2[0] == (src[10] ^ 0x0f) && o2[1] == (src[11] ^ 0xf0));
    OK(MPI_Accumulate(x2, 2, MPI_INT32_T, right, 10, 2, MPI_INT32_T, MPI_BXOR, win));
    OK(MPI_Fetch_and_op(NULL, &o2[0], MPI_INT32_T, right, 10, MPI_NO_OP, win));
    CHECK(o2[0] == src[10]);
    /* two ints as one element: no integer's atomic, the general way */
    int pair[2] = {1, 2}, pold[2] = {0, 0};
    OK(MPI_Get_accumulate(pair, 1, MPI_2INT, pold, 1, MPI_2INT, right, 12, 1, MPI_2INT,
                          MPI_REPLACE, win));
    CHECK(pold[0] == src[12] && pold[1] == src[13]);
    OK(MPI_Win_flush_all(win));
    /* everyone counts at rank 0 at once: ints 30 and 31 there came from
     * rank np - 1 */
    OK(MPI_Barrier(MPI_COMM_WORLD));
    int64_t one64 = 1, count0;
    for (int i = 0; i < 1000; i++)
        OK(MPI_Accumulate(&one64, 1, MPI_INT64_T, 0, 30, 1, MPI_INT64_T, MPI_SUM, win));
    OK(MPI_Win_flush_all(win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Fetch_and_op(NULL, &count0, MPI_INT64_T, 0, 30, MPI_NO_OP, win));
    int32_t was[2] = {(np - 1) * 100000 + 30, (np - 1) * 100000 + 31};
    int64_t start0;
    memcpy(&start0, was, sizeof(start0));
    CHECK(count0 == start0 + 1000 * (int64_t)np);
    OK(MPI_Win_unlock_all(win));
    /* the epoch is over: no short way */
    CHECK(class_of(MPI_Put(src, 1, MPI_INT, right, 0, 1, MPI_INT, win)) == MPI_ERR_RMA_SYNC);
    CHECK(class_of(MPI_Get(back, 1, MPI_INT, right, 0, 1, MPI_INT, win)) == MPI_ERR_RMA_SYNC);
    CHECK(class_of(MPI_Win_flush(right, win)) == MPI_ERR_RMA_SYNC);
    CHECK(class_of(MPI_Win_flush_all(win)) == MPI_ERR_RMA_SYNC);
    /* a lock reaches its rank alone */
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    OK(MPI_Put(src, 2, MPI_INT, right, 0, 2, MPI_INT, win));
    if (np > 2)
        CHECK(class_of(MPI_Put(src, 1, MPI_INT, left, 0, 1, MPI_INT, win)) == MPI_ERR_RMA_SYNC);
    OK(MPI_Win_flush(right, win));
    OK(MPI_Win_unlock(right, win));
    CHECK(class_of(MPI_Put(src, 1, MPI_INT, right, 0, 1, MPI_INT, win)) == MPI_ERR_RMA_SYNC);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    same = 1;
    for (int i = 0; i < N; i++)
        same &= (i >= 10 && i <= 13) || (i >= 20 && i <= 21) || (i >= 30 && i <= 31) ||
                mine[i] == left * 100000 + i + (i == 5);
    OK(MPI_Win_unlock(me, win));
    CHECK(same);
    OK(MPI_Win_free(&win));
    free(src);
    free(back);
}

/* Accumulates of every element size at once from every rank, the CPU's
 * atomics (or compare-and-swap of the word) on shared memory: none lost. */
static void direct_accumulates(void)
{
    enum { ROUNDS = 100 };
    char *mine = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win));
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    memset(mine, 0, 64);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    unsigned char ones[7] = {1, 1, 1, 1, 1, 1, 1};
    double half = 0.5;
    float two = 2.0f;
    OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < ROUNDS; i++) {
        short peak[3] = {(short)(me * 1000 + i), (short)(me * 1000 + i + 1), (short)i};
        /* bytes 1..7: across a word boundary, at an odd start */
        OK(MPI_Accumulate(ones, 7, MPI_UNSIGNED_CHAR, 0, 1, 7, MPI_UNSIGNED_CHAR, MPI_SUM,
                          win));
        OK(MPI_Accumulate(peak, 3, MPI_SHORT, 0, 10, 3, MPI_SHORT, MPI_MAX, win));
        OK(MPI_Accumulate(&half, 1, MPI_DOUBLE, 0, 24, 1, MPI_DOUBLE, MPI_SUM, win));
        if (i < 4)   /* 2^(4 np) fits a float exactly */
            OK(MPI_Accumulate(&two, 1, MPI_FLOAT, 0, 36, 1, MPI_FLOAT, MPI_PROD, win));
    }
    OK(MPI_Win_flush_all(win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    unsigned char got[7];
    short peaks[3];
    double sum = 0;
    float prod = 0;
    OK(MPI_Get_accumulate(NULL, 0, MPI_UNSIGNED_CHAR, got, 7, MPI_UNSIGNED_CHAR, 0, 1, 7,
                          MPI_UNSIGNED_CHAR, MPI_NO_OP, win));
    OK(MPI_Get_accumulate(NULL, 0, MPI_SHORT, peaks, 3, MPI_SHORT, 0, 10, 3, MPI_SHORT,
                          MPI_NO_OP, win));
    OK(MPI_Fetch_and_op(NULL, &sum, MPI_DOUBLE, 0, 24, MPI_NO_OP, win));
    OK(MPI_Fetch_and_op(NULL, &prod, MPI_FLOAT, 0, 36, MPI_NO_OP, win));
    OK(MPI_Win_flush_all(win));
    int same = 1;
    for (int k = 0; k < 7; k++)
        same &= got[k] == (unsigned char)(ROUNDS * np);
    CHECK(same);
    CHECK(peaks[0] == (np - 1) * 1000 + ROUNDS - 1 && peaks[1] == (np - 1) * 1000 + ROUNDS &&
          peaks[2] == ROUNDS - 1);
    CHECK(sum == 0.5 * ROUNDS * np);
    CHECK(prod == 0.0f);   /* the window's zero times anything */
    /* misaligned and past the window: the general way says so */
    short s1 = 1;
    CHECK(class_of(MPI_Accumulate(&s1, 1, MPI_SHORT, 0, 63, 1, MPI_SHORT, MPI_SUM, win)) !=
          MPI_SUCCESS);
    double d1 = 1;
    CHECK(class_of(MPI_Accumulate(&d1, 1, MPI_DOUBLE, 0, 60, 1, MPI_DOUBLE, MPI_SUM, win)) ==
          MPI_ERR_RMA_RANGE);
    OK(MPI_Win_unlock_all(win));
    OK(MPI_Win_free(&win));
    /* a created window of 6 bytes from a word boundary: its last bytes' word
     * is not all in it */
    _Alignas(8) char six[6] = {0};
    OK(MPI_Win_create(six, 6, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    OK(MPI_Win_lock_all(0, win));
    unsigned char one = 1;
    OK(MPI_Accumulate(&one, 1, MPI_UNSIGNED_CHAR, right, 1, 1, MPI_UNSIGNED_CHAR, MPI_SUM, win));
    CHECK(class_of(MPI_Accumulate(&one, 1, MPI_UNSIGNED_CHAR, right, 5, 1, MPI_UNSIGNED_CHAR,
                                  MPI_SUM, win)) == MPI_ERR_RMA_RANGE);
    OK(MPI_Win_unlock_all(win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(six[1] == 1);
    OK(MPI_Win_free(&win));
}

static void accumulates(void)
{
    struct cell {
        int64_t sum;
        double dmax;
        int ticket;
        int cas;
        short small;
        float fsum;
    } *c = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate(sizeof(*c), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &c, &win));
    memset(c, 0, sizeof(*c));
    c->cas = -1;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock_all(0, win));
    int64_t add = me + 1;
    double d = 0.5 + me;
    short s = (short)(me + 1);
    float f = 1.0f;
    for (int round = 0; round < 3; round++) {
        OK(MPI_Accumulate(&add, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, MPI_SUM, win));
        OK(MPI_Accumulate(&d, 1, MPI_DOUBLE, 0, 8, 1, MPI_DOUBLE, MPI_MAX, win));
        OK(MPI_Accumulate(&s, 1, MPI_SHORT, 0, 24, 1, MPI_SHORT, MPI_SUM, win));
        OK(MPI_Accumulate(&f, 1, MPI_FLOAT, 0, 28, 1, MPI_FLOAT, MPI_SUM, win));
    }
    int one = 1, ticket = -1;
    OK(MPI_Fetch_and_op(&one, &ticket, MPI_INT, 0, 16, MPI_SUM, win));
    int mine = me, expect = -1, was = 0;
    OK(MPI_Compare_and_swap(&mine, &expect, &was, MPI_INT, 0, 20, win));
    OK(MPI_Win_flush_all(win));
    OK(MPI_Win_unlock_all(win));
    CHECK(ticket >= 0 && ticket < np);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    /* everyone reads the result back with an atomic read */
    int64_t total = 0, none = 0;
    OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    OK(MPI_Get_accumulate(&none, 1, MPI_INT64_T, &total, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T,
                          MPI_NO_OP, win));
    OK(MPI_Win_unlock(0, win));
    CHECK(total == 3 * (int64_t)np * (np + 1) / 2);
    int winners = (was == -1), all_winners = 0;
    OK(MPI_Allreduce(&winners, &all_winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(all_winners == 1);   /* exactly one swap took */
    if (me == 0) {
        CHECK(c->sum == total);
        CHECK(c->dmax == 0.5 + (np - 1));
        CHECK(c->ticket == np);
        CHECK(c->cas >= 0 && c->cas < np);
        CHECK(c->small == (short)(3 * np * (np + 1) / 2));
        CHECK(c->fsum == 3.0f * (float)np);
    }
    /* get_accumulate returns the old value and adds */
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    int64_t before = -1;
    OK(MPI_Get_accumulate(&add, 1, MPI_INT64_T, &before, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T,
                          MPI_SUM, win));
    OK(MPI_Win_unlock(0, win));
    CHECK(before >= total);
    /* a user operation is refused: MPI allows only predefined ones */
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    OK(MPI_Win_free(&win));
}

static void pscw(void)
{
    /* pairs: the even rank puts into the odd one, which exposes (the
     * window itself is made by every rank) */
    int peer = me ^ 1, paired = peer < np;
    int *base = NULL;
    MPI_Win win;
    MPI_Comm pairs;
    OK(MPI_Comm_split(MPI_COMM_WORLD, 0, me, &pairs));   /* a dup (mpi_win_comm: parts) */
    OK(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, pairs, &base, &win));
    *base = -1;
    MPI_Group world, g;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    OK(MPI_Group_incl(world, paired ? 1 : 0, &peer, &g));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    if (!paired) {
        /* nothing to expose or access */
    } else if (me % 2 == 0) {
        OK(MPI_Win_start(g, 0, win));
        int v = 77 + me;
        OK(MPI_Put(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, win));
        OK(MPI_Win_complete(win));
    } else {
        OK(MPI_Win_post(g, 0, win));
        OK(MPI_Win_wait(win));
        CHECK(*base == 77 + peer);
    }
    if (g != MPI_GROUP_EMPTY)
        OK(MPI_Group_free(&g));
    OK(MPI_Group_free(&world));
    OK(MPI_Win_free(&win));
    OK(MPI_Comm_free(&pairs));
}

static void shared(void)
{
    MPI_Comm node;
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int nsize = 0, nrank = 0;
    OK(MPI_Comm_size(node, &nsize));
    OK(MPI_Comm_rank(node, &nrank));
    double *mine = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate_shared(2 * sizeof(double), sizeof(double), MPI_INFO_NULL, node, &mine,
                               &win));
    MPI_Aint size = 0;
    int unit = 0;
    double *theirs = NULL;
    OK(MPI_Win_shared_query(win, (nrank + 1) % nsize, &size, &unit, &theirs));
    CHECK(size == 2 * (MPI_Aint)sizeof(double) && unit == (int)sizeof(double));
    OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    theirs[1] = 1.5 * nrank;   /* a store into the neighbour's memory */
    OK(MPI_Win_sync(win));
    OK(MPI_Barrier(node));
    OK(MPI_Win_sync(win));
    CHECK(mine[1] == 1.5 * ((nrank - 1 + nsize) % nsize));
    OK(MPI_Win_unlock_all(win));
    OK(MPI_Win_free(&win));
    OK(MPI_Comm_free(&node));
}

static void dynamic(void)
{
    MPI_Win win;
    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    long *area = calloc(8, sizeof(long));
    OK(MPI_Win_attach(win, area, 8 * sizeof(long)));
    MPI_Aint addr = 0, theirs = 0;
    OK(MPI_Get_address(&area[2], &addr));
    OK(MPI_Sendrecv(&addr, 1, MPI_AINT, left, 5, &theirs, 1, MPI_AINT, right, 5,
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    OK(MPI_Win_fence(0, win));
    long v = 1000 + me;
    OK(MPI_Put(&v, 1, MPI_LONG, right, theirs, 1, MPI_LONG, win));
    OK(MPI_Win_fence(0, win));
    CHECK(area[2] == 1000 + left && area[1] == 0 && area[3] == 0);
    OK(MPI_Win_detach(win, area));
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK(class_of(MPI_Win_detach(win, area)) == MPI_ERR_RMA_ATTACH);
    OK(MPI_Win_free(&win));
    free(area);
}

static void requests_and_types(void)
{
    double *base = NULL;
    MPI_Win win;
    MPI_Info info;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "accumulate_ordering", "none"));
    /* the units then need no exchange: the targets below must still be
     * at disp * sizeof(double) */
    OK(MPI_Info_set(info, "same_disp_unit", "true"));
    OK(MPI_Win_allocate(16 * sizeof(double), sizeof(double), info, MPI_COMM_WORLD, &base,
                        &win));
    OK(MPI_Info_free(&info));
    MPI_Info used;
    OK(MPI_Win_get_info(win, &used));
    char val[MPI_MAX_INFO_VAL];
    int flag = 0, len = MPI_MAX_INFO_VAL;
    OK(MPI_Info_get_string(used, "accumulate_ordering", &len, val, &flag));
    CHECK(flag && strcmp(val, "none") == 0);
    OK(MPI_Info_free(&used));
    for (int i = 0; i < 16; i++)
        base[i] = 0;
    OK(MPI_Barrier(MPI_COMM_WORLD));
    /* a column of a 4x4 target matrix, from a contiguous origin */
    MPI_Datatype column;
    OK(MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &column));
    OK(MPI_Type_commit(&column));
    double col[4] = {1 + me, 2 + me, 3 + me, 4 + me};
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    MPI_Request req;
    OK(MPI_Rput(col, 4, MPI_DOUBLE, right, 1, 1, column, win, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Win_flush(right, win));
    double back[4] = {0};
    OK(MPI_Rget(back, 4, MPI_DOUBLE, right, 1, 1, column, win, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Win_unlock(right, win));
    CHECK(back[0] == 1 + me && back[3] == 4 + me);
    /* accumulate through the same column: every element atomically */
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    OK(MPI_Accumulate(col, 4, MPI_DOUBLE, right, 1, 1, column, MPI_SUM, win));
    OK(MPI_Win_unlock(right, win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    for (int i = 0; i < 4; i++)
        CHECK(base[1 + 4 * i] == 2.0 * (i + 1 + left) && base[4 * i] == 0);
    OK(MPI_Win_unlock(me, win));
    OK(MPI_Type_free(&column));
    OK(MPI_Win_free(&win));
}

/* Edges: a narrow element filling a window of its own size (the word that
 * holds it lies past the program's bytes), and accumulates of nothing. */
static void edges(void)
{
    short *mine = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate(sizeof(short), sizeof(short), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                        &win));
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    /* the sizes the program asked, though the memory is whole words */
    MPI_Aint qsize = 0, *wsize = NULL;
    int qunit = 0, flag = 0;
    void *qbase = NULL;
    OK(MPI_Win_shared_query(win, me, &qsize, &qunit, &qbase));
    CHECK(qsize == (MPI_Aint)sizeof(short) && qunit == (int)sizeof(short) && qbase == mine);
    OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag));
    CHECK(flag && *wsize == (MPI_Aint)sizeof(short));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    short v = (short)(100 + me), got = 0;
    OK(MPI_Accumulate(&v, 1, MPI_SHORT, me, 0, 1, MPI_SHORT, MPI_REPLACE, win));
    OK(MPI_Win_unlock(me, win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    short one = 1;
    OK(MPI_Get_accumulate(&one, 1, MPI_SHORT, &got, 1, MPI_SHORT, right, 0, 1, MPI_SHORT,
                          MPI_SUM, win));
    OK(MPI_Win_unlock(right, win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(got == 100 + right && *mine == 101 + me);
    /* nothing to combine: any predefined operation, even one the type
     * could not take */
    OK(MPI_Win_fence(0, win));
    char none = 0;
    OK(MPI_Get_accumulate(&none, 0, MPI_BYTE, &none, 0, MPI_BYTE, right, 0, 0, MPI_BYTE,
                          MPI_SUM, win));
    OK(MPI_Accumulate(&none, 0, MPI_BYTE, right, 0, 0, MPI_BYTE, MPI_PROD, win));
    CHECK(class_of(MPI_Accumulate(&none, 0, MPI_BYTE, right, 0, 0, MPI_BYTE, MPI_OP_NULL,
                                  win)) == MPI_ERR_OP);
    OK(MPI_Win_fence(0, win));
    OK(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    right = (me + 1) % np;
    left = (me - 1 + np) % np;
    fence_allocate();
    passive_create();
    passive_direct();
    direct_accumulates();
    accumulates();
    pscw();
    shared();
    dynamic();
    requests_and_types();
    edges();
    return mpi_test_report("mpi_rma");
}
