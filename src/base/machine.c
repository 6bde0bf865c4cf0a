/* The machine probe is hand-written rather than asked of hwloc: loading a
 * topology takes milliseconds per process (5-8 ms on a 2-core VM), paid by
 * every rank at ordo_init, and all the choice needs is two CPU counts,
 * which one system call and the cgroup's cpuset file give. */
#define _GNU_SOURCE
#include "machine.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <sys/uio.h>
#include <unistd.h>

#include "config.h"
#include "timer.h"

/* CPUs in a kernel CPU list ("0-3,8,10-11"); 0 if it cannot be read. */
static int count_cpu_list(const char *text)
{
    int n = 0;
    const char *p = text;
    while (*p && *p != '\n') {
        char *end;
        long a = strtol(p, &end, 10);
        if (end == p || a < 0)
            return 0;
        long b = a;
        if (*end == '-') {
            p = end + 1;
            b = strtol(p, &end, 10);
            if (end == p || b < a)
                return 0;
        }
        n += (int)(b - a + 1);
        p = end;
        if (*p == ',')
            p++;
        else if (*p && *p != '\n')
            return 0;
    }
    return n;
}

static int read_cpu_list_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    char line[4096];
    int n = fgets(line, sizeof(line), f) ? count_cpu_list(line) : 0;
    fclose(f);
    return n;
}

/* The CPUs of this process's cpuset cgroup (v2, or v1's cpuset
 * hierarchy); 0 where there is none to read. */
static int cgroup_cpus(void)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f == NULL)
        return 0;
    char line[1024], path[1200];
    int n = 0;
    while (n == 0 && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *rel;
        int v2 = strncmp(line, "0::", 3) == 0;
        if (v2)
            rel = line + 3;
        else if ((rel = strstr(line, ":cpuset:")) != NULL)
            rel += 8;
        else
            continue;
        const char *sub = strcmp(rel, "/") == 0 ? "" : rel;   /* the root cgroup */
        if (v2) {
            snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cpuset.cpus.effective", sub);
            n = read_cpu_list_file(path);
            continue;
        }
        snprintf(path, sizeof(path), "/sys/fs/cgroup/cpuset%s/cpuset.effective_cpus", sub);
        if ((n = read_cpu_list_file(path)) == 0) {
            snprintf(path, sizeof(path), "/sys/fs/cgroup/cpuset%s/cpuset.cpus", sub);
            n = read_cpu_list_file(path);
        }
    }
    fclose(f);
    return n;
}

static int process_threads(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return 1;
    char line[256];
    int n = 1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "Threads: %d", &n) == 1)
            break;
    fclose(f);
    return n > 0 ? n : 1;
}

/* The x86 vendors whose cores implement MOESI's Owned state. */
static int cpu_owns_read_lines(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    char vendor[13];
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = 0;
    return strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0;
#else
    return 0;
#endif
}

/* CPUID leaf 7: CLDEMOTE (ECX bit 25). */
static int cpu_demotes_lines(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (c >> 25) & 1;
#else
    return 0;
#endif
}

void ordo_machine_probe(ordo_machine_t *m)
{
    memset(m, 0, sizeof(*m));
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    m->cpus = online > 0 ? (int)online : 1;
    int cg = cgroup_cpus();
    if (cg > 0 && cg < m->cpus)
        m->cpus = cg;
    cpu_set_t mask;
    m->cpus_mine = sched_getaffinity(0, sizeof(mask), &mask) == 0 ? CPU_COUNT(&mask) : m->cpus;
    if (m->cpus_mine < 1)
        m->cpus_mine = 1;
    m->threads = process_threads();
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    m->l2_bytes = l2 > 0 ? l2 : 0;
    m->owns_read_lines = cpu_owns_read_lines();
    m->demotes_lines = cpu_demotes_lines();
}

