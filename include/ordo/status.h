/* ordo — status codes shared by every call. */
#ifndef ORDO_STATUS_H
#define ORDO_STATUS_H

#include <ordo/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ORDO_OK is 0, ORDO_INPROGRESS is 1, every error is negative.  Errors
 * discovered after a call returned arrive in the request's status. */
typedef enum ordo_status {
    ORDO_OK                  =   0,
    ORDO_INPROGRESS          =   1,
    ORDO_ERR_INVALID_PARAM   =  -1, /* a NULL, unknown enum, bad flag or size */
    ORDO_ERR_NO_MEMORY       =  -2,
    ORDO_ERR_NOT_INITIALIZED =  -3, /* called before ordo_init or after ordo_finalize */
    ORDO_ERR_INVALID_RANK    =  -4, /* rank outside [0, size) */
    ORDO_ERR_OUT_OF_BOUNDS   =  -5, /* offset + length outside the region */
    ORDO_ERR_MISALIGNED      =  -6, /* atomic target not aligned to its width */
    ORDO_ERR_INVALID_HANDLE  =  -7, /* freed or foreign region, stream or request */
    ORDO_ERR_UNSUPPORTED     =  -8, /* no transport offers this for that target */
    ORDO_ERR_UNREACHABLE     =  -9, /* no transport reaches that rank */
    ORDO_ERR_IO              = -10, /* a system call refused; the log names it */
    ORDO_ERR_BOOTSTRAP       = -11, /* the launcher connection failed or lied */
    ORDO_ERR_PEER_DEAD       = -12, /* a rank of the job died */
    ORDO_ERR_BUSY            = -13, /* resource still in use (e.g. region with pending ops) */
    ORDO_ERR_ALREADY         = -14, /* already initialized */
    ORDO_ERR_PERMISSION      = -15, /* the kernel refused access to a peer */
    ORDO_ERR_TIMED_OUT       = -16,
    ORDO_ERR_TRUNCATED       = -17, /* a message longer than the receive buffer */
    ORDO_ERR_EPOCH           = -18, /* RMA synchronisation misused: operation outside an
                                       access epoch, unlock without lock, calls out of order */
    ORDO_ERR_THREAD          = -19, /* called from a thread the thread level does not allow */
    ORDO_ERR_COLL_BROKEN     = -20  /* an earlier collective call of the context failed after
                                       members had started it: its collectives are over
                                       (its point-to-point traffic is not affected) */
} ordo_status_t;

/* A constant, human-readable string for a status; never NULL. */
ORDO_API const char *ordo_status_string(ordo_status_t status);

#ifdef __cplusplus
}
#endif
#endif
