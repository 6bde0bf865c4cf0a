/* Run under `ordorun --on-failure notify -n 2`: rank 1 stops, rank 0 puts
 * into it and starts an atomic (over the network they wait for replies
 * that never come), then kills it; the puts and the atomic fail with
 * ORDO_ERR_PEER_DEAD at the next quiet instead of hanging (in shared memory
 * they completed).  Rank 0's receives from it, from any source, and a
 * rendezvous send to it fail likewise; so do a collective and the RMA
 * synchronisations that wait for it (a lock it held when it died, a fence,
 * a start), well before ORDO_EPOCH_TIMEOUT. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../harness.h"

int main(void)
{
    setenv("ORDO_EPOCH_TIMEOUT", "60", 1);
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_size() != 2) {
        fprintf(stderr, "run with -n 2\n");
        return 2;
    }
    ordo_region_h region, plain;
    void *mem, *plain_mem;
    REQUIRE_OK(ordo_region_alloc(64, ORDO_REGION_EPOCHS, &region, &mem));
    REQUIRE_OK(ordo_region_alloc(4096, 0, &plain, &plain_mem));
    int32_t pid = (int32_t)getpid();
    if (ordo_rank() == 1) {
        REQUIRE_OK(ordo_epoch_lock(region, ORDO_LOCK_EXCLUSIVE, 0, 0));
        REQUIRE_OK(ordo_send(NULL, &pid, sizeof(pid), 0, 9));
        REQUIRE_OK(ordo_barrier());
        raise(SIGSTOP);   /* rank 0 kills it: it never calls ordo_finalize */
        _Exit(3);
    }
    REQUIRE_OK(ordo_recv(NULL, &pid, sizeof(pid), 1, 9, NULL));
    char buf[64];
    ordo_request_h any, big;
    CHECK_STATUS(ordo_recv_nb(NULL, buf, sizeof(buf), ORDO_ANY_SOURCE, 1, &any), ORDO_INPROGRESS);
    char *payload = calloc(1, 1 << 20);
    CHECK_STATUS(ordo_send_nb(NULL, payload, 1 << 20, 1, 2, &big), ORDO_INPROGRESS);
    REQUIRE_OK(ordo_barrier());
    /* Wait until rank 1 is really stopped: between its barrier and its
     * SIGSTOP its progress thread could still serve (and acknowledge) the
     * puts below. */
    int stopped = 0;
    for (int i = 0; i < 10000 && !stopped; i++) {
        char path[64], stat[512];
        snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(stat, 1, sizeof(stat) - 1, f) : 0;
        if (f)
            fclose(f);
        stat[n] = 0;
        const char *close_paren = strrchr(stat, ')');
        stopped = close_paren && close_paren[1] == ' ' && close_paren[2] == 'T';
        if (!stopped)
            nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    CHECK(stopped);
    /* one-sided towards a rank that stopped, then dies */
    static uint64_t vals[200];
    uint64_t add = 1;
    for (int i = 0; i < 200; i++) {
        vals[i] = (uint64_t)i;
        CHECK_OK(ordo_put_nb(NULL, &vals[i], 8, plain, 1, 8 * (size_t)(i % 256), 0, NULL));
    }
    CHECK(ordo_atomic_nb(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &add, NULL, NULL, plain, 1, 2048,
                         0, NULL) >= 0);
    for (int i = 0; i < 1000; i++) {   /* the batch goes out; no reply comes */
        ordo_progress();
        nanosleep(&(struct timespec){.tv_nsec = 20000}, NULL);
    }
    kill((pid_t)pid, SIGKILL);
    CHECK_STATUS(ordo_quiet(NULL), ordo_node_count() > 1 ? ORDO_ERR_PEER_DEAD : ORDO_OK);
    CHECK_STATUS(ordo_recv(NULL, buf, sizeof(buf), 1, 0, NULL), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_request_wait(&any, NULL), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_request_wait(&big, NULL), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_send(NULL, buf, 8, 1, 0), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_probe(NULL, 1, 0, NULL), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_coll_barrier(ORDO_COMM_WORLD), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_epoch_lock(region, ORDO_LOCK_SHARED, 0, 0), ORDO_ERR_PEER_DEAD);
    /* a lock at the dead rank itself, whose lock words may still be mapped
     * here: never granted (a shared one once was, with ORDO_OK) */
    CHECK_STATUS(ordo_epoch_lock(region, ORDO_LOCK_SHARED, 1, 0), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_epoch_lock(region, ORDO_LOCK_EXCLUSIVE, 1, 0), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_epoch_lock_all(region, 0), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_epoch_fence(region, 0), ORDO_ERR_PEER_DEAD);
    int one = 1;
    CHECK_STATUS(ordo_epoch_start(region, 1, &one, 0), ORDO_ERR_PEER_DEAD);
    free(payload);
    /* the survivor ends its part cleanly: ordorun must not report it as a
     * rank that never finalized */
    CHECK_OK(ordo_finalize());
    if (test_failures == 0)
        printf("p2p dead-peer checks passed\n");
    fflush(stdout);
    return test_result("test_p2p_dead");
}
