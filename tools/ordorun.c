/* ordorun — start N local ranks of a program and serve their bootstrap.
 *
 * Each rank gets one end of a SOCK_SEQPACKET socket pair (inherited, no path
 * in the filesystem), its rank and size in the environment, and optionally a
 * core binding (hwloc).  ordorun answers key/value, barrier and descriptor
 * requests, forwards INT/TERM/HUP, and watches every rank through a pidfd:
 * when one dies abnormally the job ends (or, with --on-failure notify, the
 * survivors' pending and later requests fail with ORDO_ERR_PEER_DEAD). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <hwloc.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ordo/status.h>
#include <ordo/version.h>
#include "../src/base/activity.h"
#include "../src/boot/boot_proto.h"
#include "ordorun.h"
#include "ordorun_output.h"

ordorun_job_t job;

void die_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ordorun: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}


static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ordorun -n N [options] prog [args...]\n"
            "Start N ranks of prog on this machine and serve their bootstrap.\n"
            "  -n N, -np N, --np N  number of ranks to start (1 to 4096)\n"
            "  --nodes K            split the ranks into K groups that share no memory, as K\n"
            "                       nodes would (ranks r*K/N share a group: blocks of\n"
            "                       consecutive ranks); between groups only the network\n"
            "                       transport (ofi) is used (default 1)\n"
            "  --netns              (root) each group in a network namespace of its own,\n"
            "                       with an eth0 on a private bridge (10.77.0.0/16);\n"
            "                       removed by the kernel when the job ends, however it ends\n"
            "  --bind core|none     bind rank r to core r mod cores (default core)\n"
            "  --on-failure MODE    abort: end the job when a rank dies (default);\n"
            "                       notify: tell the survivors (their waits fail)\n"
            "  --timeout SECONDS    end the job after SECONDS (default: ORDO_TIMEOUT, else\n"
            "                       none), naming the ordo call each rank waits in; exit\n"
            "                       status 124\n"
            "  -x NAME[=VALUE]      set NAME to VALUE in every rank; without =VALUE, pass\n"
            "                       ordorun's own NAME (ranks inherit ordorun's environment\n"
            "                       anyway: accepted as mpirun accepts it); repeatable\n"
            "  --tag-output         prefix every line a rank writes with \"[rank] \"\n"
            "                       (stdout stays stdout, stderr stays stderr)\n"
            "  -v, --verbose        print what the launcher does\n"
            "  --version            print ordo's version and exit\n"
            "  -h, --help           print this help and exit\n"
            "exit status: 0 when every rank exited 0; otherwise the first non-zero status\n"
            "of a rank (128 + signal for a rank killed by a signal, or for a signal sent to\n"
            "ordorun); 124 when the job ran past --timeout; 127 when prog cannot be run;\n"
            "2 for a usage error; 1 when the launcher itself failed (it says why).\n");
}

/* -x NAME[=VALUE]: 0, or -1 after saying what is wrong. */
/* The launcher holds a socket and a pidfd per rank (and two pipes with
 * --tag-output), and polls them all: raise the soft descriptor limit to what
 * that takes, or say that the hard limit is too low, before starting any. */
static int ensure_descriptors(void)
{
    rlim_t per = job.tag_output ? 4 : 2, base = (rlim_t)job.n * per + 64;
    rlim_t want = base + (rlim_t)job.n * 1024;   /* room for the ranks' region descriptors */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    if (rl.rlim_cur < want) {
        struct rlimit up = rl;
        up.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &up) == 0)
            rl = up;
    }
    if (rl.rlim_cur < base + (rlim_t)job.n * 16) {
        die_msg("-n %d needs at least %llu open descriptors (%d per rank, and room for the "
                "ranks' regions), but the limit (ulimit -n) is %llu; raise it, or start fewer "
                "ranks", job.n, (unsigned long long)(base + (rlim_t)job.n * 16), (int)per,
                (unsigned long long)(rl.rlim_max == RLIM_INFINITY ? rl.rlim_cur : rl.rlim_max));
        return -1;
    }
    job.fd_quota = (int)((rl.rlim_cur - base) / (rlim_t)job.n);
    return 0;
}

