/* Ranks of one machine without a launcher that passes descriptors: which
 * ranks share the machine, and descriptors handed between them over Unix
 * sockets in the abstract namespace (boot_local.h says why it is safe). */
#define _GNU_SOURCE
#include "boot_local.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "boot_proto.h"
#include "../base/log.h"
#include "../base/quiesce.h"

/* What each rank tells the others about itself. */
typedef struct local_card {
    char     machine[112];  /* kernel boot id and namespaces: equal = one machine */
    char     sock[48];      /* abstract socket name, without the leading NUL */
    int32_t  pid;
    uint32_t uid;
} local_card_t;

typedef struct fd_entry {
    struct fd_entry *next;
    char             key[ORDO_BOOT_KEY_MAX];
    int              fd;
} fd_entry_t;

struct boot_local {
    ordo_boot_t    *b;
    int             timeout_ms;
    local_card_t   *cards;        /* every rank's; read-only once open */
    int            *machine_of;
    int             lfd;          /* listening socket */
    int             stop_fd;      /* eventfd: the server thread ends */
    pthread_t       thread;
    int             serving;
    pthread_mutex_t lock;         /* entries: the server reads, the caller writes */
    fd_entry_t     *entries;
};

/* The service answers with a boot_proto.h header: its status says whether
 * the descriptor came with it. */
enum { REPLY_FOUND = 0, REPLY_NOT_YET = 1 };
/* ask(): no descriptor yet, ask again (not a status a caller ever sees). */
#define ASK_AGAIN ((ordo_status_t)1)

static void read_machine(char *out, size_t cap)
{
    char boot_id[64] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
    if (f) {
        if (fgets(boot_id, sizeof(boot_id), f) == NULL)
            boot_id[0] = 0;
        fclose(f);
        boot_id[strcspn(boot_id, "\n")] = 0;
    }
    if (!boot_id[0] && gethostname(boot_id, sizeof(boot_id) - 1) != 0)
        strcpy(boot_id, "unknown");
    /* Abstract sockets are per network namespace, pids per pid namespace:
     * processes in different ones cannot use each other's. */
    struct stat net, pid;
    if (stat("/proc/self/ns/net", &net) != 0)
        net.st_ino = 0;
    if (stat("/proc/self/ns/pid", &pid) != 0)
        pid.st_ino = 0;
    snprintf(out, cap, "%.40s/net:%lu/pid:%lu", boot_id, (unsigned long)net.st_ino,
             (unsigned long)pid.st_ino);
}

static socklen_t abstract_addr(struct sockaddr_un *a, const char *name)
{
    memset(a, 0, sizeof(*a));
    a->sun_family = AF_UNIX;
    size_t n = strlen(name);                  /* < sizeof(card.sock) < sun_path */
    memcpy(a->sun_path + 1, name, n);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static fd_entry_t *find(boot_local_t *l, const char *key)
{
    for (fd_entry_t *e = l->entries; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

/* Whether pid is a rank of this job on this machine. */
static int is_local_rank(boot_local_t *l, pid_t pid)
{
    int me = l->b->rank;
    for (int r = 0; r < l->b->size; r++)
        if (r != me && l->machine_of[r] == l->machine_of[me] && l->cards[r].pid == pid)
            return 1;
    return 0;
}

static void serve_one(boot_local_t *l, int c)
{
    struct ucred cred = {.pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1};
    socklen_t clen = sizeof(cred);
    if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 ||
        cred.uid != getuid() || !is_local_rank(l, cred.pid)) {
        ordo_debug("descriptor service: refused a connection from pid %d uid %d, not a rank "
                   "of this job", (int)cred.pid, (int)cred.uid);
        return;
    }
    struct timeval tv = {2, 0};           /* a rank that connects and says nothing */
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    char key[ORDO_BOOT_KEY_MAX];
    ssize_t n;
    do {
        n = recv(c, key, sizeof(key), 0);
    } while (n < 0 && errno == EINTR);
    if (n <= 0 || memchr(key, 0, (size_t)n) == NULL)
        return;
    pthread_mutex_lock(&l->lock);         /* the entry cannot be deleted meanwhile */
    fd_entry_t *e = find(l, key);
    ordo_boot_msg_t reply = {.type = ORDO_BOOT_REPLY, .status = e ? REPLY_FOUND : REPLY_NOT_YET};
    ordo_boot_send(c, &reply, NULL, NULL, e ? e->fd : -1);
    pthread_mutex_unlock(&l->lock);
}

static void *serve(void *arg)
{
    boot_local_t *l = arg;
    struct pollfd p[2] = {{.fd = l->lfd, .events = POLLIN}, {.fd = l->stop_fd, .events = POLLIN}};
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            ordo_error("descriptor service: poll: %s", strerror(errno));
            return NULL;
        }
        if (p[1].revents)
            return NULL;
        if (!(p[0].revents & POLLIN))
            continue;
        int c = accept4(l->lfd, NULL, NULL, SOCK_CLOEXEC);
        if (c < 0) {
            if (errno == EMFILE || errno == ENFILE) {
                /* out of descriptors: the client retries; do not spin */
                struct timespec ts = {0, 10 * 1000 * 1000};
                nanosleep(&ts, NULL);
            }
            continue;
        }
        ordo_quiesce_work_begin();
        serve_one(l, c);
        ordo_quiesce_work_end();
        close(c);
    }
}

