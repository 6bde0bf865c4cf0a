/* Run under `ordorun --on-failure notify -n 2`: rank 1 dies; rank 0's
 * receives from it, from any source, and a rendezvous send to it fail with
 * ORDO_ERR_PEER_DEAD instead of hanging; so do a collective and the RMA
 * synchronisations that wait for it (a lock it held when it died, a fence,
 * a start), well before ORDO_EPOCH_TIMEOUT. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

int main(void)
{
    setenv("ORDO_EPOCH_TIMEOUT", "60", 1);
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_size() != 2) {
        fprintf(stderr, "run with -n 2\n");
        return 2;
    }
    ordo_region_h region;
    void *mem;
    REQUIRE_OK(ordo_region_alloc(64, ORDO_REGION_EPOCHS, &region, &mem));
    if (ordo_rank() == 1) {
        REQUIRE_OK(ordo_epoch_lock(region, ORDO_LOCK_EXCLUSIVE, 0, 0));
        REQUIRE_OK(ordo_barrier());
        _Exit(3);   /* dies without ordo_finalize */
    }
    char buf[64];
    ordo_request_h any, big;
    CHECK_STATUS(ordo_recv_nb(NULL, buf, sizeof(buf), ORDO_ANY_SOURCE, 1, &any), ORDO_INPROGRESS);
    char *payload = calloc(1, 1 << 20);
    CHECK_STATUS(ordo_send_nb(NULL, payload, 1 << 20, 1, 2, &big), ORDO_INPROGRESS);
    REQUIRE_OK(ordo_barrier());
    CHECK_STATUS(ordo_recv(NULL, buf, sizeof(buf), 1, 0, NULL), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_request_wait(&any, NULL), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_request_wait(&big, NULL), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_send(NULL, buf, 8, 1, 0), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_probe(NULL, 1, 0, NULL), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_coll_barrier(ORDO_COMM_WORLD), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_epoch_lock(region, ORDO_LOCK_SHARED, 0, 0), ORDO_ERR_PEER_DEAD);
    CHECK_STATUS(ordo_epoch_fence(region, 0), ORDO_ERR_PEER_DEAD);
    int one = 1;
    CHECK_STATUS(ordo_epoch_start(region, 1, &one, 0), ORDO_ERR_PEER_DEAD);
    free(payload);
    if (test_failures == 0)
        printf("p2p dead-peer checks passed\n");
    fflush(stdout);
    ordo_finalize();   /* fails: the job lost a rank */
    return test_result("test_p2p_dead");
}
