#define _GNU_SOURCE
#include "bench_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifdef BENCH_MPI
#include <mpi.h>
#else
#include <ordo/ordo.h>
#endif

double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)floor(pos), hi = (int)ceil(pos);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

void bench_stats_compute(const double *samples, int n, bench_stats_t *out)
{
    memset(out, 0, sizeof(*out));
    if (n <= 0)
        return;
    double *s = malloc((size_t)n * sizeof(double));
    memcpy(s, samples, (size_t)n * sizeof(double));
    qsort(s, (size_t)n, sizeof(double), cmp_double);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += s[i];
    out->median = quantile(s, n, 0.5);
    out->p99 = quantile(s, n, 0.99);
    out->min = s[0];
    out->max = s[n - 1];
    out->mean = sum / n;
    free(s);
}

static void json_str(const char *key, const char *v, int comma)
{
    if (v == NULL)
        printf("\"%s\":null", key);
    else
        printf("\"%s\":\"%s\"", key, v);
    if (comma)
        putchar(',');
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c += 2;
                c[strcspn(c, "\n")] = '\0';
                for (char *p = c; *p; p++)
                    if (*p == '"' || *p == '\\')
                        *p = ' ';
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

static void emit_env(void)
{
    char cpu[256];
    struct utsname u;
    uname(&u);
    cpu_model(cpu, sizeof(cpu));
    const char *bind = getenv("ORDO_BINDING");
    char version[256];
#ifdef BENCH_MPI
    int vlen = 0;
    MPI_Get_library_version(version, &vlen);
    version[strcspn(version, "\n,\"")] = '\0';
#else
    snprintf(version, sizeof(version), "ordo %s", ORDO_VERSION_STRING);
#endif
    printf("\"env\":{\"library\":\"%s\",\"cpu\":\"%s\",\"cores\":%ld,\"kernel\":\"%s\","
           "\"host\":\"%s\",\"binding\":\"%s\",\"settings\":{",
           version, cpu, sysconf(_SC_NPROCESSORS_ONLN), u.release, u.nodename,
           bind ? bind : "none");
    /* the settings that change what is measured, for ordo and Open MPI */
    static const char *const names[] = {"ORDO_ORDER", "ORDO_PIO_MAX", "ORDO_ENGINES",
                                        "ORDO_ENGINE_CHUNK", "ORDO_TL", "ORDO_COLL_BARRIER",
                                        "ORDO_COLL_ALLTOALL", "OMPI_MCA_osc"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *v = getenv(names[i]);
        printf("%s\"%s\":", i ? "," : "", names[i]);
        if (v)
            printf("\"%s\"", v);
        else
            printf("null");
    }
    printf("}}");
}

static void emit_point(const bench_point_t *p)
{
    putchar('{');
    json_str("schema", BENCH_SCHEMA, 1);
    json_str("experiment", p->experiment, 1);
    json_str("impl", p->impl, 1);
    json_str("paradigm", p->paradigm, 1);
    json_str("variant", p->variant, 1);
    json_str("order", p->order, 1);
    printf("\"np\":%d,\"pairs\":%d,\"window\":%d,\"size\":%zu,", p->np, p->pairs, p->window,
           p->size);
    json_str("metric", p->metric, 1);
    json_str("unit", p->unit, 1);
}

void bench_skip(const bench_point_t *p, const char *reason)
{
    emit_point(p);
    printf("\"value\":null,\"stats\":null,\"samples\":[],");
    json_str("skipped", reason, 1);
    emit_env();
    printf("}\n");
    fflush(stdout);
}

void bench_emit(const bench_point_t *p, const double *samples, int n)
{
    bench_stats_t st;
    bench_stats_compute(samples, n, &st);
    emit_point(p);
    printf("\"value\":%.6g,\"stats\":{\"median\":%.6g,\"min\":%.6g,\"max\":%.6g,\"mean\":%.6g,"
           "\"p99\":%.6g,\"trials\":%d},\"samples\":[",
           st.median, st.median, st.min, st.max, st.mean, st.p99, n);
    for (int i = 0; i < n; i++)
        printf("%s%.6g", i ? "," : "", samples[i]);
    printf("],");
    emit_env();
    printf("}\n");
    fflush(stdout);
}

int bench_parse(int argc, char **argv, bench_opts_t *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: option %s needs a value\n", argv[0], a);
            return -1;
        }
        if (strcmp(a, "--variant") == 0) {
            o->variant = argv[++i];
            continue;
        }
        long v = strtol(argv[++i], NULL, 10);
        if (v < 0) {
            fprintf(stderr, "%s: %s must not be negative\n", argv[0], a);
            return -1;
        }
        if (strcmp(a, "--trials") == 0) o->trials = (int)v;
        else if (strcmp(a, "--iters") == 0) o->iters = (int)v;
        else if (strcmp(a, "--warmup") == 0) o->warmup = (int)v;
        else if (strcmp(a, "--window") == 0) o->window = (int)v;
        else if (strcmp(a, "--size") == 0) o->size = (size_t)v;
        else if (strcmp(a, "--pairs") == 0) o->pairs = (int)v;
        else {
            fprintf(stderr, "%s: unknown option %s\n", argv[0], a);
            return -1;
        }
    }
    if (o->trials < 1 || o->iters < 1 || o->window < 1) {
        fprintf(stderr, "%s: --trials, --iters and --window must be at least 1\n", argv[0]);
        return -1;
    }
    return 0;
}

int bench_scaled_iters(int iters, size_t size)
{
    if (size <= 8192)
        return iters;
    double n = (double)iters * 8192.0 / (double)size;
    return n < 20 ? 20 : (int)n;
}

char *bench_buffer(size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, size ? size : 1) != 0) {
        fprintf(stderr, "benchmark: cannot allocate %zu bytes\n", size);
        exit(1);
    }
    memset(p, 1, size);
    return p;
}
