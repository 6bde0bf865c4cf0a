/* MPI on ordo: starting and ending, the environment queries, time. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_internal.h"

om_state_t om_g;

static pthread_t main_thread;

int om_not_ready(const char *func)
{
    fprintf(stderr, "[ordo-mpi] %s: called %s\n", func,
            om_g.ended ? "after MPI ended (MPI_Finalize, or the last session's end)"
                       : "before MPI_Init or MPI_Session_init");
    return 0;
}

static ordo_thread_level_t level_of(int mpi_level)
{
    if (mpi_level >= MPI_THREAD_MULTIPLE)
        return ORDO_THREAD_MULTIPLE;
    if (mpi_level >= MPI_THREAD_SERIALIZED)
        return ORDO_THREAD_SERIALIZED;
    if (mpi_level >= MPI_THREAD_FUNNELED)
        return ORDO_THREAD_FUNNELED;
    return ORDO_THREAD_SINGLE;
}

static const int mpi_levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED,
                                 MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};

/* A thread level MPI names, or -1. */
static int valid_level(int level)
{
    return level == MPI_THREAD_SINGLE || level == MPI_THREAD_FUNNELED ||
                   level == MPI_THREAD_SERIALIZED || level == MPI_THREAD_MULTIPLE
               ? level
               : -1;
}

int om_runtime_up(int required, int *provided, const char *func)
{
    if (valid_level(required) < 0) {
        fprintf(stderr, "[ordo-mpi] %s: %d is no thread level (MPI_THREAD_SINGLE, "
                        "_FUNNELED, _SERIALIZED or _MULTIPLE)\n", func, required);
        return MPI_ERR_ARG;
    }
    if (om_g.running) {   /* a later user shares the level the first set */
        om_g.users++;
        if (provided)
            *provided = om_g.thread_level;
        return MPI_SUCCESS;
    }
    if (om_g.ended) {
        fprintf(stderr, "[ordo-mpi] %s: MPI ended in this process (its last session or "
                        "MPI_Finalize): ordo cannot start again\n", func);
        return MPI_ERR_OTHER;
    }
    ordo_init_params_t params;
    memset(&params, 0, sizeof(params));
    params.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL;
    params.thread_level = level_of(required);
    ordo_status_t st = ordo_init(&params);
    if (st != ORDO_OK) {
        fprintf(stderr, "[ordo-mpi] %s: ordo_init failed: %s\n", func,
                ordo_status_string(st));
        return om_class_of(st);
    }
    ordo_thread_level_t got = params.thread_level;
    ordo_query_thread(&got);
    om_g.thread_level = mpi_levels[got];
    om_g.world_rank = ordo_rank();
    om_g.world_size = ordo_size();
    om_g.next_keyval = 1000;
    om_g.last_error_class = MPI_ERR_LASTCODE;   /* added ones go above it */
    main_thread = pthread_self();
    om_types_init();
    om_rma_init();
    om_g.running = 1;   /* the communicators' calls check it */
    int rc = om_comms_init();
    if (rc != MPI_SUCCESS) {
        om_g.running = 0;
        ordo_finalize();
        return rc;
    }
    om_g.users = 1;
    if (provided)
        *provided = om_g.thread_level;
    return MPI_SUCCESS;
}

int om_runtime_down(const char *func)
{
    if (--om_g.users > 0)
        return MPI_SUCCESS;
    om_detached_finish();   /* requests freed while active finish first */
    /* collective over the world: no rank leaves while another may still
     * send to it */
    ordo_status_t st = ordo_coll_barrier(ORDO_COMM_WORLD);
    om_comms_finalize();
    om_g.running = 0;
    om_g.ended = 1;
    ordo_status_t fin = ordo_finalize();
    if (st == ORDO_OK)
        st = fin;
    if (st != ORDO_OK) {
        fprintf(stderr, "[ordo-mpi] %s: %s\n", func, ordo_status_string(st));
        return om_class_of(st);
    }
    return MPI_SUCCESS;
}

static int start(int required, int *provided, const char *func)
{
    if (om_g.initialized) {
        fprintf(stderr, "[ordo-mpi] %s: MPI is already initialized%s\n", func,
                om_g.finalized ? " (and finalized): it cannot start twice" : "");
        return MPI_ERR_OTHER;
    }
    int rc = om_runtime_up(required, provided, func);
    if (rc == MPI_SUCCESS)
        om_g.initialized = 1;
    return rc;
}

int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return start(MPI_THREAD_SINGLE, NULL, "MPI_Init");
}
OM_ALIAS(Init)

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    return start(required, provided, "MPI_Init_thread");
}
OM_ALIAS(Init_thread)

