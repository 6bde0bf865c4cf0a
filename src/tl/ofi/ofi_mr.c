/* ofi: memory registration with the provider, and the page pinning a NIC's
 * registration does, emulated on request.
 *
 * Every registration the transport makes (regions, rendezvous buffers, the
 * registration cache's entries, bounce buffers, message buffers) goes
 * through ofi_mr_reg and ofi_mr_close, so one place binds it to a lane's
 * endpoint where the provider wants that, and one place names the limit a
 * refused registration ran into.
 *
 * Pinning (ORDO_OFI_MR_LOCAL=2).  A verbs-like provider pins the pages it
 * registers, and the kernel counts every registration's pages against the
 * locked-memory limit (RLIMIT_MEMLOCK, ulimit -l) unless the process may
 * lock memory without limit (CAP_IPC_LOCK): that is where registration
 * fails on a real cluster.  The providers here (tcp, sockets, udp, shm) pin
 * nothing, so the limit and its failures could not be met on this machine.
 * With pinning asked for, each registration locks its pages (mlock, so the
 * cost of faulting and locking them is paid as a NIC's registration pays
 * it) and is counted against the limit the same way the kernel counts a
 * verbs registration: per registration, overlapping ones twice.  The count
 * is ordo's own because mlock is not counted per caller: two registrations
 * of one page lock it once, and the first munlock unlocks it for both
 * (which only lets the page be swapped; no provider here needs it resident). */
#define _GNU_SOURCE
#include "ofi.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../base/config.h"
#include "../../base/log.h"

/* What a pinned registration locked (kept by ordo: a provider need not keep
 * the context it is given). */
typedef struct ofi_pin {
    struct fid_mr  *mr;
    uintptr_t       start;
    size_t          len;
    struct ofi_pin *next;
} ofi_pin_t;

static int may_lock_without_limit(void)
{
    struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &hdr, data) != 0)
        return 0;
    return (data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective & CAP_TO_MASK(CAP_IPC_LOCK)) != 0;
}

/* The limit pinning counts against; SIZE_MAX: none. */
static size_t memlock_limit(void)
{
    struct rlimit rl;
    if (may_lock_without_limit() || getrlimit(RLIMIT_MEMLOCK, &rl) != 0 ||
        rl.rlim_cur == RLIM_INFINITY)
        return SIZE_MAX;
    return (size_t)rl.rlim_cur;
}

/* 0, or -FI_ENOMEM with o->pin_refused set to say why (until the next try). */
static int pin(ofi_iface_t *o, void *addr, size_t len, ofi_pin_t **pin_p)
{
    *pin_p = NULL;
    o->pin_refused = 0;
    if (!o->pin || len == 0)
        return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)addr & ~(page - 1);
    size_t span = (((uintptr_t)addr + len + page - 1) & ~(page - 1)) - start;
    size_t limit = memlock_limit();
    size_t pinned = (size_t)o->super.pinned_bytes;
    if (limit != SIZE_MAX && (pinned > limit || span > limit - pinned)) {
        o->pin_refused = 1;
        return -FI_ENOMEM;
    }
    ofi_pin_t *p = malloc(sizeof(*p));
    if (p == NULL)
        return -FI_ENOMEM;
    if (mlock((void *)start, span) != 0) {
        o->pin_refused = 2;
        o->pin_errno = errno;
        free(p);
        return -FI_ENOMEM;
    }
    p->start = start;
    p->len = span;
    p->mr = NULL;
    o->super.pinned_bytes += span;
    *pin_p = p;
    return 0;
}

static void unpin(ofi_iface_t *o, ofi_pin_t *p)
{
    if (p == NULL)
        return;
    munlock((void *)p->start, p->len);
    o->super.pinned_bytes -= p->len;
    free(p);
}

int ofi_mr_reg(ofi_iface_t *o, void *addr, size_t len, uint64_t access, unsigned lane,
               struct fid_mr **mr_p)
{
    ofi_pin_t *p;
    *mr_p = NULL;
    int ret = pin(o, addr, len, &p);
    if (ret != 0)
        return ret;
    ret = fi_mr_reg(o->domain, addr, len, access, 0, o->next_key++, 0, mr_p, NULL);
    if (ret == 0 && o->mr_per_lane) {
        ret = fi_mr_bind(*mr_p, &o->lane[lane].ep->fid, 0);
        if (ret == 0)
            ret = fi_mr_enable(*mr_p);
        if (ret != 0) {
            fi_close(&(*mr_p)->fid);
            *mr_p = NULL;
        }
    }
    if (ret != 0) {
        unpin(o, p);
    } else if (p) {
        p->mr = *mr_p;
        p->next = o->pins;
        o->pins = p;
    }
    return ret;
}

void ofi_mr_close(ofi_iface_t *o, struct fid_mr *mr)
{
    if (mr == NULL)
        return;
    fi_close(&mr->fid);
    for (ofi_pin_t **pp = &o->pins; *pp; pp = &(*pp)->next) {
        if ((*pp)->mr == mr) {
            ofi_pin_t *p = *pp;
            *pp = p->next;
            unpin(o, p);
            break;
        }
    }
}

ordo_status_t ofi_mr_error(ofi_iface_t *o, const char *what, size_t len, int ret)
{
    const char *prov = o->info->fabric_attr->prov_name;
    if (o->pin_refused) {
        struct rlimit rl = {0, 0};
        getrlimit(RLIMIT_MEMLOCK, &rl);
        if (o->pin_refused == 1)
            ordo_error("ofi (%s): cannot register %zu bytes of %s: the locked-memory limit "
                       "(ulimit -l) is %llu KiB and ordo's registrations pin %zu KiB already; "
                       "raise the limit, or register less (ORDO_RCACHE_MAX_BYTES, smaller "
                       "regions)", prov, len, what, (unsigned long long)rl.rlim_cur / 1024,
                       (size_t)o->super.pinned_bytes / 1024);
        else
            ordo_error("ofi (%s): cannot register %zu bytes of %s: mlock refused (%s) with "
                       "%zu KiB pinned already and a locked-memory limit of %llu KiB", prov, len,
                       what, strerror(o->pin_errno), (size_t)o->super.pinned_bytes / 1024,
                       (unsigned long long)rl.rlim_cur / 1024);
        o->pin_refused = 0;
        return ORDO_ERR_NO_MEMORY;
    }
    if (ret == -FI_ENOMEM || ret == -FI_EAGAIN) {
        struct rlimit rl = {0, 0};
        getrlimit(RLIMIT_MEMLOCK, &rl);
        char lim[32] = "unlimited";
        if (rl.rlim_cur != RLIM_INFINITY)
            snprintf(lim, sizeof(lim), "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
        ordo_error("ofi (%s): cannot register %zu bytes of %s: %s (the locked-memory limit, "
                   "ulimit -l, is %s; the provider's own registration limit may also have "
                   "been reached)", prov, len, what, fi_strerror(-ret), lim);
    } else {
        ordo_error("ofi (%s): cannot register %zu bytes of %s: %s", prov, len, what,
                   fi_strerror(-ret));
    }
    return ofi_status(ret);
}
