/* MPI on ordo: the short ways of one-sided operations (rma.c).
 *
 * Puts, gets and accumulates to a rank whose window memory ordo maps into
 * this process, inside a lock or lock_all epoch that reaches it, below
 * MPI_THREAD_MULTIPLE, are done by the CPU on that mapping, as ordo's own
 * short way does them: copies, and atomics (or a compare-and-swap of the
 * word that holds the element) that stay atomic with ordo's. */
#ifndef ORDO_MPI_RMA_DIRECT_H
#define ORDO_MPI_RMA_DIRECT_H

#include <string.h>

#include "mpi_internal.h"

#pragma GCC visibility push(hidden)

/* An element narrower than the 4- or 8-byte words ordo's atomics take is
 * updated by compare-and-swap of its word, again each time another process
 * changed the word meanwhile: bounded, so that neighbours updated without
 * pause cannot hold a call for ever (it fails with ORDO_ERR_BUSY, which the
 * program sees as MPI_ERR_PENDING, instead). */
#define OM_NARROW_TRIES_MAX 1000000

/* Whether the basic type is an integer (the native atomics' domain). */
static inline int om_integer_type(MPI_Datatype basic, int *is_signed)
{
    switch ((uintptr_t)basic) {
    case 0x209: case 0x20a: case 0x20b: case 0x208: case 0x250: case 0x258: case 0x201:
    case 0x202: case 0x203: case 0x219: case 0x2d1: case 0x2d9: case 0x240: case 0x248:
    case 0x243: case 0x244: case 0x2c1: case 0x2c9:
        *is_signed = 1;
        return 1;
    case 0x20c: case 0x20d: case 0x20e: case 0x20f: case 0x251: case 0x259: case 0x241:
    case 0x245: case 0x249: case 0x247:
        *is_signed = 0;
        return 1;
    }
    return 0;
}

/* An element that is an integer of 4 or 8 bytes, combined by an operation
 * ordo's atomics and the CPU's have (sum, band, bor, bxor, replace, no_op):
 * one atomic, where others take a compare-and-swap of their word. */
static inline int om_acc_native(const struct MPI_ABI_Datatype *bt, MPI_Op op)
{
    int sgn;
    return (bt->size == 4 || bt->size == 8) && om_integer_type(bt->basic, &sgn) &&
           (op == MPI_SUM || op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR ||
            op == MPI_REPLACE || op == MPI_NO_OP);
}

/* The first time a rank is a direct target: where its memory is mapped,
 * if it is (0 size where not, and the way through ordo from then on). */
void om_direct_ask(struct MPI_ABI_Win *w, int rank);

/* Where [off, off + bytes) of the window at rank (a window rank, checked)
 * lies in this process, for the CPU to reach it: inside a lock or lock_all
 * epoch that reaches rank, below MPI_THREAD_MULTIPLE (where another thread
 * could close the epoch meanwhile); NULL where it must go through ordo. */
static inline char *om_direct_at(struct MPI_ABI_Win *w, int rank, size_t off, size_t bytes)
{
    if (!w->locked || !(w->lock_all | w->locked[rank]) ||
        om_g.thread_level == MPI_THREAD_MULTIPLE)
        return NULL;
    struct om_direct *d = &w->direct[rank];
    if (__builtin_expect(!d->asked, 0))
        om_direct_ask(w, rank);
    return off <= d->size && bytes <= d->size - off ? d->base + off : NULL;
}

/* Accumulates at a rank reached directly (om_direct_at), as ordo's short way
 * makes its atomics: each element a sequentially consistent
 * read-modify-write of the CPU on the mapping, so atomic with ordo's own
 * and with other processes' on that memory.  Only while nothing of the
 * window is pending in ordo, which an earlier accumulate to the same
 * element could be: MPI keeps accumulates in order. */

/* An integer of 4 or 8 bytes with an operation the CPU has: one atomic. */
#define OM_ACC_NATIVE(T, where, in, out, op)                                   \
    do {                                                                       \
        _Atomic T *a_ = (_Atomic T *)(void *)(where);                          \
        T v_ = 0, old_;                                                        \
        if (in)                                                                \
            memcpy(&v_, in, sizeof(T));                                        \
        old_ = op == MPI_SUM     ? atomic_fetch_add(a_, v_)                    \
               : op == MPI_BAND  ? atomic_fetch_and(a_, v_)                    \
               : op == MPI_BOR   ? atomic_fetch_or(a_, v_)                     \
               : op == MPI_BXOR  ? atomic_fetch_xor(a_, v_)                    \
               : op == MPI_NO_OP ? atomic_load(a_)                             \
                                 : atomic_exchange(a_, v_);                    \
        if (out)                                                               \
            memcpy(out, &old_, sizeof(T));                                     \
    } while (0)

/* count elements of t (1, 2, 4 or 8 bytes, predefined, one basic element
 * each) at off of rank: in the origin's (NULL for MPI_NO_OP), out the old
 * values (NULL: none wanted).  1: done, its outcome in *st_p; 0 where the
 * elements' words are not all in the window here: the general way. */
int om_acc_direct(struct MPI_ABI_Win *w, struct MPI_ABI_Datatype *t, MPI_Count count, int rank,
                  size_t off, MPI_Op op, const char *in, char *out, ordo_status_t *st_p);

#pragma GCC visibility pop

#endif
