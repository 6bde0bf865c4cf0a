/* The layers above the transports, in the order they are started and
 * progressed.  The core reaches them only through this table. */
#include "core/core.h"

extern const ordo_layer_t ordo_rma_layer;
extern const ordo_layer_t ordo_p2p_layer;
extern const ordo_layer_t ordo_coll_layer;

const ordo_layer_t *const ordo_layers[] = {&ordo_rma_layer, &ordo_p2p_layer, &ordo_coll_layer};
const size_t ordo_layer_count = sizeof(ordo_layers) / sizeof(ordo_layers[0]);
