/* Where a one-sided transfer is copied when offload engines run (run with
 * ORDO_ENGINES=2 and the PIO limits left auto): a transfer the program
 * waits for alone is copied by the initiating CPU up to the lone limit; in
 * a run of transfers free to pass each other (relaxed, or default-mode
 * gets) the second and later go to the engines; a run whose order holds
 * each behind the one before (strict, default-mode puts) stays on the CPU
 * unless each transfer makes several engine chunks; past the lone limit a
 * transfer goes to the engines even alone, and into memory reached by the
 * kernel's single copy from four engine chunks, within the lone limit too.
 * The data arrives whichever way it went.  The limits come from ordo_setting_describe,
 * which is how a user sees them too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

#define RUN 8

static size_t pio_max, lone_max, chunk;

/* "32768 in a run ... ; up to 2097152 for one waited for alone ..." */
static int read_limits(void)
{
    char why[512];
    if (ordo_setting_describe("ORDO_PIO_MAX", why, sizeof(why)) != ORDO_OK)
        return 0;
    const char *upto = strstr(why, "; up to ");
    if (upto == NULL) {
        printf("test_placement: no auto limits here (%s)\n", why);
        return 0;
    }
    char chunk_s[64];
    if (ordo_setting_describe("ORDO_ENGINE_CHUNK", chunk_s, sizeof(chunk_s)) != ORDO_OK)
        return 0;
    chunk = strtoull(chunk_s, NULL, 10);
    pio_max = strtoull(why, NULL, 10);
    lone_max = strtoull(upto + 8, NULL, 10);
    return pio_max > 0 && pio_max <= lone_max && chunk > 0;
}

typedef struct { uint64_t pio, engine, kernel; } moved_t;

static moved_t moved(void)
{
    ordo_stats_t s;
    CHECK_OK(ordo_stats_get(&s));
    return (moved_t){s.pio_ops, s.engine_ops, s.single_copy_ops};
}

/* RUN (or one, alone) transfers of len to rank 1 on a stream of the order
 * given, then flush: how many the CPU and the engines copied. */
static moved_t transfer(ordo_order_t order, int get, int n, size_t len, ordo_region_h r,
                        char *local)
{
    ordo_stream_params_t p = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = order};
    ordo_stream_h s;
    CHECK_OK(ordo_stream_create(&p, &s));
    moved_t before = moved();
    for (int i = 0; i < n; i++) {
        size_t at = (size_t)i * len;
        ordo_status_t st = get ? ordo_get_nb(s, local + at, len, r, 1, at, 0, NULL)
                               : ordo_put_nb(s, local + at, len, r, 1, at, 0, NULL);
        CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);   /* implicit: done by the flush */
    }
    CHECK_OK(ordo_flush(s, 1));
    moved_t after = moved();
    CHECK_OK(ordo_stream_destroy(s));
    return (moved_t){after.pio - before.pio, after.engine - before.engine,
                     after.kernel - before.kernel};
}

static void expect(const char *what, moved_t m, uint64_t pio, uint64_t engine)
{
    if (m.pio != pio || m.engine != engine)
        fprintf(stderr, "%s: CPU %llu, engines %llu; expected %llu and %llu\n", what,
                (unsigned long long)m.pio, (unsigned long long)m.engine,
                (unsigned long long)pio, (unsigned long long)engine);
    CHECK(m.pio == pio && m.engine == engine);
}

/* Collective: a region over user memory, which rank 1's memory is reached
 * through by the kernel's single copy where the kernel allows it.  The
 * kernel copies slower than the CPU copies mapped memory, so a transfer
 * waited for alone goes to the engines from four chunks (shm.c), within
 * the lone limit too; below, the initiating CPU makes the call. */
