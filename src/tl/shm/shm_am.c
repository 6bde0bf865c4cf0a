#define _GNU_SOURCE
#include "shm_am.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../base/compiler.h"
#include "../../base/log.h"
#include "../../base/machine.h"

static void lane_key(char *key, size_t len, int rank)
{
    snprintf(key, len, "ordo.shm.mbox.%d", rank);
}

ordo_status_t shm_mailbox_open(shm_mailbox_t *mb, ordo_tl_iface_t *iface, ordo_boot_t *boot,
                               int rank, int size, const ordo_tl_params_t *params)
{
    memset(mb, 0, sizeof(*mb));
    mb->rank = rank;
    mb->size = size;
    mb->boot = boot;
    mb->own_fd = -1;
    ordo_tl_am_limits_t lim;
    size_t rotate;
    ordo_tl_am_limits(size, &lim);
    ordo_tl_am_lane_layout(&lim, params->bounce_rotate, params->hot_max, &lim.nbounce, &rotate);
    ordo_am_geometry_init(&mb->geo, lim.short_max, lim.eager_max, lim.nbounce, rotate);
    /* the receiver copies the front out while the back goes in: one-way
     * 16 KiB 1.8 -> 1.4 us, 32 KiB 2.8 -> 2.1 on a 2-core EPYC VM */
    mb->geo.stream_chunk = SHM_STREAM_CHUNK;
    /* the lane's short records: a protocol header (at most a line) on top
     * of the payload limits the machine choice names */
    size_t cap = ordo_am_short_capacity(&mb->geo);
    if (params->hot_max) {
        mb->geo.hot_min = ORDO_LANE_HOT_MIN;
        mb->geo.hot_size = (ORDO_MIN(params->hot_max, cap) + 64 + 63) & ~(size_t)63;
        mb->geo.hot_stream = SHM_HOT_CHUNK;
        mb->geo.alone_min = mb->geo.hot_size;
    }
    mb->geo.own_ahead = ORDO_MIN(params->own_ahead, cap);
    mb->geo.demote = params->demote;
    if (params->spill_bytes && cap > ORDO_LANE_SPILL_MIN) {
        mb->geo.spill_min = ORDO_LANE_SPILL_MIN;
        mb->geo.spill_size = params->spill_bytes;
    }
    mb->lane_bytes = ordo_am_section_size(&mb->geo);
    iface->am_short_max = ordo_am_short_capacity(&mb->geo);
    iface->am_bcopy_max = mb->geo.bounce_size;

    size_t total = mb->lane_bytes * (size_t)size;
    ordo_status_t st = ORDO_ERR_NO_MEMORY;
    mb->rx = calloc((size_t)size, sizeof(*mb->rx));
    mb->tx = calloc((size_t)size, sizeof(*mb->tx));
    if (mb->rx == NULL || mb->tx == NULL)
        goto err_free;
    /* A fresh memfd reads as zeros: the lanes need no other initialisation,
     * and pages nobody writes to are never allocated. */
    mb->own_fd = memfd_create("ordo-mailbox", MFD_CLOEXEC);
    if (mb->own_fd < 0 || ftruncate(mb->own_fd, (off_t)total) < 0) {
        ordo_error("cannot create the shared-memory mailbox (%zu bytes: %d lanes of %zu, "
                   "each ORDO_EAGER_BUFFERS=%u bounce buffers of ORDO_EAGER_MAX=%zu bytes): %s",
                   total, size, mb->lane_bytes, lim.nbounce, lim.eager_max, strerror(errno));
        st = ORDO_ERR_IO;
        goto err_fd;
    }
    mb->own = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, mb->own_fd, 0);
    if (mb->own == MAP_FAILED) {
        /* the size is a product of settings: name them, with their values */
        ordo_error("cannot map the shared-memory mailbox (%zu bytes: %d lanes of %zu, each "
                   "ORDO_EAGER_BUFFERS=%u bounce buffers of ORDO_EAGER_MAX=%zu bytes and a "
                   "%zu-byte ring for ORDO_SHORT_MAX=%zu): %s; lower those settings",
                   total, size, mb->lane_bytes, lim.nbounce, lim.eager_max,
                   mb->geo.ring_size, lim.short_max, strerror(errno));
        mb->own = NULL;
        st = ORDO_ERR_NO_MEMORY;
        goto err_fd;
    }
    for (int r = 0; r < size; r++)
        ordo_am_rx_init(&mb->rx[r], (char *)mb->own + (size_t)r * mb->lane_bytes, &mb->geo);
    /* Our lane to ourselves needs no mapping. */
    ordo_am_tx_init(&mb->tx[rank], (char *)mb->own + (size_t)rank * mb->lane_bytes, &mb->geo);
    lane_key(mb->key, sizeof(mb->key), rank);
    st = boot->ops->fd_put(boot, mb->key, mb->own_fd);
    if (st != ORDO_OK)
        goto err_map;
    return ORDO_OK;