static ordo_status_t listen_here(local_card_t *card, int *lfd_p)
{
    uint64_t nonce;
    if (getrandom(&nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce))
        nonce = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    snprintf(card->sock, sizeof(card->sock), "ordo.%d.%016llx", (int)getpid(),
             (unsigned long long)nonce);
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        ordo_error("descriptor service: socket: %s", strerror(errno));
        return ORDO_ERR_IO;
    }
    struct sockaddr_un a;
    socklen_t alen = abstract_addr(&a, card->sock);
    if (bind(fd, (struct sockaddr *)&a, alen) != 0 || listen(fd, 128) != 0) {
        ordo_error("descriptor service: cannot listen on @%s: %s", card->sock, strerror(errno));
        close(fd);
        return ORDO_ERR_IO;
    }
    *lfd_p = fd;
    return ORDO_OK;
}

ordo_status_t ordo_boot_local_open(ordo_boot_t *b, int timeout_s, boot_local_t **local_p)
{
    boot_local_t *l = calloc(1, sizeof(*l));
    if (l == NULL)
        return ORDO_ERR_NO_MEMORY;
    l->b = b;
    l->timeout_ms = timeout_s > 0 ? timeout_s * 1000 : -1;
    l->lfd = l->stop_fd = -1;
    pthread_mutex_init(&l->lock, NULL);
    local_card_t mine;
    memset(&mine, 0, sizeof(mine));
    read_machine(mine.machine, sizeof(mine.machine));
    mine.pid = (int32_t)getpid();
    mine.uid = (uint32_t)getuid();
    l->cards = calloc((size_t)b->size, sizeof(local_card_t));
    l->machine_of = calloc((size_t)b->size, sizeof(int));
    ordo_status_t st = ORDO_ERR_NO_MEMORY;
    if (l->cards == NULL || l->machine_of == NULL)
        goto fail;
    /* Listening before the exchange: a peer may ask as soon as it has our card. */
    if ((st = listen_here(&mine, &l->lfd)) != ORDO_OK)
        goto fail;
    if ((st = ordo_boot_allgather(b, "ordo.boot.local", &mine, sizeof(mine), l->cards)) != ORDO_OK)
        goto fail;
    /* machines numbered in the order their first rank appears; first[m] is
     * machine m's first rank */
    int *first = malloc((size_t)b->size * sizeof(int));
    if (first == NULL) {
        st = ORDO_ERR_NO_MEMORY;
        goto fail;
    }
    int machines = 0;
    for (int r = 0; r < b->size; r++) {
        local_card_t *c = &l->cards[r];
        c->machine[sizeof(c->machine) - 1] = 0;   /* read from other processes */
        c->sock[sizeof(c->sock) - 1] = 0;
        int m = 0;
        while (m < machines && strcmp(l->cards[first[m]].machine, c->machine) != 0)
            m++;
        if (m == machines)
            first[machines++] = r;
        l->machine_of[r] = m;
    }
    free(first);
    l->stop_fd = eventfd(0, EFD_CLOEXEC);
    if (l->stop_fd < 0) {
        ordo_error("descriptor service: eventfd: %s", strerror(errno));
        st = ORDO_ERR_IO;
        goto fail;
    }
    /* The service thread takes no signals: they stay the program's. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(&l->thread, NULL, serve, l);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err != 0) {
        ordo_error("descriptor service: cannot start its thread: %s", strerror(err));
        st = ORDO_ERR_IO;
        goto fail;
    }
    l->serving = 1;
    b->machine_of = l->machine_of;
    *local_p = l;
    return ORDO_OK;
fail:
    ordo_boot_local_close(l);
    return st;
}

void ordo_boot_local_close(boot_local_t *l)
{
    if (l == NULL)
        return;
    if (l->serving) {
        uint64_t one = 1;
        while (write(l->stop_fd, &one, sizeof(one)) < 0 && errno == EINTR)
            ;
        pthread_join(l->thread, NULL);
    }
    if (l->stop_fd >= 0)
        close(l->stop_fd);
    if (l->lfd >= 0)
        close(l->lfd);
    while (l->entries) {
        fd_entry_t *e = l->entries;
        l->entries = e->next;
        close(e->fd);
        free(e);
    }
    if (l->b && l->b->machine_of == l->machine_of)
        l->b->machine_of = NULL;
    pthread_mutex_destroy(&l->lock);
    free(l->machine_of);
    free(l->cards);
    free(l);
}

ordo_status_t ordo_boot_local_fd_put(ordo_boot_t *b, const char *key, int fd)
{
    boot_local_t *l = b->local;
    if (strlen(key) >= ORDO_BOOT_KEY_MAX)
        return ORDO_ERR_INVALID_PARAM;
    fd_entry_t *e = calloc(1, sizeof(*e));
    if (e == NULL)
        return ORDO_ERR_NO_MEMORY;
    e->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (e->fd < 0) {
        ordo_error("cannot keep descriptor '%s': %s", key, strerror(errno));
        free(e);
        return ORDO_ERR_IO;
    }
    strcpy(e->key, key);
    pthread_mutex_lock(&l->lock);
    int taken = find(l, key) != NULL;
    if (!taken) {
        e->next = l->entries;
        l->entries = e;
    }
    pthread_mutex_unlock(&l->lock);
    if (taken) {
        ordo_error("descriptor '%s' was published twice", key);
        close(e->fd);
        free(e);
        return ORDO_ERR_INVALID_PARAM;
    }
    return ORDO_OK;
}

ordo_status_t ordo_boot_local_fd_del(ordo_boot_t *b, const char *key)
{
    boot_local_t *l = b->local;
    pthread_mutex_lock(&l->lock);
    fd_entry_t *e = NULL;
    for (fd_entry_t **pp = &l->entries; *pp; pp = &(*pp)->next)
        if (strcmp((*pp)->key, key) == 0) {
            e = *pp;
            *pp = e->next;
            break;
        }
    pthread_mutex_unlock(&l->lock);
    if (e == NULL)
        return ORDO_ERR_INVALID_PARAM;
    close(e->fd);
    free(e);
    return ORDO_OK;
}

static int owner_gone(boot_local_t *l, int owner)
{
    return ordo_boot_rank_dead(l->b, owner) ||
           (kill((pid_t)l->cards[owner].pid, 0) != 0 && errno == ESRCH);
}

/* ask(): the service closed the connection without a word (it refused us,
 * or it is going away). */
#define ASK_HUNG_UP ((ordo_status_t)2)

/* One question to owner's service: ORDO_OK with *fd_p, ASK_AGAIN when
 * it does not have key yet (or cannot answer now), ASK_HUNG_UP, or another
 * status when it never will. */
static ordo_status_t ask(boot_local_t *l, int owner, const char *key, long long deadline,
                         int *fd_p)
{
    const local_card_t *card = &l->cards[owner];
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s < 0) {
        ordo_error("descriptor from rank %d: socket: %s", owner, strerror(errno));
        return ORDO_ERR_IO;
    }
    ordo_status_t st = ASK_AGAIN;
    struct sockaddr_un a;
    socklen_t alen = abstract_addr(&a, card->sock);
    if (connect(s, (struct sockaddr *)&a, alen) != 0) {
        if (errno != EAGAIN && errno != EINTR && errno != ECONNREFUSED) {
            ordo_error("descriptor from rank %d: connect to @%s: %s", owner, card->sock,
                       strerror(errno));
            st = ORDO_ERR_IO;
        }
        goto out;                             /* refused: gone, or not listening yet */
    }
    struct ucred cred;
    socklen_t clen = sizeof(cred);
    if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 ||
        cred.pid != card->pid || cred.uid != getuid()) {
        ordo_error("descriptor from rank %d: @%s is held by pid %d uid %d, not by rank %d "
                   "(pid %d) of user %d", owner, card->sock, (int)cred.pid, (int)cred.uid,
                   owner, (int)card->pid, (int)getuid());
        st = ORDO_ERR_BOOTSTRAP;
        goto out;
    }
    if (send(s, key, strlen(key) + 1, MSG_NOSIGNAL) < 0)
        goto out;
    struct pollfd p = {.fd = s, .events = POLLIN};
    for (unsigned spins = 0;; spins++) {
        int r = poll(&p, 1, 0);
        if (r > 0)
            break;
        if (r < 0 && errno != EINTR)
            goto out;
        if (deadline >= 0 && ordo_boot_now_ms() >= deadline)
            goto out;
        ordo_boot_idle(l->b, spins);
    }
    ordo_boot_msg_t reply;
    union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } ctl;
    struct iovec iov = {&reply, sizeof(reply)};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
                        .msg_controllen = sizeof(ctl.b)};
    ssize_t n = recvmsg(s, &mh, MSG_CMSG_CLOEXEC);
    int fd = -1;
    if (n > 0)
        for (struct cmsghdr *h = CMSG_FIRSTHDR(&mh); h; h = CMSG_NXTHDR(&mh, h))
            if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS &&
                h->cmsg_len == CMSG_LEN(sizeof(int)))
                memcpy(&fd, CMSG_DATA(h), sizeof(int));
    if (n == (ssize_t)sizeof(reply) && reply.type == ORDO_BOOT_REPLY &&
        reply.status == REPLY_FOUND && fd >= 0) {
        *fd_p = fd;
        st = ORDO_OK;
    } else if (fd >= 0) {
        close(fd);
    } else if (n == 0) {
        st = ASK_HUNG_UP;
    }
