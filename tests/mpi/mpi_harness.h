/* What the MPI conformance tests share.  They are plain MPI programs:
 * built against ordo's <mpi.h> and, where MPICH 5 is installed, against
 * its standard-ABI header by its mpicc_abi, and both run on ordo's
 * libmpi_abi.so.1 (so the header is checked against another
 * implementation's ABI).  CHECK counts a failure on this rank and says
 * where; the report sums them over the world at rank 0. */
#ifndef ORDO_TESTS_MPI_HARNESS_H
#define ORDO_TESTS_MPI_HARNESS_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, np, failures;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "[rank %d] %s:%d: CHECK(%s) failed\n", me, __FILE__,    \
                    __LINE__, #cond);                                               \
            failures++;                                                             \
        }                                                                           \
    } while (0)

/* A call expected to succeed (the world's handler is MPI_ERRORS_RETURN). */
#define OK(call) CHECK((call) == MPI_SUCCESS)

/* The error class of a call expected to fail. */
static inline int class_of(int rc)
{
    int cls = -1;
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        return -1;
    return cls;
}

/* MPI_Init_thread at required; the level granted. */
static inline int mpi_test_init_thread(int *argc, char ***argv, int required)
{
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, required, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    return provided;
}

static inline void mpi_test_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

/* "<what>: N ranks, F failure(s), on <library>" at rank 0 (the library
 * the program found at run time: the tests check it is ordo's); main's
 * exit status. */
static inline int mpi_test_report(const char *what)
{
    int sum = 0, len = 0;
    static char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_library_version(lib, &len);
    lib[len < 40 ? len : 40] = '\0';
    MPI_Allreduce(&failures, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s: %d ranks, %d failure(s), on %s\n", what, np, sum, lib);
    MPI_Finalize();
    return sum ? 1 : 0;
}

#endif