void ordo_machine_measure_copy(ordo_machine_t *m)
{
    enum { LEN = 64 << 10 };
    char *a = malloc(2 * LEN);
    if (a == NULL)
        return;
    memset(a, 1, 2 * LEN);
    double best = 0;
    for (int i = 0; i < 4; i++) {   /* the first warms the caches; the best of the rest */
        uint64_t t0 = ordo_time_ns();
        memcpy(a + LEN, a, LEN);
        __asm__ volatile("" : : "r"(a) : "memory");
        double us = (double)(ordo_time_ns() - t0) / 1e3;
        if (i > 0 && us > 0 && (best == 0 || us < best))
            best = us;
    }
    free(a);
    m->copy_GBps = best > 0 ? LEN / best / 1e3 : 0;
}

void ordo_machine_measure_single_copy(ordo_machine_t *m)
{
    enum { LEN = 64 << 10 };
    char *a = malloc(2 * LEN);
    if (a == NULL)
        return;
    memset(a, 1, 2 * LEN);
    pid_t self = getpid();
    double one = 0, big = 0;
    for (int i = 0; i < 12; i++) {   /* the best of each, after one of each warms up */
        size_t len = i % 3 == 2 ? LEN : 1;
        struct iovec l = {a + LEN, len}, r = {a, len};
        uint64_t t0 = ordo_time_ns();
        ssize_t n = process_vm_readv(self, &l, 1, &r, 1, 0);
        double us = (double)(ordo_time_ns() - t0) / 1e3;
        if (n != (ssize_t)len) {   /* refused here (seccomp, no CMA): no single copy at all */
            m->sc_us = -1;
            m->sc_GBps = 0;
            free(a);
            return;
        }
        double *best = len == 1 ? &one : &big;
        if (i > 2 && us > 0 && (*best == 0 || us < *best))
            *best = us;
    }
    free(a);
    m->sc_us = one;
    /* the rate past the fixed cost (a timer tick can make big <= one) */
    m->sc_GBps = big > one ? LEN / (big - one) / 1e3 : LEN / big / 1e3;
}

/* No memory system of today copies a terabyte a second, nor takes a
 * second to start a copy: a rate read from another process beyond these
 * was not measured. */
#define RATE_GBPS_MAX 1e3
#define START_US_MAX  1e6

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the first k of vals (sorted here); 0 if k is 0. */
static double median_of(double *vals, int k)
{
    if (k == 0)
        return 0;
    qsort(vals, (size_t)k, sizeof(double), cmp_double);
    return k % 2 ? vals[k / 2] : (vals[k / 2 - 1] + vals[k / 2]) / 2;
}

/* Keep v in vals[*k] if a measurement can give it: in (0, max] (NaN is not). */
static void keep_measured(double v, double max, double *vals, int *k)
{
    if (v > 0 && v <= max)
        vals[(*k)++] = v;
}

void ordo_machine_agree(ordo_machine_t *m, const ordo_machine_rates_t *rates, int n)
{
    if (n <= 0 || rates == NULL)
        return;
    double *vals = malloc(3 * (size_t)n * sizeof(double));
    if (vals == NULL)
        return;   /* each keeps its own: choices may differ, nothing breaks */
    double *copy = vals, *start = vals + n, *rate = vals + 2 * (size_t)n;
    int kc = 0, ks = 0;   /* a single copy's start and rate are kept in pairs */
    for (int i = 0; i < n; i++) {
        keep_measured(rates[i].copy_GBps, RATE_GBPS_MAX, copy, &kc);
        /* a single copy counts only with both of its figures */
        if (rates[i].sc_us > 0 && rates[i].sc_us <= START_US_MAX &&
            rates[i].sc_GBps > 0 && rates[i].sc_GBps <= RATE_GBPS_MAX) {
            start[ks] = rates[i].sc_us;
            rate[ks++] = rates[i].sc_GBps;
        }
    }
    double c = median_of(copy, kc), s_us = median_of(start, ks), s_rate = median_of(rate, ks);
    free(vals);
    if (c > 0)
        m->copy_GBps = c;
    if (m->sc_us >= 0 && s_us > 0) {
        m->sc_us = s_us;
        m->sc_GBps = s_rate;
    }
}