/* --timeout / ORDO_TIMEOUT: seconds (fractions allowed), 0 for none. */
static int parse_timeout(const char *text, const char *what)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v >= 0) || v > 1e9) {
        die_msg("%s takes a number of seconds (0: no limit), not '%s'", what, text);
        return -1;
    }
    job.timeout_ms = (int64_t)(v * 1000);
    if (v > 0 && job.timeout_ms == 0)
        job.timeout_ms = 1;
    return 0;
}

static int add_env_option(const char *arg)
{
    size_t name_len = strcspn(arg, "=");
    int valid = name_len > 0 && (arg[0] == '_' || (arg[0] >= 'A' && arg[0] <= 'Z') ||
                                 (arg[0] >= 'a' && arg[0] <= 'z'));
    for (size_t i = 1; valid && i < name_len; i++)
        valid = arg[i] == '_' || (arg[i] >= 'A' && arg[i] <= 'Z') ||
                (arg[i] >= 'a' && arg[i] <= 'z') || (arg[i] >= '0' && arg[i] <= '9');
    if (!valid) {
        die_msg("-x takes NAME or NAME=VALUE with NAME a variable name, not '%s'", arg);
        return -1;
    }
    if (arg[name_len] == 0) {
        if (getenv(arg) == NULL)
            die_msg("-x %s: not set here, so the ranks will not have it either", arg);
        return 0;       /* inherited */
    }
    char **grown = realloc(job.env_set, (size_t)(job.n_env_set + 1) * sizeof(char *));
    if (grown == NULL) {
        die_msg("out of memory");
        return -1;
    }
    job.env_set = grown;
    job.env_set[job.n_env_set++] = (char *)arg;
    return 0;
}

/* ------------------------------------------------------------- processes */


/* The job lost rank (code: its status for the job): say so once, then end
 * the job, or with --on-failure notify tell the survivors. */
void rank_failed(int rank, int code, const char *how)
{
    if (job.job_status == 0)
        job.job_status = code;
    if (job.ending)
        return;   /* a consequence of the teardown, not news */
    die_msg("rank %d (pid %d) %s", rank, (int)job.ranks[rank].pid, how);
    if (job.health)
        __atomic_store_n(&job.health[rank], 1, __ATOMIC_RELEASE);
    if (job.notify) {
        job.dead_count++;
        fail_waiters(ORDO_ERR_PEER_DEAD);
    } else {
        die_msg("ending the job");
        begin_ending(SIGTERM);
    }
}

/* The job ran past --timeout: say where each rank is, from the slot it
 * stamps while it waits inside ordo (a slot is only text from a rank: read
 * it as such, bounded). */
static void report_timeout(void)
{
    die_msg("the job ran past its time limit (--timeout %.3g s); ending it",
            (double)job.timeout_ms / 1000);
    int64_t now = now_ms();
    for (int r = 0; r < job.n; r++) {
        if (job.ranks[r].state == RANK_EXITED)
            continue;
        const ordo_activity_slot_t *s =
            (const ordo_activity_slot_t *)(job.activity + (size_t)r * ORDO_ACTIVITY_SLOT);
        uint64_t stamp = job.activity ? __atomic_load_n(&s->stamp_ms, __ATOMIC_ACQUIRE) : 0;
        char call[ORDO_ACTIVITY_CALL_MAX];
        size_t k = 0;
        if (job.activity)
            for (; k + 1 < sizeof(call); k++) {
                char ch = s->call[k];
                if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_'))
                    break;
                call[k] = ch;
            }
        call[k] = '\0';
        int64_t age = stamp ? now - (int64_t)stamp : -1;
        if (stamp == 0 || k == 0)
            die_msg("rank %d (pid %d): never waited inside ordo (it computes, or is blocked "
                    "outside ordo)", r, (int)job.ranks[r].pid);
        else if (age < 1000)
            die_msg("rank %d (pid %d): waiting inside %s", r, (int)job.ranks[r].pid, call);
        else
            die_msg("rank %d (pid %d): not inside ordo (it computes, or is blocked outside "
                    "ordo); it last waited in %s %.1f s ago", r, (int)job.ranks[r].pid, call,
                    (double)age / 1000);
    }
}

