/* A region call that one rank never joins: the others' agreed step over the
 * runtime's own context gives up after ORDO_BOOT_TIMEOUT with
 * ORDO_ERR_TIMED_OUT, never waits for ever, and the job still ends
 * cleanly.  Run with 2 ranks and a short ORDO_BOOT_TIMEOUT.  Rank 1 waits
 * for rank 0's word before finalizing: its finalize is bounded by the same
 * setting, and would otherwise give up while rank 0 is still waiting. */

#include "../harness.h"

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_size() != 2) {
        fprintf(stderr, "run with 2 ranks\n");
        ordo_finalize();
        return 2;
    }
    if (ordo_rank() == 0) {
        double t0 = ordo_wtime();
        ordo_region_h r;
        void *addr;
        CHECK_STATUS(ordo_region_alloc(4096, 0, &r, &addr), ORDO_ERR_TIMED_OUT);
        double s = ordo_wtime() - t0;
        CHECK(s >= 1.0 && s < 30.0);   /* the setting's bound, not for ever */
        int done = 1;
        CHECK_OK(ordo_send(NULL, &done, sizeof(done), 1, 7));
    } else {
        /* rank 1 never calls it */
        int done = 0;
        CHECK_OK(ordo_recv(NULL, &done, sizeof(done), 0, 7, NULL));
        CHECK(done == 1);
    }
    CHECK_OK(ordo_finalize());
    return test_result("test_agree_timeout");
}
