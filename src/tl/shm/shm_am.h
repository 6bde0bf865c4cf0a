/* shm active messages: each rank owns a mailbox (one memfd) with a lane
 * per sender; a sender maps only its own lane of each receiver, on first
 * use. */
#ifndef ORDO_TL_SHM_AM_H
#define ORDO_TL_SHM_AM_H

#include "../tl.h"
#include "../am_ring.h"

/* The smallest chunk a bounce buffer streams in, and a hot record
 * (am_ring.h).  A 2-core EPYC VM, one-way, 2 ranks: 3 KiB 0.70 -> 0.53 us
 * and 4 KiB 0.80 -> 0.61 through the hot buffer in 1 KiB chunks (2 KiB:
 * 0.65, 0.63); 2 KiB gained nothing and lost 8% of its message rate (the
 * flag going back and forth), so a hot record streams above 2 chunks; a
 * message sent alone of 6 KiB 0.59 -> 0.45 and 8 KiB 0.63 -> 0.52 through
 * bounce buffers in 2 KiB chunks rather than 4. */
#define SHM_STREAM_CHUNK 2048
#define SHM_HOT_CHUNK    1024

typedef struct shm_mailbox {
    ordo_am_geometry_t geo;
    size_t             lane_bytes;
    int                rank, size;
    ordo_boot_t       *boot;
    void              *own;        /* our mailbox: size lanes */
    int                own_fd;
    char               key[64];
    ordo_am_rx_t      *rx;         /* per sender */
    ordo_am_tx_t      *tx;         /* per receiver; base NULL until attached */
} shm_mailbox_t;

ordo_status_t shm_mailbox_open(shm_mailbox_t *mb, ordo_tl_iface_t *iface, ordo_boot_t *boot,
                               int rank, int size, const ordo_tl_params_t *params);
void          shm_mailbox_close(shm_mailbox_t *mb);
/* The mailbox of an open shm interface (tests reach lanes through it). */
shm_mailbox_t *shm_mailbox_of(ordo_tl_iface_t *iface);
/* The lane to rank, attached on first use. */
ordo_status_t shm_mailbox_lane(shm_mailbox_t *mb, int rank, ordo_am_tx_t **tx_p);
/* Deliver arrived messages; returns how many. */
unsigned      shm_mailbox_poll(shm_mailbox_t *mb, ordo_tl_iface_t *iface);

#endif
