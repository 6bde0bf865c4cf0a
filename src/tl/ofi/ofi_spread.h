/* Whether spreading large unordered transfers over the lanes pays, learned
 * from what they move.
 *
 * A relaxed stream may do all a default one does, so spreading one peer's
 * large transfers over several endpoints must earn its place: it pays where
 * the endpoints progress side by side (a NIC's queues, TCP streams taken in
 * by several cores), and costs where they share what limits them (on two
 * cores over loopback TCP, 1 MiB puts spread over 4 lanes ran 3-27% below
 * the default mode's on one).  Which one a machine is, is measured: the
 * bytes large unordered transfers move per nanosecond of busy time (while
 * at least one is in flight), in phases of OFI_SPREAD_PHASE_BYTES, each
 * phase spreading or keeping.  The first four phases take turns; after
 * them each phase takes the faster way so far, and every
 * OFI_SPREAD_PROBE_EVERY-th the other one, so a change (other load, other
 * peers) is seen.  Rates are smoothed over phases; busy time leaves out the
 * program's pauses between windows.  Pure arithmetic on the caller's
 * clock, so that it is unit-tested. */
#ifndef ORDO_OFI_SPREAD_H
#define ORDO_OFI_SPREAD_H

#include <stdint.h>

#define OFI_SPREAD_PHASE_BYTES (16u << 20)
#define OFI_SPREAD_PROBE_EVERY 8u

enum { OFI_SPREAD_AUTO = 0, OFI_SPREAD_ON, OFI_SPREAD_OFF };

typedef struct ofi_spread {
    int      setting;       /* OFI_SPREAD_*: on and off are not learned */
    int      spread;        /* this phase's way: 1 spread, 0 keep */
    double   rate[2];       /* bytes per ns, smoothed, keep [0] and spread [1]; 0: unmeasured */
    uint32_t phases;        /* phases measured */
    uint32_t inflight;      /* large unordered transfers in flight */
    uint64_t bytes;         /* moved in this phase */
    uint64_t busy_ns;       /* busy time of this phase, up to busy_since */
    uint64_t busy_since;    /* when the in-flight count last rose from 0 */
} ofi_spread_t;

static inline void ofi_spread_init(ofi_spread_t *s, int setting)
{
    *s = (ofi_spread_t){.setting = setting, .spread = 1};
}

/* Spread the next large unordered transfer? */
static inline int ofi_spread_now(const ofi_spread_t *s)
{
    return s->setting == OFI_SPREAD_AUTO ? s->spread : s->setting == OFI_SPREAD_ON;
}

/* A large unordered transfer was issued at now. */
static inline void ofi_spread_issued(ofi_spread_t *s, uint64_t now)
{
    if (s->inflight++ == 0)
        s->busy_since = now;
}

/* The way after a phase: turns at first, then the faster, probing the
 * slower one every OFI_SPREAD_PROBE_EVERY-th phase. */
static inline int ofi_spread_next(const ofi_spread_t *s)
{
    if (s->phases < 4)
        return (s->phases & 1) == 0;
    int faster = s->rate[1] >= s->rate[0];
    return s->phases % OFI_SPREAD_PROBE_EVERY == 0 ? !faster : faster;
}

/* One of them completed at now, having moved bytes.  Returns 1 when it
 * closed a phase. */
static inline int ofi_spread_done(ofi_spread_t *s, uint64_t bytes, uint64_t now)
{
    if (s->inflight == 0)
        return 0;   /* issued before a reset: not ours */
    s->bytes += bytes;
    if (--s->inflight == 0) {
        s->busy_ns += now - s->busy_since;
        s->busy_since = now;
    }
    if (s->bytes < OFI_SPREAD_PHASE_BYTES)
        return 0;
    uint64_t busy = s->busy_ns + (s->inflight ? now - s->busy_since : 0);
    if (s->inflight)
        s->busy_since = now;
    double r = busy ? (double)s->bytes / (double)busy : 0;
    if (r > 0) {
        double *m = &s->rate[s->spread];
        *m = *m > 0 ? 0.75 * *m + 0.25 * r : r;
    }
    s->phases++;
    s->spread = ofi_spread_next(s);
    s->bytes = 0;
    s->busy_ns = 0;
    return 1;
}

#endif
