/* MPI on ordo: info objects (key/value strings). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* MPI_INFO_ENV: what the process was started with; empty here (the
 * launcher's command line is not ours to see). */
static struct MPI_ABI_Info info_env = {OM_MAGIC_INFO, 0, 0, NULL};

struct MPI_ABI_Info *om_info(MPI_Info info)
{
    if (info == MPI_INFO_ENV)
        return &info_env;
    if ((uintptr_t)info < 0x1000 || info->magic != OM_MAGIC_INFO)
        return NULL;
    return info;
}

const char *om_info_lookup(MPI_Info info, const char *key)
{
    struct MPI_ABI_Info *in = info == MPI_INFO_NULL ? NULL : om_info(info);
    if (!in)
        return NULL;
    for (int i = 0; i < in->n; i++)
        if (strcmp(in->entries[i].key, key) == 0)
            return in->entries[i].value;
    return NULL;
}

static int info_bad(const char *func, const char *what)
{
    return om_comm_error(MPI_COMM_SELF, MPI_ERR_INFO, func, "%s", what);
}

int PMPI_Info_create(MPI_Info *info)
{
    if (!info)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Info_create", "info is NULL");
    struct MPI_ABI_Info *in = calloc(1, sizeof(*in));
    if (!in)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Info_create", "no memory");
    in->magic = OM_MAGIC_INFO;
    *info = in;
    return MPI_SUCCESS;
}
OM_ALIAS(Info_create)

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    struct MPI_ABI_Info *in = om_info(info);
    if (!in || in == &info_env)
        return info_bad("MPI_Info_set", "not an info object the program made");
    if (!key || !value)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Info_set", "%s is NULL",
                             key ? "value" : "key");
    if (strlen(key) >= MPI_MAX_INFO_KEY || key[0] == '\0')
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_INFO_KEY, "MPI_Info_set",
                             "a key is 1 to %d characters", MPI_MAX_INFO_KEY - 1);
    if (strlen(value) >= MPI_MAX_INFO_VAL)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_INFO_VALUE, "MPI_Info_set",
                             "a value is at most %d characters", MPI_MAX_INFO_VAL - 1);
    char *v = strdup(value);
    if (!v)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Info_set", "no memory");
    for (int i = 0; i < in->n; i++)
        if (strcmp(in->entries[i].key, key) == 0) {
            free(in->entries[i].value);
            in->entries[i].value = v;
            return MPI_SUCCESS;
        }
    if (in->n == in->cap) {
        int cap = in->cap ? in->cap * 2 : 8;
        om_info_entry_t *e = realloc(in->entries, sizeof(*e) * (size_t)cap);
        if (!e) {
            free(v);
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Info_set", "no memory");
        }
        in->entries = e;
        in->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Info_set", "no memory");
    }
    in->entries[in->n].key = k;
    in->entries[in->n].value = v;
    in->n++;
    return MPI_SUCCESS;
}
OM_ALIAS(Info_set)

int PMPI_Info_delete(MPI_Info info, const char *key)
{
    struct MPI_ABI_Info *in = om_info(info);
    if (!in || in == &info_env)
        return info_bad("MPI_Info_delete", "not an info object the program made");
    for (int i = 0; key && i < in->n; i++)
        if (strcmp(in->entries[i].key, key) == 0) {
            free(in->entries[i].key);
            free(in->entries[i].value);
            memmove(&in->entries[i], &in->entries[i + 1],
                    sizeof(in->entries[0]) * (size_t)(in->n - i - 1));
            in->n--;
            return MPI_SUCCESS;
        }
    return om_comm_error(MPI_COMM_SELF, MPI_ERR_INFO_NOKEY, "MPI_Info_delete",
                         "no key \"%s\"", key ? key : "(null)");
}
OM_ALIAS(Info_delete)

/* v into value of cap bytes (cap > 0): what fits, then a NUL. */
static void copy_value(const char *v, char *value, size_t cap)
{
    size_t n = strlen(v) < cap - 1 ? strlen(v) : cap - 1;
    memcpy(value, v, n);
    value[n] = '\0';
}