int PMPI_Finalize(void)
{
    if (!om_g.initialized || om_g.finalized) {
        fprintf(stderr, "[ordo-mpi] MPI_Finalize: called %s\n",
                om_g.finalized ? "twice" : "before MPI_Init");
        return MPI_ERR_OTHER;
    }
    /* MPI_COMM_SELF's attributes go first, as if it were freed: a
     * library hangs its clean-up on them */
    om_attrs_free(&om_comm_self);
    om_g.finalized = 1;
    return om_runtime_down("MPI_Finalize");   /* ordo ends unless sessions live on */
}
OM_ALIAS(Finalize)

int PMPI_Initialized(int *flag)
{
    if (!flag)
        return MPI_ERR_ARG;
    *flag = om_g.initialized;
    return MPI_SUCCESS;
}
OM_ALIAS(Initialized)

int PMPI_Finalized(int *flag)
{
    if (!flag)
        return MPI_ERR_ARG;
    *flag = om_g.finalized;
    return MPI_SUCCESS;
}
OM_ALIAS(Finalized)

int PMPI_Query_thread(int *provided)
{
    if (!provided)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Query_thread",
                             "provided is NULL");
    *provided = om_g.thread_level;
    return MPI_SUCCESS;
}
OM_ALIAS(Query_thread)

int PMPI_Is_thread_main(int *flag)
{
    if (!flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Is_thread_main",
                             "flag is NULL");
    *flag = om_g.initialized && pthread_equal(pthread_self(), main_thread);
    return MPI_SUCCESS;
}
OM_ALIAS(Is_thread_main)

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm;   /* ordo ends the whole job, as most MPIs do for any comm */
    fprintf(stderr, "[ordo-mpi rank %d] MPI_Abort with error code %d\n", om_g.world_rank,
            errorcode);
    fflush(NULL);
    ordo_abort(errorcode);
    _exit(errorcode ? errorcode & 0xff : 1);   /* before MPI_Init: this process alone */
}
OM_ALIAS(Abort)

int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return MPI_ERR_ARG;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
OM_ALIAS(Get_version)

int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return MPI_ERR_ARG;
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "ordo-mpi (MPI %d.%d, standard ABI %d.%d) on ordo", MPI_VERSION,
                     MPI_SUBVERSION, MPI_ABI_VERSION, MPI_ABI_SUBVERSION);
    *resultlen = n;
    return MPI_SUCCESS;
}
OM_ALIAS(Get_library_version)

int PMPI_Abi_get_version(int *abi_major, int *abi_minor)
{
    if (!abi_major || !abi_minor)
        return MPI_ERR_ARG;
    *abi_major = MPI_ABI_VERSION;
    *abi_minor = MPI_ABI_SUBVERSION;
    return MPI_SUCCESS;
}
OM_ALIAS(Abi_get_version)

int PMPI_Info_create(MPI_Info *info);
int PMPI_Info_set(MPI_Info info, const char *key, const char *value);
int PMPI_Info_free(MPI_Info *info);

/* An info object of "<name>_size" / "<name>_supported" keys: the sizes of
 * the named types (0: supported, not sized). */
static int abi_info(const char *const *names, const MPI_Datatype *types, const int *sized,
                    int n, MPI_Info *info, const char *func)
{
    if (!info)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "info is NULL");
    MPI_Info made = MPI_INFO_NULL;
    int rc = PMPI_Info_create(&made);
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        struct MPI_ABI_Datatype *t = om_type(types[i]);
        char key[64], value[24];
        snprintf(key, sizeof(key), "%s_%s", names[i], sized[i] ? "size" : "supported");
        if (sized[i])
            snprintf(value, sizeof(value), "%zu", t ? t->size : (size_t)0);
        else
            snprintf(value, sizeof(value), "%s", t ? "true" : "false");
        rc = PMPI_Info_set(made, key, value);
    }
    if (rc != MPI_SUCCESS) {
        PMPI_Info_free(&made);
        return om_comm_error(MPI_COMM_SELF, rc, func, "no memory for the info object");
    }
    *info = made;
    return MPI_SUCCESS;
}

int PMPI_Abi_get_info(MPI_Info *info)
{
    static const char *const names[] = {"mpi_aint", "mpi_count", "mpi_offset"};
    const MPI_Datatype types[] = {MPI_AINT, MPI_COUNT, MPI_OFFSET};
    static const int sized[] = {1, 1, 1};
    return abi_info(names, types, sized, 3, info, "MPI_Abi_get_info");
}
OM_ALIAS(Abi_get_info)

/* The Fortran types at the sizes this library gives them (gfortran's
 * defaults), and which of the sized ones it has. */
