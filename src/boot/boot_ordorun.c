/* Bootstrap client for ordorun: one request, one reply, over the inherited
 * socket.  Replies to GET and BARRIER may take long (they wait for peers), so
 * every wait is bounded by the boot timeout and fails with a clear error. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../base/activity.h"
#include "boot.h"
#include "boot_proto.h"
#include "../base/log.h"

typedef struct boot_ordorun {
    ordo_boot_t super;
    char       *activity;       /* the launcher's activity page, or NULL */
    size_t      activity_len;
    int         fd;
    int         timeout_ms;
    int         broken;        /* a cancelled request went unanswered: out of step */
    char       *buf;           /* one message */
} boot_ordorun_t;

static ordo_status_t send_msg(boot_ordorun_t *b, uint32_t type, const char *key,
                              const void *val, size_t vallen, int fd)
{
    size_t keylen = key ? strlen(key) : 0;
    if (keylen >= ORDO_BOOT_KEY_MAX || vallen > ORDO_BOOT_VALUE_MAX) {
        ordo_error("bootstrap key or value too long (%zu, %zu bytes)", keylen, vallen);
        return ORDO_ERR_INVALID_PARAM;
    }
    ordo_boot_msg_t hdr = {.type = type, .status = 0, .keylen = (uint32_t)keylen,
                           .vallen = (uint32_t)vallen};
    ssize_t n = ordo_boot_send(b->fd, &hdr, key, val, fd);
    if (n < 0) {
        ordo_error("lost the launcher connection (sendmsg: %s)", strerror(errno));
        return errno == EPIPE ? ORDO_ERR_PEER_DEAD : ORDO_ERR_BOOTSTRAP;
    }
    return ORDO_OK;
}

/* Wait for the reply to become readable: blocking in poll, or, when the
 * transports need driving meanwhile, polling and driving them in turn,
 * giving the core away now and then (a sleep here would delay every peer
 * operation that needs this rank's help by as much). */
static int wait_readable(boot_ordorun_t *b)
{
    struct pollfd p = {.fd = b->fd, .events = POLLIN};
    int r;
    if (b->super.while_waiting == NULL) {
        do {
            r = poll(&p, 1, b->timeout_ms);
        } while (r < 0 && errno == EINTR);
        return r;
    }
    long long deadline = b->timeout_ms < 0 ? -1 : ordo_boot_now_ms() + b->timeout_ms;
    for (unsigned spins = 0;; spins++) {
        r = poll(&p, 1, 0);
        if (r > 0 || (r < 0 && errno != EINTR))
            return r;
        if (deadline >= 0 && ordo_boot_now_ms() >= deadline)
            return 0;
        ordo_boot_idle(&b->super, spins);
    }
}

/* Read one message from the launcher into b->buf; its header in *hdr_p, a
 * descriptor it carried in *fd_p (or -1). */
static ordo_status_t read_msg(boot_ordorun_t *b, ordo_boot_msg_t *hdr_p, int *fd_p)
{
    union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } ctl;
    struct iovec iov = {b->buf, ORDO_BOOT_MSG_MAX};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
                        .msg_controllen = sizeof(ctl.b)};
    ssize_t n;
    do {
        n = recvmsg(b->fd, &mh, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
        ordo_error("lost the launcher connection (%s)", n == 0 ? "closed" : strerror(errno));
        return ORDO_ERR_BOOTSTRAP;
    }
    int fd = -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
            memcpy(&fd, CMSG_DATA(c), sizeof(int));
    if (mh.msg_flags & MSG_CTRUNC) {
        /* the kernel could not install the descriptor the reply carried */
        struct rlimit rl;
        getrlimit(RLIMIT_NOFILE, &rl);
        ordo_error("a descriptor from the launcher was dropped: this process has reached "
                   "its descriptor limit (ulimit -n: %llu open files); it holds one per "
                   "region of each peer on this node", (unsigned long long)rl.rlim_cur);
        if (fd >= 0)
            close(fd);
        *fd_p = -1;
        return ORDO_ERR_IO;
    }
    memcpy(hdr_p, b->buf, sizeof(*hdr_p));
    if ((size_t)n < sizeof(*hdr_p) ||
        (hdr_p->type != ORDO_BOOT_REPLY && hdr_p->type != ORDO_BOOT_CANCELLED) ||
        sizeof(*hdr_p) + hdr_p->keylen + hdr_p->vallen != (size_t)n) {
        ordo_error("malformed reply from the launcher");
        if (fd >= 0)
            close(fd);
        return ORDO_ERR_BOOTSTRAP;
    }
    *fd_p = fd;
    return ORDO_OK;
}

/* The reply in b->buf: its value into val (cap bytes), its descriptor into
 * *fd_p; returns the launcher's status. */
