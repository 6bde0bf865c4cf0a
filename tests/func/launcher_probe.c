/* A program for the launcher tests (tests/python/test_ordorun.py).
 *   probe ok                 init, a region, barrier, finalize; prints rank/size/binding
 *   probe die R SIG          rank R raises SIG after init; the others wait in a barrier
 *   probe exit R CODE        rank R exits with CODE after init; the others wait
 *   probe abort R CODE       rank R calls ordo_abort(CODE); the others wait
 *   probe nofinalize R       rank R returns 0 without ordo_finalize
 *   probe wait               every rank waits in a barrier that never completes,
 *                            printing "ready" first (for signal tests)
 *   probe notify R           (with --on-failure notify) rank R dies; the others
 *                            report what their barrier returned
 *   probe size N             fails unless the job has N ranks (a launcher's job
 *                            must never become N singletons); then as "ok"
 *   probe transport          each rank prints the transport to every other rank:
 *                            "transport R -> S: text"
 *   probe late R MS          rank R comes to the barrier MS ms late; the others'
 *                            barrier times out (run with ORDO_BOOT_TIMEOUT=1), and
 *                            their next barrier waits for R; then everyone
 *                            allocates a region: "late R: first S1, second S2
 *                            after T ms, region ok"
 *   probe regions N          every rank keeps allocating 4 KiB regions, up to N or
 *                            the first failure, frees them all, allocates one more:
 *                            "regions R: kept K, last S, after ok"
 *   probe stuck R            rank R computes for ever outside ordo; the others
 *                            wait for a message from it in ordo_recv */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include <ordo/ordo.h>

static void on_signal(int sig)
{
    char msg[64];
    int len = snprintf(msg, sizeof(msg), "rank %d got signal %d\n", ordo_rank(), sig);
    if (write(1, msg, (size_t)len) < 0)
        _exit(3);
    _exit(3);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    const char *mode = argv[1];
    int who = argc > 2 ? atoi(argv[2]) : 0;
    int arg = argc > 3 ? atoi(argv[3]) : 0;
    if (ordo_init(NULL) != ORDO_OK)
        return 10;
    int me = ordo_rank();
    setvbuf(stdout, NULL, _IONBF, 0);
    if (strcmp(mode, "size") == 0 && ordo_size() != who) {
        printf("rank %d: job size %d, expected %d\n", me, ordo_size(), who);
        return 30;
    }
    if (strcmp(mode, "ok") == 0 || strcmp(mode, "size") == 0) {
        ordo_region_h r;
        void *base;
        if (ordo_region_alloc(1 << 16, 0, &r, &base) != ORDO_OK)
            return 11;
        printf("rank %d of %d binding %s\n", me, ordo_size(), getenv("ORDO_BINDING"));
        ordo_region_free(r);
        return ordo_finalize() == ORDO_OK ? 0 : 12;
    }
    if (strcmp(mode, "transport") == 0) {
        for (int s = 0; s < ordo_size(); s++) {
            char what[256];
            if (s != me && ordo_transport_describe(s, what, sizeof(what)) == ORDO_OK)
                printf("transport %d -> %d: %s (node %d of %d)\n", me, s, what,
                       ordo_node_of(s), ordo_node_count());
        }
        return ordo_finalize() == ORDO_OK ? 0 : 12;
    }
    if (strcmp(mode, "abort") == 0) {
        if (me == who) {
            ordo_abort(arg);
            return 40;   /* ordo_abort returned */
        }
        ordo_status_t st = ordo_barrier();
        printf("rank %d barrier: %s\n", me, ordo_status_string(st));
        ordo_finalize();
        return 0;
    }
    if (strcmp(mode, "die") == 0 || strcmp(mode, "exit") == 0 ||
        strcmp(mode, "nofinalize") == 0 || strcmp(mode, "notify") == 0) {
        if (me == who) {
            if (strcmp(mode, "die") == 0)
                raise(arg ? arg : SIGKILL);
            if (strcmp(mode, "exit") == 0)
                exit(arg);
            if (strcmp(mode, "notify") == 0)
                raise(SIGKILL);
            return 0;   /* nofinalize */
        }
        ordo_status_t st = ordo_barrier();
        printf("rank %d barrier: %s\n", me, ordo_status_string(st));
        ordo_finalize();
        return st == ORDO_ERR_PEER_DEAD ? 0 : 20;
    }
    if (strcmp(mode, "late") == 0) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        ordo_status_t first = ORDO_OK, second;
        if (me == who)
            usleep((useconds_t)arg * 1000);
        else
            first = ordo_barrier();
        second = ordo_barrier();
        clock_gettime(CLOCK_MONOTONIC, &t1);
        long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
        ordo_region_h r;
        void *base;
        ordo_status_t reg = ordo_region_alloc(1 << 16, 0, &r, &base);
        printf("late %d: first %s, second %s after %ld ms, region %s\n", me,
               ordo_status_string(first), ordo_status_string(second), ms,
               reg == ORDO_OK ? "ok" : ordo_status_string(reg));
        if (reg == ORDO_OK)
            ordo_region_free(r);
        return ordo_finalize() == ORDO_OK && reg == ORDO_OK && second == ORDO_OK ? 0 : 20;
    }
    if (strcmp(mode, "regions") == 0) {
        ordo_region_h *r = calloc((size_t)who, sizeof(*r));
        void *base;
        ordo_status_t last = ORDO_OK;
        int kept = 0;
        while (r && kept < who && (last = ordo_region_alloc(4096, 0, &r[kept], &base)) == ORDO_OK)
            kept++;
        for (int i = 0; i < kept; i++)
            ordo_region_free(r[i]);
        ordo_region_h again;
        ordo_status_t after = ordo_region_alloc(4096, 0, &again, &base);
        printf("regions %d: kept %d, last %s, after %s\n", me, kept, ordo_status_string(last),
               after == ORDO_OK ? "ok" : ordo_status_string(after));
        if (after == ORDO_OK)
            ordo_region_free(again);
        free(r);
        return ordo_finalize() == ORDO_OK && after == ORDO_OK ? 0 : 20;
    }
    if (strcmp(mode, "stuck") == 0) {
        printf("ready %d\n", me);
        if (me == who) {
            volatile unsigned long spin = 0;
            for (;;)
                spin++;
        }
        int x;
        ordo_status_t st = ordo_recv(NULL, &x, sizeof(x), who, 0, NULL);
        return st == ORDO_OK ? 0 : 20;
    }
    if (strcmp(mode, "wait") == 0) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        printf("ready %d\n", me);
        for (;;)
            pause();
    }
    return 2;
}
