/* MPI on ordo: reduction operations, predefined and the program's.
 * Pairs a predefined ordo collective supports (32- and 64-bit integers,
 * float, double with SUM, MIN, MAX, PROD, BAND, BOR) run as ordo's
 * collectives; the rest are applied here, element by element. */
#include <complex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

enum kind {
    K_NONE, K_I8, K_U8, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64, K_F32, K_F64, K_LD,
    K_C32, K_C64, K_CLD, K_BOOL, K_BYTE,
    K_FLOAT_INT, K_DOUBLE_INT, K_LONG_INT, K_2INT, K_SHORT_INT, K_LONG_DOUBLE_INT,
    K_2FLOAT, K_2DOUBLE
};

static enum kind kind_of(MPI_Datatype basic)
{
    switch ((uintptr_t)basic) {
    case 0x240: case 0x243: case 0x244: case 0x2c1: return K_I8;   /* char: signed here */
    case 0x241: case 0x245: return K_U8;
    case 0x247: case 0x207: return K_BYTE;
    case 0x208: case 0x248: case 0x2c9: return K_I16;
    case 0x20c: case 0x249: return K_U16;
    case 0x209: case 0x250: case 0x219: case 0x2d1: return K_I32;
    case 0x20d: case 0x251: case 0x23c: return K_U32;
    case 0x20a: case 0x20b: case 0x258: case 0x201: case 0x202: case 0x203: case 0x2d9:
        return K_I64;
    case 0x20e: case 0x20f: case 0x259: return K_U64;
    case 0x210: case 0x21a: case 0x2d2: return K_F32;
    case 0x214: case 0x21c: case 0x2da: return K_F64;
    case 0x220: return K_LD;
    case 0x212: case 0x213: case 0x21b: case 0x2db: return K_C32;
    case 0x216: case 0x217: case 0x21d: case 0x2e3: return K_C64;
    case 0x224: case 0x225: return K_CLD;
    case 0x238: case 0x239: return K_BOOL;
    case 0x218: case 0x2d0: return K_I32;   /* LOGICAL: an int, 0 false */
    case 0x2c0: return K_I8;
    case 0x2c8: return K_I16;
    case 0x2d8: return K_I64;
    case 0x228: return K_FLOAT_INT;
    case 0x229: return K_DOUBLE_INT;
    case 0x22a: return K_LONG_INT;
    case 0x22b: case 0x232: return K_2INT;
    case 0x22c: return K_SHORT_INT;
    case 0x22d: return K_LONG_DOUBLE_INT;
    case 0x230: return K_2FLOAT;
    case 0x231: return K_2DOUBLE;
    }
    return K_NONE;
}

static int is_int(enum kind k)
{
    return k >= K_I8 && k <= K_U64;
}
static int is_real(enum kind k)
{
    return k == K_F32 || k == K_F64 || k == K_LD;
}
static int is_complex(enum kind k)
{
    return k == K_C32 || k == K_C64 || k == K_CLD;
}
static int is_pair(enum kind k)
{
    return k >= K_FLOAT_INT;
}

static struct MPI_ABI_Op *user_op(MPI_Op op)
{
    if ((uintptr_t)op < 0x1000 || op->magic != OM_MAGIC_OP)
        return NULL;
    return op;
}

int om_op_check(MPI_Op op, struct MPI_ABI_Datatype *t)
{
    struct MPI_ABI_Op *u = user_op(op);
    if (u)
        return u->freed ? MPI_ERR_OP : MPI_SUCCESS;
    enum kind k = kind_of(t->basic);
    if (t->basic == MPI_DATATYPE_NULL || k == K_NONE)
        return op == MPI_REPLACE || op == MPI_NO_OP ? MPI_SUCCESS : MPI_ERR_TYPE;
    if (op == MPI_SUM || op == MPI_PROD)
        return is_int(k) || is_real(k) || is_complex(k) ? MPI_SUCCESS : MPI_ERR_OP;
    if (op == MPI_MIN || op == MPI_MAX)
        return is_int(k) || is_real(k) ? MPI_SUCCESS : MPI_ERR_OP;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return is_int(k) || k == K_BOOL ? MPI_SUCCESS : MPI_ERR_OP;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return is_int(k) || k == K_BYTE ? MPI_SUCCESS : MPI_ERR_OP;
    if (op == MPI_MINLOC || op == MPI_MAXLOC)
        return is_pair(k) ? MPI_SUCCESS : MPI_ERR_OP;
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return MPI_SUCCESS;
    return MPI_ERR_OP;
}

