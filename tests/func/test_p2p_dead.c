/* Run under `ordorun --on-failure notify -n 2`: rank 1 dies; rank 0's
 * receives from it, from any source, and a rendezvous send to it fail with
 * ORDO_ERR_PEER_DEAD instead of hanging. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_size() != 2) {
        fprintf(stderr, "run with -n 2\n");
        return 2;
    }
    if (ordo_rank() == 1) {
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
    free(payload);
    if (test_failures == 0)
        printf("p2p dead-peer checks passed\n");
    fflush(stdout);
    ordo_finalize();   /* fails: the job lost a rank */
    return test_result("test_p2p_dead");
}
