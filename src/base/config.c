#include "config.h"

#include <ctype.h>
#include <strings.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

ordo_config_t ordo_config;

static const char *const order_names[] = {"strict", "default", "relaxed", NULL};
static const char *const single_copy_names[] = {"auto", "off", NULL};
static const char *const engine_bind_names[] = {"any", "rank", NULL};
static const char *const protocol_names[] = {"auto", "short", "eager", "rget", "rput", NULL};
static const char *const rndv_names[] = {"get", "put", NULL};
static const char *const barrier_names[] = {"auto", "dissemination", "tree", "shm", NULL};
static const char *const bcast_names[] = {"auto", "binomial", "put", NULL};
static const char *const reduce_names[] = {"auto", "recdbl", "ring", NULL};
static const char *const alltoall_names[] = {"auto", "pairwise", "put", NULL};
static const char *const yield_names[] = {"auto", "always", "never", NULL};
static const char *const thread_level_names[] = {"single", "funneled", "serialized", "multiple",
                                                  NULL};
static const char *const log_names[] = {"error", "warn", "info", "debug", NULL};
static const char *const ofi_progress_names[] = {"thread", "manual", NULL};
static const char *const ofi_put_batch_names[] = {"auto", "on", "off", NULL};
static const char *const ofi_msg_bundle_names[] = {"auto", "on", "off", NULL};
static const char *const ofi_lane_spread_names[] = {"auto", "on", "off", NULL};

#define FIELD(f) offsetof(ordo_config_t, f)

