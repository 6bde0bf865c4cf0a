/* Settings: every ORDO_* variable is declared once in the table of
 * config.c (name, type, default, help).  That table drives parsing from the
 * environment, ordo-info and docs/settings.md. */
#ifndef ORDO_BASE_CONFIG_H
#define ORDO_BASE_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <ordo/status.h>

typedef enum ordo_setting_type {
    ORDO_SETTING_INT,
    ORDO_SETTING_SIZE,    /* bytes, accepts K/M/G suffixes (binary) */
    ORDO_SETTING_ENUM,    /* one of a list of names, stored as its index */
    ORDO_SETTING_STRING
} ordo_setting_type_t;

typedef enum ordo_setting_source {
    ORDO_SOURCE_DEFAULT,
    ORDO_SOURCE_ENV
} ordo_setting_source_t;

enum { ORDO_SINGLE_COPY_AUTO = 0, ORDO_SINGLE_COPY_OFF = 1 };
enum { ORDO_ENGINE_BIND_ANY = 0, ORDO_ENGINE_BIND_RANK = 1 };
enum { ORDO_PROTO_AUTO = 0, ORDO_PROTO_SHORT, ORDO_PROTO_EAGER, ORDO_PROTO_RGET,
       ORDO_PROTO_RPUT };
enum { ORDO_RNDV_GET = 0, ORDO_RNDV_PUT = 1 };
enum { ORDO_YIELD_AUTO = 0, ORDO_YIELD_ALWAYS, ORDO_YIELD_NEVER };
enum { ORDO_OFI_PROGRESS_THREAD = 0, ORDO_OFI_PROGRESS_MANUAL = 1 };
enum { ORDO_OFI_PUT_BATCH_AUTO = 0, ORDO_OFI_PUT_BATCH_ON, ORDO_OFI_PUT_BATCH_OFF };
enum { ORDO_OFI_MSG_BUNDLE_AUTO = 0, ORDO_OFI_MSG_BUNDLE_ON, ORDO_OFI_MSG_BUNDLE_OFF };
/* Collective algorithms; AUTO (0) chooses by size and group size. */
enum { ORDO_BARRIER_AUTO = 0, ORDO_BARRIER_DISSEMINATION, ORDO_BARRIER_TREE, ORDO_BARRIER_SHM };
enum { ORDO_BCAST_AUTO = 0, ORDO_BCAST_BINOMIAL, ORDO_BCAST_PUT };
/* not ORDO_REDUCE_*: those name the public reduction operators */
enum { ORDO_REDUCE_ALG_AUTO = 0, ORDO_REDUCE_ALG_RECDBL, ORDO_REDUCE_ALG_RING };
enum { ORDO_ALLTOALL_AUTO = 0, ORDO_ALLTOALL_PAIRWISE, ORDO_ALLTOALL_PUT };

typedef struct ordo_config {
    int    order;              /* ordo_order_t of the default stream and new streams */
    size_t pio_max;            /* largest transfer done by the CPU (PIO); SIZE_MAX: auto */
    size_t stream_min;         /* puts from here up use streaming stores; SIZE_MAX: auto */
    int    engines;            /* offload engines (copy threads) in flight; -1: auto */
    size_t engine_chunk;       /* engine work unit: large transfers are split */
    int    engine_bind;        /* ORDO_ENGINE_BIND_* */
    char   tl[128];            /* transports to use, in preference order */
    int    attach_cache_max;   /* peer mappings kept mapped at once */
    int    dynamic_attach_max; /* a rank's attachments to one dynamic region at once */
    int    single_copy;        /* ORDO_SINGLE_COPY_* */
    int    log_level;          /* ordo_log_level_t */
    int    boot_timeout;       /* seconds to wait for the launcher */
    size_t short_max;          /* two-sided: inline payload limit; 0 = by job size */
    size_t eager_max;          /* two-sided: bounce-buffer payload limit; 0 = by job size */
    int    eager_buffers;      /* bounce buffers per pair; 0 = by job size */
    int    p2p_credits;        /* unmatched messages per sender at a receiver; 0 = by job size */
    int    p2p_protocol;       /* ORDO_PROTO_* forced for every message, or AUTO */
    int    rndv;               /* ORDO_RNDV_*: rendezvous used above the eager limit */
    size_t rndv_split;         /* rendezvous-get at least this large is copied by both sides;
                                * SIZE_MAX: auto (ordo_rndv_split_for) */
    int    coll_slots;         /* contexts at a time with one-sided collective scratch */
    size_t coll_scratch;       /* bytes of staging per scratch slot */
    int    coll_barrier;       /* ORDO_BARRIER_* */
    int    coll_bcast;         /* ORDO_BCAST_* */
    int    coll_reduce;        /* ORDO_REDUCE_*: reduce and allreduce */
    int    coll_alltoall;      /* ORDO_ALLTOALL_* */
    int    coll_radix;         /* fan-in / fan-out tree radix */
    size_t coll_large;         /* from this many bytes: ring / pipelined algorithms */
    int    yield;              /* ORDO_YIELD_*: idle waits give the core away */
    int    thread_level;       /* ordo_thread_level_t unless ordo_init asks one */
    int    epoch_timeout;      /* seconds an RMA synchronisation waits for its peers */
    int    tl_reorder;         /* test mode: shuffle deliveries in windows of this many */
    int    tl_reorder_seed;
    char   ofi_provider[64];   /* libfabric provider, or auto */
    char   ofi_domain[64];     /* libfabric domain (interface), or empty: the provider's first */
    int    ofi_lanes;          /* endpoints per process */
    int    ofi_mr_local;       /* register local buffers even where the provider needs none */
    int    ofi_progress;       /* ORDO_OFI_PROGRESS_* */
    int    ofi_put_batch;      /* ORDO_OFI_PUT_BATCH_* */
    int    ofi_lane_spread;    /* ORDO_OFI_LANE_SPREAD: 0 auto (learned), 1 on, 2 off */
    size_t ofi_put_batch_max;  /* puts of at most this many bytes are gathered */
    size_t ofi_inflight_max;   /* RMA bytes posted to one peer on one lane at once;
                                * SIZE_MAX: auto (ofi_inflight_wanted), 0: no limit */
    int    ofi_msg_bundle;     /* ORDO_OFI_MSG_BUNDLE_* */
    size_t bounce_max;         /* smaller transfers from unregistered memory are copied */
    int    rcache_max;         /* registrations of local buffers kept; 0: none */
    size_t rcache_max_bytes;   /* ... covering at most this much memory */
} ordo_config_t;