err_map:
    munmap(mb->own, total);
err_fd:
    if (mb->own_fd >= 0)
        close(mb->own_fd);
err_free:
    free(mb->rx);
    free(mb->tx);
    return st;
}

void shm_mailbox_close(shm_mailbox_t *mb)
{
    for (int r = 0; r < mb->size; r++)
        if (r != mb->rank && mb->tx[r].base)
            munmap(mb->tx[r].base, mb->lane_bytes);
    munmap(mb->own, mb->lane_bytes * (size_t)mb->size);
    close(mb->own_fd);
    mb->boot->ops->fd_del(mb->boot, mb->key);
    free(mb->rx);
    free(mb->tx);
}

ordo_status_t shm_mailbox_lane(shm_mailbox_t *mb, int rank, ordo_am_tx_t **tx_p)
{
    ordo_am_tx_t *tx = &mb->tx[rank];
    if (ORDO_LIKELY(tx->base != NULL)) {
        *tx_p = tx;
        return ORDO_OK;
    }
    char key[64];
    int fd;
    lane_key(key, sizeof(key), rank);
    /* held: no other thread, and no progress, may send on this lane while
     * the descriptor comes (they would reuse this send's sequence number,
     * or map the lane again and rewind its writer over what they sent) */
    ordo_boot_hold_begin();
    ordo_status_t st = mb->boot->ops->fd_get(mb->boot, rank, key, &fd);
    ordo_boot_hold_end();
    if (st != ORDO_OK) {
        ordo_error("cannot reach rank %d's mailbox: %s", rank, ordo_status_string(st));
        return st;
    }
    void *lane = mmap(NULL, mb->lane_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                      (off_t)((size_t)mb->rank * mb->lane_bytes));
    int e = errno;
    close(fd);
    if (lane == MAP_FAILED) {
        ordo_error("cannot map our lane in rank %d's mailbox: %s", rank, strerror(e));
        return ORDO_ERR_NO_MEMORY;
    }
    ordo_am_tx_init(tx, lane, &mb->geo);
    ordo_am_tx_pair(tx, &mb->rx[rank]);
    *tx_p = tx;
    return ORDO_OK;
}

typedef struct poll_ctx {
    ordo_tl_iface_t *iface;
    int              src;
} poll_ctx_t;

static ordo_status_t deliver(void *arg, void *data, size_t len, _Atomic uint32_t *bounce)
{
    poll_ctx_t *c = arg;
    return ordo_tl_am_deliver(c->iface, c->src, data, len, (void *)bounce);
}

unsigned shm_mailbox_poll(shm_mailbox_t *mb, ordo_tl_iface_t *iface)
{
    unsigned n = 0;
    poll_ctx_t c = {.iface = iface};
    for (int r = 0; r < mb->size; r++) {
        if (r == mb->rank && !ordo_am_lane_busy(&mb->tx[r], &mb->rx[r]))
            continue;   /* our own lane, written only by us: nothing there */
        c.src = r;
        n += ordo_am_poll(&mb->rx[r], 64, deliver, &c);
        if (ORDO_UNLIKELY(mb->rx[r].broken != NULL) && !mb->rx[r].broken_told) {
            mb->rx[r].broken_told = 1;
            int cut = ordo_boot_cut_off(mb->boot, r);
            ordo_error("rank %d wrote %s into its shared-memory lane to this rank: the lane is "
                       "broken and nothing more is taken from it; %s", r, mb->rx[r].broken,
                       cut ? "what needs that rank here fails with ORDO_ERR_PEER_DEAD"
                           : "no memory to mark the rank, whose messages wait until the "
                             "job's time limit");
        }
    }
    return n ? n : ordo_tl_am_flush(iface);
}