out:
    close(s);
    return st;
}

ordo_status_t ordo_boot_local_fd_get(ordo_boot_t *b, int owner, const char *key, int *fd_p)
{
    boot_local_t *l = b->local;
    if (owner < 0 || owner >= b->size || strlen(key) >= ORDO_BOOT_KEY_MAX)
        return ORDO_ERR_INVALID_PARAM;
    if (owner == b->rank) {
        pthread_mutex_lock(&l->lock);
        fd_entry_t *e = find(l, key);
        int fd = e ? fcntl(e->fd, F_DUPFD_CLOEXEC, 0) : -1;
        pthread_mutex_unlock(&l->lock);
        if (e == NULL) {
            ordo_error("descriptor '%s' was never published by this rank", key);
            return ORDO_ERR_BOOTSTRAP;
        }
        if (fd < 0)
            return ORDO_ERR_IO;
        *fd_p = fd;
        return ORDO_OK;
    }
    if (l->machine_of[owner] != l->machine_of[b->rank]) {
        ordo_error("descriptor '%s' of rank %d: that rank is on another machine", key, owner);
        return ORDO_ERR_BOOTSTRAP;
    }
    long long deadline = l->timeout_ms < 0 ? -1 : ordo_boot_now_ms() + l->timeout_ms;
    int hung_up = 0;
    for (unsigned spins = 0;; spins++) {
        ordo_status_t st = ask(l, owner, key, deadline, fd_p);
        if (st != ASK_AGAIN && st != ASK_HUNG_UP)
            return st;
        if (owner_gone(l, owner)) {
            ordo_error("descriptor '%s': rank %d (pid %d) is gone", key, owner,
                       (int)l->cards[owner].pid);
            return ORDO_ERR_PEER_DEAD;
        }
        hung_up = st == ASK_HUNG_UP ? hung_up + 1 : 0;
        if (hung_up == 3) {
            ordo_error("descriptor '%s': rank %d (pid %d) hangs up without answering: it "
                       "does not take this process (pid %d) for a rank of its job on its "
                       "machine", key, owner, (int)l->cards[owner].pid, (int)getpid());
            return ORDO_ERR_PERMISSION;
        }
        if (deadline >= 0 && ordo_boot_now_ms() >= deadline) {
            ordo_error("descriptor '%s' of rank %d: no answer in %d s (ORDO_BOOT_TIMEOUT)",
                       key, owner, l->timeout_ms / 1000);
            return ORDO_ERR_TIMED_OUT;
        }
        ordo_boot_idle(b, spins);
    }
}
