/* Registrations on the network transport beyond the put path, over
 * ordorun --nodes 2 -n 2:
 *
 * - a rendezvous buffer sent (or received) again is served by the
 *   registration cache, not registered again; unmapped and mapped again at
 *   the same address, its new content arrives (the stale registration was
 *   dropped);
 * - with ORDO_OFI_MR_LOCAL=2 (pages pinned as a NIC pins them, counted
 *   against the locked-memory limit), a registration that would pass the
 *   limit makes the cache give back its unused registrations and succeed,
 *   and one larger than the limit fails with ORDO_ERR_NO_MEMORY and a log
 *   line naming the limit, after which the next operation works.  The test
 *   drops CAP_IPC_LOCK (root locks memory without limit) and lowers its own
 *   limit just above what ordo has pinned, so it runs the same as root or
 *   not; run it with a small ORDO_EAGER_MAX, so that what ordo pins for its
 *   message buffers leaves room under a hard limit of a few MiB. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../harness.h"

#define MIB   (1u << 20)
#define SLOT  (MIB / 2)       /* a put's buffer, and its slot in the region */
#define SLOTS 4
#define ROOM  (3 * SLOT)      /* what the limit leaves above ordo's own pins */

static ordo_stats_t stats(void)
{
    ordo_stats_t s;
    CHECK_OK(ordo_stats_get(&s));
    return s;
}

static int64_t sum_over_ranks(uint64_t mine)
{
    int64_t in = (int64_t)mine, all = 0;
    CHECK_OK(ordo_coll_allreduce(ORDO_COMM_WORLD, &in, &all, 1, ORDO_DT_INT64,
                                 ORDO_REDUCE_SUM));
    return all;
}

static char *map(size_t len, void *at)
{
    char *m = mmap(at, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED : 0), -1, 0);
    REQUIRE_OK(m == MAP_FAILED ? ORDO_ERR_NO_MEMORY : ORDO_OK);
    return m;
}

static int all_bytes(const char *p, size_t len, char c)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] != c)
            return 0;
    return 1;
}

/* One rendezvous message from rank 0 to rank 1, checked whole. */
static void one_message(char *sbuf, char *rbuf, size_t len, char fill)
{
    if (ordo_rank() == 0) {
        memset(sbuf, fill, len);
        CHECK_OK(ordo_send(ORDO_COMM_WORLD, sbuf, len, 1, 7));
    } else {
        memset(rbuf, 0, len);
        CHECK_OK(ordo_recv(ORDO_COMM_WORLD, rbuf, len, 0, 7, NULL));
        CHECK(all_bytes(rbuf, len, fill));
    }
}

static void rendezvous_cached(int cached)
{
    size_t len = MIB;
    char *sbuf = map(len, NULL), *rbuf = map(len, NULL);
    one_message(sbuf, rbuf, len, 'p');
    ordo_stats_t a = stats();
    one_message(sbuf, rbuf, len, 'q');
    ordo_stats_t b = stats();
    if (cached) {
        /* whichever side exposed its buffer (get, put or split) found it */
        CHECK(sum_over_ranks(b.rcache_hits - a.rcache_hits) >= 1);
        CHECK(sum_over_ranks(b.registrations - a.registrations) == 0);
    }
    /* the same addresses, new pages: new content, never the old pages' */
    munmap(sbuf, len);
    munmap(rbuf, len);
    CHECK(map(len, sbuf) == sbuf && map(len, rbuf) == rbuf);
    one_message(sbuf, rbuf, len, 'r');
    ordo_stats_t c = stats();
    if (cached)
        CHECK(sum_over_ranks(c.rcache_invalidations - b.rcache_invalidations) >= 1);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    munmap(sbuf, len);
    munmap(rbuf, len);
}

/* What the kernel counts as locked (0 under AddressSanitizer, whose mlock
 * does nothing). */
static size_t locked_now(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kib = 0;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmLck: %zu kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib * 1024;
}

static void drop_ipc_lock(void)
{
    struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &h, d) != 0)
        return;
    d[CAP_TO_INDEX(CAP_IPC_LOCK)].effective &= ~CAP_TO_MASK(CAP_IPC_LOCK);
    d[CAP_TO_INDEX(CAP_IPC_LOCK)].permitted &= ~CAP_TO_MASK(CAP_IPC_LOCK);
    CHECK(syscall(SYS_capset, &h, d) == 0);
}

/* Run f with this process's stderr going to a file; what was written, in out. */
static ordo_status_t with_stderr_caught(ordo_status_t (*f)(void *), void *arg, char *out,
                                        size_t cap)
{
    fflush(stderr);
    int saved = dup(2), fd = memfd_create("stderr", 0);
    REQUIRE_OK(saved < 0 || fd < 0 ? ORDO_ERR_IO : ORDO_OK);
    dup2(fd, 2);
    ordo_status_t st = f(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, out, cap - 1, 0);
    out[n > 0 ? n : 0] = '\0';
    close(fd);
    return st;
}

