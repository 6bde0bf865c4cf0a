/* ordorun's service of the ranks' bootstrap requests: the key/value store
 * (values, descriptors passed over the socket, allgather parts read a set
 * number of times), the barrier, and the per-rank quotas. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ordo/status.h>
#include "ordorun.h"

/* ------------------------------------------------------------- replies */

static int send_typed(int rank, uint32_t type, int status, const void *val, size_t len,
                      int fd)
{
    rank_proc_t *rp = &job.ranks[rank];
    if (rp->sock < 0)
        return -1;
    ordo_boot_msg_t hdr = {.type = type, .status = status, .keylen = 0,
                           .vallen = (uint32_t)len};
    ssize_t n = ordo_boot_send(rp->sock, &hdr, NULL, val, fd);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        /* A rank waits for one reply at a time: a full socket means it
         * stopped reading.  The socket is non-blocking, so one such rank
         * never holds up the launcher and the others. */
        close(rp->sock);
        rp->sock = -1;
        rank_failed(rank, 1, "stopped reading the launcher's replies");
    }
    return n < 0 ? -1 : 0;
}

static int send_reply(int rank, int status, const void *val, size_t len, int fd)
{
    return send_typed(rank, ORDO_BOOT_REPLY, status, val, len, fd);
}

static kv_t *kv_find(const char *key, int want_fd)
{
    for (kv_t *e = job.kvs; e; e = e->next)
        if ((e->fd >= 0) == want_fd && strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

static void kv_uncount(const kv_t *e);

static void kv_unlink(kv_t *e)
{
    for (kv_t **pp = &job.kvs; *pp; pp = &(*pp)->next) {
        if (*pp == e) {
            *pp = e->next;
            break;
        }
    }
    kv_uncount(e);
    if (e->fd >= 0)
        close(e->fd);
    free(e);
}

/* Answer a get; 1 when that was the entry's last read (it is gone). */
static int answer_get(int rank, kv_t *e)
{
    if (e->fd >= 0)
        send_reply(rank, ORDO_OK, NULL, 0, e->fd);
    else
        send_reply(rank, ORDO_OK, e->val, e->len, -1);
    if (e->reads_left > 0 && --e->reads_left == 0) {
        kv_unlink(e);
        return 1;
    }
    return 0;
}

/* A key arrived: answer those who waited for it. */
static void wake_pending(kv_t *e)
{
    for (pending_t **pp = &job.pending; *pp;) {
        pending_t *p = *pp;
        if ((e->fd >= 0) == p->want_fd && strcmp(p->key, e->key) == 0) {
            int rank = p->rank;
            *pp = p->next;
            free(p);
            if (answer_get(rank, e))
                return;   /* its last reader */
        } else {
            pp = &p->next;
        }
    }
}

void fail_waiters(int status)
{
    while (job.pending) {
        pending_t *p = job.pending;
        job.pending = p->next;
        send_reply(p->rank, status, NULL, 0, -1);
        free(p);
    }
    for (int r = 0; r < job.n; r++) {
        if (job.ranks[r].in_barrier) {
            job.ranks[r].in_barrier = 0;
            send_reply(r, status, NULL, 0, -1);
        }
    }
    job.barrier_count = 0;
}

static void barrier_arrive(int rank)
{
    if (job.dead_count > 0) {
        send_reply(rank, ORDO_ERR_PEER_DEAD, NULL, 0, -1);
        return;
    }
    if (job.ranks[rank].in_barrier) {
        /* a rank's client waits for one reply at a time: a second arrival
         * would complete the barrier without another rank */
        die_msg("rank %d asked for a barrier while already in one: refused", rank);
        send_reply(rank, ORDO_ERR_BOOTSTRAP, NULL, 0, -1);
        return;
    }
    job.ranks[rank].in_barrier = 1;
    if (++job.barrier_count < job.n)
        return;
    job.barrier_count = 0;
    for (int r = 0; r < job.n; r++) {
        job.ranks[r].in_barrier = 0;
        send_reply(r, ORDO_OK, NULL, 0, -1);
    }
}

static void kv_uncount(const kv_t *e)
{
    if (e->owner < 0)
        return;
    rank_proc_t *rp = &job.ranks[e->owner];
    if (e->fd >= 0)
        rp->kv_fds--;
    else
        rp->kv_bytes -= sizeof(kv_t) + e->len;
}

/* 0, -1 (no memory), or -2 (over the owner's quota; said once). */
int kv_store(const char *key, const void *val, size_t len, int fd, int owner,
             int reads)
{
    kv_t *old = kv_find(key, fd >= 0);
    if (owner >= 0) {
        rank_proc_t *rp = &job.ranks[owner];
        size_t held = rp->kv_bytes;
        if (old && old->owner == owner && fd < 0)
            held -= sizeof(kv_t) + old->len;
        int over = fd >= 0 ? rp->kv_fds + (old && old->owner == owner ? 0 : 1) > job.fd_quota
                           : held + sizeof(kv_t) + len > KV_BYTES_QUOTA;
        if (over) {
            if (!rp->refused)
                die_msg(fd >= 0 ? "rank %d keeps %d descriptors in the launcher, its quota: "
                                  "refused (each region's memory is one; the launcher's "
                                  "descriptor limit, ulimit -n, sets the quota)"
                                : "rank %d keeps %d MiB of bootstrap values, its quota: refused",
                        owner, fd >= 0 ? job.fd_quota : (int)(KV_BYTES_QUOTA >> 20));
            rp->refused = 1;
            return -2;
        }
    }
    kv_t *e = calloc(1, sizeof(*e) + len);
    if (e == NULL)
        return -1;
    snprintf(e->key, sizeof(e->key), "%s", key);
    e->fd = fd;
    e->owner = owner;
    e->reads_left = reads;
    e->len = len;
    if (len)
        memcpy(e->val, val, len);
    if (old)   /* replace in place: a rank may republish a key */
        kv_unlink(old);
    if (owner >= 0) {
        if (fd >= 0)
            job.ranks[owner].kv_fds++;
        else
            job.ranks[owner].kv_bytes += sizeof(kv_t) + len;
    }
    e->next = job.kvs;
    job.kvs = e;
    wake_pending(e);
    return 0;
}

static void kv_delete_fd(const char *key)
{
    kv_t *e = kv_find(key, 1);
    if (e)
        kv_unlink(e);
}

/* --------------------------------------------------------------- requests */

void handle_request(int rank)
{
    rank_proc_t *rp = &job.ranks[rank];
    /* room for more descriptors than a request may carry, so that extra
     * ones are seen (and closed), not left to leak */
    union {
        struct cmsghdr h;
        char b[CMSG_SPACE(8 * sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))];
    } ctl;
    struct iovec iov = {job.buf, ORDO_BOOT_MSG_MAX};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
                        .msg_controllen = sizeof(ctl.b)};
    ssize_t n;
    do {
        n = recvmsg(rp->sock, &mh, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return;
    if (n <= 0) {   /* the rank closed its end; its exit is seen through the pidfd */
        close(rp->sock);
        rp->sock = -1;
        return;
    }
    int fd = -1, have_cred = 0, nfds = 0;
    struct ucred cred = {0};
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < k; i++) {
                int one;
                memcpy(&one, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
                if (nfds++ == 0)
                    fd = one;
                else
                    close(one);
            }
        }
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
            memcpy(&cred, CMSG_DATA(c), sizeof(cred));
            have_cred = 1;
        }
    }
    ordo_boot_msg_t hdr;
    memcpy(&hdr, job.buf, sizeof(hdr));
    if (!have_cred || cred.pid != rp->pid || cred.uid != getuid()) {
        die_msg("rejected a request on rank %d's socket from pid %d uid %d "
                "(expected pid %d uid %d)", rank, (int)cred.pid, (int)cred.uid,
                (int)rp->pid, (int)getuid());
        if (fd >= 0)
            close(fd);
        send_reply(rank, ORDO_ERR_BOOTSTRAP, NULL, 0, -1);
        return;
    }
    if ((mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || nfds > 1) {
        die_msg("refused a request from rank %d: %s", rank,
                (mh.msg_flags & MSG_TRUNC) ? "longer than any request may be"
                : nfds > 1 ? "more than one descriptor attached" : "its descriptors did not fit");
        if (fd >= 0)
            close(fd);
        send_reply(rank, ORDO_ERR_BOOTSTRAP, NULL, 0, -1);
        return;
    }
    if ((size_t)n < sizeof(hdr) || hdr.keylen >= ORDO_BOOT_KEY_MAX ||
        sizeof(hdr) + hdr.keylen + hdr.vallen != (size_t)n) {
        die_msg("malformed request from rank %d", rank);
        if (fd >= 0)
            close(fd);
        send_reply(rank, ORDO_ERR_BOOTSTRAP, NULL, 0, -1);
        return;
    }
    char key[ORDO_BOOT_KEY_MAX];
    memcpy(key, job.buf + sizeof(hdr), hdr.keylen);
    key[hdr.keylen] = '\0';
    const char *val = job.buf + sizeof(hdr) + hdr.keylen;

    switch (hdr.type) {
    case ORDO_BOOT_HELLO:
        rp->state = RANK_INITIALIZED;
        job.joined++;
        send_reply(rank, ORDO_OK, NULL, 0, -1);
        if (job.unjoined_exit >= 0) {
            /* a rank already gone will never join: fail the job now, not
             * after ORDO_BOOT_TIMEOUT */
            int gone = job.unjoined_exit;
            job.unjoined_exit = -1;
            rank_failed(gone, 1, "exited (status 0) without calling ordo_init, which the "
                                 "other ranks wait for");
        }
        break;
    case ORDO_BOOT_FINALIZE:
        rp->state = RANK_FINALIZED;
        send_reply(rank, ORDO_OK, NULL, 0, -1);
        break;
    case ORDO_BOOT_ABORT: {
        int32_t code;
        if (hdr.vallen != sizeof(code)) {
            die_msg("malformed ordo_abort request from rank %d", rank);
            break;
        }
        memcpy(&code, val, sizeof(code));
        int status = code >= 1 && code <= 255 ? code : 1;
        if (!job.ending) {
            die_msg("rank %d (pid %d) called ordo_abort(%d): ending the job with status %d",
                    rank, (int)rp->pid, (int)code, status);
            job.job_status = status;
            begin_ending(SIGTERM);
        }
        break;
    }
    case ORDO_BOOT_CANCEL:
        /* the rank stopped waiting (a time-out): it no longer counts in a
         * barrier, nor waits for a key; a request already answered stays so */
        if (rp->in_barrier) {
            rp->in_barrier = 0;
            job.barrier_count--;
        }
        for (pending_t **pp = &job.pending; *pp;) {
            pending_t *p = *pp;
            if (p->rank == rank) {
                *pp = p->next;
                free(p);
            } else {
                pp = &p->next;
            }
        }
        send_typed(rank, ORDO_BOOT_CANCELLED, ORDO_OK, NULL, 0, -1);
        break;
    case ORDO_BOOT_PUT:
    case ORDO_BOOT_GATHER_PUT: {
        int reads = hdr.type == ORDO_BOOT_GATHER_PUT ? job.n : 0;
        send_reply(rank, kv_store(key, val, hdr.vallen, -1, rank, reads) ? ORDO_ERR_NO_MEMORY
                                                                          : ORDO_OK,
                   NULL, 0, -1);
        break;
    }
    case ORDO_BOOT_FD_PUT:
        if (fd < 0) {
            send_reply(rank, ORDO_ERR_INVALID_PARAM, NULL, 0, -1);
            break;
        }
        if (kv_store(key, NULL, 0, fd, rank, 0)) {
            close(fd);
            send_reply(rank, ORDO_ERR_NO_MEMORY, NULL, 0, -1);
            break;
        }
        fd = -1;
        send_reply(rank, ORDO_OK, NULL, 0, -1);
        break;
    case ORDO_BOOT_GET:
    case ORDO_BOOT_FD_GET: {
        int want_fd = hdr.type == ORDO_BOOT_FD_GET;
        kv_t *e = kv_find(key, want_fd);
        if (e) {
            answer_get(rank, e);
        } else if (job.dead_count > 0) {
            send_reply(rank, ORDO_ERR_PEER_DEAD, NULL, 0, -1);
        } else {
            pending_t *p = calloc(1, sizeof(*p));
            if (p == NULL) {
                send_reply(rank, ORDO_ERR_NO_MEMORY, NULL, 0, -1);
                break;
            }
            p->rank = rank;
            p->want_fd = want_fd;
            strcpy(p->key, key);
            p->next = job.pending;
            job.pending = p;
        }
        break;
    }
    case ORDO_BOOT_FD_DEL:
        kv_delete_fd(key);
        send_reply(rank, ORDO_OK, NULL, 0, -1);
        break;
    case ORDO_BOOT_BARRIER:
        barrier_arrive(rank);
        break;
    default:
        die_msg("unknown request %u from rank %d", hdr.type, rank);
        send_reply(rank, ORDO_ERR_BOOTSTRAP, NULL, 0, -1);
    }
    if (fd >= 0)
        close(fd);
}