static const ordo_setting_t settings[] = {
    {"ORDO_ORDER", ORDO_SETTING_ENUM, "default",
     "Ordering mode of the default stream and of streams created without one: "
     "strict (issue order, gets see earlier puts), default (puts/atomics in order, "
     "gets may pass), relaxed (only fence orders)", order_names, FIELD(order), 0, 0},
    {"ORDO_PIO_MAX", ORDO_SETTING_SIZE, "auto",
     "Largest transfer the initiating CPU copies itself (PIO); larger ones go to "
     "the offload engines; auto: every size where no engine runs, else what this CPU "
     "copies (measured at ordo_init) in the 1 us handing one over costs it, 4K .. 1M, "
     "and up to a core's L2 cache for a transfer the program waits for alone (or a "
     "one-sided one held in order); set, one limit for all",
     NULL, FIELD(pio_max), 0, ORDO_AUTO_UNSET},
    {"ORDO_STREAM_MIN", ORDO_SETTING_SIZE, "auto",
     "Puts of at least this many bytes into another process's memory on this machine "
     "are copied with streaming (non-temporal) stores, which leave this core's caches "
     "alone; auto: twice the size of a core's L2 cache (at least 256K), or a quarter of "
     "the L3 cache the core shares where that is more",
     NULL, FIELD(stream_min), 0, ORDO_AUTO_UNSET},
    {"ORDO_ENGINES", ORDO_SETTING_INT, "auto",
     "Offload engines (copy threads) per process, i.e. engine transfers in flight "
     "at once; 0 makes the initiator copy everything itself; auto: up to 2, only on CPUs "
     "that no rank or thread of the job on this machine uses (the cgroup's CPUs less "
     "ranks x threads, shared among the ranks; with ORDO_ENGINE_BIND=rank, the rank's own "
     "CPUs less its threads); ordo-info says what auto chose and why",
     NULL, FIELD(engines), 0, ORDO_AUTO_UNSET},
    {"ORDO_ENGINE_CHUNK", ORDO_SETTING_SIZE, "256K",
     "Unit of engine work: a large transfer is split into chunks that engines "
     "(and a waiting initiator) copy in parallel", NULL, FIELD(engine_chunk), 0, 0},
    {"ORDO_ENGINE_BIND", ORDO_SETTING_ENUM, "any",
     "Where engine threads run: any (every core of the machine, like an offload "
     "device beside the CPU) or rank (the cores the rank is bound to)",
     engine_bind_names, FIELD(engine_bind), 0, 0},
    {"ORDO_TL", ORDO_SETTING_STRING, "self,shm,ofi",
     "Transports to use, comma-separated, in preference order (self: own rank; "
     "shm: ranks on this node; ofi: ranks anywhere, through libfabric, opened only when "
     "some rank is on another node)", NULL, FIELD(tl), sizeof(ordo_config.tl), 0},
    {"ORDO_ATTACH_CACHE_MAX", ORDO_SETTING_INT, "1024",
     "Peer region mappings kept attached at once; least recently used ones are "
     "unmapped beyond it", NULL, FIELD(attach_cache_max), 0, 0},
    {"ORDO_DYNAMIC_ATTACH_MAX", ORDO_SETTING_INT, "1024",
     "Memory areas a rank may have attached to one dynamic region at once (each "
     "takes an entry of the table peers read, about 160 bytes per transport)",
     NULL, FIELD(dynamic_attach_max), 0, 0},
    {"ORDO_SINGLE_COPY", ORDO_SETTING_ENUM, "auto",
     "Reach regions created over user memory by process_vm_readv/writev (auto: "
     "where the kernel allows it per peer; off: always move the pages into shared "
     "memory instead)", single_copy_names, FIELD(single_copy), 0, 0},
    {"ORDO_LOG_LEVEL", ORDO_SETTING_ENUM, "warn",
     "Messages printed to stderr: error, warn, info, debug", log_names,
     FIELD(log_level), 0, 0},
    {"ORDO_BOOT_TIMEOUT", ORDO_SETTING_INT, "300",
     "Seconds a rank waits for the launcher or its peers before giving up with an "
     "error", NULL, FIELD(boot_timeout), 0, 0},
    {"ORDO_SHORT_MAX", ORDO_SETTING_SIZE, "auto",
     "Two-sided: largest payload sent by the short protocol, copied once by each side "
     "(inline in the receiver's queue; on shared memory, where the CPU owns the lines it "
     "wrote, above 256 bytes through a reused buffer or above 1K through a spill ring; "
     "where it does not, the sender asks for the queue lines of its next message ahead of "
     "time; docs/shm-messages.md); auto: 8K below 16 ranks, 1K below 64, 512 below 256, "
     "else 256",
     NULL,
     FIELD(short_max), 0, ORDO_AUTO_ZERO},
    {"ORDO_EAGER_MAX", ORDO_SETTING_SIZE, "auto",
     "Two-sided: largest payload copied through a bounce buffer (eager protocol); larger "
     "messages use rendezvous; auto: 32K below 16 ranks, 16K below 64, 8K below 256, else 4K, "
     "and on shared memory a message sent while none of its sender's to that peer is in "
     "flight (or while receives from that peer are posted) goes by rendezvous above where a "
     "single copy measured cheaper than two "
     "(ordo-info shows it), and a rendezvous moves its data in bounce-buffer fragments "
     "(both sides copying at once) up to where the single copy measured faster; set, it is "
     "the eager / rendezvous crossover everywhere; a send within the eager limit in force "
     "completes once copied out, and one of up to this size that goes by rendezvous is "
     "pulled by a receiver inside an ordo call before its receive is posted",
     NULL, FIELD(eager_max), 0, ORDO_AUTO_ZERO},
    {"ORDO_EAGER_BUFFERS", ORDO_SETTING_INT, "auto",
     "Two-sided: bounce buffers per sender-receiver pair (on shared memory a pair goes "
     "round them in laps that write twice a core's L2 cache of messages, at most what "
     "this count of ORDO_EAGER_MAX buffers holds, and takes more only while more are in "
     "flight: only those are ever touched); auto: 64 below 16 ranks, 16 below 64, 4 below "
     "256, else 2, and on shared memory as many more as a lap of the smallest messages "
     "put in them takes, up to 8 times that", NULL, FIELD(eager_buffers), 0, ORDO_AUTO_ZERO},
    {"ORDO_P2P_CREDITS", ORDO_SETTING_INT, "auto",
     "Two-sided flow control: messages of one context a sender may have unmatched at one "
     "receiver before its sends on that context are held back; bounds the receiver's "
     "unexpected-message memory per context; auto: 256 below 16 ranks, 128 below 64, 64 "
     "below 256, else 32", NULL, FIELD(p2p_credits), 0, ORDO_AUTO_ZERO},
    {"ORDO_P2P_PROTOCOL", ORDO_SETTING_ENUM, "auto",
     "Two-sided protocol for every message: auto (by size), or force short, eager, rget or "
     "rput; a message too large for a forced short goes eager (then rendezvous), one too "
     "large for a forced eager is pipelined through bounce buffers",
     protocol_names, FIELD(p2p_protocol), 0, 0},
    {"ORDO_RNDV", ORDO_SETTING_ENUM, "get",
     "Two-sided rendezvous used above the eager limit: get (the receiver pulls) or put "
     "(the receiver answers with its buffer and the sender pushes)", rndv_names,
     FIELD(rndv), 0, 0},
    {"ORDO_RNDV_SPLIT", ORDO_SETTING_SIZE, "auto",
     "Two-sided: a rendezvous-get of at least this many bytes is copied by both sides at "
     "once (the receiver gets the front half, the sender puts the back half), so a sender "
     "that waits anyway copies too; auto: on shared memory 128K, and 32K for a message "
     "that meets no rendezvous of the receiver's own to its sender (in an exchange both "
     "CPUs copy anyway) where every rank has a CPU of its own (else the sender may not be "
     "running to copy its half); 512K over the network (where both halves cross the same "
     "wire); 0: off; a message a rank sends itself is never split",
     NULL, FIELD(rndv_split), 0, ORDO_AUTO_UNSET},
    {"ORDO_COLL_BARRIER", ORDO_SETTING_ENUM, "auto",
     "Barrier algorithm: dissemination (two-sided messages, log2 N rounds), tree (k-ary "
     "fan-in / fan-out over remote atomics, radix ORDO_COLL_RADIX) or shm (one shared "
     "counter; all members on one node); auto: shm where every member maps the others "
     "and they are fewer than 8, else tree", barrier_names, FIELD(coll_barrier), 0, 0},
    {"ORDO_COLL_BCAST", ORDO_SETTING_ENUM, "auto",
     "Broadcast algorithm: binomial (tree of two-sided messages) or put (the root puts "
     "into every member's scratch, chunk by chunk); auto: put below ORDO_COLL_LARGE on "
     "contexts with a scratch slot, else binomial", bcast_names, FIELD(coll_bcast), 0, 0},
    {"ORDO_COLL_REDUCE", ORDO_SETTING_ENUM, "auto",
     "Reduce / allreduce algorithm: recdbl (recursive doubling; a binomial tree for "
     "reduce) or ring (reduce-scatter then allgather / gather around a ring); auto: ring "
     "from ORDO_COLL_LARGE bytes when there are more than 2 members", reduce_names,
     FIELD(coll_reduce), 0, 0},
    {"ORDO_COLL_ALLTOALL", ORDO_SETTING_ENUM, "auto",
     "Alltoall algorithm: pairwise (two-sided exchange, N-1 steps) or put (every block "
     "put into its receiver's scratch, one completion for all); auto: put while N blocks "
     "fit in ORDO_COLL_SCRATCH, else pairwise", alltoall_names, FIELD(coll_alltoall), 0, 0},
    {"ORDO_COLL_RADIX", ORDO_SETTING_INT, "4",
     "Radix of the fan-in / fan-out tree barrier (2 .. 64)", NULL, FIELD(coll_radix), 0, 0},
    {"ORDO_COLL_LARGE", ORDO_SETTING_SIZE, "64K",
     "Collectives switch to the algorithms for large data (ring reduce, binomial "
     "broadcast) from this many bytes", NULL, FIELD(coll_large), 0, 0},
    {"ORDO_COLL_SLOTS", ORDO_SETTING_INT, "16",
     "Contexts that may use one-sided collectives at once: each holds one slot of the "
     "scratch region (0 .. 64; a context created when none is free uses two-sided "
     "algorithms only)", NULL, FIELD(coll_slots), 0, 0},
    {"ORDO_COLL_SCRATCH", ORDO_SETTING_SIZE, "64K",
     "Bytes of each scratch slot that one-sided broadcast and alltoall stage data in "
     "(larger data moves in rounds)", NULL, FIELD(coll_scratch), 0, 0},
    {"ORDO_THREAD_LEVEL", ORDO_SETTING_ENUM, "multiple",
     "Which threads may call ordo, unless ordo_init asks a level itself: single or funneled "
     "(only the thread that called ordo_init; others are refused with ORDO_ERR_THREAD), "
     "serialized (any thread, one at a time: the program's promise), multiple (any thread, "
     "any time; one lock per call)", thread_level_names, FIELD(thread_level), 0, 0},
    {"ORDO_YIELD", ORDO_SETTING_ENUM, "auto",
     "Whether a wait that finds nothing to do gives its core away (sched_yield) every few "
     "dozen passes: always, never, or auto (when the job has more ranks than the machine "
     "has cores, where spinning would starve the rank being waited for)", yield_names,
     FIELD(yield), 0, 0},
    {"ORDO_EPOCH_TIMEOUT", ORDO_SETTING_INT, "120",
     "Seconds an RMA synchronisation (start, wait, lock) waits for its peers before it "
     "fails with ORDO_ERR_TIMED_OUT naming the ranks it waited for (mismatched groups); 0: "
     "no limit",
     NULL, FIELD(epoch_timeout), 0, 0},
    {"ORDO_TL_REORDER", ORDO_SETTING_INT, "0",
     "Test mode: transports hand arrived messages up in shuffled batches of this many "
     "(0: off; at most 1024)", NULL, FIELD(tl_reorder), 0, 0},
    {"ORDO_OFI_PROVIDER", ORDO_SETTING_STRING, "auto",
     "libfabric provider of the ofi transport, as fi_info names it (tcp;ofi_rxm, verbs;ofi_rxm, "
     "cxi, efa, sockets, udp;ofi_rxd, shm ...); auto: the NIC's own provider where there is "
     "one, else tcp (libfabric 2.x's reliable-datagram tcp), else tcp;ofi_rxm", NULL,
     FIELD(ofi_provider), sizeof(ordo_config.ofi_provider), 0},
    {"ORDO_OFI_DOMAIN", ORDO_SETTING_STRING, "",
     "libfabric domain (for tcp: the network interface, e.g. eth0) of the ofi transport; "
     "empty: the provider's first", NULL, FIELD(ofi_domain), sizeof(ordo_config.ofi_domain), 0},
    {"ORDO_OFI_LANES", ORDO_SETTING_INT, "1",
     "Endpoints (lanes) per process of the ofi transport, 1 to 8; operations spread over "
     "them and may complete out of order, as on an adaptively routed network", NULL,
     FIELD(ofi_lanes), 0, 0},
    {"ORDO_OFI_PROGRESS", ORDO_SETTING_ENUM, "thread",
     "Who drives the ofi transport when the program does not call ordo: thread (a helper "
     "thread steps in after 200 us, so peers' puts into a rank that computes or spins on a "
     "flag complete) or manual (only the program's ordo calls; a target must call ordo "
     "for puts into it to complete, as with MPI)", ofi_progress_names,
     FIELD(ofi_progress), 0, 0},
    {"ORDO_OFI_PUT_BATCH", ORDO_SETTING_ENUM, "auto",
     "Gather short puts of the ofi transport into one message per peer and lane, which the "
     "target's progress copies into place (auto: where the provider's RMA is software at the "
     "target anyway, i.e. not verbs, cxi, efa, opx, psm2, psm3; on; off: every put is an "
     "fi_write)", ofi_put_batch_names, FIELD(ofi_put_batch), 0, 0},
    {"ORDO_OFI_PUT_BATCH_MAX", ORDO_SETTING_SIZE, "1K",
     "Largest put the ofi transport gathers into a batch (at most 64K, and a quarter of a "
     "message buffer; 0: none)", NULL, FIELD(ofi_put_batch_max), 0, 0},
    {"ORDO_OFI_INFLIGHT_MAX", ORDO_SETTING_SIZE, "auto",
     "RMA bytes the ofi transport keeps posted to one peer on one lane at once (two "
     "operations go whatever their size); more wait in order and go as earlier ones "
     "complete (auto: 128K where the provider carries RMA over a kernel socket, i.e. not "
     "verbs, cxi, efa, opx, psm2, psm3, where megabytes queued on one socket ran at a third "
     "of the rate; no limit elsewhere; 0: no limit)", NULL, FIELD(ofi_inflight_max), 0,
     ORDO_AUTO_UNSET},
    {"ORDO_OFI_LANE_SPREAD", ORDO_SETTING_ENUM, "auto",
     "Whether the ofi transport spreads a peer's large unordered transfers (64K and more, "
     "relaxed streams) over its ORDO_OFI_LANES endpoints (auto: as measured while the job "
     "runs, the way that moved more bytes per unit of busy time, the other one tried now and "
     "then; on: always to the lane with the fewest bytes in flight; off: on the peer's "
     "current lane)", ofi_lane_spread_names, FIELD(ofi_lane_spread), 0, 0},
    {"ORDO_OFI_MSG_BUNDLE", ORDO_SETTING_ENUM, "auto",
     "Gather the ofi transport's short messages (small sends and protocol messages) into one "
     "message per peer and lane, sent when full or when the transport is next driven; the "
     "first of a burst goes at once unless the burst before had several (auto: "
     "with the progress helper running and a provider that posts a message by a system call, "
     "i.e. not verbs, cxi, efa, opx, psm2, psm3; on: also with ORDO_OFI_PROGRESS=manual, where "
     "a bundle waits for the program's next ordo call; off)", ofi_msg_bundle_names,
     FIELD(ofi_msg_bundle), 0, 0},
    {"ORDO_OFI_MR_LOCAL", ORDO_SETTING_INT, "0",
     "1: register local buffers with the ofi transport's provider even where it needs no "
     "local registration (tcp), so the registration paths run; 2: also pin what is registered "
     "(mlock), counted against the locked-memory limit (ulimit -l) as a NIC's registrations "
     "are, where the provider pins nothing itself", NULL, FIELD(ofi_mr_local), 0, 0},
    {"ORDO_BOUNCE_MAX", ORDO_SETTING_SIZE, "4K",
     "Network transports that need local buffers registered: a put or get of at most this "
     "many bytes from memory outside the regions is copied through a pre-registered bounce "
     "buffer instead of registering the buffer (0: always register; at most 1M)", NULL,
     FIELD(bounce_max), 0, 0},
    {"ORDO_RCACHE_MAX", ORDO_SETTING_INT, "1024",
     "Network transports that need local buffers registered: registrations kept for reuse "
     "(least recently used dropped beyond it; a registration of memory that is unmapped or "
     "released is dropped at once); 0: register for each operation", NULL,
     FIELD(rcache_max), 0, 0},
    {"ORDO_RCACHE_MAX_BYTES", ORDO_SETTING_SIZE, "1G",
     "Memory the registration cache may keep registered (pinned, on most NICs)", NULL,
     FIELD(rcache_max_bytes), 0, 0},
    {"ORDO_TL_REORDER_SEED", ORDO_SETTING_INT, "1",
     "Seed of the reordering test mode (runs with one seed are reproducible)", NULL,
     FIELD(tl_reorder_seed), 0, 0},
};

