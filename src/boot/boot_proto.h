/* Wire protocol between a rank and ordorun, over an inherited
 * SOCK_SEQPACKET socket pair (one message per datagram; descriptors travel as
 * SCM_RIGHTS, and the kernel attaches the sender's credentials, which the
 * launcher checks against the pid it forked). */
#ifndef ORDO_BOOT_PROTO_H
#define ORDO_BOOT_PROTO_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

#define ORDO_BOOT_KEY_MAX   256
/* Descriptor key of the job's health page: one byte per rank, set non-zero
 * by the launcher when that rank died abnormally. */
#define ORDO_BOOT_HEALTH_KEY "ordo.health"
/* Descriptor key of the job's activity page: one ordo_activity_slot_t per
 * rank (base/activity.h), written by that rank, read by the launcher to say
 * where each rank waits when the job runs past --timeout. */
#define ORDO_BOOT_ACTIVITY_KEY "ordo.activity"
#define ORDO_BOOT_VALUE_MAX 65536
#define ORDO_BOOT_MSG_MAX   (sizeof(ordo_boot_msg_t) + ORDO_BOOT_KEY_MAX + ORDO_BOOT_VALUE_MAX)

/* Environment a launched rank finds. */
#define ORDO_ENV_RANK    "ORDO_RANK"
#define ORDO_ENV_SIZE    "ORDO_SIZE"
#define ORDO_ENV_BOOT_FD "ORDO_BOOT_FD"
#define ORDO_ENV_BINDING "ORDO_BINDING"
#define ORDO_ENV_NODES   "ORDO_NODES"   /* groups of ranks that share no memory */

typedef enum ordo_boot_msg_type {
    ORDO_BOOT_HELLO    = 1,  /* rank -> launcher: ordo_init was called */
    ORDO_BOOT_PUT      = 2,  /* key, value */
    ORDO_BOOT_GET      = 3,  /* key; the reply waits until the key exists */
    ORDO_BOOT_BARRIER  = 4,
    ORDO_BOOT_FD_PUT   = 5,  /* key, descriptor attached */
    ORDO_BOOT_FD_GET   = 6,  /* key; reply carries a duplicate descriptor */
    ORDO_BOOT_FD_DEL   = 7,  /* key: the launcher closes its copy */
    ORDO_BOOT_FINALIZE = 8,  /* rank -> launcher: ordo_finalize completed */
    ORDO_BOOT_CANCEL   = 9,  /* rank -> launcher: it gave up waiting for its request (a
                              * time-out): forget the request (a barrier arrival, a get
                              * waiting for its key) */
    ORDO_BOOT_GATHER_PUT = 10, /* key, value: a rank's part of an allgather; the launcher
                                * drops it once every rank has read it */
    ORDO_BOOT_ABORT    = 11, /* value: int32 exit status: end the job with it (no reply) */
    ORDO_BOOT_REPLY    = 64, /* launcher -> rank */
    ORDO_BOOT_CANCELLED = 65 /* launcher -> rank: answers CANCEL; a reply that came
                              * before it answered the request cancelled */
} ordo_boot_msg_type_t;

typedef struct ordo_boot_msg {
    uint32_t type;
    int32_t  status;    /* replies: ordo_status_t */
    uint32_t keylen;    /* bytes of key following the header */
    uint32_t vallen;    /* bytes of value following the key */
} ordo_boot_msg_t;

/* Send one message: header, key, value, and a descriptor when fd >= 0.
 * Returns sendmsg's result (-1 with errno on failure). */
static inline ssize_t ordo_boot_send(int sock, ordo_boot_msg_t *hdr, const char *key,
                                     const void *val, int fd)
{
    struct iovec iov[3] = {{hdr, sizeof(*hdr)}, {(void *)key, hdr->keylen},
                           {(void *)val, hdr->vallen}};
    union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } ctl;
    struct msghdr mh = {.msg_iov = iov, .msg_iovlen = 3};
    if (fd >= 0) {
        memset(&ctl, 0, sizeof(ctl));
        mh.msg_control = ctl.b;
        mh.msg_controllen = sizeof(ctl.b);
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    ssize_t n;
    do {
        n = sendmsg(sock, &mh, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
}

#endif