int om_op_native(MPI_Op op, struct MPI_ABI_Datatype *t, ordo_dtype_t *dt, ordo_reduce_op_t *ro)
{
    if (!t->contiguous || user_op(op))
        return 0;
    enum kind k = kind_of(t->basic);
    int is_unsigned = k == K_U32 || k == K_U64;
    switch (k) {
    case K_I32: case K_U32: *dt = ORDO_DT_INT32; break;
    case K_I64: case K_U64: *dt = ORDO_DT_INT64; break;
    case K_F32: *dt = ORDO_DT_FLOAT; break;
    case K_F64: *dt = ORDO_DT_DOUBLE; break;
    default: return 0;
    }
    /* two's complement sums, products and bit operations are the same on
     * unsigned numbers; comparisons are not */
    if (op == MPI_SUM)
        *ro = ORDO_REDUCE_SUM;
    else if (op == MPI_PROD)
        *ro = ORDO_REDUCE_PROD;
    else if (op == MPI_MIN && !is_unsigned)
        *ro = ORDO_REDUCE_MIN;
    else if (op == MPI_MAX && !is_unsigned)
        *ro = ORDO_REDUCE_MAX;
    else if (op == MPI_BAND && is_int(k))
        *ro = ORDO_REDUCE_BAND;
    else if (op == MPI_BOR && is_int(k))
        *ro = ORDO_REDUCE_BOR;
    else
        return 0;
    return 1;
}

#define LOOP(T, EXPR)                                                            \
    do {                                                                         \
        const T *a = (const T *)in;                                              \
        T *b = (T *)inout;                                                       \
        for (size_t i = 0; i < n; i++)                                           \
            b[i] = (EXPR);                                                       \
    } while (0)

#define ARITH(T)                                                                 \
    do {                                                                         \
        if (op == MPI_SUM) LOOP(T, a[i] + b[i]);                                 \
        else if (op == MPI_PROD) LOOP(T, a[i] * b[i]);                           \
        else if (op == MPI_MIN) LOOP(T, a[i] < b[i] ? a[i] : b[i]);              \
        else if (op == MPI_MAX) LOOP(T, a[i] > b[i] ? a[i] : b[i]);              \
        else if (op == MPI_LAND) LOOP(T, (T)((a[i] != 0) && (b[i] != 0)));       \
        else if (op == MPI_LOR) LOOP(T, (T)((a[i] != 0) || (b[i] != 0)));        \
        else if (op == MPI_LXOR) LOOP(T, (T)((a[i] != 0) != (b[i] != 0)));       \
        else if (op == MPI_BAND) LOOP(T, (T)(a[i] & b[i]));                      \
        else if (op == MPI_BOR) LOOP(T, (T)(a[i] | b[i]));                       \
        else if (op == MPI_BXOR) LOOP(T, (T)(a[i] ^ b[i]));                      \
    } while (0)

#define LOGIC(T)                                                                 \
    do {                                                                         \
        if (op == MPI_LAND) LOOP(T, (T)(a[i] && b[i]));                          \
        else if (op == MPI_LOR) LOOP(T, (T)(a[i] || b[i]));                      \
        else if (op == MPI_LXOR) LOOP(T, (T)(a[i] != b[i]));                     \
    } while (0)