static ordo_setting_source_t sources[ORDO_ARRAY_SIZE(settings)];

size_t ordo_config_count(void) { return ORDO_ARRAY_SIZE(settings); }
const ordo_setting_t *ordo_config_setting(size_t i) { return &settings[i]; }
ordo_setting_source_t ordo_config_source(size_t i) { return sources[i]; }

ordo_status_t ordo_parse_size(const char *text, size_t *bytes_p)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || errno || text[0] == '-')
        return ORDO_ERR_INVALID_PARAM;
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case '\0': break;
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    default: return ORDO_ERR_INVALID_PARAM;
    }
    if (*end == 'i' || *end == 'B')   /* accept KiB / KB spellings */
        end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
    if (*end != '\0' || (shift && v > (UINT64_MAX >> shift)))
        return ORDO_ERR_INVALID_PARAM;
    *bytes_p = (size_t)(v << shift);
    return ORDO_OK;
}

static ordo_status_t parse_one(const ordo_setting_t *s, const char *text, ordo_config_t *cfg)
{
    void *field = (char *)cfg + s->offset;
    if (s->auto_ok && strcasecmp(text, "auto") == 0) {
        int unset = s->auto_ok == ORDO_AUTO_UNSET;
        if (s->type == ORDO_SETTING_SIZE)
            *(size_t *)field = unset ? SIZE_MAX : 0;
        else
            *(int *)field = unset ? -1 : 0;
        return ORDO_OK;
    }
    switch (s->type) {
    case ORDO_SETTING_INT: {
        char *end;
        errno = 0;
        long v = strtol(text, &end, 10);
        if (end == text || *end || errno || v < 0 || v > 1000000)
            return ORDO_ERR_INVALID_PARAM;
        *(int *)field = (int)v;
        return ORDO_OK;
    }
    case ORDO_SETTING_SIZE:
        return ordo_parse_size(text, (size_t *)field);
    case ORDO_SETTING_ENUM:
        for (int i = 0; s->choices[i]; i++) {
            if (strcasecmp(text, s->choices[i]) == 0) {
                *(int *)field = i;
                return ORDO_OK;
            }
        }
        return ORDO_ERR_INVALID_PARAM;
    case ORDO_SETTING_STRING:
        if (strlen(text) >= s->maxlen)
            return ORDO_ERR_INVALID_PARAM;
        strcpy((char *)field, text);
        return ORDO_OK;
    }
    return ORDO_ERR_INVALID_PARAM;
}