/* A copy into or out of a bounce buffer moves lines the other core holds
 * or just wrote: taken at half the rate this CPU copies in its own cache
 * (copy_GBps).  Measured one-way, 2 ranks: on a 2-core EPYC VM (CPU 30-54
 * GB/s, kernel 1.7 us + 12 GB/s) bounce buffers beat the single copy at
 * 16-32 KiB and the pipeline beat it from 64 KiB to 1 MiB; on a 16-core
 * Xeon (CPU 38-42 GB/s, kernel 0.4-0.7 us + 18-22 GB/s) the single copy
 * won from 16 KiB up (16 KiB 1.8 us against 3.5 by a bounce buffer, 64
 * KiB 4.1 against 8.1 pipelined).  Both follow from this rate. */
#define CROSS_CORE_SHARE 0.5

/* Microseconds to move len bytes at GBps (1 GB/s = 1e3 bytes per us). */
static double at_rate(double len, double GBps)
{
    return len / (GBps * 1e3);
}

/* The single copy of a rendezvous-get of len bytes (both sides copy half
 * from split on). */
static double single_copy_us(const ordo_machine_t *m, size_t len, size_t split)
{
    double rate = split && len >= split ? 2 * m->sc_GBps : m->sc_GBps;
    return m->sc_us + at_rate((double)len, rate);
}

/* ordo_auto_eager counts a split rendezvous from here at the earliest. */
#define PIPE_SPLIT_MIN ((size_t)512 << 10)

/* The largest power of two from 2 x eager_max up to 1 GiB whose pipelined
 * copy (fragments of eager_max) is no slower than the single copy, below
 * the first one that is slower; 0 when even the first is; SIZE_MAX when
 * none is. */
static size_t pipe_limit(const ordo_machine_t *m, size_t eager_max, size_t split)
{
    size_t last = 0;
    for (size_t len = 2 * eager_max; len && len <= ((size_t)1 << 30); len *= 2) {
        double pipe = at_rate((double)(len + eager_max), CROSS_CORE_SHARE * m->copy_GBps);
        if (pipe > single_copy_us(m, len, split))
            return last;
        last = len;
    }
    return SIZE_MAX;
}

static void pipe_why(char *buf, size_t len, size_t pipe_max)
{
    if (pipe_max == SIZE_MAX)
        snprintf(buf, len, "; larger ones in bounce-buffer fragments that both sides copy at "
                 "once");
    else if (pipe_max == 0)
        snprintf(buf, len, "; larger ones by the single copy");
    else
        snprintf(buf, len, "; larger ones in bounce-buffer fragments that both sides copy at "
                 "once up to %zu KiB, by the single copy above", pipe_max >> 10);
}

/* How a lane carries its short messages (docs/shm-messages.md has the
 * measurements): where cores own the lines they wrote, a reused buffer and
 * a spill ring of up to rotate bytes for those above ORDO_LANE_SPILL_MIN,
 * a power of two, the machine's lanes within ORDO_LANE_SPILL_BUDGET (their
 * pages are taken as messages use them).  On a Xeon neither measured
 * faster than the queue (within the runs' +-10%), so there it is inline. */
static void lane_choice_inner(const ordo_machine_t *m, int ranks_here, size_t short_max,
                              size_t rotate, ordo_auto_choice_t *c);

/* ... and whether the writer of a message sent in answer pushes its lines
 * to the cache the cores share: the reader, waiting for it, then reads
 * them there instead of from the writer's core (2-core Xeon VM, one-way
 * 256 B 0.35 -> 0.29 us, 1 KiB 0.67 -> 0.57, 8 KiB 1.65 -> 1.43); a stream
 * of messages, whose reader is behind, keeps them (pushing each halved a
 * window's bandwidth at 1-8 KiB). */
static void lane_choice(const ordo_machine_t *m, int ranks_here, size_t short_max,
                        size_t rotate, ordo_auto_choice_t *c)
{
    lane_choice_inner(m, ranks_here, short_max, rotate, c);
    c->demote = m->demotes_lines;
    size_t n = strlen(c->lane_why);
    if (c->demote)
        snprintf(c->lane_why + n, sizeof(c->lane_why) - n, "; one sent in answer to its "
                 "peer has its lines pushed to the cache the cores share (CLDEMOTE), where "
                 "the waiting reader finds them sooner");
}

