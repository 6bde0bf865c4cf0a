/* Headers a peer forges (it writes the memory they travel through) name
 * requests by token, never by address: rank 1 sends rank 0 rendezvous
 * control messages naming requests that do not exist, that finished long
 * ago, or that belong to another peer, and a record too short for a header.
 * Rank 0 ignores each, naming the sender, and the two ranks then exchange
 * messages of every protocol as if nothing happened (before tokens, the
 * first such header crashed the receiver).  Likewise messages whose header
 * claims more bytes than they carry (a short or eager message of 1 MiB in
 * an 8-byte record, or a message of no such protocol; a pipelined
 * request-to-send whose first fragment is longer than its message), on
 * the context and tag of the receive that follows: they match nothing
 * (before the check, that receive took 1 MiB from past the record). */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "../../src/p2p/p2p.h"

static void forge(int to, uint8_t type, uint8_t proto, uint64_t sreq, uint64_t rreq)
{
    p2p_hdr_t h = {.type = type, .proto = proto, .len = 4096, .sreq = sreq, .rreq = rreq};
    p2p_send_ctl(to, &h, NULL, 0);
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    int me = ordo_rank(), n = ordo_size();
    if (n != 2) {
        ordo_finalize();
        return test_result("test_p2p_forged (needs 2 ranks)");
    }
    enum { BIG = 1 << 20 };
    char *buf = calloc(1, BIG);
    /* a request of rank 0's that has finished: its token names nothing now */
    int x = 0;
    if (me == 0)
        CHECK_OK(ordo_recv(NULL, &x, sizeof(x), 1, 1, NULL));
    else
        CHECK_OK(ordo_send(NULL, &x, sizeof(x), 0, 1));
    if (me == 1) {
        const uint64_t forged[] = {
            0x1,                       /* slot 1, generation 0: never lent */
            (uint64_t)7 << 32,         /* slot 0, a generation it never had */
            0xdeadbeefcafef00dull,     /* an address-like value */
            (uint64_t)(uintptr_t)buf,  /* a real address of the sender */
            0xffffffffull,             /* the highest slot */
        };
        for (size_t i = 0; i < sizeof(forged) / sizeof(forged[0]); i++) {
            forge(0, P2P_CTS, PROTO_RGET, forged[i], forged[i]);
            forge(0, P2P_CTS, PROTO_SPLIT, forged[i], 0);
            forge(0, P2P_FIN, PROTO_RGET, forged[i], 0);
            forge(0, P2P_FIN, PROTO_SPLIT, 0, forged[i]);
            forge(0, P2P_FRAG, PROTO_PIPE, 0, forged[i]);
        }
        p2p_comm_t *world = NULL;
        CHECK_OK(p2p_comm_resolve(NULL, &world));
        const uint8_t protos[] = {PROTO_SHORT, PROTO_EAGER, PROTO_RGET, 0, 200};
        for (size_t i = 0; i < sizeof(protos); i++) {
            /* the sequence number of the next real message, which a
             * forged one taken in its place would stand for */
            p2p_hdr_t h = {.type = P2P_MSG, .proto = protos[i],
                           .comm = world ? world->id : 0, .tag = 2, .len = BIG,
                           .seq = world ? world->send_seq[0] : 0};
            p2p_send_ctl(0, &h, "8 bytes", 8);
            h.len = 7;   /* one byte short of what it carries */
            p2p_send_ctl(0, &h, "8 bytes", 8);
        }
        /* a pipelined request-to-send carrying more of its message than
         * the message has */
        p2p_hdr_t rts = {.type = P2P_RTS, .proto = PROTO_PIPE, .comm = world ? world->id : 0,
                         .tag = 2, .len = 7, .seq = world ? world->send_seq[0] : 0};
        p2p_send_ctl(0, &rts, "8 bytes", 8);
    }
    /* then real traffic, every size class, both ways */
    for (size_t len = 8; len <= BIG; len *= 16) {
        for (int round = 0; round < 2; round++) {
            int sender = round;
            memset(buf, me == sender ? 0x40 + (int)round : 0, len);
            if (me == sender) {
                CHECK_OK(ordo_send(NULL, buf, len, 1 - me, 2));
            } else {
                ordo_completion_t in;
                CHECK_OK(ordo_recv(NULL, buf, len, 1 - me, 2, &in));
                CHECK(in.length == len);
                CHECK(buf[0] == 0x40 + round && buf[len - 1] == 0x40 + round);
            }
        }
    }
    CHECK_OK(ordo_coll_barrier(NULL));
    free(buf);
    CHECK_OK(ordo_finalize());
    int rc = test_result("test_p2p_forged");
    if (me == 0 && rc == 0)
        printf("forged-header checks passed\n");
    return rc;
}
