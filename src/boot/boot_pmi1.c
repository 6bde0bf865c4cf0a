/* Bootstrap through PMI-1, the protocol MPICH's Hydra (mpiexec.hydra,
 * Debian's mpirun.mpich) serves each rank on the descriptor in PMI_FD.
 *
 * The client is written here: Debian has no PMI-1 client library that
 * speaks to Hydra (libpmi from Slurm and from PMIx serve their own
 * launchers), and the part ordo needs is small: init, the key-value space's
 * name and limits, put, get, barrier, finalize, abort.  Each is one line of
 * "name=value" words and one line back.
 *
 * An allgather is puts, a barrier, then gets.  Values are hex (the protocol
 * splits on spaces and '='), in chunks of what the server's vallen_max
 * holds; keys are numbered by call ("o<call>.<rank>.<chunk>"), since every
 * rank makes the same calls in the same order and Hydra's keys are short.
 * Hydra ends the whole job when a rank dies, so no health is kept here;
 * descriptors between local ranks go through boot_local.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "boot.h"
#include "boot_local.h"
#include "boot_proto.h"
#include "../base/log.h"

#define PMI1_LINE_MAX 4096

typedef struct boot_pmi1 {
    ordo_boot_t   super;
    int           fd;
    int           timeout_ms;
    char          kvs[256];
    size_t        keylen_max, vallen_max;
    unsigned      calls;                /* allgathers so far: name their keys */
        char          in[PMI1_LINE_MAX];    /* bytes read, not yet consumed */
    size_t        inlen;
    char          line[PMI1_LINE_MAX];  /* the last reply */
} boot_pmi1_t;

static ordo_status_t send_line(boot_pmi1_t *p, const char *fmt, ...)
{
    char buf[PMI1_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(buf)) {
        ordo_error("PMI-1: a request longer than %d bytes", PMI1_LINE_MAX);
        return ORDO_ERR_INVALID_PARAM;
    }
    for (size_t off = 0; off < (size_t)n;) {
        ssize_t w = send(p->fd, buf + off, (size_t)n - off, MSG_NOSIGNAL);
        if (w < 0 && errno == ENOTSOCK)
            w = write(p->fd, buf + off, (size_t)n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            ordo_error("PMI-1: lost the launcher (%s)", w < 0 ? strerror(errno) : "closed");
            return ORDO_ERR_BOOTSTRAP;
        }
        off += (size_t)w;
    }
    return ORDO_OK;
}

/* The next line from the server into p->line, waiting (and driving the
 * transports) at most the boot timeout. */
static ordo_status_t read_line(boot_pmi1_t *p, const char *waiting_for)
{
    long long deadline = p->timeout_ms < 0 ? -1 : ordo_boot_now_ms() + p->timeout_ms;
    for (unsigned spins = 0;;) {
        char *nl = memchr(p->in, '\n', p->inlen);
        if (nl) {
            size_t n = (size_t)(nl - p->in);
            memcpy(p->line, p->in, n);
            p->line[n] = 0;
            p->inlen -= n + 1;
            memmove(p->in, nl + 1, p->inlen);
            return ORDO_OK;
        }
        if (p->inlen == sizeof(p->in)) {
            ordo_error("PMI-1: a reply longer than %d bytes", PMI1_LINE_MAX);
            return ORDO_ERR_BOOTSTRAP;
        }
        struct pollfd pf = {.fd = p->fd, .events = POLLIN};
        int r = poll(&pf, 1, p->super.while_waiting ? 0 : 10);
        if (r < 0 && errno != EINTR) {
            ordo_error("PMI-1: poll: %s", strerror(errno));
            return ORDO_ERR_BOOTSTRAP;
        }
        if (r > 0) {
            ssize_t got = read(p->fd, p->in + p->inlen, sizeof(p->in) - p->inlen);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                ordo_error("PMI-1: lost the launcher waiting for %s (%s)", waiting_for,
                           got < 0 ? strerror(errno) : "closed");
                return ORDO_ERR_BOOTSTRAP;
            }
            p->inlen += (size_t)got;
            continue;
        }
        if (deadline >= 0 && ordo_boot_now_ms() >= deadline) {
            ordo_error("PMI-1: no %s from the launcher in %d s (ORDO_BOOT_TIMEOUT)",
                       waiting_for, p->timeout_ms / 1000);
            return ORDO_ERR_TIMED_OUT;
        }
        if (p->super.while_waiting)
            ordo_boot_idle(&p->super, spins++);
    }
}