static void lane_choice_inner(const ordo_machine_t *m, int ranks_here, size_t short_max,
                              size_t rotate, ordo_auto_choice_t *c)
{
    c->hot_max = c->spill_bytes = c->own_ahead = 0;
    if (!m->owns_read_lines) {
        /* A line the reader took is the reader's: the writer asks for the
         * next message's lines back while it waits, not as it writes them
         * (am_ring.h; 16-core Xeon, one-way 2 KiB 1.23-1.27 -> 1.10-1.19 us,
         * 4 KiB 1.57-1.64 -> 1.48-1.54, 8 KiB 2.33-2.43 -> 2.13-2.29) */
        c->own_ahead = short_max;
        snprintf(c->lane_why, sizeof(c->lane_why), "inline in the queue (%s); after each, "
                 "the writer asks for the lines of a next one as long, up to %zu bytes, "
                 "ahead of time (this CPU gives up the lines it wrote once read)",
                 short_max <= ORDO_LANE_HOT_MIN ? "short messages are small"
                 : "a reused buffer or a spill ring measured no faster here", short_max);
        return;
    }
    if (short_max <= ORDO_LANE_HOT_MIN) {
        snprintf(c->lane_why, sizeof(c->lane_why), "inline in the queue (short messages are "
                 "small)");
        return;
    }
    c->hot_max = short_max < ORDO_LANE_HOT_MAX ? short_max : ORDO_LANE_HOT_MAX;
    size_t lanes = ranks_here > 1 ? (size_t)ranks_here * (size_t)(ranks_here - 1) : 1;
    size_t share = ORDO_LANE_SPILL_BUDGET / lanes, spill = 0;
    if (short_max > ORDO_LANE_SPILL_MIN) {
        spill = (size_t)256 << 10;
        while (spill < rotate && 2 * spill <= share)
            spill <<= 1;
        if (spill > share)
            spill = 0;
    }
    c->spill_bytes = spill;
    int n = snprintf(c->lane_why, sizeof(c->lane_why),
                     "%d .. %zu bytes through one reused buffer while it is free (this CPU "
                     "keeps the lines it wrote; streamed in 1 KiB chunks above 2 KiB), a longer "
                     "one sent while the receiver has read all before it through a streamed "
                     "bounce buffer; ", ORDO_LANE_HOT_MIN, c->hot_max);
    if (spill)
        snprintf(c->lane_why + n, sizeof(c->lane_why) - (size_t)n,
                 "else above %d bytes through a %zu KiB ring per pair (twice a core's L2 "
                 "cache, %zu MiB for all pairs here at most)", ORDO_LANE_SPILL_MIN,
                 spill >> 10, ORDO_LANE_SPILL_BUDGET >> 20);
    else
        snprintf(c->lane_why + n, sizeof(c->lane_why) - (size_t)n, "no spill ring (%s)",
                 short_max <= ORDO_LANE_SPILL_MIN ? "short messages are small"
                 : "too many pairs on this machine");
}

/* CPUs the job's ranks on this machine keep busy: each runs the program's
 * threads (at least one). */
static long cpus_busy(const ordo_machine_t *m, int ranks_here)
{
    return (long)ranks_here * (m->threads > 0 ? m->threads : 1);
}

/* The record bytes a shared-memory lane writes round its bounce buffers
 * before it writes one again: twice a core's L2 cache (1 MiB taken where
 * it is not reported). */
static size_t bounce_rotate(const ordo_machine_t *m)
{
    return 2 * (m->l2_bytes > 0 ? (size_t)m->l2_bytes : (size_t)1 << 20);
}

