/* socket_floor: what any library pays over loopback TCP (or UDP) on this
 * machine, with no library at all: two processes (a fork, bound to cores 0
 * and 1 where there are two) ping-pong a size-byte message over one socket,
 * each waiting as the MPI libraries and libfabric's tcp provider do (poll
 * with no timeout, then a non-blocking recv).  Prints the half round trip,
 * median of the trials, and the rate a window of W messages per round trip
 * would reach (a batched put window plus its flush answer is one round
 * trip).  Goals stated against a library's loopback TCP path cannot be
 * better than this floor.
 *   socket_floor [--udp] [--size B] [--iters N] [--trials T] [--window W]
 *                [--addr IPV4] */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void await(int s, char *buf, size_t len)
{
    struct pollfd p = {.fd = s, .events = POLLIN};
    size_t got = 0;
    while (got < len) {
        if (poll(&p, 1, 0) <= 0)
            continue;
        ssize_t n = recv(s, buf + got, len - got, MSG_DONTWAIT);
        if (n > 0)
            got += (size_t)n;
        else if (n == 0)
            exit(1);
    }
}

static void bind_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    (void)sched_setaffinity(0, sizeof(set), &set);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int udp = 0, iters = 20000, trials = 7, window = 64;
    size_t size = 8;
    const char *addr = "127.0.0.1";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--udp") == 0) udp = 1;
        else if (strcmp(a, "--size") == 0 && v) size = strtoul(v, NULL, 10), i++;
        else if (strcmp(a, "--iters") == 0 && v) iters = atoi(v), i++;
        else if (strcmp(a, "--trials") == 0 && v) trials = atoi(v), i++;
        else if (strcmp(a, "--window") == 0 && v) window = atoi(v), i++;
        else if (strcmp(a, "--addr") == 0 && v) addr = v, i++;
        else {
            fprintf(stderr, "usage: socket_floor [--udp] [--size B] [--iters N] [--trials T] "
                            "[--window W] [--addr IPV4]\n");
            return 2;
        }
    }
    if (size < 1 || size > 65000 || iters < 1 || trials < 1 || trials > 1000) {
        fprintf(stderr, "socket_floor: size 1..65000, iters and trials (1..1000) positive\n");
        return 2;
    }
    struct sockaddr_in sa = {.sin_family = AF_INET};
    if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
        fprintf(stderr, "socket_floor: '%s' is no IPv4 address\n", addr);
        return 2;
    }
    /* the listener (TCP) or both sockets (UDP) bound before the fork */
    int ls = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0), cs = -1;
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
        (!udp && listen(ls, 1) != 0)) {
        perror("socket_floor: bind");
        return 1;
    }
    struct sockaddr_in la;
    socklen_t lalen = sizeof(la);
    getsockname(ls, (struct sockaddr *)&la, &lalen);
    if (udp) {
        cs = socket(AF_INET, SOCK_DGRAM, 0);
        struct sockaddr_in ca = sa, cb;
        socklen_t cblen = sizeof(cb);
        bind(cs, (struct sockaddr *)&ca, sizeof(ca));
        getsockname(cs, (struct sockaddr *)&cb, &cblen);
        connect(cs, (struct sockaddr *)&la, sizeof(la));
        connect(ls, (struct sockaddr *)&cb, sizeof(cb));
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    pid_t child = fork();
    if (child < 0) {
        perror("socket_floor: fork");
        return 1;
    }
    int s;
    if (child == 0) {   /* the echoing side */
        if (ncpu > 1)
            bind_to(1);
        if (udp) {
            s = ls;
            close(cs);
        } else {
            s = socket(AF_INET, SOCK_STREAM, 0);
            if (connect(s, (struct sockaddr *)&la, sizeof(la)) != 0)
                _exit(1);
        }
    } else {
        if (ncpu > 1)
            bind_to(0);
        if (udp) {
            s = cs;
            close(ls);
        } else {
            s = accept(ls, NULL, NULL);
            close(ls);
        }
    }
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    char *buf = calloc(1, size);
    double *half = calloc((size_t)trials, sizeof(double));
    for (int t = -1; t < trials; t++) {
        int n = t < 0 ? iters / 10 + 1 : iters;
        double t0 = now_us();
        for (int i = 0; i < n; i++) {
            if (child == 0) {
                await(s, buf, size);
                if (send(s, buf, size, MSG_NOSIGNAL) != (ssize_t)size)
                    _exit(1);
            } else {
                if (send(s, buf, size, MSG_NOSIGNAL) != (ssize_t)size)
                    return 1;
                await(s, buf, size);
            }
        }
        if (t >= 0)
            half[t] = (now_us() - t0) / n / 2;
    }
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    qsort(half, (size_t)trials, sizeof(double), cmp);
    double med = half[trials / 2];
    printf("socket_floor %s %zu B: half round trip %.2f us (median of %d trials, min %.2f, "
           "max %.2f); a window of %d per round trip: %.3f M msg/s\n",
           udp ? "udp" : "tcp", size, med, trials, half[0], half[trials - 1], window,
           window / (2 * med));
    return 0;
}
