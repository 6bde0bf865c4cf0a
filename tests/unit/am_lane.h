/* A message lane for the unit tests that drive both of its ends in one
 * process: its section reads as zeros, as a fresh memfd does. */
#ifndef ORDO_TEST_AM_LANE_H
#define ORDO_TEST_AM_LANE_H

#include <stdlib.h>
#include <string.h>

#include "../../src/tl/am_ring.h"

/* base (a section of geo's size) zeroed, both ends initialised on it. */
static inline void am_lane_reset(char *base, const ordo_am_geometry_t *geo, ordo_am_tx_t *tx,
                                 ordo_am_rx_t *rx)
{
    memset(base, 0, ordo_am_section_size(geo));
    ordo_am_tx_init(tx, base, geo);
    ordo_am_rx_init(rx, base, geo);
}

/* A new lane of geo: its section (the caller frees it), or NULL without
 * memory. */
static inline char *am_lane_new(const ordo_am_geometry_t *geo, ordo_am_tx_t *tx,
                                ordo_am_rx_t *rx)
{
    char *base = aligned_alloc(4096, ordo_am_section_size(geo));
    if (base != NULL)
        am_lane_reset(base, geo, tx, rx);
    return base;
}

#endif
