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
} ordo_machine_t;

typedef struct ordo_auto_choice {
    int    engines;          /* copy threads per process */
    size_t pio_max;          /* largest transfer the initiating CPU copies itself */
    char   engines_why[256];
    char   pio_why[256];
} ordo_auto_choice_t;

/* An engine's hand-off: waking a sleeping copy thread and the initiator
 * seeing its completion (a futex wake and a cache-line round trip); the
 * CPU copies whatever it can move in this time itself. */
#define ORDO_ENGINE_HANDOFF_US 2.0

/* Affinity mask, the machine's CPUs and the program's threads (cheap:
 * one system call and two small files; no copy measured). */
void ordo_machine_probe(ordo_machine_t *m);
/* m->copy_GBps from a few 64 KiB copies (a few microseconds). */
void ordo_machine_measure_copy(ordo_machine_t *m);

/* The engines and PIO limit for ranks_here ranks of the job on this
 * machine, engines confined to the rank's own CPUs (bind_rank) or not;
 * engines_asked / pio_asked: the user's setting, or -1 / SIZE_MAX for
 * auto (an explicit setting always wins; its reason says so).  The PIO
 * limit needs m->copy_GBps only when engines run. */
void ordo_auto_choose(const ordo_machine_t *m, int ranks_here, int bind_rank,
                      int engines_asked, size_t pio_asked, ordo_auto_choice_t *c);

#endif
