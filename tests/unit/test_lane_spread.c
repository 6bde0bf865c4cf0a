/* Whether large unordered transfers spread over the lanes (ofi_spread.h):
 * on a simulated clock, transfers move at one rate spread and another kept;
 * the learner must settle on the faster way, keep probing the other, follow
 * a change, leave the program's pauses out, and obey an explicit setting. */
#include <stdint.h>

#include "../harness.h"
#include "../../src/tl/ofi/ofi_spread.h"

#define MiB (1u << 20)

typedef struct sim {
    ofi_spread_t s;
    uint64_t     now;            /* ns */
    unsigned     spread_phases;  /* phases spent spreading, after the first four */
    unsigned     phases;
} sim_t;

/* Windows of w transfers of 1 MiB, all issued, then completing one after
 * another at rate[way] bytes per ns; before a window taken the way
 * pause_way, a pause of pause_ns (the program computing, nothing in
 * flight). */
static void run(sim_t *m, unsigned windows, unsigned w, const double rate[2],
                uint64_t pause_ns, int pause_way)
{
    for (unsigned k = 0; k < windows; k++) {
        int way = ofi_spread_now(&m->s);
        if (pause_way == way)
            m->now += pause_ns;
        for (unsigned i = 0; i < w; i++)
            ofi_spread_issued(&m->s, m->now);
        for (unsigned i = 0; i < w; i++) {
            m->now += (uint64_t)((double)MiB / rate[way]);
            if (ofi_spread_done(&m->s, MiB, m->now) && m->s.phases > 4) {
                m->phases++;
                m->spread_phases += (unsigned)ofi_spread_now(&m->s);
            }
        }
    }
}

int main(void)
{
    /* spreading 20% slower: kept but for the probes (1 phase in 8) */
    sim_t m = {0};
    ofi_spread_init(&m.s, OFI_SPREAD_AUTO);
    CHECK(ofi_spread_now(&m.s) == 1);   /* starts as before learning: spread */
    run(&m, 64, 16, (double[]){1.0, 0.8}, 0, -1);
    CHECK(m.phases >= 50);
    CHECK(m.spread_phases * OFI_SPREAD_PROBE_EVERY <= m.phases + OFI_SPREAD_PROBE_EVERY);
    CHECK(m.s.rate[0] > m.s.rate[1]);

    /* spreading 20% faster: spread but for the probes */
    m = (sim_t){0};
    ofi_spread_init(&m.s, OFI_SPREAD_AUTO);
    run(&m, 64, 16, (double[]){0.8, 1.0}, 0, -1);
    CHECK((m.phases - m.spread_phases) * OFI_SPREAD_PROBE_EVERY <=
          m.phases + OFI_SPREAD_PROBE_EVERY);

    /* the machine changes under it: keeping was faster, now spreading is;
     * the probes see it within a few rounds of them */
    m = (sim_t){0};
    ofi_spread_init(&m.s, OFI_SPREAD_AUTO);
    run(&m, 64, 16, (double[]){1.0, 0.5}, 0, -1);
    CHECK(ofi_spread_now(&m.s) == 0 || m.s.phases % OFI_SPREAD_PROBE_EVERY == 0);
    m.phases = m.spread_phases = 0;
    run(&m, 256, 16, (double[]){0.5, 1.0}, 0, -1);
    CHECK(m.s.rate[1] > m.s.rate[0]);
    CHECK(m.spread_phases * 2 > m.phases);

    /* pauses between windows are the program's, not the lanes': long ones
     * before every window kept must not make keeping look slower */
    m = (sim_t){0};
    ofi_spread_init(&m.s, OFI_SPREAD_AUTO);
    run(&m, 64, 16, (double[]){1.0, 0.8}, 50u * 1000 * 1000, 0);
    CHECK(m.s.rate[0] > m.s.rate[1]);
    CHECK(m.spread_phases * 2 < m.phases);

    /* a completion it did not see issued (none in flight) is ignored */
    ofi_spread_t s;
    ofi_spread_init(&s, OFI_SPREAD_AUTO);
    CHECK(ofi_spread_done(&s, 64u * MiB, 1000) == 0);
    CHECK(s.bytes == 0 && s.phases == 0);

    /* explicit settings are not learned */
    for (int setting = OFI_SPREAD_ON; setting <= OFI_SPREAD_OFF; setting++) {
        m = (sim_t){0};
        ofi_spread_init(&m.s, setting);
        unsigned changes = 0;
        int before = ofi_spread_now(&m.s);
        for (int k = 0; k < 8; k++) {
            run(&m, 8, 16, (double[]){setting == OFI_SPREAD_ON ? 2.0 : 0.5, 1.0}, 0, -1);
            changes += ofi_spread_now(&m.s) != before;
        }
        CHECK(before == (setting == OFI_SPREAD_ON));
        CHECK(changes == 0);
    }
    printf("lane spread: %d failure(s)\n", test_failures);
    return test_failures ? 1 : 0;
}