#define REAL(T)                                                                  \
    do {                                                                         \
        if (op == MPI_SUM) LOOP(T, a[i] + b[i]);                                 \
        else if (op == MPI_PROD) LOOP(T, a[i] * b[i]);                           \
        else if (op == MPI_MIN) LOOP(T, a[i] < b[i] ? a[i] : b[i]);              \
        else if (op == MPI_MAX) LOOP(T, a[i] > b[i] ? a[i] : b[i]);              \
    } while (0)

#define CPLX(T)                                                                  \
    do {                                                                         \
        if (op == MPI_SUM) LOOP(T, a[i] + b[i]);                                 \
        else if (op == MPI_PROD) LOOP(T, a[i] * b[i]);                           \
    } while (0)

/* MINLOC / MAXLOC over packed records (the value, then the index right
 * after it): the extreme value, and the lowest index among equals. */
#define PAIR(VT, IT)                                                             \
    do {                                                                         \
        const size_t rec = sizeof(VT) + sizeof(IT);                              \
        int want_max = op == MPI_MAXLOC;                                         \
        for (size_t i = 0; i < n; i++) {                                         \
            const char *pa = (const char *)in + i * rec;                         \
            char *pb = (char *)inout + i * rec;                                  \
            VT va, vb;                                                           \
            IT ka, kb;                                                           \
            memcpy(&va, pa, sizeof(VT));                                         \
            memcpy(&vb, pb, sizeof(VT));                                         \
            memcpy(&ka, pa + sizeof(VT), sizeof(IT));                            \
            memcpy(&kb, pb + sizeof(VT), sizeof(IT));                            \
            if (va == vb) {                                                      \
                if (ka < kb)                                                     \
                    memcpy(pb + sizeof(VT), &ka, sizeof(IT));                    \
            } else if ((va > vb) == want_max) {                                  \
                memcpy(pb, pa, rec);                                             \
            }                                                                    \
        }                                                                        \
    } while (0)

/* User operations and MPI_REPLACE work on data in the type's own layout;
 * the other predefined operations on packed data (contiguous elements of
 * the basic type; for the pair types, records of value and index). */
int om_op_is_user(MPI_Op op)
{
    return user_op(op) != NULL;
}

void om_op_retain(MPI_Op op)
{
    struct MPI_ABI_Op *u = user_op(op);
    if (u)
        u->refs++;
}

void om_op_release(MPI_Op op)
{
    struct MPI_ABI_Op *u = user_op(op);
    if (u && --u->refs == 0 && u->freed) {
        u->magic = OM_MAGIC_DEAD;
        free(u);
    }
}

void om_op_apply(MPI_Op op, struct MPI_ABI_Datatype *t, const void *in, void *inout,
                 MPI_Count count)
{
    struct MPI_ABI_Op *u = user_op(op);
    if (u) {
        MPI_Datatype h = t->predefined ? t->basic : (MPI_Datatype)t;
        if (u->fn_c) {
            MPI_Count c = count;
            u->fn_c((void *)in, inout, &c, &h);
        } else {
            for (MPI_Count done = 0; done < count;) {
                int c = count - done > INT32_MAX ? INT32_MAX : (int)(count - done);
                u->fn((char *)in + done * t->extent, (char *)inout + done * t->extent, &c, &h);
                done += c;
            }
        }
        return;
    }
    if (op == MPI_NO_OP)
        return;
    size_t bytes = (size_t)count * t->size;
    if (op == MPI_REPLACE) {
        if (t->contiguous)
            memmove(inout, in, bytes);
        else
            for (MPI_Count e = 0; e < count; e++)
                for (int i = 0; i < t->nblocks; i++)
                    memmove((char *)inout + e * t->extent + t->blocks[i].disp,
                            (const char *)in + e * t->extent + t->blocks[i].disp,
                            t->blocks[i].len);
        return;
    }
    size_t n = (size_t)count * t->basic_count;
    switch (kind_of(t->basic)) {
    case K_I8: ARITH(int8_t); break;
    case K_U8: ARITH(uint8_t); break;
    case K_BYTE: ARITH(uint8_t); break;
    case K_I16: ARITH(int16_t); break;
    case K_U16: ARITH(uint16_t); break;
    case K_I32: ARITH(int32_t); break;
    case K_U32: ARITH(uint32_t); break;
    case K_I64: ARITH(int64_t); break;
    case K_U64: ARITH(uint64_t); break;
    case K_BOOL: LOGIC(bool); break;
    case K_F32: REAL(float); break;
    case K_F64: REAL(double); break;
    case K_LD: REAL(long double); break;
    case K_C32: CPLX(float _Complex); break;
    case K_C64: CPLX(double _Complex); break;
    case K_CLD: CPLX(long double _Complex); break;
    case K_FLOAT_INT: PAIR(float, int); break;
    case K_DOUBLE_INT: PAIR(double, int); break;
    case K_LONG_INT: PAIR(long, int); break;
    case K_2INT: PAIR(int, int); break;
    case K_SHORT_INT: PAIR(short, int); break;
    case K_LONG_DOUBLE_INT: PAIR(long double, int); break;
    case K_2FLOAT: PAIR(float, float); break;
    case K_2DOUBLE: PAIR(double, double); break;
    case K_NONE: break;
    }
}