static void kernel_copy(void)
{
    size_t len = 4 * chunk;
    char *mem = calloc(1, len), *local = malloc(len), *back = calloc(1, len);
    CHECK(mem != NULL && local != NULL && back != NULL);
    ordo_region_h r;
    REQUIRE_OK(ordo_region_create(mem, len, 0, &r));
    if (ordo_rank() == 0) {
        test_fill(local, len, 11);
        moved_t m = transfer(ORDO_ORDER_RELAXED, 0, 1, len - chunk, r, local);
        if (m.kernel == 0) {
            printf("test_placement: rank 1's memory is not reached by the kernel's single "
                   "copy here: that part skipped\n");
        } else {
            expect("kernel copy of three chunks, alone", m, 0, 0);
            if (len <= lone_max)   /* past it, every copy goes to the engines anyway */
                expect("kernel copy of four chunks, alone",
                       transfer(ORDO_ORDER_RELAXED, 0, 1, len, r, local), 0, 1);
            CHECK_OK(ordo_get(NULL, back, len, r, 1, 0, 0));
            CHECK(memcmp(back, local, len) == 0);
        }
    }
    CHECK_OK(ordo_barrier());
    CHECK_OK(ordo_region_free(r));
    free(mem);
    free(local);
    free(back);
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_size() != 2 || !read_limits()) {
        if (ordo_rank() == 0)
            printf("test_placement: needs 2 ranks on one machine, engines and auto PIO "
                   "limits: skipped\n");
        CHECK_OK(ordo_finalize());
        return test_result("test_placement");
    }
    /* a run's transfer lies above the PIO limit and within the lone one */
    size_t len = pio_max * 2 <= lone_max ? pio_max * 2 : lone_max;
    size_t big = lone_max * 2;
    size_t multi = chunk * 2;   /* several engine chunks, within the lone limit if it can */
    size_t size = RUN * len > big ? RUN * len : big;
    if (RUN * multi > size)
        size = RUN * multi;
    ordo_region_h r;
    void *base;
    REQUIRE_OK(ordo_region_alloc(size, 0, &r, &base));
    char *local = malloc(size);
    if (local == NULL) {
        fprintf(stderr, "test_placement: no memory for %zu bytes\n", size);
        return 100;
    }
    if (ordo_rank() == 0) {
        printf("test_placement: PIO %zu, alone %zu, engine chunk %zu; runs of %zu B\n", pio_max,
               lone_max, chunk, len);
        test_fill(local, size, 7);
        expect("relaxed put alone", transfer(ORDO_ORDER_RELAXED, 0, 1, len, r, local), 1, 0);
        expect("relaxed puts in a run", transfer(ORDO_ORDER_RELAXED, 0, RUN, len, r, local),
               1, RUN - 1);
        expect("default puts in a run", transfer(ORDO_ORDER_DEFAULT, 0, RUN, len, r, local),
               RUN, 0);
        expect("strict puts in a run", transfer(ORDO_ORDER_STRICT, 0, RUN, len, r, local),
               RUN, 0);
        /* a run held in order, of transfers of several chunks: the engines'
         * parallel chunks (the first, alone so far, on the CPU if it may) */
        if (multi <= lone_max)
            expect("default puts of several chunks in a run",
                   transfer(ORDO_ORDER_DEFAULT, 0, RUN, multi, r, local), 1, RUN - 1);
        /* what the runs wrote is there, read back by gets in a run */
        char *back = calloc(1, size);
        if (back == NULL) {
            fprintf(stderr, "test_placement: no memory for %zu bytes\n", size);
            return 100;
        }
        expect("default gets in a run", transfer(ORDO_ORDER_DEFAULT, 1, RUN, len, r, back),
               1, RUN - 1);
        CHECK(memcmp(back, local, RUN * len) == 0);
        /* a wait ends a run: the next transfer is alone again */
        expect("relaxed put after a flush", transfer(ORDO_ORDER_RELAXED, 0, 1, len, r, local),
               1, 0);
        /* past the lone limit the engines' parallel chunks take it */
        test_fill(local, big, 9);
        expect("relaxed put past the lone limit",
               transfer(ORDO_ORDER_RELAXED, 0, 1, big, r, local), 0, 1);
        memset(back, 0, big);
        CHECK_OK(ordo_get(NULL, back, big, r, 1, 0, 0));
        CHECK(memcmp(back, local, big) == 0);
        free(back);
    }
    CHECK_OK(ordo_barrier());
    free(local);
    CHECK_OK(ordo_region_free(r));
    kernel_copy();
    CHECK_OK(ordo_finalize());
    return test_result("test_placement");
}
