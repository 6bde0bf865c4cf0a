/* The algorithms, each written as a schedule (see coll.h).  Member indices
 * (0 .. n-1, ascending world rank) are used throughout; R() maps to ranks. */
#include <string.h>

#include "coll.h"

#define R(op, k) ((op)->c->members[(k)])

/* ------------------------------------------------------------- barrier */

/* Dissemination: in round k every member signals the one 2^k ahead and
 * hears from the one 2^k behind; log2(n) rounds of messages. */
static void barrier_dissemination(coll_op_t *op)
{
    int n = op->c->nmembers, i = op->c->my_index, round = 0;
    for (int k = 1; k < n; k <<= 1, round++) {
        coll_send(op, R(op, (i + k) % n), NULL, 0, round);
        coll_recv(op, R(op, (i - k + n) % n), NULL, 0, round);
        coll_end_round(op);
    }
}

/* Fan-in / fan-out k-ary tree over remote atomics.  Fan-in: a member waits
 * until its children added to its ARRIVE word, then adds to its parent's.
 * Fan-out takes one of two forms.  Where every member's scratch is mapped,
 * children watch their parent's word: the root counts itself in its ARRIVE
 * word, so its children see the barrier complete there, and every other
 * parent stores the barrier's number once into its RELEASE word for all
 * its children to read — at two members this is a single shared counter.
 * Otherwise each parent adds to each child's RELEASE word, so every wait
 * is on local memory.  The words only grow, so barrier number e waits for
 * e times the count.  coll.c runs the same protocol without a schedule
 * (coll_barrier_direct); the two must stay alike. */
int coll_tree_children(int n, int i, int k)
{
    int first = i * k + 1;
    return first >= n ? 0 : (n - first < k ? n - first : k);
}

static void barrier_tree(coll_op_t *op, coll_slot_t *sl)
{
    int n = op->c->nmembers, i = op->c->my_index, k = ordo_config.coll_radix;
    uint64_t e = ++sl->barriers;
    int nchild = coll_tree_children(n, i, k), parent = (i - 1) / k;
    if (coll_all_mapped(op->c)) {
        if (i == 0) {
            coll_add_word(op, R(op, 0), COLL_W_ARRIVE, 1);
            coll_end_round(op);
            coll_wait_local(op, COLL_W_ARRIVE, e * (uint64_t)(nchild + 1));
            coll_end_round(op);
            return;
        }
        if (nchild) {
            coll_wait_local(op, COLL_W_ARRIVE, e * (uint64_t)nchild);
            coll_end_round(op);
        }
        coll_add_word(op, R(op, parent), COLL_W_ARRIVE, 1);
        coll_end_round(op);
        if (parent == 0)
            coll_wait_remote(op, R(op, 0), COLL_W_ARRIVE,
                             e * (uint64_t)(coll_tree_children(n, 0, k) + 1));
        else
            coll_wait_remote(op, R(op, parent), COLL_W_RELEASE, e);
        coll_end_round(op);
        if (nchild)
            coll_set_word(op, COLL_W_RELEASE, e);
        coll_end_round(op);
        return;
    }
    if (nchild) {
        coll_wait_local(op, COLL_W_ARRIVE, e * (uint64_t)nchild);
        coll_end_round(op);
    }
    if (i) {
        coll_add_word(op, R(op, parent), COLL_W_ARRIVE, 1);
        coll_wait_local(op, COLL_W_RELEASE, e);
        coll_end_round(op);
    }
    for (int c = i * k + 1; c < i * k + 1 + nchild; c++)
        coll_add_word(op, R(op, c), COLL_W_RELEASE, 1);
    coll_end_round(op);
}

/* One counter in the lowest member's slot, mapped by everyone: add, then
 * watch it reach e * n (coll_barrier_direct runs the same). */
static void barrier_shm(coll_op_t *op, coll_slot_t *sl)
{
    uint64_t e = ++sl->barriers;
    coll_add_word(op, R(op, 0), COLL_W_SHM, 1);
    coll_end_round(op);
    coll_wait_remote(op, R(op, 0), COLL_W_SHM, e * (uint64_t)op->c->nmembers);
    coll_end_round(op);
}

int coll_barrier_alg(p2p_comm_t *c, int alg)
{
    /* what the context has decides auto and overrides a forced choice it
     * cannot run */
    if (coll_slot_of(c) == NULL)
        return ORDO_BARRIER_DISSEMINATION;
    if (alg == ORDO_BARRIER_SHM)
        return coll_all_mapped(c) ? ORDO_BARRIER_SHM : ORDO_BARRIER_TREE;
    /* Every member of the shared-counter barrier writes one line, so its
     * cost grows with the members; the tree's with their logarithm.  On a
     * 16-core Xeon, one rank per core: 2 and 4 ranks level (0.23 / 0.6 us),
     * 8 ranks 1.30 us shm against 0.92 tree, 16 ranks 2.51 against 1.30. */
    if (alg == ORDO_BARRIER_AUTO)
        return coll_all_mapped(c) && c->nmembers < COLL_SHM_BARRIER_MEMBERS_MAX
                   ? ORDO_BARRIER_SHM : ORDO_BARRIER_TREE;
    return alg;
}