int PMPI_Abi_get_fortran_info(MPI_Info *info)
{
    static const char *const names[] = {
        "mpi_logical", "mpi_integer", "mpi_real", "mpi_double_precision",
        "mpi_logical1", "mpi_logical2", "mpi_logical4", "mpi_logical8", "mpi_logical16",
        "mpi_integer1", "mpi_integer2", "mpi_integer4", "mpi_integer8", "mpi_integer16",
        "mpi_real2", "mpi_real4", "mpi_real8", "mpi_real16",
        "mpi_complex4", "mpi_complex8", "mpi_complex16", "mpi_complex32",
        "mpi_double_complex"};
    const MPI_Datatype types[] = {
        MPI_LOGICAL, MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION,
        MPI_LOGICAL1, MPI_LOGICAL2, MPI_LOGICAL4, MPI_LOGICAL8, MPI_LOGICAL16,
        MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_INTEGER16,
        MPI_REAL2, MPI_REAL4, MPI_REAL8, MPI_REAL16,
        MPI_COMPLEX4, MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32,
        MPI_DOUBLE_COMPLEX};
    static const int sized[] = {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0};
    return abi_info(names, types, sized, (int)(sizeof(sized) / sizeof(sized[0])), info,
                    "MPI_Abi_get_fortran_info");
}
OM_ALIAS(Abi_get_fortran_info)

int PMPI_Get_processor_name(char *name, int *resultlen)
{
    if (!name || !resultlen)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Get_processor_name",
                             "%s is NULL", name ? "resultlen" : "name");
    char host[MPI_MAX_PROCESSOR_NAME];
    if (gethostname(host, sizeof(host)) != 0)
        strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    int n = (int)strlen(host);
    memcpy(name, host, (size_t)n + 1);
    *resultlen = n;
    return MPI_SUCCESS;
}
OM_ALIAS(Get_processor_name)

double PMPI_Wtime(void)
{
    return ordo_wtime();
}
OM_ALIAS(Wtime)

double PMPI_Wtick(void)
{
    return ordo_wtick();
}
OM_ALIAS(Wtick)

int PMPI_Pcontrol(const int level, ...)
{
    (void)level;   /* no profiling levels of our own: tools intercept it */
    return MPI_SUCCESS;
}
OM_ALIAS(Pcontrol)

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}
OM_ALIAS(Aint_add)

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
OM_ALIAS(Aint_diff)

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    if (!address)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Get_address",
                             "address is NULL");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
OM_ALIAS(Get_address)

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    (void)info;
    if (size < 0 || !baseptr)
        return om_comm_error(MPI_COMM_SELF, size < 0 ? MPI_ERR_SIZE : MPI_ERR_ARG,
                             "MPI_Alloc_mem", "size %ld, baseptr %p", (long)size, baseptr);
    void *p = malloc(size ? (size_t)size : 1);
    if (!p)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Alloc_mem",
                             "no memory for %ld bytes", (long)size);
    memcpy(baseptr, &p, sizeof(p));
    return MPI_SUCCESS;
}
OM_ALIAS(Alloc_mem)

int PMPI_Free_mem(void *base)
{
    free(base);
    return MPI_SUCCESS;
}
OM_ALIAS(Free_mem)

int PMPI_Info_create(MPI_Info *info);
int PMPI_Info_set(MPI_Info info, const char *key, const char *value);
int PMPI_Info_free(MPI_Info *info);

/* MPI-4.1: what the platform is, in MPI's terms (the keys are the
 * library's to choose): the hardware level ordo tells apart (the node, as
 * MPI_Comm_split_type's "mpi_shared_memory"), which node this process is
 * on of how many, and how many processes of the job share it. */
int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    static const char *const func = "MPI_Get_hw_resource_info";
    if (!om_ready(func))
        return MPI_ERR_OTHER;
    if (!hw_info)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "hw_info is NULL");
    int node = ordo_node_of(om_g.world_rank), here = 0;
    for (int r = 0; r < om_g.world_size; r++)
        here += ordo_node_of(r) == node;
    char v[3][16];
    snprintf(v[0], sizeof(v[0]), "%d", node);
    snprintf(v[1], sizeof(v[1]), "%d", ordo_node_count());
    snprintf(v[2], sizeof(v[2]), "%d", here);
    int rc = PMPI_Info_create(hw_info);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = PMPI_Info_set(*hw_info, "mpi_hw_resource_type", "mpi_shared_memory")) ||
        (rc = PMPI_Info_set(*hw_info, "ordo_node", v[0])) ||
        (rc = PMPI_Info_set(*hw_info, "ordo_nodes", v[1])) ||
        (rc = PMPI_Info_set(*hw_info, "ordo_node_processes", v[2])))
        PMPI_Info_free(hw_info);
    return rc;
}
OM_ALIAS(Get_hw_resource_info)
