/* MPI on ordo: groups, ordered lists of world ranks (a communicator's
 * members in its rank order, and what the program builds from them). */
#include <stdlib.h>

#include "mpi_internal.h"

struct MPI_ABI_Group om_group_empty = {.magic = OM_MAGIC_GROUP, .refs = 1, .size = 0,
                                       .rank = MPI_UNDEFINED};

struct MPI_ABI_Group *om_group(MPI_Group group)
{
    if (group == MPI_GROUP_EMPTY)
        return &om_group_empty;
    if ((uintptr_t)group < 0x1000 || group->magic != OM_MAGIC_GROUP)
        return NULL;
    return group;
}

struct MPI_ABI_Group *om_group_new(int size)
{
    struct MPI_ABI_Group *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->ranks = malloc(sizeof(int) * (size_t)(size > 0 ? size : 1));
    if (!g->ranks) {
        free(g);
        return NULL;
    }
    g->magic = OM_MAGIC_GROUP;
    g->refs = 1;
    g->size = size;
    g->rank = MPI_UNDEFINED;
    return g;
}

void om_group_find_me(struct MPI_ABI_Group *g)
{
    g->rank = MPI_UNDEFINED;
    for (int i = 0; i < g->size; i++)
        if (g->ranks[i] == om_g.world_rank)
            g->rank = i;
}

void om_group_release(struct MPI_ABI_Group *g)
{
    if (!g || g == &om_group_empty || --g->refs > 0)
        return;
    om_session_release(g->session);
    g->magic = OM_MAGIC_DEAD;
    free(g->ranks);
    free(g);
}

int om_group_index(const struct MPI_ABI_Group *g, int world)
{
    for (int i = 0; i < g->size; i++)
        if (g->ranks[i] == world)
            return i;
    return -1;
}

int om_group_compare(const struct MPI_ABI_Group *a, const struct MPI_ABI_Group *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    int same_order = 1;
    for (int i = 0; i < a->size; i++) {
        if (a->ranks[i] != b->ranks[i])
            same_order = 0;
        if (om_group_index(b, a->ranks[i]) < 0)
            return MPI_UNEQUAL;
    }
    return same_order ? MPI_IDENT : MPI_SIMILAR;
}

/* ----------------------------------------------------------------- groups */

#define GROUP_OR_RAISE(g, group, func)                                            \
    struct MPI_ABI_Group *g = om_group(group);                                    \
    if (!g)                                                                       \
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_GROUP, func, "not a group");

int PMPI_Group_size(MPI_Group group, int *size)
{
    GROUP_OR_RAISE(g, group, "MPI_Group_size");
    if (!size)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Group_size", "size is NULL");
    *size = g->size;
    return MPI_SUCCESS;
}
OM_ALIAS(Group_size)

int PMPI_Group_rank(MPI_Group group, int *rank)
{
    GROUP_OR_RAISE(g, group, "MPI_Group_rank");
    if (!rank)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Group_rank", "rank is NULL");
    *rank = g->rank;
    return MPI_SUCCESS;
}
OM_ALIAS(Group_rank)

int PMPI_Group_free(MPI_Group *group)
{
    struct MPI_ABI_Group *g = group ? om_group(*group) : NULL;
    if (!g)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_GROUP, "MPI_Group_free", "not a group");
    om_group_release(g);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
OM_ALIAS(Group_free)

/* g made from `from`: of the same session, if any. */
static int group_out(struct MPI_ABI_Group *g, const struct MPI_ABI_Group *from, MPI_Group *out,
                     const char *func)
{
    if (!g)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    g->session = om_session_retain(from->session);
    if (g->size == 0) {
        om_group_release(g);
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    om_group_find_me(g);
    *out = g;
    return MPI_SUCCESS;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    GROUP_OR_RAISE(g, group, "MPI_Group_incl");
    if (n < 0 || n > g->size || (n > 0 && !ranks) || !newgroup)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Group_incl",
                             "n %d (the group has %d), ranks %p", n, g->size,
                             (const void *)ranks);
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size)
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_RANK, "MPI_Group_incl",
                                 "ranks[%d] = %d is not in the group (0 .. %d)", i, ranks[i],
                                 g->size - 1);
        for (int j = 0; j < i; j++)
            if (ranks[j] == ranks[i])
                return om_comm_error(MPI_COMM_SELF, MPI_ERR_RANK, "MPI_Group_incl",
                                     "rank %d is listed twice", ranks[i]);
    }
    struct MPI_ABI_Group *ng = om_group_new(n);
    if (ng)
        for (int i = 0; i < n; i++)
            ng->ranks[i] = g->ranks[ranks[i]];
    return group_out(ng, g, newgroup, "MPI_Group_incl");
}
OM_ALIAS(Group_incl)

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    GROUP_OR_RAISE(g, group, "MPI_Group_excl");
    if (n < 0 || n > g->size || (n > 0 && !ranks) || !newgroup)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Group_excl",
                             "n %d (the group has %d), ranks %p", n, g->size,
                             (const void *)ranks);
    char *drop = calloc((size_t)g->size + 1, 1);
    if (!drop)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Group_excl", "no memory");
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size || drop[ranks[i]]) {
            int bad = ranks[i];
            free(drop);
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_RANK, "MPI_Group_excl",
                                 "ranks[%d] = %d: not in the group or listed twice", i, bad);
        }
        drop[ranks[i]] = 1;
    }
    struct MPI_ABI_Group *ng = om_group_new(g->size - n);
    if (ng) {
        int k = 0;
        for (int i = 0; i < g->size; i++)
            if (!drop[i])
                ng->ranks[k++] = g->ranks[i];
    }
    free(drop);
    return group_out(ng, g, newgroup, "MPI_Group_excl");
}
OM_ALIAS(Group_excl)

