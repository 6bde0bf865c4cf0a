/* What the machine gives a job, and what the `auto` settings make of it.
 *
 * Offload engines are copy threads: they pay only on cores no rank or
 * thread of the job uses; on a core that a rank uses they take turns with
 * it and are a slower PIO.  The PIO limit follows from how fast this CPU
 * copies.  The choice is a pure function of what was probed, so ordo-info
 * can say what a job of any size would get, and tests can try machines this
 * one is not. */
#ifndef ORDO_BASE_MACHINE_H
#define ORDO_BASE_MACHINE_H

#include <stddef.h>

typedef struct ordo_machine {
    int    cpus;         /* CPUs the job may use on this machine: the cgroup's
                          * cpuset where there is one, else those online */
    int    cpus_mine;    /* CPUs in this process's affinity mask */
    int    threads;      /* threads this process runs (the program's own, before
                          * ordo starts any) */
    double copy_GBps;    /* memcpy rate of this CPU (64 KiB, in cache); 0 until measured */
    /* the kernel's single copy (process_vm_readv) of this process's memory:
     * its fixed cost and the rate it then copies at; 0 until measured,
     * sc_us < 0 where the kernel refuses it */
    double sc_us, sc_GBps;
    long   l2_bytes;     /* a core's L2 cache; 0 where the system does not say */
    /* Whether a core keeps a line it wrote as the owner after another core
     * read it (the Owned state of AMD's MOESI; Intel's MESIF shares it
     * clean): writing it again then needs no fetch. */
    int    owns_read_lines;
    /* Whether a core can push lines it wrote to the cache the cores share
     * (CLDEMOTE), for a reader on another core to find there. */
    int    demotes_lines;
} ordo_machine_t;

typedef struct ordo_auto_choice {
    int    engines;          /* copy threads per process */
    /* The initiating CPU copies a transfer up to pio_max itself; one the
     * program waits for alone, or a one-sided one its order keeps behind
     * the others, up to pio_lone_max (>= pio_max; rma.c placement) */
    size_t pio_max, pio_lone_max;
    /* Two-sided, shared memory (ordo_auto_eager): a message sent alone goes
     * by rendezvous above eager_cross (its single copy beats a bounce
     * buffer's two); above the bounce buffers' size, through them in
     * fragments that both sides copy at once up to pipe_max, by the single
     * copy above; a lane cycles through bounce_rotate bytes of buffers. */
    size_t eager_cross, pipe_max, bounce_rotate;
    /* A lane's short messages (am_ring.h): those over ORDO_LANE_HOT_MIN up
     * to hot_max bytes through one reused buffer (0: none), those over
     * ORDO_LANE_SPILL_MIN through a spill ring of spill_bytes (0: none);
     * after each inline one, the writer asks for the lines of a next one
     * as long, up to own_ahead bytes, ahead of time (0: not). */
    size_t hot_max, spill_bytes, own_ahead;
    /* After an inline one sent in answer to its peer, the writer pushes its
     * lines to the cache the cores share (am_ring.h) */
    int    demote;
    char   lane_why[512];
    char   engines_why[256];
    char   pio_why[384];
    char   eager_why[512];
    size_t stream_min;       /* puts from this size up use streaming stores (copy.h) */
    /* More ranks x threads of the job on this machine than CPUs it may use:
     * a rank that waits for a peer's part of a transfer may find the peer
     * descheduled (a rendezvous is then split only from the larger limit,
     * ordo_rndv_split_from) */
    int    cores_shared;
    char   stream_why[256];
} ordo_auto_choice_t;

#define ORDO_LANE_HOT_MIN   256
#define ORDO_LANE_HOT_MAX   4096
#define ORDO_LANE_SPILL_MIN 1024
/* What the spill rings of one machine's lanes may take at most, all together. */
#define ORDO_LANE_SPILL_BUDGET ((size_t)512 << 20)

/* What handing a transfer to an engine costs the initiator itself (queue
 * it, wake a sleeping thread): in a run of transfers the engine's latency
 * hides behind the initiator's next ones and only this is paid; the CPU
 * copies whatever it can move in this time itself. */
#define ORDO_ENGINE_SUBMIT_US 1.0

/* Where puts into other processes' memory start using streaming stores:
 * asked (SIZE_MAX: auto), else twice the size of a core's L2 cache
 * l2_bytes (0: unknown, 1 MiB), at least 256 KiB, or a quarter of the L3
 * cache the core shares (l3_bytes, 0: unknown) where that is more.  Below
 * it the written lines are better left in cache for the reader (and the
 * last-level cache holds them); above it they only evict the initiator's
 * own data.  One-way put + flush: on a 16-core Xeon (2 MiB L2), 2 MiB 88
 * us streaming against 46 by memcpy; on a 2-core EPYC VM (1 MiB L2, 32 MiB
 * L3) once 36 against 52 at 2 MiB, but on 2026-11-27 2 MiB 82 against 46,
 * 4 MiB 171 against 94 (Open MPI 5: 47, 94), 8 MiB 336 against 493. */
