/* Element-wise reduction operators. */
#include <stdint.h>

#include "coll.h"
#include "../base/log.h"

size_t coll_dtype_size(int dtype)
{
    switch (dtype) {
    case ORDO_DT_INT32: case ORDO_DT_FLOAT: return 4;
    case ORDO_DT_INT64: case ORDO_DT_DOUBLE: return 8;
    }
    return 0;
}

ordo_status_t coll_check_reduction(int dtype, int rop)
{
    if (coll_dtype_size(dtype) == 0) {
        ordo_error("reduction: unknown type %d", dtype);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (rop < ORDO_REDUCE_SUM || rop > ORDO_REDUCE_BOR) {
        ordo_error("reduction: unknown operator %d", rop);
        return ORDO_ERR_INVALID_PARAM;
    }
    if ((rop == ORDO_REDUCE_BAND || rop == ORDO_REDUCE_BOR) &&
        (dtype == ORDO_DT_FLOAT || dtype == ORDO_DT_DOUBLE)) {
        ordo_error("reduction: bitwise and/or need an integer type");
        return ORDO_ERR_INVALID_PARAM;
    }
    return ORDO_OK;
}

/* One loop per (type, operator) so the compiler vectorises each. */
#define LOOP(T, EXPR)                                          \
    do {                                                       \
        T *a = acc;                                            \
        const T *b = in;                                       \
        for (size_t i = 0; i < count; i++) {                   \
            T x = a[i], y = b[i];                              \
            a[i] = (EXPR);                                     \
        }                                                      \
    } while (0)

#define ARITH(T)                                               \
    switch (rop) {                                             \
    case ORDO_REDUCE_SUM:  LOOP(T, x + y); break;              \
    case ORDO_REDUCE_MIN:  LOOP(T, y < x ? y : x); break;      \
    case ORDO_REDUCE_MAX:  LOOP(T, y > x ? y : x); break;      \
    case ORDO_REDUCE_PROD: LOOP(T, x * y); break;              \
    default: break;                                            \
    }

/* Integers: sums and products wrap (two's complement, computed unsigned:
 * signed overflow would be undefined); min and max compare signed. */
#define INTEGER(S, U)                                          \
    switch (rop) {                                             \
    case ORDO_REDUCE_SUM:  LOOP(U, x + y); break;              \
    case ORDO_REDUCE_PROD: LOOP(U, x * y); break;              \
    case ORDO_REDUCE_MIN:  LOOP(S, y < x ? y : x); break;      \
    case ORDO_REDUCE_MAX:  LOOP(S, y > x ? y : x); break;      \
    case ORDO_REDUCE_BAND: LOOP(U, x & y); break;              \
    case ORDO_REDUCE_BOR:  LOOP(U, x | y); break;              \
    default: break;                                            \
    }

void coll_apply(void *acc, const void *in, size_t count, int dtype, int rop)
{
    switch (dtype) {
    case ORDO_DT_INT32:  INTEGER(int32_t, uint32_t) break;
    case ORDO_DT_INT64:  INTEGER(int64_t, uint64_t) break;
    case ORDO_DT_FLOAT:  ARITH(float) break;
    case ORDO_DT_DOUBLE: ARITH(double) break;
    default: break;
    }
}