/* The ranks a list of (first, last, stride) triplets names, in order;
 * each in the group and named once.  NULL (the class in *rc) when not. */
static int *range_ranks(struct MPI_ABI_Group *g, int n, int ranges[][3], int *count, int *rc,
                        const char *func)
{
    *count = 0;
    *rc = MPI_SUCCESS;
    if (n < 0 || (n > 0 && !ranges)) {
        *rc = om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "n %d or ranges NULL", n);
        return NULL;
    }
    char *seen = calloc((size_t)g->size + 1, 1);
    int *out = malloc(sizeof(int) * ((size_t)g->size + 1));
    if (!seen || !out) {
        free(seen);
        free(out);
        *rc = om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0 || first < 0 || first >= g->size || last < 0 || last >= g->size ||
            (stride > 0 && first > last) || (stride < 0 && first < last)) {
            free(seen);
            free(out);
            *rc = om_comm_error(MPI_COMM_SELF, MPI_ERR_RANK, func,
                                "range %d (%d, %d, %d) is not within the group of %d", i,
                                first, last, stride, g->size);
            return NULL;
        }
        for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if (seen[r]) {
                free(seen);
                free(out);
                *rc = om_comm_error(MPI_COMM_SELF, MPI_ERR_RANK, func,
                                    "rank %ld is named twice", r);
                return NULL;
            }
            seen[r] = 1;
            out[(*count)++] = (int)r;
        }
    }
    free(seen);
    return out;
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    GROUP_OR_RAISE(g, group, "MPI_Group_range_incl");
    if (!newgroup)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Group_range_incl",
                             "newgroup is NULL");
    int count, rc, *ranks = range_ranks(g, n, ranges, &count, &rc, "MPI_Group_range_incl");
    if (!ranks)
        return rc;
    rc = PMPI_Group_incl(group, count, ranks, newgroup);
    free(ranks);
    return rc;
}
OM_ALIAS(Group_range_incl)

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    GROUP_OR_RAISE(g, group, "MPI_Group_range_excl");
    if (!newgroup)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Group_range_excl",
                             "newgroup is NULL");
    int count, rc, *ranks = range_ranks(g, n, ranges, &count, &rc, "MPI_Group_range_excl");
    if (!ranks)
        return rc;
    rc = PMPI_Group_excl(group, count, ranks, newgroup);
    free(ranks);
    return rc;
}
OM_ALIAS(Group_range_excl)

/* union (which 0), intersection (1), difference (2), in MPI's order: the
 * first group's members, then (union) the second's not in the first. */
static int group_setop(MPI_Group a_h, MPI_Group b_h, int which, MPI_Group *out,
                       const char *func)
{
    struct MPI_ABI_Group *a = om_group(a_h), *b = om_group(b_h);
    if (!a || !b || !out)
        return om_comm_error(MPI_COMM_SELF, out ? MPI_ERR_GROUP : MPI_ERR_ARG, func,
                             "%s", out ? "not a group" : "newgroup is NULL");
    struct MPI_ABI_Group *ng = om_group_new(a->size + b->size);
    if (ng) {
        int k = 0;
        for (int i = 0; i < a->size; i++) {
            int in_b = om_group_index(b, a->ranks[i]) >= 0;
            if (which == 0 || (which == 1) == in_b)
                ng->ranks[k++] = a->ranks[i];
        }
        if (which == 0)
            for (int i = 0; i < b->size; i++)
                if (om_group_index(a, b->ranks[i]) < 0)
                    ng->ranks[k++] = b->ranks[i];
        ng->size = k;
    }
    return group_out(ng, a, out, func);
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return group_setop(group1, group2, 0, newgroup, "MPI_Group_union");
}
OM_ALIAS(Group_union)

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return group_setop(group1, group2, 1, newgroup, "MPI_Group_intersection");
}
OM_ALIAS(Group_intersection)

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return group_setop(group1, group2, 2, newgroup, "MPI_Group_difference");
}
OM_ALIAS(Group_difference)

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    struct MPI_ABI_Group *a = om_group(group1), *b = om_group(group2);
    if (!a || !b)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_GROUP, "MPI_Group_translate_ranks",
                             "not a group");
    if (n < 0 || (n > 0 && (!ranks1 || !ranks2)))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Group_translate_ranks",
                             "n %d, ranks1 %p, ranks2 %p", n, (const void *)ranks1,
                             (void *)ranks2);
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
            continue;
        }
        if (ranks1[i] < 0 || ranks1[i] >= a->size)
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_RANK, "MPI_Group_translate_ranks",
                                 "ranks1[%d] = %d is not in group1 (0 .. %d)", i, ranks1[i],
                                 a->size - 1);
        int j = om_group_index(b, a->ranks[ranks1[i]]);
        ranks2[i] = j < 0 ? MPI_UNDEFINED : j;
    }
    return MPI_SUCCESS;
}
OM_ALIAS(Group_translate_ranks)

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    struct MPI_ABI_Group *a = om_group(group1), *b = om_group(group2);
    if (!a || !b || !result)
        return om_comm_error(MPI_COMM_SELF, result ? MPI_ERR_GROUP : MPI_ERR_ARG,
                             "MPI_Group_compare", "not a group, or result NULL");
    *result = om_group_compare(a, b);
    return MPI_SUCCESS;
}
OM_ALIAS(Group_compare)