void ordo_auto_eager(const ordo_machine_t *m, int ranks_here, size_t short_max,
                     size_t eager_max, int eager_asked, int single_copy, size_t split,
                     ordo_auto_choice_t *c)
{
    c->bounce_rotate = bounce_rotate(m);
    lane_choice(m, ranks_here, short_max, c->bounce_rotate, c);
    c->eager_cross = eager_max;
    c->pipe_max = 0;
    c->cores_shared = m->cpus > 0 && cpus_busy(m, ranks_here) > m->cpus;
    char tail[160];
    int have_sc = single_copy && m->sc_us > 0 && m->sc_GBps > 0;
    if (!single_copy || m->sc_us < 0) {
        c->pipe_max = SIZE_MAX;   /* no single copy: the pipeline serves every size */
        snprintf(c->eager_why, sizeof(c->eager_why),
                 "%zu (all the bounce buffers hold): %s; larger ones in bounce-buffer fragments",
                 eager_max, !single_copy ? "single copy is off (ORDO_SINGLE_COPY)"
                                         : "the kernel refuses single copy here");
        return;
    }
    if (!have_sc) {
        snprintf(c->eager_why, sizeof(c->eager_why),
                 "%zu (all the bounce buffers hold): single copy not measured", eager_max);
        return;
    }
    /* The CPU's rate counts for a pair alone on the machine.  With more
     * ranks, several pairs copy at once and a bounce buffer's second copy
     * competes with theirs: on the 16-core Xeon, 16 ranks (8 pairs at
     * once), the pipeline lost at every size (64 KiB one-way 7.3 us against
     * 5.6 by the single copy, 256 KiB 27.8 against 16.1) and a 16 KiB
     * bounce buffer to the single copy (2.7 against 2.3); there the second
     * copy is taken at the kernel's rate, and nothing is pipelined. */
    int crowded = ranks_here > 2;
    double C = crowded ? 0 : m->copy_GBps;
    /* The pipeline's limit takes the split from 512 KiB at the earliest:
     * below, where bounce buffers serve, the model's twice-as-fast split
     * overstates it (2-core EPYC, split from 128 KiB instead of the
     * pipeline: 128-256 KiB 1.2-1.5x slower), while where the single copy
     * serves anyway the split pays from 128 KiB (16-core Xeon, one-way 128
     * KiB 7.3-9.4 us against 11.9-12.8, a window of 256 KiB 23-25 GB/s
     * against 14-15). */
    if (C > 0)
        c->pipe_max = pipe_limit(m, eager_max, split && split < PIPE_SPLIT_MIN ? PIPE_SPLIT_MIN
                                                                             : split);
    pipe_why(tail, sizeof(tail), c->pipe_max);
    if (crowded)
        snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail),
                 " (%d ranks on this machine: their copies compete)", ranks_here);
    if (eager_asked) {
        snprintf(c->eager_why, sizeof(c->eager_why), "%zu, as ORDO_EAGER_MAX asks%s", eager_max,
                 tail);
        return;
    }
    /* Per byte a bounce buffer costs two copies between cores, the single
     * copy one at the kernel's rate after its fixed cost.  Unmeasured CPU
     * rate: the second copy taken to go at the kernel's. */
    double X = CROSS_CORE_SHARE * C;
    double per_byte_gain = C > 0 ? 2 / (X * 1e3) - 1 / (m->sc_GBps * 1e3)
                                 : 1 / (m->sc_GBps * 1e3);
    if (per_byte_gain <= 0) {
        snprintf(c->eager_why, sizeof(c->eager_why),
                 "%zu (all the bounce buffers hold): this CPU copies %.1f GB/s (%.1f between "
                 "cores): two copies beat a single copy of %.1f us + %.1f GB/s at every size%s",
                 eager_max, C, X, m->sc_us, m->sc_GBps, tail);
        return;
    }
    double bytes = m->sc_us / per_byte_gain;
    size_t cross = bytes >= (double)eager_max ? eager_max : (size_t)bytes & ~(size_t)4095;
    if (cross < short_max)
        cross = short_max;
    c->eager_cross = cross;
    if (C <= 0) {
        snprintf(c->eager_why, sizeof(c->eager_why),
                 "%zu: a single copy costs %.1f us, then copies %.1f GB/s: above %.0f KB it "
                 "beats a bounce buffer's second copy (bounce buffers hold %zu)%s", cross,
                 m->sc_us, m->sc_GBps, bytes / 1e3, eager_max, tail);
        return;
    }
    snprintf(c->eager_why, sizeof(c->eager_why),
             "%zu: a single copy costs %.1f us, then copies %.1f GB/s; this CPU copies "
             "%.1f GB/s (%.1f between cores): above %.0f KB one copy beats a bounce buffer's "
             "two (bounce buffers hold %zu)%s", cross, m->sc_us, m->sc_GBps, C, X, bytes / 1e3,
             eager_max, tail);
}

