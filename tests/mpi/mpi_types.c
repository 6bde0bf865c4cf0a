/* MPI conformance: datatypes.  Sizes, extents and bounds of every
 * constructor; pack / unpack through them; a struct type on the wire. */
#include <stddef.h>

#include <string.h>

#include "mpi_harness.h"

static void check_type(MPI_Datatype t, MPI_Count size, MPI_Aint lb, MPI_Aint extent,
                       MPI_Aint true_lb, MPI_Aint true_extent, int line)
{
    int s = -1;
    MPI_Aint l = -1, e = -1, tl = -1, te = -1;
    MPI_Type_size(t, &s);
    MPI_Type_get_extent(t, &l, &e);
    MPI_Type_get_true_extent(t, &tl, &te);
    if (s != size || l != lb || e != extent || tl != true_lb || te != true_extent) {
        fprintf(stderr, "[rank %d] line %d: size %d lb %ld extent %ld true %ld %ld; wanted "
                        "%lld %ld %ld %ld %ld\n", me, line, s, (long)l, (long)e, (long)tl,
                (long)te, (long long)size, (long)lb, (long)extent, (long)true_lb,
                (long)true_extent);
        failures++;
    }
}

#define TYPE_IS(t, ...) check_type(t, __VA_ARGS__, __LINE__)

static void predefined(void)
{
    TYPE_IS(MPI_INT, 4, 0, 4, 0, 4);
    TYPE_IS(MPI_DOUBLE, 8, 0, 8, 0, 8);
    TYPE_IS(MPI_CHAR, 1, 0, 1, 0, 1);
    TYPE_IS(MPI_INT64_T, 8, 0, 8, 0, 8);
    TYPE_IS(MPI_C_DOUBLE_COMPLEX, 16, 0, 16, 0, 16);
    TYPE_IS(MPI_2INT, 8, 0, 8, 0, 8);
    TYPE_IS(MPI_DOUBLE_INT, 12, 0, 16, 0, 12);
    TYPE_IS(MPI_SHORT_INT, 6, 0, 8, 0, 8);
    TYPE_IS(MPI_AINT, sizeof(MPI_Aint), 0, sizeof(MPI_Aint), 0, sizeof(MPI_Aint));
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    OK(MPI_Type_get_name(MPI_UNSIGNED_LONG, name, &len));
    CHECK(strcmp(name, "MPI_UNSIGNED_LONG") == 0);
    MPI_Datatype t = MPI_INT;
    CHECK(class_of(MPI_Type_free(&t)) == MPI_ERR_TYPE);
}

