/* shm active messages: each rank owns a mailbox (one memfd) with a lane
 * per sender; a sender maps only its own lane of each receiver, on first
 * use. */
#ifndef ORDO_TL_SHM_AM_H
#define ORDO_TL_SHM_AM_H

#include "../tl.h"
#include "../am_ring.h"

/* The smallest chunk a bounce buffer streams in (am_ring.h). */
#define SHM_STREAM_CHUNK 4096

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
