#define _POSIX_C_SOURCE 200809L
/* The benchmark harness: statistics (median, min-of-averages, p99 by linear
 * interpolation, mean, max), option parsing and its errors, the iteration
 * scaling, and the JSON line it emits. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../harness.h"
#include "../../bench/bench_common.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * (fabs(b) + 1); }

static void statistics(void)
{
    bench_stats_t st;
    const double one[] = {4.0};
    bench_stats_compute(one, 1, &st);
    CHECK(st.median == 4.0 && st.min == 4.0 && st.max == 4.0 && st.p99 == 4.0 && st.mean == 4.0);

    /* unsorted input; the input is left as it was */
    double odd[] = {5, 1, 4, 2, 3};
    bench_stats_compute(odd, 5, &st);
    CHECK(st.median == 3 && st.min == 1 && st.max == 5 && near(st.mean, 3));
    CHECK(near(st.p99, 4.96));                        /* 1 + 0.99*4 = 4.96 -> 4 + 0.96 */
    CHECK(odd[0] == 5 && odd[4] == 3);

    const double even[] = {10, 40, 20, 30};
    bench_stats_compute(even, 4, &st);
    CHECK(near(st.median, 25) && st.min == 10 && st.max == 40 && near(st.mean, 25));
    CHECK(near(st.p99, 39.7));                        /* pos 2.97: 30 + 0.97*10 */

    double many[100];
    for (int i = 0; i < 100; i++)
        many[i] = 100 - i;                            /* 100 .. 1 */
    bench_stats_compute(many, 100, &st);
    CHECK(near(st.median, 50.5) && near(st.p99, 99.01) && st.min == 1 && st.max == 100);

    /* an outlier moves the mean and max, not the median or the minimum */
    const double noisy[] = {1.0, 1.1, 0.9, 1.0, 50.0};
    bench_stats_compute(noisy, 5, &st);
    CHECK(st.median == 1.0 && st.min == 0.9 && st.max == 50.0 && near(st.mean, 10.8));

    bench_stats_compute(NULL, 0, &st);
    CHECK(st.median == 0 && st.max == 0);
}

static int parse(bench_opts_t *o, int argc, char **argv)
{
    FILE *keep = stderr;
    stderr = fopen("/dev/null", "w");                 /* the messages are expected */
    int rc = bench_parse(argc, argv, o);
    fclose(stderr);
    stderr = keep;
    return rc;
}

static void options(void)
{
    bench_opts_t o = {.trials = 1, .iters = 1, .window = 1};
    char *ok[] = {"p", "--trials", "7", "--iters", "100", "--warmup", "3", "--window", "64",
                  "--size", "4096", "--pairs", "4", "--variant", "put-fence"};
    CHECK(parse(&o, 15, ok) == 0);
    CHECK(o.trials == 7 && o.iters == 100 && o.warmup == 3 && o.window == 64);
    CHECK(o.size == 4096 && o.pairs == 4 && strcmp(o.variant, "put-fence") == 0);

    bench_opts_t d = {.trials = 1, .iters = 1, .window = 1};
    char *unknown[] = {"p", "--bogus", "1"};
    CHECK(parse(&d, 3, unknown) != 0);
    char *no_value[] = {"p", "--size"};
    CHECK(parse(&d, 2, no_value) != 0);
    char *negative[] = {"p", "--iters", "-5"};
    CHECK(parse(&d, 3, negative) != 0);
    char *zero[] = {"p", "--trials", "0"};
    CHECK(parse(&d, 3, zero) != 0);
}

static void scaling(void)
{
    CHECK(bench_scaled_iters(1000, 8) == 1000);
    CHECK(bench_scaled_iters(1000, 8192) == 1000);
    CHECK(bench_scaled_iters(1000, 16384) == 500);
    CHECK(bench_scaled_iters(1000, 1u << 30) == 20);  /* never below 20 */
}

static void json_line(void)
{
    char path[] = "/tmp/ordo-bench-stats-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    const double samples[] = {2.0, 1.0, 3.0};
    bench_point_t p = {.experiment = "latency", .impl = "ordo", .paradigm = "two-sided",
                       .variant = NULL, .order = "relaxed", .np = 2, .pairs = 1, .window = 1,
                       .size = 8, .metric = "latency_us", .unit = "us"};
    bench_emit(&p, samples, 3);
    bench_skip(&p, "no such feature");
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char buf[8192] = {0};
    FILE *f = fdopen(fd, "r");
    rewind(f);
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    unlink(path);
    CHECK(n > 0);
    char *second = strchr(buf, '\n');
    CHECK(second != NULL);
    if (second == NULL)
        return;
    *second++ = '\0';
    CHECK(strstr(buf, "\"schema\":\"ordo-bench/1\"") == buf + 1);
    CHECK(strstr(buf, "\"variant\":null") && strstr(buf, "\"order\":\"relaxed\""));
    CHECK(strstr(buf, "\"value\":2,") && strstr(buf, "\"min\":1,") && strstr(buf, "\"trials\":3"));
    CHECK(strstr(buf, "\"samples\":[2,1,3]"));
    CHECK(strstr(buf, "\"env\":{\"library\":\"ordo "));
    CHECK(strstr(second, "\"value\":null") && strstr(second, "\"skipped\":\"no such feature\""));
}

int main(void)
{
    statistics();
    options();
    scaling();
    json_line();
    if (test_failures == 0)
        printf("test_bench_stats: ok\n");
    return test_failures > 100 ? 100 : test_failures;
}