static void constructors(void)
{
    MPI_Datatype contig, vec, hvec, idx, hidx, blk, resized, dup;
    OK(MPI_Type_contiguous(3, MPI_INT, &contig));
    TYPE_IS(contig, 12, 0, 12, 0, 12);
    OK(MPI_Type_vector(3, 2, 5, MPI_INT, &vec));   /* 2 of every 5 ints, 3 times */
    TYPE_IS(vec, 24, 0, 48, 0, 48);
    OK(MPI_Type_create_hvector(2, 1, 100, MPI_DOUBLE, &hvec));
    TYPE_IS(hvec, 16, 0, 108, 0, 108);
    int lens[3] = {1, 2, 1}, displs[3] = {4, 0, 8};
    OK(MPI_Type_indexed(3, lens, displs, MPI_INT, &idx));
    TYPE_IS(idx, 16, 0, 36, 0, 36);
    MPI_Aint hdispls[2] = {16, 0};
    int hlens[2] = {1, 1};
    OK(MPI_Type_create_hindexed(2, hlens, hdispls, MPI_DOUBLE, &hidx));
    TYPE_IS(hidx, 16, 0, 24, 0, 24);
    int bdispls[2] = {1, 3};
    OK(MPI_Type_create_indexed_block(2, 2, bdispls, MPI_SHORT, &blk));
    TYPE_IS(blk, 8, 2, 8, 2, 8);
    OK(MPI_Type_create_resized(MPI_INT, -4, 16, &resized));
    TYPE_IS(resized, 4, -4, 16, 0, 4);
    OK(MPI_Type_dup(vec, &dup));
    TYPE_IS(dup, 24, 0, 48, 0, 48);

    /* a struct as C lays it out: its extent is padded to its alignment */
    struct rec {
        char c;
        double d;
        int i;
    };
    int slens[3] = {1, 1, 1};
    MPI_Aint sdispls[3] = {offsetof(struct rec, c), offsetof(struct rec, d),
                           offsetof(struct rec, i)};
    MPI_Datatype stypes[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, st;
    OK(MPI_Type_create_struct(3, slens, sdispls, stypes, &st));
    TYPE_IS(st, 13, 0, (MPI_Aint)sizeof(struct rec), 0, 20);
    OK(MPI_Type_commit(&st));
    OK(MPI_Type_set_name(st, "rec"));
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    OK(MPI_Type_get_name(st, name, &len));
    CHECK(strcmp(name, "rec") == 0);

    /* decoding: what each constructor was given comes back */
    int ni = -1, na = -1, nd = -1, comb = -1;
    OK(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0);
    OK(MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1);
    int vi[3] = {0};
    MPI_Aint va[1];
    MPI_Datatype vt[1] = {MPI_DATATYPE_NULL};
    OK(MPI_Type_get_contents(vec, 3, 0, 1, vi, va, vt));
    CHECK(vi[0] == 3 && vi[1] == 2 && vi[2] == 5 && vt[0] == MPI_INT);
    OK(MPI_Type_get_envelope(st, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 4 && na == 3 && nd == 3);
    int si[4];
    MPI_Aint sa[3];
    MPI_Datatype sts[3];
    OK(MPI_Type_get_contents(st, 4, 3, 3, si, sa, sts));
    CHECK(si[0] == 3 && sa[1] == (MPI_Aint)offsetof(struct rec, d) && sts[2] == MPI_INT);
    OK(MPI_Type_get_envelope(hidx, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_HINDEXED && ni == 3 && na == 2 && nd == 1);
    OK(MPI_Type_get_envelope(resized, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1);
    /* a large-count constructor's arguments come back as large counts
     * (MPI 4.0), past what an int holds; the plain call refuses those */
    MPI_Datatype big;
    MPI_Count big_n = (MPI_Count)1 << 31, cni, cna, cnc, cnd, cv[3];
    OK(MPI_Type_contiguous_c(big_n + 5, MPI_BYTE, &big));
    OK(MPI_Type_get_envelope_c(big, &cni, &cna, &cnc, &cnd, &comb));
    CHECK(comb == MPI_COMBINER_CONTIGUOUS && cni == 0 && cna == 0 && cnc == 1 && cnd == 1);
    MPI_Datatype big_of;
    OK(MPI_Type_get_contents_c(big, 0, 0, 1, 1, NULL, NULL, cv, &big_of));
    CHECK(cv[0] == big_n + 5 && big_of == MPI_BYTE);
    int bi[1];
    CHECK(class_of(MPI_Type_get_contents(big, 1, 0, 1, bi, NULL, &big_of)) == MPI_ERR_TYPE);
    OK(MPI_Type_free(&big));
    MPI_Datatype hv;
    OK(MPI_Type_create_hvector_c(2, 3, 40, MPI_INT, &hv));
    OK(MPI_Type_get_envelope_c(hv, &cni, &cna, &cnc, &cnd, &comb));
    CHECK(comb == MPI_COMBINER_HVECTOR && cni == 0 && cna == 0 && cnc == 3 && cnd == 1);
    OK(MPI_Type_get_contents_c(hv, 0, 0, 3, 1, NULL, NULL, cv, &big_of));
    CHECK(cv[0] == 2 && cv[1] == 3 && cv[2] == 40);
    OK(MPI_Type_free(&hv));
    /* a derived type given back is a reference of the caller's own */
    MPI_Datatype inner, outer, got_inner;
    OK(MPI_Type_contiguous(2, MPI_INT, &inner));
    OK(MPI_Type_contiguous(3, inner, &outer));
    OK(MPI_Type_free(&inner));   /* outer still holds it */
    int oi[1];
    OK(MPI_Type_get_contents(outer, 1, 0, 1, oi, NULL, &got_inner));
    int isz = 0;
    OK(MPI_Type_size(got_inner, &isz));
    CHECK(oi[0] == 3 && isz == 8);
    OK(MPI_Type_free(&got_inner));
    OK(MPI_Type_free(&outer));

    /* a 2x3 block at (1, 1) of a 4x5 array, in C and in Fortran order */
    int sizes[2] = {4, 5}, subs[2] = {2, 3}, starts[2] = {1, 1};
    MPI_Datatype sub, fsub;
    OK(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &sub));
    OK(MPI_Type_commit(&sub));
    TYPE_IS(sub, 24, 0, 80, 24, 32);   /* elements 6 .. 13 */
    int grid[20], picked[6], ppos = 0;
    for (int i = 0; i < 20; i++)
        grid[i] = i;
    OK(MPI_Pack(grid, 1, sub, picked, sizeof(picked), &ppos, MPI_COMM_WORLD));
    CHECK(picked[0] == 6 && picked[1] == 7 && picked[2] == 8 && picked[3] == 11 &&
          picked[5] == 13);
    OK(MPI_Type_get_envelope(sub, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 8 && na == 0 && nd == 1);
    OK(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_INT, &fsub));
    OK(MPI_Type_commit(&fsub));
    ppos = 0;
    OK(MPI_Pack(grid, 1, fsub, picked, sizeof(picked), &ppos, MPI_COMM_WORLD));
    /* Fortran: the first index is the fastest, 4 elements to a column */
    CHECK(picked[0] == 5 && picked[1] == 6 && picked[2] == 9 && picked[5] == 14);
    OK(MPI_Type_free(&sub));
    OK(MPI_Type_free(&fsub));

    /* an uncommitted type cannot be used */
    int x[48];
    CHECK(class_of(MPI_Send(x, 1, vec, MPI_PROC_NULL, 0, MPI_COMM_WORLD)) == MPI_ERR_TYPE);
    OK(MPI_Type_commit(&vec));

    /* pack and unpack through the vector */
    int src[15], dst[15], packed[6], pos = 0;
    for (int i = 0; i < 15; i++) {
        src[i] = i;
        dst[i] = -1;
    }
    MPI_Datatype vec5;
    OK(MPI_Type_vector(3, 2, 5, MPI_INT, &vec5));
    OK(MPI_Type_commit(&vec5));
    OK(MPI_Pack(src, 1, vec5, packed, sizeof(packed), &pos, MPI_COMM_WORLD));
    CHECK(pos == 24);
    CHECK(packed[0] == 0 && packed[1] == 1 && packed[2] == 5 && packed[3] == 6 &&
          packed[4] == 10 && packed[5] == 11);
    pos = 0;
    OK(MPI_Unpack(packed, sizeof(packed), &pos, dst, 1, vec5, MPI_COMM_WORLD));
    CHECK(dst[0] == 0 && dst[6] == 6 && dst[11] == 11 && dst[2] == -1 && dst[12] == -1);
    pos = 20;
    CHECK(class_of(MPI_Pack(src, 1, vec5, packed, sizeof(packed), &pos, MPI_COMM_WORLD)) ==
          MPI_ERR_TRUNCATE);

    /* structs on the wire, a ring */
    struct rec out[2] = {{'a', 1.5, 7}, {'b', 2.5, 8}}, in[2];
    memset(in, 0, sizeof(in));
    for (int k = 0; k < 2; k++) {
        out[k].c = (char)(out[k].c + me);
        out[k].i += me;
    }
    MPI_Status status;
    OK(MPI_Sendrecv(out, 2, st, (me + 1) % np, 5, in, 2, st, (me - 1 + np) % np, 5,
                    MPI_COMM_WORLD, &status));
    int from = (me - 1 + np) % np, count = 0;
    CHECK(in[0].c == 'a' + from && in[1].d == 2.5 && in[1].i == 8 + from);
    OK(MPI_Get_count(&status, st, &count));
    CHECK(count == 2);
    OK(MPI_Get_elements(&status, st, &count));
    CHECK(count == 6);   /* mixed: each basic element counted */

    MPI_Datatype all[] = {contig, vec, hvec, idx, hidx, blk, resized, dup, st, vec5};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        OK(MPI_Type_free(&all[i]));
    CHECK(all[0] == MPI_DATATYPE_NULL);
}

/* Types found by what they hold: by class and size, value-index pairs,
 * Fortran 90 kinds; renaming a predefined type */
static void found(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, u = MPI_DATATYPE_NULL;
    int size = 0;
    OK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t));
    CHECK(t == MPI_INTEGER8);
    OK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &t));
    CHECK(t == MPI_REAL4);
    OK(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t));
    OK(MPI_Type_size(t, &size));
    CHECK(t == MPI_COMPLEX16 && size == 16);
    CHECK(class_of(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t)) == MPI_ERR_ARG);
    CHECK(class_of(MPI_Type_match_size(12345, 4, &t)) == MPI_ERR_ARG);

    OK(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &t));
    CHECK(t == MPI_DOUBLE_INT);
    OK(MPI_Type_get_value_index(MPI_INT, MPI_INT, &t));
    CHECK(t == MPI_2INT);
    OK(MPI_Type_get_value_index(MPI_DOUBLE, MPI_FLOAT, &t));   /* none: not an error */
    CHECK(t == MPI_DATATYPE_NULL);
    CHECK(class_of(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &t)) == MPI_ERR_TYPE);

    /* the smallest kind that holds the range / precision; the same
     * arguments, the same handle; never freed */
    OK(MPI_Type_create_f90_integer(9, &t));
    OK(MPI_Type_size(t, &size));
    CHECK(size == 4);
    OK(MPI_Type_create_f90_integer(9, &u));
    CHECK(u == t);
    int ni, na, nd, combiner, ints[2];
    OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_F90_INTEGER && ni == 1 && na == 0 && nd == 0);
    OK(MPI_Type_get_contents(t, 1, 0, 0, ints, NULL, NULL));
    CHECK(ints[0] == 9);
    CHECK(class_of(MPI_Type_free(&u)) == MPI_ERR_TYPE);
    OK(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &t));
    OK(MPI_Type_size(t, &size));
    CHECK(size == 8);
    OK(MPI_Type_create_f90_complex(6, 30, &t));
    OK(MPI_Type_size(t, &size));
    CHECK(size == 8);
    OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_F90_COMPLEX && ni == 2);
    OK(MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL));
    CHECK(ints[0] == 6 && ints[1] == 30);
    CHECK(class_of(MPI_Type_create_f90_real(40, 5000, &t)) == MPI_ERR_ARG);
    CHECK(class_of(MPI_Type_create_f90_integer(-1, &t)) == MPI_ERR_ARG);
    /* one usable as any type */
    OK(MPI_Type_create_f90_integer(4, &t));   /* 2 bytes */
    short out[3] = {1, 2, 3}, in[3] = {0, 0, 0};
    OK(MPI_Sendrecv(out, 3, t, 0, 5, in, 3, t, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK(in[0] == 1 && in[2] == 3);

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    OK(MPI_Type_set_name(MPI_FLOAT, "my float"));
    OK(MPI_Type_get_name(MPI_FLOAT, name, &len));
    CHECK(strcmp(name, "my float") == 0);
    OK(MPI_Type_set_name(MPI_FLOAT, "MPI_FLOAT"));
}

/* Which coordinate of p owns element idx of a dimension (darray rules). */
static int owner(int idx, int g, int dist, int darg, int p)
{
    if (dist == MPI_DISTRIBUTE_NONE)
        return 0;
    if (dist == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return idx / b;
    }
    int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return idx / b % p;
}

/* Every process's part of a 2-D array of 7 x 10 ints, by packing the
 * array (each element holds its offset) through its darray type, against
 * the elements whose owners a brute-force walk finds, in the local
 * array's order. */
static void darrays(void)
{
    enum { G0 = 7, G1 = 10 };
    int global[G0 * G1];
    for (int i = 0; i < G0 * G1; i++)
        global[i] = i;
    const struct { int dist[2], darg[2], psize[2], order; } cases[] = {
        {{MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
         {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, {2, 3}, MPI_ORDER_C},
        {{MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC}, {MPI_DISTRIBUTE_DFLT_DARG, 3}, {3, 2},
         MPI_ORDER_C},
        {{MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC}, {4, 2}, {2, 3}, MPI_ORDER_FORTRAN},
        {{MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC}, {MPI_DISTRIBUTE_DFLT_DARG, 4}, {1, 4},
         MPI_ORDER_FORTRAN},
    };
    int gsizes[2] = {G0, G1};
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        int size = cases[k].psize[0] * cases[k].psize[1], seen = 0;
        for (int rank = 0; rank < size; rank++) {
            MPI_Datatype t;
            OK(MPI_Type_create_darray(size, rank, 2, gsizes, cases[k].dist, cases[k].darg,
                                      cases[k].psize, cases[k].order, MPI_INT, &t));
            OK(MPI_Type_commit(&t));
            MPI_Aint lb, extent;
            OK(MPI_Type_get_extent(t, &lb, &extent));
            CHECK(lb == 0 && extent == (MPI_Aint)sizeof(global));
            int tsize = 0, packed[G0 * G1], pos = 0, want[G0 * G1], n = 0;
            OK(MPI_Type_size(t, &tsize));
            OK(MPI_Pack(global, 1, t, packed, sizeof(packed), &pos, MPI_COMM_SELF));
            int c0 = rank / cases[k].psize[1], c1 = rank % cases[k].psize[1];
            int fortran = cases[k].order == MPI_ORDER_FORTRAN;
            /* the local array's order: the fastest dimension innermost */
            for (int a = 0; a < (fortran ? G1 : G0); a++)
                for (int b = 0; b < (fortran ? G0 : G1); b++) {
                    int i = fortran ? b : a, j = fortran ? a : b;
                    if (owner(i, G0, cases[k].dist[0], cases[k].darg[0], cases[k].psize[0]) ==
                            c0 &&
                        owner(j, G1, cases[k].dist[1], cases[k].darg[1], cases[k].psize[1]) ==
                            c1)
                        want[n++] = fortran ? j * G0 + i : i * G1 + j;
                }
            CHECK(tsize == n * (int)sizeof(int) && pos == tsize);
            CHECK(memcmp(packed, want, (size_t)n * sizeof(int)) == 0);
            seen += n;
            int ni, na, nd, combiner;
            OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
            CHECK(combiner == MPI_COMBINER_DARRAY && ni == 12 && nd == 1);
            OK(MPI_Type_free(&t));
        }
        CHECK(seen == G0 * G1);   /* every element has one owner */
    }
    int bad_psizes[2] = {2, 2}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
    int small[2] = {2, 2};
    MPI_Datatype t;
    CHECK(class_of(MPI_Type_create_darray(3, 0, 2, gsizes, dist, small, bad_psizes,
                                          MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    CHECK(class_of(MPI_Type_create_darray(4, 0, 2, gsizes, dist, small, bad_psizes,
                                          MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
}

/* external32: big-endian, MPI_LONG in 4 bytes, a struct's members in
 * type map order; what cannot convert is refused. */
static void external32(void)
{
    unsigned char out[64];
    MPI_Aint pos = 0, size = 0;
    int v = 0x01020304;
    OK(MPI_Pack_external("external32", &v, 1, MPI_INT, out, sizeof(out), &pos));
    CHECK(pos == 4 && out[0] == 1 && out[1] == 2 && out[2] == 3 && out[3] == 4);
    struct rec {
        double d;
        long l;
        short s;
    } r = {1.5, -2, 7};
    int bl[3] = {1, 1, 1};
    MPI_Aint dis[3] = {offsetof(struct rec, d), offsetof(struct rec, l), offsetof(struct rec, s)};
    MPI_Datatype tys[3] = {MPI_DOUBLE, MPI_LONG, MPI_SHORT}, st, two;
    OK(MPI_Type_create_struct(3, bl, dis, tys, &st));
    OK(MPI_Type_contiguous(2, st, &two));
    OK(MPI_Type_commit(&two));
    OK(MPI_Pack_external_size("external32", 1, two, &size));
    CHECK(size == 2 * (8 + 4 + 2));
    struct rec pair[2] = {r, {-3.25, 100000, -1}}, got[2] = {{0, 0, 0}, {0, 0, 0}};
    pos = 0;
    OK(MPI_Pack_external("external32", pair, 1, two, out, sizeof(out), &pos));
    CHECK(pos == size);
    /* 1.5 is 0x3FF8000000000000; -2 as 4 bytes; then the short 7 */
    CHECK(out[0] == 0x3f && out[1] == 0xf8 && out[7] == 0);
    CHECK(out[8] == 0xff && out[11] == 0xfe && out[12] == 0 && out[13] == 7);
    pos = 0;
    OK(MPI_Unpack_external("external32", out, size, &pos, got, 1, two));
    CHECK(pos == size && got[0].d == 1.5 && got[0].l == -2 && got[0].s == 7);
    CHECK(got[1].d == -3.25 && got[1].l == 100000 && got[1].s == -1);
    OK(MPI_Type_free(&two));
    OK(MPI_Type_free(&st));
    /* a long past 32 bits, a long double: no conversion */
    long big = (long)1 << 40;
    pos = 0;
    CHECK(class_of(MPI_Pack_external("external32", &big, 1, MPI_LONG, out, sizeof(out),
                                     &pos)) == MPI_ERR_CONVERSION);
    long double ld = 1;
    pos = 0;
    CHECK(class_of(MPI_Pack_external("external32", &ld, 1, MPI_LONG_DOUBLE, out, sizeof(out),
                                     &pos)) == MPI_ERR_CONVERSION);
    /* room, and the representation's name */
    pos = 60;
    CHECK(class_of(MPI_Pack_external("external32", &v, 2, MPI_INT, out, 64, &pos)) ==
          MPI_ERR_TRUNCATE);
    CHECK(class_of(MPI_Pack_external_size("native", 1, MPI_INT, &size)) == MPI_ERR_ARG);
    /* a pair type: the value and the int, each big-endian */
    struct {
        double d;
        int i;
    } di = {2.0, 9};
    OK(MPI_Pack_external_size("external32", 1, MPI_DOUBLE_INT, &size));
    CHECK(size == 12);
    pos = 0;
    OK(MPI_Pack_external("external32", &di, 1, MPI_DOUBLE_INT, out, sizeof(out), &pos));
    CHECK(out[0] == 0x40 && out[11] == 9);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    predefined();
    constructors();
    found();
    darrays();
    external32();
    return mpi_test_report("mpi_types");
}