/* ----------------------------------------------------------- user ops */

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    if (!user_fn || !op)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Op_create", "a NULL argument");
    struct MPI_ABI_Op *o = calloc(1, sizeof(*o));
    if (!o)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Op_create", "no memory");
    o->magic = OM_MAGIC_OP;
    o->fn = user_fn;
    o->commute = commute;
    *op = o;
    return MPI_SUCCESS;
}
OM_ALIAS(Op_create)

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    if (!user_fn || !op)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Op_create_c",
                             "a NULL argument");
    struct MPI_ABI_Op *o = calloc(1, sizeof(*o));
    if (!o)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Op_create_c", "no memory");
    o->magic = OM_MAGIC_OP;
    o->fn_c = user_fn;
    o->commute = commute;
    *op = o;
    return MPI_SUCCESS;
}
OM_ALIAS(Op_create_c)

int PMPI_Op_free(MPI_Op *op)
{
    struct MPI_ABI_Op *o = op ? user_op(*op) : NULL;
    if (!o || o->freed)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_OP, "MPI_Op_free",
                             "not an operation the program made");
    o->freed = 1;
    if (o->refs == 0) {   /* else the last reduction using it frees it */
        o->magic = OM_MAGIC_DEAD;
        free(o);
    }
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
OM_ALIAS(Op_free)

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    if (!commute)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Op_commutative",
                             "commute is NULL");
    struct MPI_ABI_Op *o = user_op(op);
    if (!o && ((uintptr_t)op < 0x21 || (uintptr_t)op > 0x3d))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_OP, "MPI_Op_commutative",
                             "not an operation");
    *commute = o ? o->commute : 1;
    return MPI_SUCCESS;
}
OM_ALIAS(Op_commutative)

static int reduce_local(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, const char *func)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_check_buffer(inbuf, count, datatype, &t);
    if (rc == MPI_SUCCESS && count > 0 && !inoutbuf)
        rc = MPI_ERR_BUFFER;
    if (rc == MPI_SUCCESS)
        rc = om_op_check(op, t);
    if (rc != MPI_SUCCESS)
        return om_comm_error(MPI_COMM_SELF, rc, func, "count %lld with this datatype and op",
                             (long long)count);
    om_op_apply(op, t, inbuf, inoutbuf, count);
    return MPI_SUCCESS;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op)
{
    return reduce_local(inbuf, inoutbuf, count, datatype, op, "MPI_Reduce_local");
}
OM_ALIAS(Reduce_local)

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local(inbuf, inoutbuf, count, datatype, op, "MPI_Reduce_local_c");
}
OM_ALIAS(Reduce_local_c)
