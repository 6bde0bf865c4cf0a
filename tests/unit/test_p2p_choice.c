/* The eager / rendezvous choice for a message a bounce buffer holds:
 * alone above the crossover it goes by single copy; in a window of sends
 * the ones behind go eager (both CPUs copy at once), unless receives from
 * the same peer are posted here (then both CPUs copy anyway, and bounce
 * buffers would make each copy twice). */
#include <string.h>

#include "../harness.h"
#include "../../src/p2p/p2p.h"

int main(void)
{
    p2p_peer_t p;
    memset(&p, 0, sizeof(p));
    const size_t cross = 8192;
    /* at or below the crossover: eager, whatever the peer's state */
    CHECK(p2p_goes_eager(8192, cross, &p, 1));
    p.recvs_posted = 3;
    CHECK(p2p_goes_eager(4096, cross, &p, 1));
    p.recvs_posted = 0;
    /* alone above it: single copy */
    CHECK(!p2p_goes_eager(32768, cross, &p, 1));
    /* behind one of ours still being pulled: eager */
    p.band_out = 1;
    CHECK(p2p_goes_eager(32768, cross, &p, 1));
    /* ... unless we wait for messages from that peer too */
    p.recvs_posted = 64;
    CHECK(!p2p_goes_eager(32768, cross, &p, 1));
    /* no single copy to that peer, or none at all: eager */
    p.no_single_copy = 1;
    CHECK(p2p_goes_eager(32768, cross, &p, 1));
    p.no_single_copy = 0;
    CHECK(p2p_goes_eager(32768, cross, &p, 0));
    return test_result("test_p2p_choice");
}