static ordo_status_t take_reply(boot_ordorun_t *b, const ordo_boot_msg_t *hdr, int fd,
                                void *val, size_t cap, size_t *len_p, int *fd_p)
{
    if (hdr->status != ORDO_OK || (val != NULL && hdr->vallen > cap)) {
        if (fd >= 0)
            close(fd);
        if (hdr->status != ORDO_OK)
            return (ordo_status_t)hdr->status;
        ordo_error("bootstrap value of %u bytes exceeds buffer of %zu", hdr->vallen, cap);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (val != NULL)
        memcpy(val, b->buf + sizeof(*hdr) + hdr->keylen, hdr->vallen);
    if (len_p)
        *len_p = hdr->vallen;
    if (fd_p)
        *fd_p = fd;
    else if (fd >= 0)
        close(fd);
    return ORDO_OK;
}

/* The request timed out: tell the launcher to forget it (else a barrier
 * would count this rank twice when it comes again, and the late reply would
 * answer the next request), and take its reply if it came meanwhile. */
static ordo_status_t cancel(boot_ordorun_t *b, void *val, size_t cap, size_t *len_p, int *fd_p)
{
    ordo_status_t st = send_msg(b, ORDO_BOOT_CANCEL, NULL, NULL, 0, -1);
    ordo_status_t got = ORDO_ERR_TIMED_OUT;
    int saved = b->timeout_ms;
    b->timeout_ms = 5000;   /* the launcher answers at once, unless it is stuck */
    while (st == ORDO_OK) {
        if (wait_readable(b) <= 0) {
            st = ORDO_ERR_BOOTSTRAP;
            break;
        }
        ordo_boot_msg_t hdr;
        int fd;
        if ((st = read_msg(b, &hdr, &fd)) != ORDO_OK)
            break;
        if (hdr.type == ORDO_BOOT_CANCELLED)
            break;
        got = take_reply(b, &hdr, fd, val, cap, len_p, fd_p);   /* it came after all */
    }
    b->timeout_ms = saved;
    if (st != ORDO_OK) {
        b->broken = 1;
        ordo_error("the launcher did not answer the cancel of a timed-out request: "
                   "bootstrap calls now fail");
        return ORDO_ERR_BOOTSTRAP;
    }
    if (got == ORDO_ERR_TIMED_OUT)
        ordo_error("no answer from the launcher or peers in %d s (ORDO_BOOT_TIMEOUT)",
                   saved / 1000);
    return got;
}

static ordo_status_t call(ordo_boot_t *base, uint32_t type, const char *key,
                          const void *val, size_t len, int fd_out, void *out, size_t cap,
                          size_t *len_p, int *fd_p)
{
    boot_ordorun_t *b = (boot_ordorun_t *)base;
    if (b->broken) {
        ordo_error("the launcher connection is out of step after a time-out");
        return ORDO_ERR_BOOTSTRAP;
    }
    ordo_status_t st = send_msg(b, type, key, val, len, fd_out);
    if (st != ORDO_OK)
        return st;
    int r = wait_readable(b);
    if (r == 0)
        return cancel(b, out, cap, len_p, fd_p);
    if (r < 0) {
        ordo_error("waiting for the launcher: poll: %s", strerror(errno));
        return ORDO_ERR_BOOTSTRAP;
    }
    ordo_boot_msg_t hdr;
    int fd;
    if ((st = read_msg(b, &hdr, &fd)) != ORDO_OK)
        return st;
    if (hdr.type != ORDO_BOOT_REPLY) {
        if (fd >= 0)
            close(fd);
        ordo_error("the launcher answered a request it was not sent");
        return ORDO_ERR_BOOTSTRAP;
    }
    return take_reply(b, &hdr, fd, out, cap, len_p, fd_p);
}

static ordo_status_t or_get(ordo_boot_t *b, const char *key, void *val, size_t cap,
                            size_t *len_p)
{
    return call(b, ORDO_BOOT_GET, key, NULL, 0, -1, val, cap, len_p, NULL);
}

/* Each rank puts its part under tag/rank and gets the others' (a get waits
 * until the key exists); the launcher drops a part once every rank has read
 * it, so allgathers leave nothing behind however many a job makes. */
static ordo_status_t or_allgather(ordo_boot_t *b, const char *tag, const void *mine,
                                  size_t len, void *all)
{
    char key[ORDO_BOOT_KEY_MAX];
    snprintf(key, sizeof(key), "%s/%d", tag, b->rank);
    ordo_status_t st = call(b, ORDO_BOOT_GATHER_PUT, key, mine, len, -1, NULL, 0, NULL, NULL);
    if (st != ORDO_OK)
        return st;
    for (int r = 0; r < b->size; r++) {
        size_t got;
        snprintf(key, sizeof(key), "%s/%d", tag, r);
        st = or_get(b, key, (char *)all + (size_t)r * len, len, &got);
        if (st != ORDO_OK)
            return st;
        if (got != len) {
            ordo_error("bootstrap allgather '%s': rank %d sent %zu bytes, expected %zu",
                       tag, r, got, len);
            return ORDO_ERR_BOOTSTRAP;
        }
    }
    return ORDO_OK;
}

static ordo_status_t or_barrier(ordo_boot_t *b)
{
    return call(b, ORDO_BOOT_BARRIER, NULL, NULL, 0, -1, NULL, 0, NULL, NULL);
}

static ordo_status_t or_fd_put(ordo_boot_t *b, const char *key, int fd)
{
    return call(b, ORDO_BOOT_FD_PUT, key, NULL, 0, fd, NULL, 0, NULL, NULL);
}

static ordo_status_t or_fd_get(ordo_boot_t *b, int owner, const char *key, int *fd_p)
{
    (void)owner;        /* the launcher holds every rank's descriptors */
    int fd = -1;
    ordo_status_t st = call(b, ORDO_BOOT_FD_GET, key, NULL, 0, -1, NULL, 0, NULL, &fd);
    if (st == ORDO_OK && fd < 0) {
        ordo_error("launcher sent no descriptor for '%s'", key);
        return ORDO_ERR_BOOTSTRAP;
    }
    if (st == ORDO_OK)
        *fd_p = fd;
    return st;
}

static ordo_status_t or_fd_del(ordo_boot_t *b, const char *key)
{
    return call(b, ORDO_BOOT_FD_DEL, key, NULL, 0, -1, NULL, 0, NULL, NULL);
}

static void or_fini(ordo_boot_t *base, int clean)
{
    boot_ordorun_t *b = (boot_ordorun_t *)base;
    if (clean)
        call(base, ORDO_BOOT_FINALIZE, NULL, NULL, 0, -1, NULL, 0, NULL, NULL);
    close(b->fd);
    if (b->super.health)
        munmap((void *)b->super.health, (size_t)b->super.size);
    if (b->activity) {
        ordo_activity = NULL;
        munmap(b->activity, b->activity_len);
    }
    free(b->buf);
    free(b);
}

static int or_abort(ordo_boot_t *base, int status, const char *why)
{
    (void)why;
    int32_t s = status;
    return send_msg((boot_ordorun_t *)base, ORDO_BOOT_ABORT, NULL, &s, sizeof(s), -1) ==
           ORDO_OK;
}

static const ordo_boot_ops_t ordorun_ops = {
    .size = sizeof(ordo_boot_ops_t), .name = "ordorun",
    .allgather = or_allgather, .barrier = or_barrier,
    .fd_put = or_fd_put, .fd_get = or_fd_get, .fd_del = or_fd_del, .fini = or_fini,
    .abort = or_abort,
};

ordo_status_t ordo_boot_ordorun_open(int fd, int rank, int size, int timeout_s,
                                     ordo_boot_t **boot_p)
{
    /* The socket pair was made by ordorun before it forked us, so the peer
     * must be our parent, running as our user. */
    struct ucred cred;
    socklen_t clen = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0) {
        ordo_error("launcher socket %d: %s", fd, strerror(errno));
        return ORDO_ERR_BOOTSTRAP;
    }
    if (cred.uid != getuid() || cred.pid != getppid()) {
        ordo_error("launcher socket belongs to pid %d uid %d, expected our parent %d uid %d",
                   (int)cred.pid, (int)cred.uid, (int)getppid(), (int)getuid());
        return ORDO_ERR_BOOTSTRAP;
    }
    boot_ordorun_t *b = calloc(1, sizeof(*b));
    char *buf = malloc(ORDO_BOOT_MSG_MAX);
    if (b == NULL || buf == NULL) {
        free(b);
        free(buf);
        return ORDO_ERR_NO_MEMORY;
    }
    b->super.ops = &ordorun_ops;
    b->super.rank = rank;
    b->super.size = size;
    const char *bind = getenv(ORDO_ENV_BINDING);
    snprintf(b->super.binding, sizeof(b->super.binding), "%s", bind ? bind : "unknown");
    b->fd = fd;
    b->buf = buf;
    b->timeout_ms = timeout_s > 0 ? timeout_s * 1000 : -1;
    ordo_status_t st = call(&b->super, ORDO_BOOT_HELLO, NULL, NULL, 0, -1, NULL, 0, NULL, NULL);
    if (st != ORDO_OK) {
        free(buf);
        free(b);
        return st;
    }
    int hfd;
    if (or_fd_get(&b->super, -1, ORDO_BOOT_HEALTH_KEY, &hfd) == ORDO_OK) {
        void *page = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, hfd, 0);
        close(hfd);
        if (page != MAP_FAILED)
            b->super.health = page;
    }
    if (b->super.health == NULL)
        ordo_warn("no health page from the launcher: a dead peer is noticed only by timeouts");
    int afd;
    if (or_fd_get(&b->super, -1, ORDO_BOOT_ACTIVITY_KEY, &afd) == ORDO_OK) {
        size_t len = (size_t)size * ORDO_ACTIVITY_SLOT;
        struct stat sb;
        char *page = MAP_FAILED;
        if (fstat(afd, &sb) == 0 && (size_t)sb.st_size >= len)   /* else SIGBUS on use */
            page = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, afd, 0);
        close(afd);
        if (page != MAP_FAILED) {
            b->activity = page;
            b->activity_len = len;
            ordo_activity = (ordo_activity_slot_t *)(page + (size_t)rank * ORDO_ACTIVITY_SLOT);
        }
    }
    *boot_p = &b->super;
    return ORDO_OK;
}