void ordo_auto_stream(size_t asked, long l2_bytes, long l3_bytes, ordo_auto_choice_t *c);
/* The same for this machine and the ORDO_STREAM_MIN setting (ordo_init
 * and ordo-info choose through it alike). */
void ordo_auto_stream_here(ordo_auto_choice_t *c);

/* Affinity mask, the machine's CPUs and the program's threads (cheap:
 * one system call and two small files; no copy measured). */
void ordo_machine_probe(ordo_machine_t *m);
/* m->copy_GBps from a few 64 KiB copies (a few microseconds). */
void ordo_machine_measure_copy(ordo_machine_t *m);

/* m->sc_us and m->sc_GBps from a few one-byte and 64 KiB single copies
 * of this process's own memory (some tens of microseconds). */
void ordo_machine_measure_single_copy(ordo_machine_t *m);

/* What one rank measured (ordo_machine_t's rates), as the ranks of a
 * machine exchange it: each measures its own, and the same rates give the
 * same choices.  Measured separately, two ranks of one machine chose
 * differently where the choice is close (on a 2-core EPYC one pipelined
 * up to 256 KiB, the other up to 32 MiB; on a 16-core Xeon eager crossovers
 * of 8 and 12 KiB). */
typedef struct ordo_machine_rates {
    double copy_GBps, sc_us, sc_GBps;   /* as in ordo_machine_t; 0: not measured */
} ordo_machine_rates_t;

/* m's rates made the median of each rate over the n ranks of its machine
 * (rates[0..n-1], this rank's among them): unmeasured ones, and values no
 * measurement gives (not finite, negative, beyond any memory system), are
 * left out; a rate nobody measured stays m's own.  A kernel that refused
 * this process its single copy (m->sc_us < 0) still refuses it.  The
 * rates come from other processes: read, never trusted. */
void ordo_machine_agree(ordo_machine_t *m, const ordo_machine_rates_t *rates, int n);

/* The engines and PIO limits for ranks_here ranks of the job on this
 * machine, engines confined to the rank's own CPUs (bind_rank) or not;
 * engines_asked / pio_asked: the user's setting, or -1 / SIZE_MAX for
 * auto (an explicit setting always wins, for all three limits; its reason
 * says so).  The limits need m->copy_GBps (and m->l2_bytes) only when
 * engines run: pio_max from the submit cost, pio_lone_max the L2 cache
 * (data the initiator just wrote is in its own cache, which it copies
 * from faster than an engine on another core; measured on a 16-core Xeon:
 * a lone 256 KiB put + flush 5.6 us by the CPU, 7.1 us through an engine,
 * 1 MiB 22 against 25; 4 MiB 204 against 116, where the engines' parallel
 * chunks win). */
void ordo_auto_choose(const ordo_machine_t *m, int ranks_here, int bind_rank,
                      int engines_asked, size_t pio_asked, ordo_auto_choice_t *c);

/* How two-sided messages on shared memory move, from what copies cost
 * here: the CPU's copy rate m->copy_GBps and the kernel's single copy
 * (m->sc_us fixed, then m->sc_GBps).  A bounce buffer copies a message
 * twice, one after the other; the rendezvous once, after a system call;
 * fragments through bounce buffers are copied by sender and receiver at
 * once (a fragment behind each other), so a pipelined message costs about
 * one copy.  A copy between cores is taken at half the CPU's rate in its
 * own cache (machine.c says where that was measured).  A rendezvous-get of at least split bytes is
 * copied by both sides (ORDO_RNDV_SPLIT; 0: never).  So eager_cross lies
 * between short_max and eager_max, eager_max where ORDO_EAGER_MAX is set
 * (eager_asked), single copy is off (single_copy 0) or refused, or nothing
 * was measured; pipe_max is 0 (no pipeline: the single copy above
 * eager_max) where the single copy wins from the start, SIZE_MAX where it
 * never does or cannot run.  The CPU's rate counts only for a job of at
 * most two ranks (ranks_here) on the machine: with more, their copies
 * compete, a bounce buffer's second copy is taken at the kernel's rate and
 * nothing is pipelined (machine.c says what was measured).  Bounce buffers
 * rotate through twice a core's L2 cache (am_ring.h says why). */
void ordo_auto_eager(const ordo_machine_t *m, int ranks_here, size_t short_max,
                     size_t eager_max, int eager_asked, int single_copy, size_t split,
                     ordo_auto_choice_t *c);
/* What ordo_auto_eager_here needs measured for ranks_here ranks on this
 * machine under the settings in force: the single copy and the CPU's copy
 * rate where the rank has peers to serve and single copy is not off.
 * Measures into m what it has not measured yet. */
void ordo_machine_measure_for_eager(ordo_machine_t *m, int ranks_here);
/* The same for ranks_here ranks of the job on this machine, under the
 * settings in force (ORDO_EAGER_MAX, ORDO_SINGLE_COPY, ORDO_RNDV_SPLIT),
 * measuring first what ordo_machine_measure_for_eager says (ordo_init,
 * which measures and agrees with its machine's ranks before, and
 * ordo-info both choose this way). */
void ordo_auto_eager_here(ordo_machine_t *m, int ranks_here, size_t short_max, size_t eager_max,
                          ordo_auto_choice_t *c);

#endif
