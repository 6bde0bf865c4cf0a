/* MPI on ordo: the short ways' setup (their limit, the mappings) and the
 * accumulates of several elements or without a CPU instruction of their
 * own (rma_direct.h). */
#include <stdlib.h>
#include <string.h>

#include "rma_direct.h"

/* Puts and gets to a rank whose window memory is mapped here, inside a
 * lock or lock_all epoch, are the CPU's copy to or from that mapping
 * (ordo_region_ptr), as ordo's own short way would make them: up to the
 * PIO limit ordo applies to a run of transfers (every size where no
 * offload engine runs), below its streaming-store threshold, so nothing
 * ordo would hand an engine or stream goes this way, and at most this
 * much, where the call's own cost no longer shows.  Such an operation is
 * complete when it returns, and a flush then finds nothing of the
 * window's pending in ordo. */
#define DIRECT_MAX (64 * 1024)
/* Mappings asked for this way stay until their window is freed, outside
 * ordo's attach cache: at most this many in a process. */
#define DIRECT_PINS_MAX 256

/* The limit in this job, from ordo's PIO limit and streaming-store
 * threshold as set or chosen (a number leads the description of each; the
 * PIO limit's reads "every size" where no engine runs). */
static size_t setting_bytes(const char *name)
{
    char text[256];
    if (ordo_setting_describe(name, text, sizeof(text)) != ORDO_OK)
        return 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    return end == text ? SIZE_MAX : (size_t)v;
}

void om_rma_init(void)
{
    size_t max = DIRECT_MAX, pio = setting_bytes("ORDO_PIO_MAX"),
           stream = setting_bytes("ORDO_STREAM_MIN");
    if (pio < max)
        max = pio;
    if (stream <= max)
        max = stream ? stream - 1 : 0;
    om_g.direct_max = max;
}

void om_direct_ask(struct MPI_ABI_Win *w, int rank)
{
    struct om_direct *d = &w->direct[rank];
    d->asked = 1;
    if (om_g.direct_pins >= DIRECT_PINS_MAX)
        return;
    int world = w->group->ranks[rank];
    void *p = NULL;
    size_t size = 0;
    if (ordo_region_size(w->region, world, &size) != ORDO_OK || size == 0 ||
        ordo_region_ptr(w->region, world, &p) != ORDO_OK || p == NULL)
        return;
    d->base = p;
    d->size = size;
    om_g.direct_pins++;
}

/* The k elements of t from byte first of the word of type T at word (in,
 * out packed): read it, combine them here, swap it in if unchanged, again
 * while another process changes it (bounded, as acc_one). */
#define ACC_WORD(T, word, first, k, t, in, out, op, st)                                \
    do {                                                                               \
        _Atomic T *a_ = (_Atomic T *)(void *)(word);                                   \
        T cur_ = atomic_load(a_), next_;                                               \
        for (int tries_ = 0;; tries_++) {                                              \
            next_ = cur_;                                                              \
            char *el_ = (char *)&next_ + (first);                                      \
            if (out)                                                                   \
                memcpy(out, el_, (k) * (t)->size);                                     \
            if (op != MPI_NO_OP)                                                       \
                om_op_apply(op, t, in, el_, (MPI_Count)(k));                           \
            if (next_ == cur_ || atomic_compare_exchange_strong(a_, &cur_, next_))     \
                break;                                                                 \
            if (tries_ > OM_NARROW_TRIES_MAX) {                                        \
                st = ORDO_ERR_BUSY;                                                    \
                break;                                                                 \
            }                                                                          \
        }                                                                              \
    } while (0)

int om_acc_direct(struct MPI_ABI_Win *w, struct MPI_ABI_Datatype *t, MPI_Count count, int rank,
                  size_t off, MPI_Op op, const char *in, char *out, ordo_status_t *st_p)
{
    size_t es = t->size, ws = es == 8 ? 8 : 4, bytes = (size_t)count * es;
    int native = om_acc_native(t, op);
    /* the words read and swapped (aligned in memory) lie in the window, as
     * the general way asks */
    char *at = om_direct_at(w, rank, off, bytes);
    if (!at)
        return 0;
    uintptr_t start = (uintptr_t)(at - off), end = start + w->direct[rank].size,
              lo = (uintptr_t)at & ~(uintptr_t)(ws - 1),
              hi = ((uintptr_t)at + bytes + ws - 1) & ~(uintptr_t)(ws - 1);
    if (lo < start || hi > end)
        return 0;
    ordo_status_t st = ORDO_OK;
    for (size_t e = 0; e < (size_t)count && st == ORDO_OK;) {
        char *where = at + e * es;
        const char *ein = in ? in + e * es : NULL;
        char *eout = out ? out + e * es : NULL;
        if (native) {
            if (es == 4)
                OM_ACC_NATIVE(uint32_t, where, ein, eout, op);
            else
                OM_ACC_NATIVE(uint64_t, where, ein, eout, op);
            e++;
            continue;
        }
        size_t first = (size_t)((uintptr_t)where & (ws - 1)), k = (ws - first) / es;
        if (k > (size_t)count - e)
            k = (size_t)count - e;
        if (ws == 8)
            ACC_WORD(uint64_t, where - first, first, k, t, ein, eout, op, st);
        else
            ACC_WORD(uint32_t, where - first, first, k, t, ein, eout, op, st);
        e += k;
    }
    *st_p = st;
    return 1;
}