void coll_build_barrier(coll_op_t *op, int alg)
{
    coll_slot_t *sl = coll_slot_of(op->c);
    if (op->c->nmembers == 1)
        return;
    switch (coll_barrier_alg(op->c, alg)) {
    case ORDO_BARRIER_TREE: barrier_tree(op, sl); break;
    case ORDO_BARRIER_SHM: barrier_shm(op, sl); break;
    default: barrier_dissemination(op); break;
    }
}

/* ----------------------------------------------------------- broadcast */

/* Binomial tree rooted at root: a member hears from the member that
 * differs in its lowest set (relative) bit, then sends down the higher. */
static void bcast_binomial(coll_op_t *op, void *buf, size_t len, int ri)
{
    int n = op->c->nmembers, v = (op->c->my_index - ri + n) % n, mask = 1;
    for (; mask < n; mask <<= 1)
        if (v & mask) {
            coll_recv(op, R(op, (v - mask + ri) % n), buf, len, 0);
            coll_end_round(op);
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < n)
            coll_send(op, R(op, (v + mask + ri) % n), buf, len, 0);
    coll_end_round(op);
}

/* Staging use u of every member's area is written only after the member
 * finished use u-1 (its CONSUMED word); it is read after READY reached the
 * count expected.  Every member counts uses in the same order. */
static void bcast_put(coll_op_t *op, coll_slot_t *sl, void *buf, size_t len, int ri)
{
    int n = op->c->nmembers, i = op->c->my_index;
    size_t chunk = ordo_config.coll_scratch;
    for (size_t at = 0; at < len; at += chunk) {
        size_t part = len - at < chunk ? len - at : chunk;
        uint64_t u = ++sl->uses;
        if (i == ri) {
            for (int j = 0; j < n; j++)
                if (j != ri)
                    coll_wait_remote(op, R(op, j), COLL_W_CONSUMED, u - 1);
            coll_end_round(op);
            for (int j = 0; j < n; j++)
                if (j != ri)
                    coll_put(op, R(op, j), COLL_DATA, (char *)buf + at, part);
            coll_quiet(op);
            coll_end_round(op);
            for (int j = 0; j < n; j++)
                if (j != ri)
                    coll_add_word(op, R(op, j), COLL_W_READY, 1);
            coll_set_word(op, COLL_W_CONSUMED, u);
            coll_end_round(op);
        } else {
            sl->ready += 1;
            coll_wait_local(op, COLL_W_READY, sl->ready);
            coll_end_round(op);
            coll_copy(op, (char *)buf + at, coll_staging(op->c->slot), part);
            coll_set_word(op, COLL_W_CONSUMED, u);
            coll_end_round(op);
        }
    }
}

void coll_build_bcast(coll_op_t *op, void *buf, size_t len, int root, int alg)
{
    int ri = op->c->index_of[root];
    coll_slot_t *sl = coll_slot_of(op->c);
    if (op->c->nmembers == 1 || len == 0)
        return;
    if (alg == ORDO_BCAST_AUTO)
        alg = sl && len < ordo_config.coll_large ? ORDO_BCAST_PUT : ORDO_BCAST_BINOMIAL;
    if (alg == ORDO_BCAST_PUT && sl)
        bcast_put(op, sl, buf, len, ri);
    else
        bcast_binomial(op, buf, len, ri);
}

/* -------------------------------------------------------------- reduce */

/* Recursive doubling on the largest power of two p <= n; the first 2(n-p)
 * members pair up first (the even one hands its data to the odd one and
 * gets the result back at the end). */
