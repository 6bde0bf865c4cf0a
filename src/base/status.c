#include <ordo/status.h>

ORDO_API const char *ordo_status_string(ordo_status_t status)
{
    switch (status) {
    case ORDO_OK:                  return "success";
    case ORDO_INPROGRESS:          return "operation in progress";
    case ORDO_ERR_INVALID_PARAM:   return "invalid parameter";
    case ORDO_ERR_NO_MEMORY:       return "out of memory";
    case ORDO_ERR_NOT_INITIALIZED: return "ordo is not initialized";
    case ORDO_ERR_INVALID_RANK:    return "invalid rank";
    case ORDO_ERR_OUT_OF_BOUNDS:   return "offset or length outside the region";
    case ORDO_ERR_MISALIGNED:      return "atomic target is not aligned to its width";
    case ORDO_ERR_INVALID_HANDLE:  return "invalid or freed handle";
    case ORDO_ERR_UNSUPPORTED:     return "operation not supported for this target";
    case ORDO_ERR_UNREACHABLE:     return "no transport reaches the rank";
    case ORDO_ERR_IO:              return "a system call failed";
    case ORDO_ERR_BOOTSTRAP:       return "bootstrap (launcher connection) failed";
    case ORDO_ERR_PEER_DEAD:       return "a peer process died";
    case ORDO_ERR_BUSY:            return "resource busy";
    case ORDO_ERR_ALREADY:         return "already initialized";
    case ORDO_ERR_PERMISSION:      return "the kernel refused access to the peer";
    case ORDO_ERR_TIMED_OUT:       return "timed out";
    case ORDO_ERR_TRUNCATED:       return "message longer than the receive buffer (truncated)";
    case ORDO_ERR_EPOCH:           return "RMA synchronisation misused (no access epoch, or calls out of order)";
    case ORDO_ERR_THREAD:          return "called from a thread the thread level does not allow";
    case ORDO_ERR_COLL_BROKEN:     return "the context's collectives broke at an earlier failure";
    }
    return "unknown status";
}