void ordo_machine_measure_for_eager(ordo_machine_t *m, int ranks_here)
{
    if (ranks_here <= 1 || ordo_config.single_copy == ORDO_SINGLE_COPY_OFF)
        return;
    if (m->sc_us == 0)
        ordo_machine_measure_single_copy(m);
    if (m->copy_GBps <= 0)
        ordo_machine_measure_copy(m);
}

void ordo_auto_eager_here(ordo_machine_t *m, int ranks_here, size_t short_max, size_t eager_max,
                          ordo_auto_choice_t *c)
{
    int single_copy = ordo_config.single_copy != ORDO_SINGLE_COPY_OFF;
    ordo_machine_measure_for_eager(m, ranks_here);
    ordo_auto_eager(m, ranks_here, short_max, eager_max, ordo_config.eager_max != 0,
                    single_copy, ordo_rndv_split_for(0), c);
}

/* The power of two between 4 KiB and 1 MiB at most bytes. */
static size_t pow2_within(double bytes)
{
    size_t lim = 4096;
    while (lim < (1u << 20) && (double)(lim * 2) <= bytes)
        lim *= 2;
    return lim;
}

void ordo_auto_choose(const ordo_machine_t *m, int ranks_here, int bind_rank,
                      int engines_asked, size_t pio_asked, ordo_auto_choice_t *c)
{
    enum { ENGINES_WANTED = 2 };
    if (ranks_here < 1)
        ranks_here = 1;
    int threads = m->threads > 0 ? m->threads : 1;
    if (engines_asked >= 0) {
        c->engines = engines_asked;
        snprintf(c->engines_why, sizeof(c->engines_why), "%d, as ORDO_ENGINES asks",
                 engines_asked);
    } else if (bind_rank) {
        /* confined to the rank's CPUs: what its own threads leave over */
        int spare = m->cpus_mine - threads;
        c->engines = spare < 0 ? 0 : spare > ENGINES_WANTED ? ENGINES_WANTED : spare;
        snprintf(c->engines_why, sizeof(c->engines_why),
                 "%d: the rank may run on %d CPU%s and runs %d thread%s of its own "
                 "(ORDO_ENGINE_BIND=rank)", c->engines, m->cpus_mine, m->cpus_mine == 1 ? "" : "s",
                 threads, threads == 1 ? "" : "s");
    } else {
        /* every rank here is alike: each keeps `threads` CPUs busy, and the
         * CPUs nobody uses are shared out among the ranks */
        long spare = m->cpus - cpus_busy(m, ranks_here);
        long each = spare > 0 ? spare / ranks_here : 0;
        c->engines = each > ENGINES_WANTED ? ENGINES_WANTED : (int)each;
        snprintf(c->engines_why, sizeof(c->engines_why),
                 "%d: %d rank%s x %d thread%s on %d CPU%s leave %ld idle%s", c->engines,
                 ranks_here, ranks_here == 1 ? "" : "s", threads, threads == 1 ? "" : "s",
                 m->cpus, m->cpus == 1 ? "" : "s", spare > 0 ? spare : 0,
                 c->engines ? "" : ": an engine would take turns with a rank on its core, "
                                   "a slower PIO");
    }
    if (pio_asked != SIZE_MAX) {
        c->pio_max = c->pio_lone_max = pio_asked;
        snprintf(c->pio_why, sizeof(c->pio_why), "%zu, as ORDO_PIO_MAX asks", pio_asked);
    } else if (c->engines == 0) {
        c->pio_max = c->pio_lone_max = SIZE_MAX;
        snprintf(c->pio_why, sizeof(c->pio_why),
                 "every size: without engines the initiating CPU copies everything itself, "
                 "at once");
    } else {
        /* what the CPU copies in the time handing a transfer over costs it,
         * as a power of two between 4 KiB and 1 MiB; alone, up to a core's
         * L2 cache */
        double bytes = m->copy_GBps * 1e3 * ORDO_ENGINE_SUBMIT_US;
        c->pio_max = pow2_within(bytes);
        size_t l2 = m->l2_bytes > 0 ? (size_t)m->l2_bytes : (size_t)1 << 20;
        c->pio_lone_max = l2 > c->pio_max ? l2 : c->pio_max;
        snprintf(c->pio_why, sizeof(c->pio_why),
                 "%zu in a run of transfers free to pass each other (this CPU copies %.1f GB/s, "
                 "%.0f KB in the %.0f us a hand-off costs it); up to %zu for one waited for "
                 "alone or held in order (a core's L2 cache%s); larger ones go to the engines, "
                 "and a kernel single copy of 4 engine chunks or more too",
                 c->pio_max, m->copy_GBps, bytes / 1e3, ORDO_ENGINE_SUBMIT_US, c->pio_lone_max,
                 m->l2_bytes > 0 ? "" : ", not reported: 1 MiB assumed");
    }
}