struct put_args {
    const void   *buf;
    size_t        len;
    ordo_region_h r;
    int           peer;
};

static ordo_status_t put_and_quiet(void *arg)
{
    struct put_args *p = arg;
    ordo_status_t st = ordo_put(NULL, p->buf, p->len, p->r, p->peer, 0, 0);
    ordo_status_t q = ordo_quiet(NULL);
    return st != ORDO_OK ? st : q;
}

static void memlock_limit(int cached)
{
    int me = ordo_rank(), peer = 1 - me;
    char *win;
    ordo_region_h r;
    REQUIRE_OK(ordo_region_alloc(SLOTS * SLOT, 0, &r, (void **)&win));
    memset(win, 0, SLOTS * SLOT);
    CHECK_OK(ordo_barrier());

    /* ordo's count of what it pinned (message and bounce buffers, the
     * region); the kernel's is the same, or 0 under AddressSanitizer. */
    size_t pinned = (size_t)stats().pinned_bytes;
    CHECK(pinned >= SLOTS * SLOT && locked_now() <= pinned);
    drop_ipc_lock();
    struct rlimit old, rl;
    getrlimit(RLIMIT_MEMLOCK, &old);
    rl = old;
    rl.rlim_cur = pinned + ROOM;
    if ((old.rlim_max != RLIM_INFINITY && rl.rlim_cur > old.rlim_max) ||
        setrlimit(RLIMIT_MEMLOCK, &rl) != 0) {
        fprintf(stderr, "[rank %d] cannot set the locked-memory limit to %zu bytes (%s): "
                "the limit checks are skipped\n", me, (size_t)rl.rlim_cur, strerror(errno));
        CHECK_OK(ordo_region_free(r));
        return;
    }

    /* Four buffers where three fit: the cache lets the oldest go
     * (without a cache, each is registered for its put alone). */
    ordo_stats_t a = stats();
    char *buf[SLOTS];
    for (int i = 0; i < SLOTS; i++) {
        buf[i] = map(SLOT, NULL);
        memset(buf[i], 'A' + i, SLOT);
        CHECK_OK(ordo_put(NULL, buf[i], SLOT, r, peer, (size_t)i * SLOT, 0));
        CHECK_OK(ordo_quiet(NULL));
    }
    ordo_stats_t b = stats();
    if (cached)
        CHECK(b.rcache_evictions >= a.rcache_evictions + 1);
    else
        CHECK(b.registrations >= a.registrations + SLOTS);
    CHECK_OK(ordo_barrier());
    for (int i = 0; i < SLOTS; i++)
        CHECK(all_bytes(win + (size_t)i * SLOT, SLOT, (char)('A' + i)));
    CHECK_OK(ordo_barrier());

    /* Larger than the whole limit: refused, by name, and nothing stuck. */
    char *big = map(SLOTS * SLOT, NULL);   /* the whole region, more than the room */
    memset(big, 'z', SLOTS * SLOT);
    char log[4096];
    struct put_args pa = {.buf = big, .len = SLOTS * SLOT, .r = r, .peer = peer};
    ordo_status_t st = with_stderr_caught(put_and_quiet, &pa, log, sizeof(log));
    CHECK_STATUS(st, ORDO_ERR_NO_MEMORY);
    CHECK(strstr(log, "locked-memory limit (ulimit -l)") != NULL);
    if (strstr(log, "locked-memory limit (ulimit -l)") == NULL)
        fprintf(stderr, "[rank %d] the log said: %s\n", me, log);
    memset(buf[0], 'B', SLOT);
    CHECK_OK(ordo_put(NULL, buf[0], SLOT, r, peer, 0, 0));
    CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_barrier());
    CHECK(all_bytes(win, SLOT, 'B'));
    CHECK(win[SLOT] == 'B' && win[2 * SLOT] == 'C');   /* the refused put wrote nothing */
    CHECK_OK(ordo_barrier());

    for (int i = 0; i < SLOTS; i++)
        munmap(buf[i], SLOT);
    munmap(big, SLOTS * SLOT);
    CHECK_OK(ordo_region_free(r));
    setrlimit(RLIMIT_MEMLOCK, &old);
}

int main(void)
{
    test_init_two_nodes();
    char what[256];
    CHECK_OK(ordo_transport_describe(1 - ordo_rank(), what, sizeof(what)));
    CHECK(strncmp(what, "ofi ", 4) == 0);
    const char *want = getenv("ORDO_OFI_MR_LOCAL");
    int pinned = strstr(what, "pages pinned") != NULL;
    CHECK(pinned == (want != NULL && strcmp(want, "2") == 0));
    int cached = strstr(what, "registration cache") != NULL;
    if (pinned)
        memlock_limit(cached);
    rendezvous_cached(cached);
    CHECK_OK(ordo_finalize());
    return test_result("test_ofi_pinning");
}