static void describe_accepted(const ordo_setting_t *s, char *buf, size_t len)
{
    switch (s->type) {
    case ORDO_SETTING_INT:
        snprintf(buf, len, "a whole number >= 0%s", s->auto_ok ? " or auto" : "");
        return;
    case ORDO_SETTING_SIZE:
        snprintf(buf, len, "a size such as 4096, 4K, 1M%s", s->auto_ok ? ", or auto" : "");
        return;
    case ORDO_SETTING_STRING: snprintf(buf, len, "text shorter than %zu bytes", s->maxlen); return;
    case ORDO_SETTING_ENUM: {
        size_t off = 0;
        for (int i = 0; s->choices[i] && off < len; i++)
            off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "one of ",
                                    s->choices[i]);
        return;
    }
    }
}

/* Variables of the ORDO_ namespace that are not settings: what ordorun
 * hands each rank, and ordorun's own (ORDO_TIMEOUT, which the ranks
 * inherit). */
static const char *const launcher_variables[] = {
    "ORDO_RANK", "ORDO_SIZE", "ORDO_BOOT_FD", "ORDO_NODES", "ORDO_BINDING", "ORDO_TIMEOUT",
};

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 64;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The first process of a job: ranks other than 0 stay quiet, so a job
 * warns once rather than once per rank. */
