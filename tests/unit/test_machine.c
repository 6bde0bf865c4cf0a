/* The auto choice of engines and PIO limit, on machines this one is not:
 * engines only on CPUs no rank or thread of the job uses, an explicit
 * setting always wins, and without engines the CPU copies every size.
 * The two-sided eager / single-copy crossover follows the measured cost
 * of the single copy, within the bounce buffers' size. */
#include <stdint.h>
#include <string.h>

#include "../harness.h"
#include "../../src/base/machine.h"

static long l2_of_machine;   /* the machines below: 0 (not reported) unless set */

static ordo_auto_choice_t choose(int cpus, int mine, int threads, double gbps, int ranks,
                                 int bind_rank, int engines, size_t pio)
{
    ordo_machine_t m = {.cpus = cpus, .cpus_mine = mine, .threads = threads,
                        .copy_GBps = gbps, .l2_bytes = l2_of_machine};
    ordo_auto_choice_t c;
    memset(&c, 0x5a, sizeof(c));
    ordo_auto_choose(&m, ranks, bind_rank, engines, pio, &c);
    return c;
}

int main(void)
{
    /* two ranks on two cores: no core left, no engine, PIO at every size */
    ordo_auto_choice_t c = choose(2, 1, 1, 20, 2, 0, -1, SIZE_MAX);
    CHECK(c.engines == 0);
    CHECK(c.pio_max == SIZE_MAX);
    CHECK(c.pio_lone_max == SIZE_MAX);
    CHECK(strstr(c.engines_why, "0 idle") != NULL);

    /* 2 ranks on 16 cores: 14 idle, 2 engines each, a PIO limit from the copy rate */
    c = choose(16, 1, 1, 10, 2, 0, -1, SIZE_MAX);
    CHECK(c.engines == 2);
    CHECK(c.pio_max == 8192);   /* 10 GB/s x 1 us hand-off = 10 KB -> 8 KiB */
    CHECK(c.pio_lone_max == (1u << 20));   /* L2 not reported: 1 MiB */
    CHECK(strstr(c.pio_why, "not reported") != NULL);
    l2_of_machine = 2 << 20;   /* the 16-core Xeon the limits were measured on */
    c = choose(16, 1, 1, 35.7, 2, 0, -1, SIZE_MAX);
    CHECK(c.pio_max == 32768 && c.pio_lone_max == (2u << 20));
    l2_of_machine = 256 << 10;  /* an L2 below the hand-off limit: never under pio_max */
    c = choose(16, 1, 1, 4000, 2, 0, -1, SIZE_MAX);
    CHECK(c.pio_lone_max == c.pio_max);
    l2_of_machine = 0;
    c = choose(16, 1, 1, 4000, 2, 0, -1, SIZE_MAX);
    CHECK(c.pio_max == (1u << 20));   /* clamped */
    c = choose(16, 1, 1, 0.5, 2, 0, -1, SIZE_MAX);
    CHECK(c.pio_max == 4096);         /* clamped */

    /* 16 ranks on 16 cores, or 4 ranks of 4 threads: none */
    CHECK(choose(16, 1, 1, 10, 16, 0, -1, SIZE_MAX).engines == 0);
    CHECK(choose(16, 4, 4, 10, 4, 0, -1, SIZE_MAX).engines == 0);
    /* 6 ranks on 8 cores: 2 idle shared by 6 ranks, none each */
    CHECK(choose(8, 1, 1, 10, 6, 0, -1, SIZE_MAX).engines == 0);
    /* 3 ranks on 8 cores: 5 idle, one each */
    CHECK(choose(8, 1, 1, 10, 3, 0, -1, SIZE_MAX).engines == 1);

    /* bound to the rank's own CPUs: what its threads leave */
    CHECK(choose(16, 1, 1, 10, 1, 1, -1, SIZE_MAX).engines == 0);
    CHECK(choose(16, 4, 1, 10, 1, 1, -1, SIZE_MAX).engines == 2);
    CHECK(choose(16, 4, 3, 10, 1, 1, -1, SIZE_MAX).engines == 1);

    /* explicit settings win, each on its own */
    c = choose(2, 1, 1, 10, 2, 0, 3, SIZE_MAX);
    CHECK(c.engines == 3 && c.pio_max == 8192);
    CHECK(strstr(c.engines_why, "ORDO_ENGINES") != NULL);
    c = choose(2, 1, 1, 10, 2, 0, -1, 0);
    CHECK(c.engines == 0 && c.pio_max == 0 && c.pio_lone_max == 0);
    c = choose(16, 1, 1, 10, 2, 0, -1, 100000);   /* one limit for every kind of transfer */
    CHECK(c.engines == 2 && c.pio_max == 100000 && c.pio_lone_max == 100000);
    CHECK(strstr(c.pio_why, "ORDO_PIO_MAX") != NULL);

    /* the crossover, CPU rate unmeasured (the second copy taken at the
     * kernel's rate): a 1.5 us single copy at 12 GB/s pays off above
     * 18 KB, rounded down to whole pages, within short..eager; no pipeline */
    ordo_machine_t sc = {.sc_us = 1.5, .sc_GBps = 12};
    ordo_auto_choice_t e;
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.eager_cross == 16384 && e.pipe_max == 0);
    CHECK(strstr(e.eager_why, "1.5 us") != NULL);
    sc.sc_us = 10;                                  /* a slow kernel: the bounce buffers */
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.eager_cross == 32768);
    sc.sc_us = 0.1;                                 /* a fast one: down to the short limit */
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.eager_cross == 8192);

    /* ranks (x threads) beyond the CPUs share them: a rendezvous is then
     * split only from the larger limit (ordo_rndv_split_from) */
    ordo_machine_t cores = {.cpus = 2, .threads = 1, .sc_us = 1.5, .sc_GBps = 12};
    ordo_auto_eager(&cores, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(!e.cores_shared);
    ordo_auto_eager(&cores, 3, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.cores_shared);
    cores.threads = 2;
    ordo_auto_eager(&cores, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.cores_shared);
    cores.cpus = 0;                                 /* not known: not taken as shared */
    ordo_auto_eager(&cores, 64, 8192, 32768, 0, 1, 0, &e);
    CHECK(!e.cores_shared);

    /* with the CPU's rate, a copy between cores at half of it: two copies
     * at 15 GB/s against 1.5 us + 12 GB/s cross at 1.5 / (2/15 - 1/12) us
     * = 30 KB, a page multiple: 28672; at 11 GB/s (CPU 22) at 15.2 KB:
     * 12288; at 30 (CPU 60) two copies win at every size */
    sc.sc_us = 1.5;
    sc.copy_GBps = 30;
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.eager_cross == 28672);
    sc.copy_GBps = 22;
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.eager_cross == 12288);
    sc.copy_GBps = 60;
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.eager_cross == 32768 && strstr(e.eager_why, "every size") != NULL);

    /* the pipeline: about one copy between cores (plus a fragment)
     * against the single copy; faster than the kernel, it serves every
     * size ... */
    CHECK(e.pipe_max == SIZE_MAX);
    /* ... slower, only while the single copy's fixed cost outweighs it:
     * at 8 GB/s (CPU 16) against 1.5 us + 12 GB/s not even at 64 KiB
     * (96K / 8 = 12.3 us > 1.5 + 5.5), so none */
    sc.copy_GBps = 16;
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.pipe_max == 0 && strstr(e.eager_why, "single copy") != NULL);
    /* against a 10 us single copy up to 128 KiB (160K / 8 = 20.5 <= 10 +
     * 128K / 12 = 20.9; 256 KiB: 36.9 > 31.8) */
    sc.sc_us = 10;
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.pipe_max == 128 * 1024);
    /* at 15 GB/s (CPU 30) always, but not past a split rendezvous that
     * copies at twice the kernel's rate from 256 KiB: 256 KiB 19.7 <= 20.9,
     * 512 KiB 37.1 > 31.8 */
    sc.copy_GBps = 30;
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.pipe_max == SIZE_MAX);
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 256 * 1024, &e);
    CHECK(e.pipe_max == 256 * 1024);
    /* a split from below 512 KiB counts from 512 KiB in this choice: at
     * 5 us + 12 GB/s a split from 128 KiB would end the pipeline at 64
     * KiB (128 KiB: 160K / 15 = 10.9 > 5 + 128K / 24 = 10.5); counted from
     * 512 KiB it serves up to 256 KiB (512 KiB: 37.1 > 5 + 512K / 24 =
     * 26.8), and without a split every size (37.1 < 5 + 512K / 12) */
    sc.sc_us = 5;
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 128 * 1024, &e);
    CHECK(e.pipe_max == 256 * 1024);
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.pipe_max == SIZE_MAX);
    sc.copy_GBps = 60;
    sc.sc_us = 1.5;

    /* more than two ranks on the machine: the CPU's rate is not counted
     * (the old crossover, 1.5 us x 12 GB/s = 18 KB: 16384) and nothing is
     * pipelined, however fast the CPU */
    ordo_auto_eager(&sc, 16, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.eager_cross == 16384 && e.pipe_max == 0);
    CHECK(strstr(e.eager_why, "16 ranks") != NULL);
    ordo_auto_eager(&sc, 3, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.pipe_max == 0);

    /* how lanes carry short messages: a reused buffer only where the CPU
     * owns the lines it wrote, up to 4 KiB; a spill ring of twice the L2
     * (1 MiB when unknown) above 1 KiB, smaller or none with many pairs */
    ordo_machine_t lm = {.l2_bytes = 1 << 20, .owns_read_lines = 1};
    ordo_auto_eager(&lm, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.hot_max == 4096 && e.spill_bytes == 2u << 20 && e.own_ahead == 0);
    CHECK(strstr(e.lane_why, "reused buffer") != NULL && strstr(e.lane_why, "2048 KiB") != NULL);
    lm.l2_bytes = 3 << 20;   /* a power of two at least twice it */
    ordo_auto_eager(&lm, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.hot_max == 4096 && e.spill_bytes == 8u << 20);
    ordo_auto_eager(&lm, 15, 8192, 32768, 0, 1, 0, &e);   /* 210 pairs: 2 MiB each */
    CHECK(e.spill_bytes == 2u << 20);
    ordo_auto_eager(&lm, 15, 1024, 32768, 0, 1, 0, &e);   /* short messages are small */
    CHECK(e.hot_max == 1024 && e.spill_bytes == 0 && strstr(e.lane_why, "small") != NULL);
    lm.owns_read_lines = 0;   /* neither measured faster: inline, the next lines asked for */
    ordo_auto_eager(&lm, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.hot_max == 0 && e.spill_bytes == 0 && e.own_ahead == 8192);
    CHECK(strstr(e.lane_why, "gives up the lines") != NULL);
    CHECK(e.demote == 0 && strstr(e.lane_why, "CLDEMOTE") == NULL);
    lm.demotes_lines = 1;   /* answers pushed to the shared cache */
    ordo_auto_eager(&lm, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.demote == 1 && strstr(e.lane_why, "CLDEMOTE") != NULL);
    CHECK(strstr(e.lane_why, "gives up the lines") != NULL);
    lm.demotes_lines = 0;
    ordo_auto_eager(&lm, 300, 256, 4096, 0, 1, 0, &e);
    CHECK(e.own_ahead == 256 && strstr(e.lane_why, "small") != NULL);
    lm.owns_read_lines = 1;
    ordo_auto_eager(&lm, 40, 256, 32768, 0, 1, 0, &e);
    CHECK(e.hot_max == 0 && e.spill_bytes == 0);
    ordo_auto_eager(&lm, 60, 2048, 32768, 0, 1, 0, &e);   /* 3540 pairs: under 256 KiB each */
    CHECK(e.spill_bytes == 0 && strstr(e.lane_why, "too many pairs") != NULL);

    /* explicit settings and refusals */
    ordo_auto_eager(&sc, 2, 8192, 32768, 1, 1, 0, &e);    /* ORDO_EAGER_MAX set: it wins */
    CHECK(e.eager_cross == 32768 && strstr(e.eager_why, "ORDO_EAGER_MAX") != NULL);
    CHECK(e.pipe_max == SIZE_MAX);                     /* the pipeline is chosen apart */
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 0, 0, &e);    /* ORDO_SINGLE_COPY=off */
    CHECK(e.eager_cross == 32768 && strstr(e.eager_why, "ORDO_SINGLE_COPY") != NULL);
    CHECK(e.pipe_max == SIZE_MAX);
    sc.sc_us = -1;                                  /* refused by the kernel */
    ordo_auto_eager(&sc, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.eager_cross == 32768 && strstr(e.eager_why, "refuses") != NULL);
    CHECK(e.pipe_max == SIZE_MAX);
    ordo_machine_t unmeasured = {0};
    ordo_auto_eager(&unmeasured, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.eager_cross == 32768 && e.pipe_max == 0);
    CHECK(e.bounce_rotate == 2u << 20);             /* L2 unknown: 1 MiB taken */
    unmeasured.l2_bytes = 2 << 20;
    ordo_auto_eager(&unmeasured, 2, 8192, 32768, 0, 1, 0, &e);
    CHECK(e.bounce_rotate == 4u << 20);

    /* The ranks of a machine agree on the median of what they measured:
     * two ranks that measured 12 and 14 GB/s choose alike from 13. */
    ordo_machine_t a = {.copy_GBps = 40, .sc_us = 1.5, .sc_GBps = 12};
    ordo_machine_rates_t two[2] = {{40, 1.5, 12}, {50, 0.5, 14}};
    ordo_machine_agree(&a, two, 2);
    CHECK(a.copy_GBps == 45 && a.sc_us == 1.0 && a.sc_GBps == 13);
    ordo_machine_t b = {.copy_GBps = 50, .sc_us = 0.5, .sc_GBps = 14};
    ordo_machine_agree(&b, two, 2);
    CHECK(memcmp(&a, &b, sizeof(a)) == 0);
    ordo_auto_choice_t ea, eb;
    ordo_auto_eager(&a, 2, 8192, 32768, 0, 1, 0, &ea);
    ordo_auto_eager(&b, 2, 8192, 32768, 0, 1, 0, &eb);
    CHECK(ea.eager_cross == eb.eager_cross && ea.pipe_max == eb.pipe_max);
    /* unmeasured (0), refused (< 0) and impossible values (NaN, infinite,
     * beyond any memory) are left out; an odd count takes the middle one */
    ordo_machine_rates_t odd[7] = {{0, 0, 0}, {30, 2, 10}, {0.0 / 0.0, -1, 0}, {1e300, 1e300, 1e300},
                                   {20, 1, 20}, {10, 3, 30}, {-5, 1.0 / 0.0, 7}};
    ordo_machine_t c2 = {.copy_GBps = 99, .sc_us = 9, .sc_GBps = 99};
    ordo_machine_agree(&c2, odd, 7);
    CHECK(c2.copy_GBps == 20 && c2.sc_us == 2 && c2.sc_GBps == 20);
    /* a rate nobody measured stays this rank's own; a kernel that refused
     * this process its single copy still refuses it */
    ordo_machine_rates_t none[2] = {{0, 0, 0}, {0, -1, 0}};
    ordo_machine_t d = {.copy_GBps = 33, .sc_us = 0.7, .sc_GBps = 18};
    ordo_machine_agree(&d, none, 2);
    CHECK(d.copy_GBps == 33 && d.sc_us == 0.7 && d.sc_GBps == 18);
    ordo_machine_t refused = {.copy_GBps = 33, .sc_us = -1};
    ordo_machine_agree(&refused, two, 2);
    CHECK(refused.sc_us == -1 && refused.sc_GBps == 0 && refused.copy_GBps == 45);
    ordo_machine_agree(&refused, NULL, 2);   /* nothing to agree with: unchanged */
    ordo_machine_agree(&refused, two, 0);
    CHECK(refused.copy_GBps == 45);

    /* the probe reads this machine: sane counts */
    ordo_machine_t m;
    ordo_machine_probe(&m);
    CHECK(m.cpus >= 1 && m.cpus_mine >= 1 && m.threads >= 1);
    CHECK(m.copy_GBps == 0);
    ordo_machine_measure_copy(&m);
    CHECK(m.copy_GBps > 0);
    ordo_machine_measure_single_copy(&m);
    CHECK(m.sc_us < 0 || (m.sc_us > 0 && m.sc_GBps > 0));
    return test_failures ? 1 : 0;
}
