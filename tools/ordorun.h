/* ordorun's job: what the launcher (ordorun.c) and the service of the
 * ranks' bootstrap requests (ordorun_serve.c) share. */
#ifndef ORDORUN_H
#define ORDORUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../src/boot/boot_proto.h"
#include "ordorun_netns.h"

#define TERM_GRACE_MS 3000   /* SIGTERM, then SIGKILL: the job ends well within 10 s */

enum rank_state { RANK_STARTED, RANK_INITIALIZED, RANK_FINALIZED, RANK_EXITED };

typedef struct rank_proc {
    pid_t pid;
    int   sock;        /* our end of the pair, -1 once closed */
    int   pidfd;       /* -1 once reaped */
    enum rank_state state;
    int   in_barrier;
    size_t kv_bytes;   /* values and keys it keeps here */
    int   kv_fds;      /* descriptors it keeps here */
    int   refused;     /* a quota refusal was reported */
} rank_proc_t;

typedef struct kv {
    struct kv *next;
    char   key[ORDO_BOOT_KEY_MAX];
    int    fd;         /* descriptor entries; -1 for values */
    int    owner;      /* the rank that stored it; -1: the launcher */
    int    reads_left; /* an allgather part: dropped after this many reads; 0: kept */
    size_t len;
    char   val[];
} kv_t;

/* What one rank may keep here: values (keys included) and descriptors.  A
 * job's exchange needs a few KiB per rank and a descriptor per region; the
 * quotas turn a runaway or hostile rank into a refusal that names it,
 * instead of the launcher's memory or descriptors running out for all. */
#define KV_BYTES_QUOTA ((size_t)64 << 20)

typedef struct pending {
    struct pending *next;
    int  rank;
    int  want_fd;
    char key[ORDO_BOOT_KEY_MAX];
} pending_t;

typedef struct ordorun_job {
    int          n;
    int          nodes;       /* groups that share no memory (--nodes) */
    int          netns;       /* each group in its own network namespace */
    ordorun_net_t net;
    int          bind;
    int          notify;        /* --on-failure notify */
    int64_t      timeout_ms;    /* --timeout: the job's time limit; 0: none */
    int64_t      deadline;      /* when it runs out (now_ms) */
    char        *activity;      /* shared with the ranks: where each waits */
    int          verbose;
    int          tag_output;    /* --tag-output */
    char       **env_set;       /* -x NAME=value, set in every rank */
    int          n_env_set;
    rank_proc_t *ranks;
    kv_t        *kvs;
    pending_t   *pending;
    int          barrier_count;
    int          dead_count;    /* ranks that died abnormally (notify mode) */
    unsigned char *health;      /* shared with the ranks: 1 = died */
    int          job_status;    /* first non-zero rank status */
    int          joined;        /* ranks that called ordo_init */
    int          fd_quota;      /* descriptors one rank may keep here */
    int          unjoined_exit; /* a rank that ended (status 0) before ordo_init, while
                                 * none had called it; -1: none */
    int          ending;        /* the job is being torn down */
    int64_t      kill_deadline; /* ms, when SIGKILL follows SIGTERM; 0 = none */
    char        *buf;
} ordorun_job_t;

extern ordorun_job_t job;

/* ordorun.c */
void die_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A rank died (code: its status or signal, how: in words): end the job, or
 * in notify mode fail what waits on it. */
void rank_failed(int rank, int code, const char *how);
/* Start tearing the job down (sig: forwarded to the ranks; 0: SIGTERM). */
void begin_ending(int sig);

/* ordorun_serve.c: the key/value store, barrier and descriptors */
/* Answer a rank's request waiting on its socket. */
void handle_request(int rank);
/* Store key = val (or a descriptor) for owner (-1: the launcher); reads > 0:
 * dropped after that many reads.  0, -1 (no memory), -2 (over quota). */
int  kv_store(const char *key, const void *val, size_t len, int fd, int owner, int reads);
/* Fail every pending get and the barrier with status. */
void fail_waiters(int status);

#endif