static int first_of_job(void)
{
    static const char *const rank_vars[] = {"ORDO_RANK", "PMIX_RANK", "PMI_RANK",
                                            "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"};
    for (size_t i = 0; i < ORDO_ARRAY_SIZE(rank_vars); i++) {
        const char *v = getenv(rank_vars[i]);
        if (v && *v)
            return strcmp(v, "0") == 0;
    }
    return 1;
}

/* A misspelt setting (ORDO_PIO_MAXX) would otherwise be ignored without a
 * word: name every ORDO_ variable that is not a setting, with the closest
 * setting's name. */
static void warn_unknown(void)
{
    extern char **environ;
    if (!first_of_job())
        return;
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "ORDO_", 5) != 0)
            continue;
        char name[64];
        size_t n = strcspn(*e, "=");
        if (n >= sizeof(name))
            n = sizeof(name) - 1;
        memcpy(name, *e, n);
        name[n] = '\0';
        int known = 0;
        for (size_t i = 0; i < ORDO_ARRAY_SIZE(settings) && !known; i++)
            known = strcmp(settings[i].name, name) == 0;
        for (size_t i = 0; i < ORDO_ARRAY_SIZE(launcher_variables) && !known; i++)
            known = strcmp(launcher_variables[i], name) == 0;
        if (known)
            continue;
        const char *closest = NULL;
        size_t best = 4;   /* a typo, not another name */
        for (size_t i = 0; i < ORDO_ARRAY_SIZE(settings); i++) {
            size_t d = edit_distance(name, settings[i].name);
            if (d < best) {
                best = d;
                closest = settings[i].name;
            }
        }
        if (closest)
            ordo_warn("%s is not an ordo setting and is ignored; did you mean %s? "
                      "(ordo-info lists the settings)", name, closest);
        else
            ordo_warn("%s is not an ordo setting and is ignored (ordo-info lists the "
                      "settings)", name);
    }
}

