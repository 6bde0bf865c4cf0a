#define _GNU_SOURCE
#include "bench_common.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench_build.h"

#ifdef BENCH_MPI
#include <mpi.h>
#elif defined(BENCH_OSHMEM)
#include <shmem.h>   /* another library's OpenSHMEM (bench_shmem.h) */
#else
#include <ordo/ordo.h>
#endif

#ifndef BENCH_COMPILER
#define BENCH_COMPILER "unknown"
#endif
#ifndef BENCH_CFLAGS
#define BENCH_CFLAGS ""
#endif

/* One rank's CPU list as the kernel reports it ("0", "0-3,8"). */
#define BENCH_CPUS_LEN 64
#define BENCH_MAX_BOUND_RANKS 1024

static bench_opts_t parsed;            /* what bench_parse saw */
static char *bindings;                 /* rank 0: np CPU lists of BENCH_CPUS_LEN */
static int   binding_ranks;

double bench_now_us(void)
{
#ifdef BENCH_MPI
    return MPI_Wtime() * 1e6;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
#endif
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

/* A JSON string: quotes, backslashes and every control character escaped
 * (library version strings hold tabs and newlines). */
static void json_string(const char *v)
{
    if (v == NULL) {
        fputs("null", stdout);
        return;
    }
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        switch (*p) {
        case '"':  fputs("\\\"", stdout); break;
        case '\\': fputs("\\\\", stdout); break;
        case '\n': fputs("\\n", stdout); break;
        case '\t': fputs("\\t", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        default:
            if (*p < 0x20)
                printf("\\u%04x", *p);
            else
                putchar(*p);
        }
    }
    putchar('"');
}

static void json_str(const char *key, const char *v, int comma)
{
    printf("\"%s\":", key);
    json_string(v);
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
                c += 1 + (c[1] == ' ');
                c[strcspn(c, "\n")] = '\0';
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

/* This process's allowed CPUs as a list of ranges. */
static void my_cpus(char *buf, size_t len)
{
    cpu_set_t set;
    buf[0] = '\0';
    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        snprintf(buf, len, "unknown");
        return;
    }
    size_t used = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int end = c;
        while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set))
            end++;
        int n = end > c ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", c, end)
                        : snprintf(buf + used, len - used, "%s%d", used ? "," : "", c);
        if (n < 0 || (size_t)n >= len - used) {
            snprintf(buf, len, "many");
            return;
        }
        used += (size_t)n;
        c = end;
    }
}

int bench_gather_bindings(void)
{
    char mine[BENCH_CPUS_LEN];
    my_cpus(mine, sizeof(mine));
    int me, np, ok;
#ifdef BENCH_MPI
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
#elif defined(BENCH_OSHMEM)
    me = shmem_my_pe();
    np = 1;   /* gathering needs symmetric memory: the records keep rank 0's */
#else
    me = ordo_rank();
    np = ordo_size();
#endif
    if (np > BENCH_MAX_BOUND_RANKS)   /* the records keep rank 0's alone then */
        np = 1;
    char *all = me == 0 ? calloc((size_t)np, BENCH_CPUS_LEN) : NULL;
    if (np == 1) {
        ok = 1;
        if (me == 0)
            memcpy(all, mine, BENCH_CPUS_LEN);
    } else {
#ifdef BENCH_MPI
        ok = MPI_Gather(mine, BENCH_CPUS_LEN, MPI_CHAR, all, BENCH_CPUS_LEN, MPI_CHAR, 0,
                        MPI_COMM_WORLD) == MPI_SUCCESS;
#elif defined(BENCH_OSHMEM)
        ok = 0;
#else
        ok = ordo_coll_gather(ORDO_COMM_WORLD, mine, BENCH_CPUS_LEN, all, 0) == ORDO_OK;
#endif
    }
    if (me != 0)
        return ok ? 0 : -1;
    if (!ok) {
        free(all);
        return -1;
    }
    for (int r = 0; r < np; r++)
        all[(size_t)r * BENCH_CPUS_LEN + BENCH_CPUS_LEN - 1] = '\0';
    bindings = all;
    binding_ranks = np;
    return 0;
}

/* "core" when every rank may run on one CPU only, "none" when every rank
 * may run on every online CPU, else "cpuset". */
static const char *binding_summary(void)
{
    if (binding_ranks == 0)
        return "unknown";
    char every[BENCH_CPUS_LEN];
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online > 1)
        snprintf(every, sizeof(every), "0-%ld", online - 1);
    else
        snprintf(every, sizeof(every), "0");
    int single = 1, all = 1;
    for (int r = 0; r < binding_ranks; r++) {
        const char *c = bindings + (size_t)r * BENCH_CPUS_LEN;
        single &= strpbrk(c, ",-") == NULL && strcmp(c, "unknown") != 0;
        all &= strcmp(c, every) == 0;
    }
    return single ? "core" : all ? "none" : "cpuset";
}

static void library_version(char *buf, size_t len)
{
#ifdef BENCH_MPI
    /* MPI's bound on the string (8 KiB in MPICH); the records keep its
     * first line, which names the library and its version. */
    char *v = calloc(1, MPI_MAX_LIBRARY_VERSION_STRING + 1);
    int vlen = 0;
    if (v == NULL || MPI_Get_library_version(v, &vlen) != MPI_SUCCESS) {
        snprintf(buf, len, "unknown MPI");
    } else {
        v[strcspn(v, "\n")] = '\0';
        snprintf(buf, len, "%s", v);
    }
    free(v);
#elif defined(BENCH_OSHMEM)
    char name[SHMEM_MAX_NAME_LEN];
    int major = 0, minor = 0;
    shmem_info_get_name(name);
    shmem_info_get_version(&major, &minor);
    snprintf(buf, len, "%s (OpenSHMEM %d.%d)", name, major, minor);
#else
    snprintf(buf, len, "ordo %s", ORDO_VERSION_STRING);
#endif
}

