/* Ranks the kernel does not let their peers into: the odd ranks make
 * themselves non-dumpable before ordo_init, so (without CAP_SYS_PTRACE)
 * neither single copy from their memory nor taking a descriptor from their
 * process is allowed.  Regions must still be created and reached (through
 * mapped pages and descriptors passed by the launcher), and two-sided
 * messages of every protocol must still arrive, whole.
 * Args: [expect-refused]: fail unless the refusal was in effect (run under
 * setpriv without CAP_SYS_PTRACE, as the test suite does). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../harness.h"

static int me, np;

static unsigned char pattern(int owner, size_t i)
{
    return (unsigned char)(owner * 37 + i * 13 + 1);
}

/* Every rank fills its part, then reads every peer's by get and writes
 * its own rank into a slot of every peer's by put. */
static void check_region(ordo_region_h r, unsigned char *mine, size_t len)
{
    for (size_t i = 0; i < len; i++)
        mine[i] = pattern(me, i);
    REQUIRE_OK(ordo_barrier());
    unsigned char *got = malloc(len);
    for (int peer = 0; peer < np; peer++) {
        memset(got, 0, len);
        CHECK_OK(ordo_get(NULL, got, len, r, peer, 0, 0));
        size_t bad = len;
        for (size_t i = 0; i < len && bad == len; i++)
            if (got[i] != pattern(peer, i))
                bad = i;
        CHECK(bad == len);
    }
    REQUIRE_OK(ordo_barrier());
    unsigned char tag = (unsigned char)(0x80 | me);
    for (int peer = 0; peer < np; peer++)
        CHECK_OK(ordo_put(NULL, &tag, 1, r, peer, (size_t)me, 0));
    CHECK_OK(ordo_quiet(NULL));
    REQUIRE_OK(ordo_barrier());
    for (int from = 0; from < np; from++)
        CHECK(mine[from] == (unsigned char)(0x80 | from));
    free(got);
}

static void check_messages(void)
{
    /* short, eager, a bounce buffer's size sent alone (single copy where
     * allowed), and large (rendezvous, pipelined where refused) */
    static const size_t sizes[] = {8, 4000, 12000, 24576, 32768, 200000, 3u << 20};
    int right = (me + 1) % np, left = (me + np - 1) % np;
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t len = sizes[k];
        unsigned char *out = malloc(len), *in = malloc(len);
        for (size_t i = 0; i < len; i++)
            out[i] = pattern(me, i + k);
        for (int rep = 0; rep < 3; rep++) {
            memset(in, 0, len);
            ordo_request_h rq;
            ordo_status_t st = ordo_recv_nb(ORDO_COMM_WORLD, in, len, left, (int)k, &rq);
            CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
            CHECK_OK(ordo_send(ORDO_COMM_WORLD, out, len, right, (int)k));
            CHECK_OK(ordo_request_wait(&rq, NULL));
            size_t bad = len;
            for (size_t i = 0; i < len && bad == len; i++)
                if (in[i] != pattern(left, i + k))
                    bad = i;
            CHECK(bad == len);
        }
        free(out);
        free(in);
    }
}

/* A dynamic region has no collective step at attach in which to agree on
 * a second way: memory a refused rank attached gives ORDO_ERR_PERMISSION
 * to the peers the kernel keeps out (never a fault or a hang), and stays
 * reachable to the others. */
static void check_dynamic(int expect_refused)
{
    ordo_region_h r;
    REQUIRE_OK(ordo_region_create_dynamic(0, &r));
    uint64_t *word = calloc(1, sizeof(uint64_t));
    REQUIRE_OK(ordo_region_attach(r, word, sizeof(*word)));
    uint64_t *addr = malloc(sizeof(uint64_t) * (size_t)np), mine = (uint64_t)(uintptr_t)word;
    REQUIRE_OK(ordo_coll_allgather(NULL, &mine, sizeof(mine), addr));
    for (int peer = 0; peer < np; peer++) {
        uint64_t v = 0;
        ordo_status_t st = ordo_get(NULL, &v, sizeof(v), r, peer, (size_t)addr[peer], 0);
        if (peer == me || peer % 2 == 0 || !expect_refused)
            CHECK_OK(st);
        else
            CHECK_STATUS(st, ORDO_ERR_PERMISSION);
    }
    REQUIRE_OK(ordo_barrier());
    CHECK_OK(ordo_region_free(r));
    free(addr);
    free(word);
}

int main(int argc, char **argv)
{
    int expect_refused = argc > 1 && strcmp(argv[1], "expect-refused") == 0;
    /* before init: the process's memory and descriptors are closed to others */
    const char *rank_env = getenv("ORDO_RANK");
    int odd = rank_env && atoi(rank_env) % 2 == 1;
    if (odd)
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();

    /* Is the refusal in effect?  Rank 0 tries to read rank 1's memory. */
    if (np > 1) {
        int32_t pid = (int32_t)getpid(), pid1 = 0;
        if (me == 1)
            CHECK_OK(ordo_send(ORDO_COMM_WORLD, &pid, sizeof(pid), 0, 99));
        if (me == 0) {
            CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &pid1, sizeof(pid1), 1, 99, NULL));
            static char probe = 1;
            char byte;
            struct iovec l = {&byte, 1}, r = {&probe, 1};
            int refused = process_vm_readv(pid1, &l, 1, &r, 1, 0) < 0 && errno == EPERM;
            printf("single copy from rank 1: %s\n", refused ? "refused" : "allowed");
            if (expect_refused)
                CHECK(refused);
        }
    }

    enum { LEN = 64 << 10 };
    for (int round = 0; round < 3; round++) {
        ordo_region_h r;
        void *addr;
        REQUIRE_OK(ordo_region_alloc(LEN, 0, &r, &addr));
        check_region(r, addr, LEN);
        CHECK_OK(ordo_region_free(r));

        unsigned char *mem = aligned_alloc(4096, LEN);
        REQUIRE_OK(ordo_region_create(mem, LEN, 0, &r));
        check_region(r, mem, LEN);
        CHECK_OK(ordo_region_free(r));
        free(mem);
    }
    if (np > 1)
        check_messages();
    check_dynamic(expect_refused);
    CHECK_OK(ordo_finalize());
    return test_result("test_refused_peer");
}