ordo_status_t ordo_config_load(void)
{
    ordo_config_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    ordo_setting_source_t src[ORDO_ARRAY_SIZE(settings)];
    for (size_t i = 0; i < ORDO_ARRAY_SIZE(settings); i++) {
        const ordo_setting_t *s = &settings[i];
        ordo_status_t st = parse_one(s, s->def, &cfg);
        if (st != ORDO_OK)
            return st;   /* a bad default is a bug caught by the unit test */
        src[i] = ORDO_SOURCE_DEFAULT;
        const char *env = getenv(s->name);
        if (env == NULL || *env == '\0')
            continue;
        if (parse_one(s, env, &cfg) != ORDO_OK) {
            char accepted[256];
            describe_accepted(s, accepted, sizeof(accepted));
            ordo_error("%s=\"%s\" is not valid: expected %s", s->name, env, accepted);
            return ORDO_ERR_INVALID_PARAM;
        }
        src[i] = ORDO_SOURCE_ENV;
    }
    if (cfg.engine_chunk < 4096) {
        ordo_error("ORDO_ENGINE_CHUNK=%zu is too small: at least 4K", cfg.engine_chunk);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (cfg.attach_cache_max < 1) {
        ordo_error("ORDO_ATTACH_CACHE_MAX must be at least 1");
        return ORDO_ERR_INVALID_PARAM;
    }
    if (cfg.dynamic_attach_max < 1 || cfg.dynamic_attach_max > (1 << 20)) {
        ordo_error("ORDO_DYNAMIC_ATTACH_MAX=%d: between 1 and 1048576", cfg.dynamic_attach_max);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (cfg.tl_reorder > 1024) {
        ordo_error("ORDO_TL_REORDER=%d is too large: at most 1024", cfg.tl_reorder);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (cfg.eager_max > (1u << 30) || cfg.short_max > (1u << 20)) {
        ordo_error("ORDO_EAGER_MAX is at most 1G and ORDO_SHORT_MAX at most 1M");
        return ORDO_ERR_INVALID_PARAM;
    }
    if (cfg.ofi_lanes < 1 || cfg.ofi_lanes > 8) {
        ordo_error("ORDO_OFI_LANES=%d: between 1 and 8", cfg.ofi_lanes);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (cfg.bounce_max > (1u << 20)) {
        ordo_error("ORDO_BOUNCE_MAX=%zu is too large: at most 1M", cfg.bounce_max);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (cfg.ofi_put_batch_max > (64u << 10)) {
        ordo_error("ORDO_OFI_PUT_BATCH_MAX=%zu is too large: at most 64K",
                   cfg.ofi_put_batch_max);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (cfg.ofi_mr_local < 0 || cfg.ofi_mr_local > 2) {
        ordo_error("ORDO_OFI_MR_LOCAL=%d: 0, 1 or 2", cfg.ofi_mr_local);
        return ORDO_ERR_INVALID_PARAM;
    }
    if ((cfg.eager_buffers > 65535)) {
        ordo_error("ORDO_EAGER_BUFFERS=%d is too large: at most 65535", cfg.eager_buffers);
        return ORDO_ERR_INVALID_PARAM;
    }
    ordo_config = cfg;
    memcpy(sources, src, sizeof(src));
    ordo_log_threshold = cfg.log_level;
    warn_unknown();
    return ORDO_OK;
}

void ordo_config_value_string(size_t i, char *buf, size_t len)
{
    const ordo_setting_t *s = &settings[i];
    const void *field = (const char *)&ordo_config + s->offset;
    size_t auto_size = s->auto_ok == ORDO_AUTO_UNSET ? SIZE_MAX : 0;
    int auto_int = s->auto_ok == ORDO_AUTO_UNSET ? -1 : 0;
    if (s->auto_ok && ((s->type == ORDO_SETTING_SIZE && *(const size_t *)field == auto_size) ||
                       (s->type == ORDO_SETTING_INT && *(const int *)field == auto_int))) {
        snprintf(buf, len, "auto");
        return;
    }
    switch (s->type) {
    case ORDO_SETTING_INT:    snprintf(buf, len, "%d", *(const int *)field); break;
    case ORDO_SETTING_SIZE:   snprintf(buf, len, "%zu", *(const size_t *)field); break;
    case ORDO_SETTING_ENUM:   snprintf(buf, len, "%s", s->choices[*(const int *)field]); break;
    case ORDO_SETTING_STRING: snprintf(buf, len, "%s", (const char *)field); break;
    }
}