static void allreduce_recdbl(coll_op_t *op, void *acc, size_t bytes, int dt, int rop,
                             char *tmp)
{
    int n = op->c->nmembers, i = op->c->my_index, p = 1;
    while (p * 2 <= n)
        p *= 2;
    int rem = n - p, v;
    if (i < 2 * rem) {
        if (i % 2 == 0) {
            coll_send(op, R(op, i + 1), acc, bytes, 0);
            coll_end_round(op);
            coll_recv(op, R(op, i + 1), acc, bytes, 1);
            coll_end_round(op);
            return;
        }
        coll_recv(op, R(op, i - 1), tmp, bytes, 0);
        coll_end_round(op);
        coll_reduce_step(op, acc, tmp, bytes, dt, rop);
        v = i / 2;
    } else {
        v = i - rem;
    }
    int step = 2;
    for (int mask = 1; mask < p; mask <<= 1, step++) {
        int pv = v ^ mask, partner = pv < rem ? 2 * pv + 1 : pv + rem;
        coll_send(op, R(op, partner), acc, bytes, step);
        coll_recv(op, R(op, partner), tmp, bytes, step);
        coll_end_round(op);
        /* IEEE + and * are commutative: both partners get the same bits */
        coll_reduce_step(op, acc, tmp, bytes, dt, rop);
    }
    if (i < 2 * rem)
        coll_send(op, R(op, i - 1), acc, bytes, 1);
    coll_end_round(op);
}

/* Binomial tree towards root. */
static void reduce_binomial(coll_op_t *op, void *acc, size_t bytes, int dt, int rop, int ri,
                            char *tmp)
{
    int n = op->c->nmembers, v = (op->c->my_index - ri + n) % n;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (v & mask) {
            coll_send(op, R(op, (v - mask + ri) % n), acc, bytes, 0);
            coll_end_round(op);
            return;
        }
        if (v + mask < n) {
            coll_recv(op, R(op, (v + mask + ri) % n), tmp, bytes, 0);
            coll_end_round(op);
            coll_reduce_step(op, acc, tmp, bytes, dt, rop);
        }
    }
    coll_end_round(op);
}

/* Segment s of count elements split in n nearly equal parts. */
static void segment(size_t count, int n, int s, size_t es, size_t *off, size_t *len)
{
    size_t base = count / (size_t)n, extra = count % (size_t)n, k = (size_t)s;
    *off = (k * base + (k < extra ? k : extra)) * es;
    *len = (base + (k < extra ? 1 : 0)) * es;
}

/* Reduce-scatter around the ring: after n-1 steps member i holds the full
 * reduction of segment (i+1) mod n.  Then an allgather around the ring
 * (allreduce) or a gather of the segments at the root (reduce). */
static void ring(coll_op_t *op, char *acc, size_t count, int dt, int rop, int ri, char *tmp,
                 int all)
{
    int n = op->c->nmembers, i = op->c->my_index;
    int right = R(op, (i + 1) % n), left = R(op, (i - 1 + n) % n);
    size_t es = coll_dtype_size(dt), so, sl, ro, rl;
    for (int s = 0; s < n - 1; s++) {
        segment(count, n, (i - s + n) % n, es, &so, &sl);
        segment(count, n, (i - s - 1 + 2 * n) % n, es, &ro, &rl);
        coll_send(op, right, acc + so, sl, s);
        coll_recv(op, left, tmp + ro, rl, s);
        coll_end_round(op);
        coll_reduce_step(op, acc + ro, tmp + ro, rl, dt, rop);
    }
    coll_end_round(op);
    if (all) {
        for (int s = 0; s < n - 1; s++) {
            segment(count, n, (i + 1 - s + n) % n, es, &so, &sl);
            segment(count, n, (i - s + n) % n, es, &ro, &rl);
            coll_send(op, right, acc + so, sl, n + s);
            coll_recv(op, left, acc + ro, rl, n + s);
            coll_end_round(op);
        }
        return;
    }
    if (i == ri) {
        for (int j = 0; j < n; j++)
            if (j != i) {
                segment(count, n, (j + 1) % n, es, &ro, &rl);
                coll_recv(op, R(op, j), acc + ro, rl, 63);
            }
    } else {
        segment(count, n, (i + 1) % n, es, &so, &sl);
        coll_send(op, R(op, ri), acc + so, sl, 63);
    }
    coll_end_round(op);
}

void coll_build_reduce(coll_op_t *op, const void *sbuf, void *rbuf, size_t count, int dt,
                       int rop, int root, int alg)
{
    int n = op->c->nmembers, all = root < 0;
    int ri = all ? -1 : op->c->index_of[root];
    size_t bytes = count * coll_dtype_size(dt);
    int mine = all || op->c->my_index == ri;
    /* the accumulator: rbuf where this member gets the result, else a
     * temporary; plus a temporary for what arrives */
    char *tmp = coll_tmp(op, mine ? bytes : 2 * bytes);
    if (tmp == NULL)
        return;
    char *acc = mine ? rbuf : tmp + bytes;
    if (acc != sbuf && bytes)
        memcpy(acc, sbuf, bytes);   /* before anything is sent from it */
    if (n == 1)
        return;
    if (alg == ORDO_REDUCE_ALG_AUTO)
        alg = n > 2 && bytes >= ordo_config.coll_large && count >= (size_t)n
                  ? ORDO_REDUCE_ALG_RING : ORDO_REDUCE_ALG_RECDBL;
    if (alg == ORDO_REDUCE_ALG_RING && count >= (size_t)n)
        ring(op, acc, count, dt, rop, ri, tmp, all);
    else if (all)
        allreduce_recdbl(op, acc, bytes, dt, rop, tmp);
    else
        reduce_binomial(op, acc, bytes, dt, rop, ri, tmp);
}