static void emit_env(void)
{
    char cpu[256], version[512];
    struct utsname u;
    uname(&u);
    cpu_model(cpu, sizeof(cpu));
    library_version(version, sizeof(version));
    fputs("\"env\":{", stdout);
    json_str("library", version, 1);
    json_str("cpu", cpu, 1);
    printf("\"cores\":%ld,", sysconf(_SC_NPROCESSORS_ONLN));
    json_str("kernel", u.release, 1);
    json_str("host", u.nodename, 1);
    json_str("binding", binding_summary(), 1);
#if !defined(BENCH_MPI) && !defined(BENCH_OSHMEM)
    /* what carries the data to the farthest rank (the MPI builds' path is
     * recorded by whoever forced it: ordo-bench --nodes) */
    char transport[256];
    if (ordo_size() > 1 && ordo_transport_describe(ordo_size() - 1, transport,
                                                    sizeof(transport)) == ORDO_OK)
        json_str("transport", transport, 1);
    /* what ordo chose where its settings say auto, with why: the figure
     * depends on it as much as on the settings given */
    static const char *const chosen[] = {"ORDO_ENGINES", "ORDO_PIO_MAX", "ORDO_EAGER_MAX"};
    fputs("\"chosen\":{", stdout);
    for (size_t i = 0; i < sizeof(chosen) / sizeof(chosen[0]); i++) {
        char value[512];
        if (ordo_setting_describe(chosen[i], value, sizeof(value)) != ORDO_OK)
            snprintf(value, sizeof(value), "?");
        printf("%s\"%s\":", i ? "," : "", chosen[i]);
        json_string(value);
    }
    fputs("},", stdout);
#endif
    fputs("\"bindings\":[", stdout);
    for (int r = 0; r < binding_ranks; r++) {
        if (r)
            putchar(',');
        json_string(bindings + (size_t)r * BENCH_CPUS_LEN);
    }
    fputs("],\"settings\":{", stdout);
    /* the settings that change what is measured, for ordo and the MPIs */
    static const char *const names[] = {"ORDO_ORDER", "ORDO_PIO_MAX", "ORDO_ENGINES",
                                        "ORDO_ENGINE_CHUNK", "ORDO_TL", "ORDO_COLL_BARRIER",
                                        "ORDO_COLL_ALLTOALL", "ORDO_OFI_PROVIDER",
                                        "ORDO_OFI_LANES", "ORDO_NODES", "ORDO_THREAD_LEVEL",
                                        "OMPI_MCA_osc",
                                        "OMPI_MCA_pml",
                                        "OMPI_MCA_btl", "MPIR_CVAR_CH4_NETMOD",
                                        "UCX_TLS"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        printf("%s\"%s\":", i ? "," : "", names[i]);
        json_string(getenv(names[i]));
    }
    printf("}}");
}

static void emit_point(const bench_point_t *p)
{
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
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
    printf("\"iters\":%d,\"warmup\":%d,", p->iters ? p->iters : parsed.iters,
           p->warmup ? p->warmup : parsed.warmup);
    json_str("timestamp", stamp, 1);
    fputs("\"build\":{", stdout);
    json_str("commit", BENCH_GIT_COMMIT, 1);
    json_str("compiler", BENCH_COMPILER " (" __VERSION__ ")", 1);
    json_str("flags", BENCH_CFLAGS, 0);
    fputs("},", stdout);
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
        const char *text = argv[++i];
        char *end;
        long v = strtol(text, &end, 10);
        if (end == text || *end != '\0') {
            fprintf(stderr, "%s: %s takes a whole number, not '%s'\n", argv[0], a, text);
            return -1;
        }
        if (v < 0 || v > (1L << 40)) {
            fprintf(stderr, "%s: %s %ld is out of range\n", argv[0], a, v);
            return -1;
        }
        if (strcmp(a, "--trials") == 0) o->trials = (int)v;
        else if (strcmp(a, "--iters") == 0) o->iters = (int)v, o->iters_given = 1;
        else if (strcmp(a, "--warmup") == 0) o->warmup = (int)v, o->warmup_given = 1;
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
    parsed = *o;
    return 0;
}

int bench_scaled_iters(int iters, size_t size)
{
    if (size <= 8192)
        return iters;
    double n = (double)iters * 8192.0 / (double)size;
    return n < 20 ? 20 : (int)n;
}

double bench_warm_up(bench_trial_fn trial, void *arg, int warm, double (*agree)(double))
{
    double spent = 0, pace = 0;
    for (int done = 0, n = 1; done < warm && spent < BENCH_TRIAL_BUDGET_US; n *= 2) {
        if (n > warm - done)
            n = warm - done;
        double us = trial(arg, n);
        if (agree)
            us = agree(us);
        spent += us;
        done += n;
        pace = us / n;
    }
    return pace;
}

int bench_budget_iters(int iters, double pace_us)
{
    if (pace_us <= 0)
        return iters;
    double fit = BENCH_TRIAL_BUDGET_US / pace_us;
    if (fit >= iters)
        return iters;
    return fit < 10 ? 10 : (int)fit;
}

int bench_osu_iters(const bench_opts_t *o, int small, int large)
{
    return o->iters_given ? o->iters : o->size > 8192 ? large : small;
}

int bench_osu_warmup(const bench_opts_t *o, int small, int large)
{
    return o->warmup_given ? o->warmup : o->size > 8192 ? large : small;
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