void ordo_auto_stream(size_t asked, long l2_bytes, long l3_bytes, ordo_auto_choice_t *c)
{
    if (asked != SIZE_MAX) {
        c->stream_min = asked;
        snprintf(c->stream_why, sizeof(c->stream_why), "%zu, as ORDO_STREAM_MIN asks", asked);
        return;
    }
    size_t l2 = l2_bytes > 0 ? (size_t)l2_bytes : (size_t)1 << 20;
    size_t l3 = l3_bytes > 0 ? (size_t)l3_bytes : 0;
    c->stream_min = 2 * l2 < ((size_t)256 << 10) ? (size_t)256 << 10 : 2 * l2;
    if (l3 / 4 > c->stream_min) {
        c->stream_min = l3 / 4;
        snprintf(c->stream_why, sizeof(c->stream_why),
                 "%zu: a quarter of the L3 cache this core shares (%zu KiB), which holds a "
                 "smaller put and the lines it displaces; larger puts to other processes "
                 "bypass the caches", c->stream_min, l3 >> 10);
        return;
    }
    snprintf(c->stream_why, sizeof(c->stream_why),
             "%zu: twice a core's L2 cache%s; larger puts to other processes bypass the caches",
             c->stream_min, l2_bytes > 0 ? "" : " (not reported: 1 MiB assumed)");
}

/* The L3 cache the calling CPU shares, as the kernel describes it (sysfs):
 * glibc's sysconf reads the CPU's own tables, which a VM may fill with its
 * host's figures (320 MiB on a 2-core EPYC VM whose kernel, and lscpu,
 * say 32 MiB).  0 where the kernel says nothing. */
static long l3_bytes(void)
{
    for (int i = 0; i < 8; i++) {
        char path[96], buf[32];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            return 0;
        int level = 0;
        int got = fscanf(f, "%d", &level);
        fclose(f);
        if (got != 1 || level != 3)
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if ((f = fopen(path, "r")) == NULL)
            return 0;
        long v = 0;
        char unit = 0;
        got = fgets(buf, sizeof(buf), f) != NULL ? sscanf(buf, "%ld%c", &v, &unit) : 0;
        fclose(f);
        if (got < 1 || v <= 0)
            return 0;
        return unit == 'K' ? v << 10 : unit == 'M' ? v << 20 : v;
    }
    return 0;
}

void ordo_auto_stream_here(ordo_auto_choice_t *c)
{
    ordo_auto_stream(ordo_config.stream_min, sysconf(_SC_LEVEL2_CACHE_SIZE), l3_bytes(), c);
}