/* ------------------------------------------------------ gather, alltoall */

/* gather: straight to the root; allgather: around the ring. */
void coll_build_gather(coll_op_t *op, const void *sbuf, size_t len, void *rbuf, int root,
                       int all)
{
    int n = op->c->nmembers, i = op->c->my_index;
    char *out = rbuf;
    if (all || R(op, i) == root) {
        coll_copy(op, out + (size_t)i * len, sbuf, len);
        coll_end_round(op);
    }
    if (n == 1)
        return;
    if (!all) {
        if (R(op, i) == root) {
            for (int j = 0; j < n; j++)
                if (j != i)
                    coll_recv(op, R(op, j), out + (size_t)j * len, len, 0);
        } else {
            coll_send(op, root, sbuf, len, 0);
        }
        coll_end_round(op);
        return;
    }
    int right = R(op, (i + 1) % n), left = R(op, (i - 1 + n) % n);
    for (int s = 0; s < n - 1; s++) {
        coll_send(op, right, out + (size_t)((i - s + n) % n) * len, len, s);
        coll_recv(op, left, out + (size_t)((i - s - 1 + n) % n) * len, len, s);
        coll_end_round(op);
    }
}

/* Pairwise: in step s send to i+s and receive from i-s. */
static void alltoall_pairwise(coll_op_t *op, const char *in, size_t len, char *out)
{
    int n = op->c->nmembers, i = op->c->my_index;
    for (int s = 1; s < n; s++) {
        int to = (i + s) % n, from = (i - s + n) % n;
        coll_send(op, R(op, to), in + (size_t)to * len, len, s);
        coll_recv(op, R(op, from), out + (size_t)from * len, len, s);
        coll_end_round(op);
    }
}

/* Every block put into its receiver's staging area at the sender's index,
 * one quiet and one READY add per receiver: a single completion for the
 * whole exchange.  Blocks larger than the area's share move in rounds. */
static void alltoall_put(coll_op_t *op, coll_slot_t *sl, const char *in, size_t len, char *out)
{
    int n = op->c->nmembers, i = op->c->my_index;
    size_t share = ordo_config.coll_scratch / (size_t)n;
    char *area = coll_staging(op->c->slot);
    for (size_t at = 0; at < len; at += share) {
        size_t part = len - at < share ? len - at : share;
        uint64_t u = ++sl->uses;
        for (int j = 0; j < n; j++)
            if (j != i)
                coll_wait_remote(op, R(op, j), COLL_W_CONSUMED, u - 1);
        coll_end_round(op);
        for (int j = 0; j < n; j++)
            if (j != i)
                coll_put(op, R(op, j), COLL_DATA + (size_t)i * share, in + (size_t)j * len + at,
                         part);
        coll_quiet(op);
        coll_end_round(op);
        for (int j = 0; j < n; j++)
            if (j != i)
                coll_add_word(op, R(op, j), COLL_W_READY, 1);
        sl->ready += (uint64_t)(n - 1);
        coll_wait_local(op, COLL_W_READY, sl->ready);
        coll_end_round(op);
        for (int j = 0; j < n; j++)
            if (j != i)
                coll_copy(op, out + (size_t)j * len + at, area + (size_t)j * share, part);
        coll_set_word(op, COLL_W_CONSUMED, u);
        coll_end_round(op);
    }
}

void coll_build_alltoall(coll_op_t *op, const void *sbuf, size_t len, void *rbuf, int alg)
{
    int n = op->c->nmembers, i = op->c->my_index;
    coll_slot_t *sl = coll_slot_of(op->c);
    coll_copy(op, (char *)rbuf + (size_t)i * len, (const char *)sbuf + (size_t)i * len, len);
    coll_end_round(op);
    if (n == 1 || len == 0)
        return;
    size_t share = ordo_config.coll_scratch / (size_t)n;
    if (alg == ORDO_ALLTOALL_AUTO)
        alg = sl && len <= share ? ORDO_ALLTOALL_PUT : ORDO_ALLTOALL_PAIRWISE;
    if (alg == ORDO_ALLTOALL_PUT && sl && share > 0)
        alltoall_put(op, sl, sbuf, len, rbuf);
    else
        alltoall_pairwise(op, sbuf, len, rbuf);
}