static void signal_all(int sig)
{
    for (int r = 0; r < job.n; r++)
        if (job.ranks[r].state != RANK_EXITED)
            kill(job.ranks[r].pid, sig);
}

void begin_ending(int sig)
{
    if (!job.ending) {
        job.ending = 1;
        job.kill_deadline = now_ms() + TERM_GRACE_MS;
    }
    signal_all(sig);
}

static void reap(int rank)
{
    rank_proc_t *rp = &job.ranks[rank];
    int status;
    pid_t w;
    do {
        w = waitpid(rp->pid, &status, WNOHANG);
    } while (w < 0 && errno == EINTR);
    if (w != rp->pid)
        return;
    enum rank_state before = rp->state;
    rp->state = RANK_EXITED;
    close(rp->pidfd);
    rp->pidfd = -1;

    char how[128];
    int code = 0;
    if (WIFSIGNALED(status)) {
        code = 128 + WTERMSIG(status);
        snprintf(how, sizeof(how), "was killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else if (WEXITSTATUS(status) != 0) {
        code = WEXITSTATUS(status);
        snprintf(how, sizeof(how), "exited with status %d", code);
    } else if (before == RANK_INITIALIZED) {
        code = 1;
        snprintf(how, sizeof(how), "exited (status 0) without calling ordo_finalize");
    } else if (before == RANK_STARTED && job.joined > 0) {
        code = 1;
        snprintf(how, sizeof(how), "exited (status 0) without calling ordo_init, which the "
                                   "other ranks wait for");
    } else if (before == RANK_STARTED && job.unjoined_exit < 0) {
        job.unjoined_exit = rank;   /* news only if another rank joins */
    }
    if (job.verbose)
        die_msg("rank %d (pid %d) ended: %s", rank, (int)rp->pid, code ? how : "normally");
    if (code != 0)
        rank_failed(rank, code, how);
}

static pid_t start_rank(int rank, int child_sock, hwloc_topology_t topo, int nunits,
                        hwloc_obj_type_t unit, char **argv)
{
    char binding[64] = "none";
    hwloc_obj_t obj = NULL;
    if (job.bind && nunits > 0) {
        obj = hwloc_get_obj_by_type(topo, unit, (unsigned)(rank % nunits));
        snprintf(binding, sizeof(binding), "%s:%u", unit == HWLOC_OBJ_CORE ? "core" : "pu",
                 obj ? obj->logical_index : 0);
    }
    pid_t launcher = getpid();
    pid_t pid = fork();
    if (pid != 0)
        return pid;

    /* child */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);   /* never outlive a killed launcher */
    if (getppid() != launcher)
        _exit(127);
    int flags = fcntl(child_sock, F_GETFD);
    fcntl(child_sock, F_SETFD, flags & ~FD_CLOEXEC);
    char s[32];
    snprintf(s, sizeof(s), "%d", rank);
    setenv(ORDO_ENV_RANK, s, 1);
    snprintf(s, sizeof(s), "%d", job.n);
    setenv(ORDO_ENV_SIZE, s, 1);
    snprintf(s, sizeof(s), "%d", child_sock);
    setenv(ORDO_ENV_BOOT_FD, s, 1);
    snprintf(s, sizeof(s), "%d", job.nodes);
    setenv(ORDO_ENV_NODES, s, 1);
    if (job.netns) {
        int group = (int)((long long)rank * job.nodes / job.n);
        if (ordorun_net_enter(&job.net, group) < 0) {
            fprintf(stderr, "ordorun: rank %d: cannot join group %d's network namespace: %s\n",
                    rank, group, strerror(errno));
            _exit(127);
        }
        setenv("ORDO_OFI_DOMAIN", "eth0", 0);   /* the group's link, not its loopback */
    }
    setenv(ORDO_ENV_BINDING, binding, 1);
    for (int i = 0; i < job.n_env_set; i++)
        putenv(job.env_set[i]);     /* "NAME=VALUE" from argv, which outlives the exec */
    if (job.tag_output)
        ordorun_tag_child(rank);
    if (obj && hwloc_set_cpubind(topo, obj->cpuset, HWLOC_CPUBIND_PROCESS) < 0)
        fprintf(stderr, "ordorun: rank %d: could not bind to %s: %s\n", rank, binding,
                strerror(errno));
    execvp(argv[0], argv);
    fprintf(stderr, "ordorun: rank %d: cannot run '%s': %s\n", rank, argv[0], strerror(errno));
    _exit(127);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"np", required_argument, NULL, 'n'},
        {"nodes", required_argument, NULL, 'N'},
        {"netns", no_argument, NULL, 'S'},
        {"bind", required_argument, NULL, 'b'},
        {"on-failure", required_argument, NULL, 'f'},
        {"timeout", required_argument, NULL, 't'},
        {"verbose", no_argument, NULL, 'v'},
        {"tag-output", no_argument, NULL, 'T'},
        {"version", no_argument, NULL, 'V'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    job.n = -1;
    job.unjoined_exit = -1;
    job.nodes = 1;
    const char *env_timeout = getenv("ORDO_TIMEOUT");
    if (env_timeout && *env_timeout && parse_timeout(env_timeout, "ORDO_TIMEOUT") < 0)
        return 2;
    job.bind = 1;
    int c;
    /* long-only parsing: -np works as mpirun users type it, while -n, -x, -v
     * and -h stay short options */
    while ((c = getopt_long_only(argc, argv, "+n:x:vh", opts, NULL)) != -1) {
        switch (c) {
        case 'n': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 4096) {
                die_msg("-n takes a rank count from 1 to 4096, not '%s'", optarg);
                return 2;
            }
            job.n = (int)v;
            break;
        }
        case 'N': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 4096) {
                die_msg("--nodes takes a group count from 1 to 4096, not '%s'", optarg);
                return 2;
            }
            job.nodes = (int)v;
            break;
        }
        case 'S': job.netns = 1; break;
        case 'b':
            if (strcmp(optarg, "core") == 0)
                job.bind = 1;
            else if (strcmp(optarg, "none") == 0)
                job.bind = 0;
            else {
                die_msg("--bind takes core or none, not '%s'", optarg);
                return 2;
            }
            break;
        case 'f':
            if (strcmp(optarg, "abort") == 0)
                job.notify = 0;
            else if (strcmp(optarg, "notify") == 0)
                job.notify = 1;
            else {
                die_msg("--on-failure takes abort or notify, not '%s'", optarg);
                return 2;
            }
            break;
        case 't':
            if (parse_timeout(optarg, "--timeout") < 0)
                return 2;
            break;
        case 'v': job.verbose = 1; break;
        case 'T': job.tag_output = 1; break;
        case 'x':
            if (add_env_option(optarg) < 0)
                return 2;
            break;
        case 'V': printf("ordorun (ordo) %s\n", ORDO_VERSION_STRING); return 0;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (job.n < 1 || optind >= argc) {
        usage(stderr);
        return 2;
    }
    if (job.nodes > job.n) {
        die_msg("--nodes %d: more groups than the %d ranks", job.nodes, job.n);
        return 2;
    }
    if (ensure_descriptors() != 0)
        return 1;
    if (job.netns) {
        char err[256];
        if (ordorun_net_create(&job.net, job.nodes, err, sizeof(err)) != 0) {
            die_msg("--netns: %s", err);
            return 2;
        }
        if (job.verbose)
            die_msg("%d group network namespace%s on a private bridge", job.nodes,
                    job.nodes > 1 ? "s" : "");
    }
    char **prog = &argv[optind];

    hwloc_topology_t topo = NULL;
    int nunits = 0;
    hwloc_obj_type_t unit = HWLOC_OBJ_CORE;
    if (job.bind) {
        if (hwloc_topology_init(&topo) < 0 || hwloc_topology_load(topo) < 0) {
            die_msg("hwloc could not read the topology; running unbound");
            job.bind = 0;
        } else {
            nunits = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
            if (nunits <= 0) {
                unit = HWLOC_OBJ_PU;
                nunits = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
            }
            if (job.n > nunits && job.verbose)
                die_msg("%d ranks on %d cores: oversubscribed", job.n, nunits);
        }
    }

    job.ranks = calloc((size_t)job.n, sizeof(rank_proc_t));
    job.buf = malloc(ORDO_BOOT_MSG_MAX);
    struct pollfd *pfds = calloc((size_t)(4 * job.n + 1), sizeof(struct pollfd));
    if (!job.ranks || !job.buf || !pfds || (job.tag_output && ordorun_tag_open(job.n) < 0)) {
        die_msg("out of memory");
        return 1;
    }

    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGHUP);
    sigaddset(&mask, SIGQUIT);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC);
    if (sfd < 0) {
        die_msg("signalfd: %s", strerror(errno));
        return 1;
    }

    /* The health page: ranks map it read-only and learn of a dead peer
     * without asking us. */
    /* sealed once mapped here: a rank can map it only read-only, so no
     * rank can mark another dead */
    int hfd = memfd_create("ordo-health", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (hfd < 0 || ftruncate(hfd, job.n) < 0 ||
        (job.health = mmap(NULL, (size_t)job.n, PROT_READ | PROT_WRITE, MAP_SHARED, hfd, 0)) ==
            MAP_FAILED ||
        kv_store(ORDO_BOOT_HEALTH_KEY, NULL, 0, hfd, -1, 0) ||
        fcntl(hfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE) < 0) {
        die_msg("cannot create the job's health page: %s", strerror(errno));
        return 1;
    }
    /* The activity page: each rank stamps its own slot while it waits, so
     * that a job past --timeout can be told where it is stuck */
    size_t alen = (size_t)job.n * ORDO_ACTIVITY_SLOT;
    int afd = memfd_create("ordo-activity", MFD_CLOEXEC);
    if (afd < 0 || ftruncate(afd, (off_t)alen) < 0 ||
        (job.activity = mmap(NULL, alen, PROT_READ, MAP_SHARED, afd, 0)) == MAP_FAILED ||
        kv_store(ORDO_BOOT_ACTIVITY_KEY, NULL, 0, afd, -1, 0)) {
        die_msg("cannot create the job's activity page: %s", strerror(errno));
        return 1;
    }
    if (job.timeout_ms)
        job.deadline = now_ms() + job.timeout_ms;

    int started = 0;
    for (int r = 0; r < job.n; r++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
            die_msg("socketpair: %s", strerror(errno));
            job.job_status = 1;
            break;
        }
        int one = 1;
        setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));
        fcntl(sv[0], F_SETFL, O_NONBLOCK);
        if (job.tag_output && ordorun_tag_pipes(r) < 0) {
            die_msg("--tag-output: pipe: %s", strerror(errno));
            close(sv[0]);
            close(sv[1]);
            job.job_status = 1;
            break;
        }
        pid_t pid = start_rank(r, sv[1], topo, nunits, unit, prog);
        close(sv[1]);
        if (job.tag_output)
            ordorun_tag_parent(r);
        if (pid < 0) {
            die_msg("fork: %s", strerror(errno));
            close(sv[0]);
            job.job_status = 1;
            break;
        }
        job.ranks[r].pid = pid;
        job.ranks[r].sock = sv[0];
        job.ranks[r].pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        job.ranks[r].state = RANK_STARTED;
        if (job.ranks[r].pidfd < 0) {
            die_msg("pidfd_open: %s", strerror(errno));
            job.job_status = 1;
            started = r + 1;
            break;
        }
        started = r + 1;
    }
    for (int r = started; r < job.n; r++)
        job.ranks[r] = (rank_proc_t){.pid = -1, .sock = -1, .pidfd = -1, .state = RANK_EXITED};
    if (job.job_status != 0)
        begin_ending(SIGTERM);

    for (;;) {
        int alive = 0;
        nfds_t np = 0;
        pfds[np++] = (struct pollfd){.fd = sfd, .events = POLLIN};
        for (int r = 0; r < job.n; r++) {
            pfds[np++] = (struct pollfd){.fd = job.ranks[r].sock, .events = POLLIN};
            pfds[np++] = (struct pollfd){.fd = job.ranks[r].pidfd, .events = POLLIN};
            alive += job.ranks[r].state != RANK_EXITED;
        }
        if (alive == 0)
            break;
        if (job.tag_output) {
            ordorun_tag_poll_set(&pfds[np]);
            np += (nfds_t)(2 * job.n);
        }
        int timeout = -1;
        if (job.deadline && !job.ending) {
            int64_t left = job.deadline - now_ms();
            if (left <= 0) {
                report_timeout();
                if (job.job_status == 0)
                    job.job_status = 124;
                begin_ending(SIGTERM);
            } else {
                timeout = left > INT32_MAX ? INT32_MAX : (int)left;
            }
        }
        if (job.kill_deadline) {
            int64_t left = job.kill_deadline - now_ms();
            if (left <= 0) {
                signal_all(SIGKILL);
                job.kill_deadline = 0;
                left = 0;
            }
            if (job.kill_deadline && (timeout < 0 || left < timeout))
                timeout = (int)left;
        }
        int rc = poll(pfds, np, timeout);
        if (rc < 0 && errno != EINTR) {
            /* nothing can be watched any more: end the job, and wait for
             * the ranks here instead of polling again */
            die_msg("poll: %s; ending the job", strerror(errno));
            signal_all(SIGKILL);
            job.job_status = job.job_status ? job.job_status : 1;
            for (int r = 0; r < job.n; r++)
                if (job.ranks[r].state != RANK_EXITED) {
                    waitpid(job.ranks[r].pid, NULL, 0);
                    job.ranks[r].state = RANK_EXITED;
                }
            break;
        }
        if (rc <= 0)
            continue;
        if (pfds[0].revents & POLLIN) {
            struct signalfd_siginfo si;
            if (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
                if (job.verbose || job.ending)
                    die_msg("got signal %u, forwarding it to the ranks", si.ssi_signo);
                if (job.job_status == 0)
                    job.job_status = 128 + (int)si.ssi_signo;
                begin_ending((int)si.ssi_signo);
            }
        }
        for (int r = 0; r < job.n; r++) {
            struct pollfd *ps = &pfds[1 + 2 * r], *pp = &pfds[2 + 2 * r];
            if (ps->fd >= 0 && (ps->revents & (POLLIN | POLLHUP | POLLERR)))
                handle_request(r);
            if (pp->fd >= 0 && (pp->revents & POLLIN))
                reap(r);
        }
        if (job.tag_output)
            ordorun_tag_relay(&pfds[1 + 2 * job.n]);
    }
    if (job.tag_output)
        ordorun_tag_close();
    for (int r = 0; r < job.n; r++)
        if (job.ranks[r].sock >= 0)
            close(job.ranks[r].sock);
    while (job.kvs) {
        kv_t *e = job.kvs;
        job.kvs = e->next;
        if (e->fd >= 0)
            close(e->fd);
        free(e);
    }
    while (job.pending) {
        pending_t *p = job.pending;
        job.pending = p->next;
        free(p);
    }
    if (topo)
        hwloc_topology_destroy(topo);
    free(pfds);
    free(job.env_set);
    free(job.ranks);
    free(job.buf);
    return job.job_status;
}