/* The value of word name= in p->line, copied into out; 0 if absent. */
static int field(const boot_pmi1_t *p, const char *name, char *out, size_t cap)
{
    size_t nl = strlen(name);
    for (const char *s = p->line; *s;) {
        while (*s == ' ')
            s++;
        size_t w = strcspn(s, " ");
        if (w > nl && strncmp(s, name, nl) == 0 && s[nl] == '=') {
            size_t v = w - nl - 1;
            if (v >= cap)
                return 0;
            memcpy(out, s + nl + 1, v);
            out[v] = 0;
            return 1;
        }
        s += w;
    }
    return 0;
}

/* A request, and its reply checked: cmd=expect, and rc=0 where rc is given. */
static ordo_status_t call(boot_pmi1_t *p, const char *expect, const char *fmt, ...)
{
    char req[PMI1_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(req, sizeof(req), fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(req))
        return ORDO_ERR_INVALID_PARAM;
    ordo_status_t st = send_line(p, "%s", req);
    if (st == ORDO_OK)
        st = read_line(p, expect);
    if (st != ORDO_OK)
        return st;
    char cmd[64], rc[16];
    if (!field(p, "cmd", cmd, sizeof(cmd)) || strcmp(cmd, expect) != 0) {
        ordo_error("PMI-1: expected cmd=%s, the launcher said \"%.200s\"", expect, p->line);
        return ORDO_ERR_BOOTSTRAP;
    }
    if (field(p, "rc", rc, sizeof(rc)) && strcmp(rc, "0") != 0) {
        char msg[256] = "";
        field(p, "msg", msg, sizeof(msg));
        ordo_debug("PMI-1: %s refused: rc=%s %s", expect, rc, msg);
        return ORDO_ERR_BOOTSTRAP;
    }
    return ORDO_OK;
}

static ordo_status_t p1_barrier(ordo_boot_t *b)
{
    return call((boot_pmi1_t *)b, "barrier_out", "cmd=barrier_in\n");
}

static const char hexdigit[] = "0123456789abcdef";

static ordo_status_t p1_allgather(ordo_boot_t *b, const char *tag, const void *mine,
                                  size_t len, void *all)
{
    boot_pmi1_t *p = (boot_pmi1_t *)b;
    unsigned call_no = p->calls++;
    size_t chunk = (p->vallen_max - 1) / 2;
    size_t nchunks = (len + chunk - 1) / chunk;
    char key[64], val[PMI1_LINE_MAX];
    ordo_status_t st;
    for (size_t c = 0; c < nchunks; c++) {
        const unsigned char *src = (const unsigned char *)mine + c * chunk;
        size_t n = len - c * chunk < chunk ? len - c * chunk : chunk;
        for (size_t i = 0; i < n; i++) {
            val[2 * i] = hexdigit[src[i] >> 4];
            val[2 * i + 1] = hexdigit[src[i] & 15];
        }
        val[2 * n] = 0;
        snprintf(key, sizeof(key), "o%u.%d.%zu", call_no, b->rank, c);
        st = call(p, "put_result", "cmd=put kvsname=%s key=%s value=%s\n", p->kvs, key, val);
        if (st != ORDO_OK) {
            ordo_error("PMI-1: cannot publish '%s' (%zu bytes)", tag, len);
            return st;
        }
    }
    if ((st = p1_barrier(b)) != ORDO_OK)
        return st;
    for (int r = 0; r < b->size; r++) {
        for (size_t c = 0; c < nchunks; c++) {
            unsigned char *dst = (unsigned char *)all + (size_t)r * len + c * chunk;
            size_t n = len - c * chunk < chunk ? len - c * chunk : chunk;
            snprintf(key, sizeof(key), "o%u.%d.%zu", call_no, r, c);
            st = call(p, "get_result", "cmd=get kvsname=%s key=%s\n", p->kvs, key);
            if (st != ORDO_OK || !field(p, "value", val, sizeof(val)) || strlen(val) != 2 * n) {
                ordo_error("PMI-1: rank %d's part of '%s' is missing or malformed", r, tag);
                return ORDO_ERR_BOOTSTRAP;
            }
            for (size_t i = 0; i < n; i++) {
                const char *hi = strchr(hexdigit, val[2 * i]);
                const char *lo = strchr(hexdigit, val[2 * i + 1]);
                if (hi == NULL || lo == NULL || !val[2 * i] || !val[2 * i + 1]) {
                    ordo_error("PMI-1: rank %d's part of '%s' is not hex", r, tag);
                    return ORDO_ERR_BOOTSTRAP;
                }
                dst[i] = (unsigned char)(((hi - hexdigit) << 4) | (lo - hexdigit));
            }
        }
    }
    return ORDO_OK;
}

static void p1_fini(ordo_boot_t *b, int clean)
{
    boot_pmi1_t *p = (boot_pmi1_t *)b;
    ordo_boot_local_close(p->super.local);
    /* Hydra counts a rank that ends without finalize as failed; a rank that
     * failed says so by leaving it out. */
    if (clean && p->fd >= 0)
        call(p, "finalize_ack", "cmd=finalize\n");
    if (p->fd >= 0)
        close(p->fd);
    free(p);
}

static int p1_abort(ordo_boot_t *b, int status, const char *why)
{
    (void)why;
    boot_pmi1_t *p = (boot_pmi1_t *)b;
    if (p->fd >= 0)
        send_line(p, "cmd=abort exitcode=%d\n", status);   /* Hydra answers by ending the job */
    return 0;   /* read before the socket's end */
}

static const ordo_boot_ops_t pmi1_ops = {
    .size = sizeof(ordo_boot_ops_t), .name = "pmi1",
    .allgather = p1_allgather, .barrier = p1_barrier,
    .fd_put = ordo_boot_local_fd_put, .fd_get = ordo_boot_local_fd_get,
    .fd_del = ordo_boot_local_fd_del, .fini = p1_fini, .abort = p1_abort,
};

ordo_status_t ordo_boot_pmi1_open(int timeout_s, ordo_boot_t **boot_p)
{
    int fd, rank, size;
    if (ordo_boot_env_int("PMI_FD", &fd) != 1 || ordo_boot_env_int("PMI_SIZE", &size) != 1 ||
        ordo_boot_env_int("PMI_RANK", &rank) != 1 || size < 1 || rank >= size) {
        ordo_error("started by a PMI-1 launcher, but PMI_FD=%s PMI_RANK=%s PMI_SIZE=%s do not "
                   "describe a rank of a job", getenv("PMI_FD"), getenv("PMI_RANK"),
                   getenv("PMI_SIZE"));
        return ORDO_ERR_BOOTSTRAP;
    }
    if (fcntl(fd, F_GETFD) < 0) {
        ordo_error("PMI_FD=%d is not an open descriptor: was this process started by "
                   "mpiexec?", fd);
        return ORDO_ERR_BOOTSTRAP;
    }
    boot_pmi1_t *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return ORDO_ERR_NO_MEMORY;
    p->super.ops = &pmi1_ops;
    p->super.rank = rank;
    p->super.size = size;
    p->fd = fd;
    p->timeout_ms = timeout_s > 0 ? timeout_s * 1000 : -1;
    ordo_boot_describe_binding(p->super.binding, sizeof(p->super.binding));
    fcntl(p->fd, F_SETFD, FD_CLOEXEC);      /* not for the programs this one starts */
    ordo_status_t st;
    char v[64];
    if ((st = call(p, "response_to_init", "cmd=init pmi_version=1 pmi_subversion=1\n")) !=
        ORDO_OK)
        goto fail;
    if ((st = call(p, "maxes", "cmd=get_maxes\n")) != ORDO_OK)
        goto fail;
    p->keylen_max = field(p, "keylen_max", v, sizeof(v)) ? strtoul(v, NULL, 10) : 64;
    p->vallen_max = field(p, "vallen_max", v, sizeof(v)) ? strtoul(v, NULL, 10) : 256;
    if (p->vallen_max > PMI1_LINE_MAX - 512)
        p->vallen_max = PMI1_LINE_MAX - 512;  /* room for the rest of the line */
    if (p->keylen_max < 24 || p->vallen_max < 64) {
        ordo_error("PMI-1: the launcher's keys (%zu) or values (%zu bytes) are too short",
                   p->keylen_max, p->vallen_max);
        st = ORDO_ERR_BOOTSTRAP;
        goto fail;
    }
    if ((st = call(p, "my_kvsname", "cmd=get_my_kvsname\n")) != ORDO_OK)
        goto fail;
    if (!field(p, "kvsname", p->kvs, sizeof(p->kvs))) {
        ordo_error("PMI-1: the launcher named no key-value space");
        st = ORDO_ERR_BOOTSTRAP;
        goto fail;
    }
    if ((st = ordo_boot_local_open(&p->super, timeout_s, &p->super.local)) != ORDO_OK)
        goto fail;
    *boot_p = &p->super;
    return ORDO_OK;
fail:
    ordo_error("could not join MPICH's Hydra through PMI-1 (PMI_FD=%d, rank %d of %d)", fd,
               rank, size);
    close(p->fd);
    p->fd = -1;
    free(p);
    return st;
}