extern ordo_config_t ordo_config;

enum { ORDO_AUTO_NO = 0, ORDO_AUTO_ZERO = 1, ORDO_AUTO_UNSET = 2 };

typedef struct ordo_setting {
    const char          *name;     /* environment variable */
    ordo_setting_type_t  type;
    const char          *def;      /* default, as text */
    const char          *help;
    const char *const   *choices;  /* ENUM: NULL-terminated names */
    size_t               offset;   /* field in ordo_config_t */
    size_t               maxlen;   /* STRING: buffer size */
    int                  auto_ok;  /* INT/SIZE: "auto" is accepted: ORDO_AUTO_ZERO stores it
                                    * as 0, ORDO_AUTO_UNSET (where 0 is a value of its own)
                                    * as -1 / SIZE_MAX, resolved at ordo_init */
} ordo_setting_t;

/* Reset to defaults, then read the environment.  A malformed value is an
 * error naming the variable and what it accepts; nothing is half-applied. */
ordo_status_t ordo_config_load(void);

size_t ordo_config_count(void);
const ordo_setting_t *ordo_config_setting(size_t i);
ordo_setting_source_t ordo_config_source(size_t i);
/* The current value of setting i as text. */
void ordo_config_value_string(size_t i, char *buf, size_t len);

/* Parse "64", "4K", "1M", "2G" into bytes. */
ordo_status_t ordo_parse_size(const char *text, size_t *bytes_p);

/* ORDO_RNDV_SPLIT=auto: on shared memory both CPUs copy a half from 128
 * KiB (16-core Xeon, a window of 256 KiB messages 23-25 GB/s against 14-15
 * by the receiver alone), and from 32 KiB where the receiver has no
 * rendezvous of its own to the sender unfinished (the same Xeon, 2 ranks,
 * from 32 KiB against 128 KiB: one-way 48 KiB 4.0-4.4 us against 4.9-5.0,
 * 64 KiB 4.7-4.8 against 5.7-6.2, 96 KiB 5.0-6.0 against 7.3-7.9; a window
 * of 64 KiB messages 17-19 GB/s against 12.6-13; below 32 KiB it gained
 * nothing, and 16 KiB lost: 2.5-3.2 us against 1.8-2.2).  In an exchange
 * both CPUs copy anyway, and the smaller split cost 7-8% (48 KiB both ways
 * in a window, 4 and 8 ranks).  Where ranks share CPUs the sender may not
 * be running to copy its half (the caller passes that as sender_busy): 4
 * ranks on a 2-core VM, 2 pairs one way in windows of 64, 48 KiB 0.22-0.27
 * M messages/s split from 32 KiB against 0.33-0.37 from 128 KiB, 96 KiB
 * 0.15-0.19 against 0.18-0.23.  Over the network both halves cross the
 * same wire, and a split from 128 KiB halved 256 KiB messages' bandwidth
 * over tcp, so there from 512 KiB as before. */
#define ORDO_RNDV_SPLIT_SHM       ((size_t)128 << 10)
#define ORDO_RNDV_SPLIT_SHM_ALONE ((size_t)32 << 10)
#define ORDO_RNDV_SPLIT_NET       ((size_t)512 << 10)
/* The smallest rendezvous-get copied by both sides: over the network or
 * not; sender_busy where the sender's CPU may not be free to copy its half
 * (the message meets a rendezvous of the receiver's own to its sender, or
 * ranks share CPUs); 0: never. */
static inline size_t ordo_rndv_split_from(int network, int sender_busy)
{
    if (ordo_config.rndv_split != SIZE_MAX)
        return ordo_config.rndv_split;
    if (network)
        return ORDO_RNDV_SPLIT_NET;
    return sender_busy ? ORDO_RNDV_SPLIT_SHM : ORDO_RNDV_SPLIT_SHM_ALONE;
}
static inline size_t ordo_rndv_split_for(int network)
{
    return ordo_rndv_split_from(network, 1);
}

#endif