int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    struct MPI_ABI_Info *in = om_info(info);
    if (!in)
        return info_bad("MPI_Info_get_string", "not an info object");
    if (!key || !buflen || !flag || *buflen < 0 || (*buflen > 0 && !value))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Info_get_string",
                             "a NULL or negative argument");
    const char *v = om_info_lookup(info, key);
    *flag = v != NULL;
    if (!v)
        return MPI_SUCCESS;
    if (*buflen > 0)
        copy_value(v, value, (size_t)*buflen);
    *buflen = (int)strlen(v) + 1;
    return MPI_SUCCESS;
}
OM_ALIAS(Info_get_string)

/* The MPI-3 forms, deprecated by Info_get_string but still in wide use:
 * value gets at most valuelen characters and a terminating NUL. */
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    struct MPI_ABI_Info *in = om_info(info);
    if (!in)
        return info_bad("MPI_Info_get", "not an info object");
    if (!key || !flag || valuelen < 0 || !value)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Info_get",
                             "a NULL or negative argument");
    if (strlen(key) >= MPI_MAX_INFO_KEY)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_INFO_KEY, "MPI_Info_get",
                             "a key of %zu characters (at most %d)", strlen(key),
                             MPI_MAX_INFO_KEY - 1);
    const char *v = om_info_lookup(info, key);
    *flag = v != NULL;
    if (v)
        copy_value(v, value, (size_t)valuelen + 1);
    return MPI_SUCCESS;
}
OM_ALIAS(Info_get)

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    struct MPI_ABI_Info *in = om_info(info);
    if (!in)
        return info_bad("MPI_Info_get_valuelen", "not an info object");
    if (!key || !valuelen || !flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Info_get_valuelen",
                             "a NULL argument");
    const char *v = om_info_lookup(info, key);
    *flag = v != NULL;
    if (v)
        *valuelen = (int)strlen(v);
    return MPI_SUCCESS;
}
OM_ALIAS(Info_get_valuelen)

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    struct MPI_ABI_Info *in = om_info(info);
    if (!in || !nkeys)
        return info_bad("MPI_Info_get_nkeys", "not an info object, or nkeys NULL");
    *nkeys = in->n;
    return MPI_SUCCESS;
}
OM_ALIAS(Info_get_nkeys)

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    struct MPI_ABI_Info *in = om_info(info);
    if (!in || !key)
        return info_bad("MPI_Info_get_nthkey", "not an info object, or key NULL");
    if (n < 0 || n >= in->n)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Info_get_nthkey",
                             "key %d of %d", n, in->n);
    strcpy(key, in->entries[n].key);
    return MPI_SUCCESS;
}
OM_ALIAS(Info_get_nthkey)

int om_info_dup_of(MPI_Info info, MPI_Info *out)
{
    *out = MPI_INFO_NULL;
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    struct MPI_ABI_Info *in = om_info(info);
    if (!in)
        return MPI_ERR_INFO;
    MPI_Info copy = MPI_INFO_NULL;
    int rc = PMPI_Info_create(&copy);
    for (int i = 0; rc == MPI_SUCCESS && i < in->n; i++)
        rc = PMPI_Info_set(copy, in->entries[i].key, in->entries[i].value);
    if (rc == MPI_SUCCESS)
        *out = copy;
    return rc;
}

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    if (!om_info(info) || !newinfo)
        return info_bad("MPI_Info_dup", "not an info object, or newinfo NULL");
    int rc = om_info_dup_of(info, newinfo);
    if (rc == MPI_SUCCESS && *newinfo == MPI_INFO_NULL)
        rc = PMPI_Info_create(newinfo);
    return rc;
}
OM_ALIAS(Info_dup)

void om_info_release(MPI_Info info)
{
    struct MPI_ABI_Info *in = info == MPI_INFO_NULL ? NULL : om_info(info);
    if (!in || in == &info_env)
        return;
    for (int i = 0; i < in->n; i++) {
        free(in->entries[i].key);
        free(in->entries[i].value);
    }
    free(in->entries);
    in->magic = OM_MAGIC_DEAD;
    free(in);
}

int PMPI_Info_free(MPI_Info *info)
{
    if (!info || !om_info(*info) || *info == MPI_INFO_ENV)
        return info_bad("MPI_Info_free", "not an info object the program made");
    om_info_release(*info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
OM_ALIAS(Info_free)

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    (void)argc;
    (void)argv;
    return PMPI_Info_create(info);
}
OM_ALIAS(Info_create_env)
