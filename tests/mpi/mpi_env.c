/* MPI conformance: start and end, environment, errors and error handlers,
 * info objects, communicators and groups. */
#include "mpi_harness.h"

static int handler_calls, handler_code;

static void on_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

static void environment(void)
{
    int flag = 0, v = 0, sv = -1, len = 0;
    OK(MPI_Initialized(&flag));
    CHECK(flag == 1);
    OK(MPI_Finalized(&flag));
    CHECK(flag == 0);
    OK(MPI_Get_version(&v, &sv));
    CHECK(v == 5 && sv == 0);
    char name[MPI_MAX_PROCESSOR_NAME];
    OK(MPI_Get_processor_name(name, &len));
    CHECK(len > 0 && (int)strlen(name) == len);
    /* MPI-4.1's platform description: the node level, and how many share it */
    MPI_Info hw;
    OK(MPI_Get_hw_resource_info(&hw));
    char hv[32];
    int hlen = (int)sizeof(hv), hflag = 0;
    OK(MPI_Info_get_string(hw, "mpi_hw_resource_type", &hlen, hv, &hflag));
    CHECK(hflag && strcmp(hv, "mpi_shared_memory") == 0);
    hlen = (int)sizeof(hv);
    OK(MPI_Info_get_string(hw, "ordo_node_processes", &hlen, hv, &hflag));
    CHECK(hflag && atoi(hv) >= 1 && atoi(hv) <= np);
    MPI_Info_free(&hw);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    OK(MPI_Get_library_version(lib, &len));
    CHECK(len > 0);
    int provided = -1;
    OK(MPI_Query_thread(&provided));
    CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
          provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE);
    OK(MPI_Is_thread_main(&flag));
    CHECK(flag == 1);
    double t0 = MPI_Wtime(), t1 = MPI_Wtime();
    CHECK(t1 >= t0 && MPI_Wtick() > 0 && MPI_Wtick() < 1);
    int *tag_ub = NULL;
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag && tag_ub && *tag_ub >= 32767);
    void *mem = NULL;
    OK(MPI_Alloc_mem(1024, MPI_INFO_NULL, &mem));
    CHECK(mem != NULL);
    memset(mem, 1, 1024);
    OK(MPI_Free_mem(mem));
}

static void errors(void)
{
    /* every class has a string; codes added by the program have theirs */
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, cls = -1;
    for (int c = MPI_SUCCESS; c <= MPI_ERR_RMA_FLAVOR; c++) {
        CHECK(MPI_Error_string(c, text, &len) == MPI_SUCCESS && len > 0);
        CHECK(MPI_Error_class(c, &cls) == MPI_SUCCESS && cls == c);
    }
    /* added ones: above MPI_ERR_LASTCODE, a code in its class, no text
     * until given one, and a code of a predefined class */
    int mine = 0, code = 0, other = 0;
    OK(MPI_Add_error_class(&mine));
    CHECK(mine > MPI_ERR_LASTCODE);
    OK(MPI_Error_string(mine, text, &len));
    CHECK(len == 0 && text[0] == 0);
    OK(MPI_Add_error_code(mine, &code));
    CHECK(code > mine && MPI_Error_class(code, &cls) == MPI_SUCCESS && cls == mine);
    OK(MPI_Add_error_string(code, "a code of the test's own"));
    OK(MPI_Error_string(code, text, &len));
    CHECK(strcmp(text, "a code of the test's own") == 0);
    OK(MPI_Add_error_code(MPI_ERR_OTHER, &other));
    CHECK(MPI_Error_class(other, &cls) == MPI_SUCCESS && cls == MPI_ERR_OTHER);
    CHECK(class_of(MPI_Add_error_code(code, &other)) == MPI_ERR_ARG);   /* a code, no class */
    CHECK(class_of(MPI_Add_error_string(MPI_ERR_OTHER, "no")) == MPI_ERR_ARG);
    int *last = NULL, flag = 0;
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    CHECK(flag && *last >= other);
    /* MPI-4.1's removals go in reverse: string, codes, class */
    CHECK(class_of(MPI_Remove_error_code(code)) == MPI_ERR_ARG);    /* its string is there */
    CHECK(class_of(MPI_Remove_error_class(mine)) == MPI_ERR_ARG);   /* its code is there */
    OK(MPI_Remove_error_string(code));
    OK(MPI_Remove_error_code(code));
    OK(MPI_Remove_error_class(mine));
    CHECK(class_of(MPI_Error_class(code, &cls)) == MPI_ERR_ARG);    /* gone */
    OK(MPI_Remove_error_code(other));

    /* bad arguments come back as their class (the handler returns) */
    int x = 0;
    CHECK(class_of(MPI_Send(&x, 1, MPI_INT, np, 0, MPI_COMM_WORLD)) == MPI_ERR_RANK);
    CHECK(class_of(MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD)) == MPI_ERR_TAG);
    CHECK(class_of(MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD)) == MPI_ERR_COUNT);
    CHECK(class_of(MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD)) == MPI_ERR_TYPE);
    CHECK(class_of(MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL)) == MPI_ERR_COMM);
    /* the same from the receives and the immediate forms, whose calls on
     * world with a predefined type take a short way when all is well */
    MPI_Request rq = MPI_REQUEST_NULL;
    CHECK(class_of(MPI_Recv(&x, 1, MPI_INT, np, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)) ==
          MPI_ERR_RANK);
    CHECK(class_of(MPI_Recv(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, MPI_STATUS_IGNORE)) ==
          MPI_ERR_TAG);
    CHECK(class_of(MPI_Recv(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)) ==
          MPI_ERR_COUNT);
    CHECK(class_of(MPI_Isend(&x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &rq)) == MPI_ERR_RANK);
    CHECK(class_of(MPI_Isend(&x, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &rq)) ==
          MPI_ERR_TAG);
    CHECK(class_of(MPI_Isend(&x, -2, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq)) == MPI_ERR_COUNT);
    CHECK(class_of(MPI_Isend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL)) == MPI_ERR_ARG);
    CHECK(class_of(MPI_Irecv(&x, 1, MPI_INT, np + 2, 0, MPI_COMM_WORLD, &rq)) == MPI_ERR_RANK);
    CHECK(class_of(MPI_Irecv(&x, 1, MPI_INT, 0, -9, MPI_COMM_WORLD, &rq)) == MPI_ERR_TAG);
    CHECK(class_of(MPI_Irecv(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &rq)) ==
          MPI_ERR_TYPE);
    CHECK(class_of(MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL)) == MPI_ERR_ARG);
    CHECK(rq == MPI_REQUEST_NULL);
    /* PROC_NULL and an empty message on the short way and beside it */
    OK(MPI_Isend(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq));
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MPI_Status pst;
    OK(MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &pst));
    CHECK(pst.MPI_SOURCE == MPI_PROC_NULL && pst.MPI_TAG == MPI_ANY_TAG);
    int me_env;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &me_env));
    OK(MPI_Irecv(&x, 0, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq));
    OK(MPI_Send(&x, 0, MPI_INT, me_env, 11, MPI_COMM_WORLD));
    OK(MPI_Wait(&rq, &pst));
    int got_n = -1;
    OK(MPI_Get_count(&pst, MPI_INT, &got_n));
    CHECK(pst.MPI_SOURCE == me_env && pst.MPI_TAG == 11 && got_n == 0);
    CHECK(class_of(MPI_Bcast(&x, 1, MPI_INT, np + 3, MPI_COMM_WORLD)) == MPI_ERR_ROOT);
    CHECK(class_of(MPI_Allreduce(&x, &x, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD)) ==
          MPI_ERR_OP);
    MPI_Request bogus = MPI_REQUEST_NULL;
    MPI_Status st;
    OK(MPI_Wait(&bogus, &st));   /* a null request is complete */
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
    /* a function ordo-mpi leaves out says so through the handler */
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_SELF, "x", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(class_of(rc) == MPI_ERR_UNSUPPORTED_OPERATION);

    /* a handler of the program's own is called with the code */
    MPI_Comm dup;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Errhandler eh, got;
    OK(MPI_Comm_create_errhandler(on_error, &eh));
    OK(MPI_Comm_set_errhandler(dup, eh));
    OK(MPI_Comm_get_errhandler(dup, &got));
    CHECK(got == eh);
    OK(MPI_Errhandler_free(&got));
    OK(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL);
    handler_calls = 0;
    rc = MPI_Send(&x, 1, MPI_INT, np + 1, 0, dup);
    CHECK(handler_calls == 1 && class_of(handler_code) == MPI_ERR_RANK && rc == handler_code);
    /* a duplicate's ranks are world's: once its first immediate call took
     * its slot, its sends and receives take the short way, and what goes
     * wrong still reaches its own handler */
    MPI_Request dq[2];
    OK(MPI_Irecv(&x, 1, MPI_INT, me_env, 21, dup, &dq[0]));
    OK(MPI_Isend(&x, 1, MPI_INT, me_env, 21, dup, &dq[1]));
    OK(MPI_Waitall(2, dq, MPI_STATUSES_IGNORE));
    OK(MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &dq[0]));
    OK(MPI_Send(&x, 1, MPI_INT, me_env, 22, dup));
    OK(MPI_Wait(&dq[0], &pst));
    CHECK(pst.MPI_SOURCE == me_env && pst.MPI_TAG == 22);
    handler_calls = 0;
    rc = MPI_Isend(&x, 1, MPI_INT, np, 0, dup, &dq[0]);
    CHECK(handler_calls == 1 && class_of(handler_code) == MPI_ERR_RANK && rc == handler_code);
    rc = MPI_Irecv(&x, 1, MPI_INT, 0, -4, dup, &dq[0]);
    CHECK(handler_calls == 2 && class_of(handler_code) == MPI_ERR_TAG && rc == handler_code);
    rc = MPI_Recv(&x, 1, MPI_INT, np + 3, 0, dup, MPI_STATUS_IGNORE);
    CHECK(handler_calls == 3 && class_of(handler_code) == MPI_ERR_RANK && rc == handler_code);
    handler_calls = 1;
    OK(MPI_Comm_call_errhandler(dup, code));
    CHECK(handler_calls == 2 && handler_code == code);
    OK(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL);
}

static void info(void)
{
    MPI_Info in, copy;
    OK(MPI_Info_create(&in));
    OK(MPI_Info_set(in, "alpha", "1"));
    OK(MPI_Info_set(in, "beta", "two"));
    OK(MPI_Info_set(in, "alpha", "one"));
    int n = 0, flag = 0, buflen = MPI_MAX_INFO_VAL;
    OK(MPI_Info_get_nkeys(in, &n));
    CHECK(n == 2);
    char key[MPI_MAX_INFO_KEY], val[MPI_MAX_INFO_VAL];
    OK(MPI_Info_get_nthkey(in, 1, key));
    CHECK(strcmp(key, "beta") == 0);
    OK(MPI_Info_get_string(in, "alpha", &buflen, val, &flag));
    CHECK(flag && strcmp(val, "one") == 0 && buflen == 4);
    OK(MPI_Info_dup(in, &copy));
    OK(MPI_Info_delete(in, "alpha"));
    buflen = MPI_MAX_INFO_VAL;
    OK(MPI_Info_get_string(in, "alpha", &buflen, val, &flag));
    CHECK(!flag);
    buflen = MPI_MAX_INFO_VAL;
    OK(MPI_Info_get_string(copy, "alpha", &buflen, val, &flag));
    CHECK(flag && strcmp(val, "one") == 0);
    CHECK(class_of(MPI_Info_delete(in, "nothing")) == MPI_ERR_INFO_NOKEY);
    OK(MPI_Info_free(&in));
    OK(MPI_Info_free(&copy));
    CHECK(in == MPI_INFO_NULL);
}

static void comms(void)
{
    int size = 0, rank = -1, result = 0;
    OK(MPI_Comm_size(MPI_COMM_SELF, &size));
    OK(MPI_Comm_rank(MPI_COMM_SELF, &rank));
    CHECK(size == 1 && rank == 0);
    /* a message to oneself on MPI_COMM_SELF */
    int out = 5 + me, in = -1;
    OK(MPI_Sendrecv(&out, 1, MPI_INT, 0, 3, &in, 1, MPI_INT, 0, 3, MPI_COMM_SELF,
                    MPI_STATUS_IGNORE));
    CHECK(in == out);

    MPI_Comm dup, split, rev, created, shared;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Comm_compare(MPI_COMM_WORLD, dup, &result));
    CHECK(result == MPI_CONGRUENT);
    OK(MPI_Comm_compare(dup, dup, &result));
    CHECK(result == MPI_IDENT);
    /* messages on dup never match receives on the world */
    if (np > 1) {
        int a = 1, b = 2, ra = 0, rb = 0;
        if (me == 0) {
            OK(MPI_Send(&a, 1, MPI_INT, 1, 9, dup));
            OK(MPI_Send(&b, 1, MPI_INT, 1, 9, MPI_COMM_WORLD));
        } else if (me == 1) {
            OK(MPI_Recv(&rb, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            OK(MPI_Recv(&ra, 1, MPI_INT, 0, 9, dup, MPI_STATUS_IGNORE));
            CHECK(ra == 1 && rb == 2);
        }
    }
    /* split by parity, ranked in reverse */
    OK(MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &split));
    OK(MPI_Comm_size(split, &size));
    OK(MPI_Comm_rank(split, &rank));
    CHECK(size == (np + 1 - me % 2) / 2);
    CHECK(rank == (size - 1) - me / 2);
    int sum = 0;
    OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, split));
    int want = 0;
    for (int r = me % 2; r < np; r += 2)
        want += r;
    CHECK(sum == want);
    /* rank 0 of the split is the highest world rank of the colour: its
     * broadcast reaches everyone in it */
    int root_val = rank == 0 ? me : -1;
    OK(MPI_Bcast(&root_val, 1, MPI_INT, 0, split));
    CHECK(root_val == ((np - 1) % 2 == me % 2 ? np - 1 : np - 2));
    OK(MPI_Comm_free(&split));
    OK(MPI_Comm_split(MPI_COMM_WORLD, me == 0 ? MPI_UNDEFINED : 1, 0, &rev));
    CHECK((me == 0) == (rev == MPI_COMM_NULL));
    if (rev != MPI_COMM_NULL)
        OK(MPI_Comm_free(&rev));
    CHECK(class_of(MPI_Comm_split(MPI_COMM_WORLD, -7, 0, &rev)) == MPI_ERR_ARG);

    /* groups: the world reversed, made a communicator in that order */
    MPI_Group world, reversed, evens, both, none;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int *ranks = malloc(sizeof(int) * (size_t)np);
    for (int i = 0; i < np; i++)
        ranks[i] = np - 1 - i;
    OK(MPI_Group_incl(world, np, ranks, &reversed));
    OK(MPI_Group_rank(reversed, &rank));
    CHECK(rank == np - 1 - me);
    OK(MPI_Group_compare(world, reversed, &result));
    CHECK(result == (np == 1 ? MPI_IDENT : MPI_SIMILAR));
    int tr[1] = {0}, out_rank[1] = {-1};
    OK(MPI_Group_translate_ranks(reversed, 1, tr, world, out_rank));
    CHECK(out_rank[0] == np - 1);
    OK(MPI_Comm_create(MPI_COMM_WORLD, reversed, &created));
    OK(MPI_Comm_rank(created, &rank));
    CHECK(rank == np - 1 - me);
    int first = -1;
    if (rank == 0)
        first = me;
    OK(MPI_Bcast(&first, 1, MPI_INT, 0, created));
    CHECK(first == np - 1);
    OK(MPI_Comm_free(&created));
    int neven = (np + 1) / 2;
    for (int i = 0; i < neven; i++)
        ranks[i] = 2 * i;
    OK(MPI_Group_incl(world, neven, ranks, &evens));
    /* MPI 2.2: each member passes its own group, disjoint ones (evens and
     * odds here), and gets the communicator of its group */
    MPI_Group odds, mine_g;
    OK(MPI_Group_difference(world, evens, &odds));
    mine_g = me % 2 ? odds : evens;
    OK(MPI_Comm_create(MPI_COMM_WORLD, mine_g, &created));
    OK(MPI_Comm_size(created, &size));
    CHECK(size == (me % 2 ? np / 2 : neven));
    OK(MPI_Comm_rank(created, &rank));
    CHECK(rank == me / 2);
    OK(MPI_Comm_free(&created));
    OK(MPI_Group_free(&odds));
    OK(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 7, &created));
    CHECK((me % 2 == 0) == (created != MPI_COMM_NULL));
    if (created != MPI_COMM_NULL) {
        OK(MPI_Comm_size(created, &size));
        CHECK(size == neven);
        OK(MPI_Barrier(created));
        OK(MPI_Comm_free(&created));
    }
    int range[1][3] = {{np - 1, 0, -2}}, odd_size = 0;
    MPI_Group by_range, rest;
    OK(MPI_Group_range_incl(world, 1, range, &by_range));
    OK(MPI_Group_size(by_range, &odd_size));
    CHECK(odd_size == (np + 1) / 2);
    OK(MPI_Group_range_excl(world, 1, range, &rest));
    OK(MPI_Group_size(rest, &size));
    CHECK(size == np - odd_size);
    OK(MPI_Group_free(&by_range));
    if (rest != MPI_GROUP_EMPTY)
        OK(MPI_Group_free(&rest));
    OK(MPI_Group_union(evens, reversed, &both));
    OK(MPI_Group_size(both, &size));
    CHECK(size == np);
    OK(MPI_Group_difference(evens, world, &none));
    CHECK(none == MPI_GROUP_EMPTY);
    OK(MPI_Group_free(&both));
    OK(MPI_Group_free(&evens));
    OK(MPI_Group_free(&reversed));
    OK(MPI_Group_free(&world));
    free(ranks);

    /* the node */
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
    OK(MPI_Comm_size(shared, &size));
    CHECK(size >= 1 && size <= np);
    OK(MPI_Comm_free(&shared));
    /* MPI-4's hardware splits: guided by "mpi_shared_memory" the node,
     * by nothing or anything else none; unguided the node where that is
     * smaller than the world (the level named in the info), else none */
    MPI_Comm hw;
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, &hw));
    CHECK(hw == MPI_COMM_NULL);
    MPI_Info res;
    OK(MPI_Info_create(&res));
    OK(MPI_Info_set(res, "mpi_hw_resource_type", "@no-such-thing@"));
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, res, &hw));
    CHECK(hw == MPI_COMM_NULL);
    OK(MPI_Info_set(res, "mpi_hw_resource_type", "mpi_shared_memory"));
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, res, &hw));
    int hwsize = -1;
    CHECK(hw != MPI_COMM_NULL && MPI_Comm_size(hw, &hwsize) == MPI_SUCCESS && hwsize == size);
    if (hw != MPI_COMM_NULL)
        OK(MPI_Comm_free(&hw));
    OK(MPI_Info_free(&res));
    OK(MPI_Info_create(&res));
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, me, res, &hw));
    CHECK((hw != MPI_COMM_NULL) == (size < np));
    if (hw != MPI_COMM_NULL) {
        char v[64];
        int flag = 0;
        OK(MPI_Info_get(res, "mpi_hw_resource_type", 63, v, &flag));
        CHECK(flag && strcmp(v, "mpi_shared_memory") == 0);
        OK(MPI_Comm_size(hw, &hwsize));
        CHECK(hwsize == size);
        OK(MPI_Comm_free(&hw));
    }
    OK(MPI_Info_free(&res));

    /* names, info hints */
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0);
    OK(MPI_Comm_set_name(dup, "dup"));
    OK(MPI_Comm_get_name(dup, name, &len));
    CHECK(strcmp(name, "dup") == 0 && len == 3);
    MPI_Info hints, used;
    OK(MPI_Info_create(&hints));
    OK(MPI_Info_set(hints, "mpi_assert_allow_overtaking", "true"));
    MPI_Comm fast;
    OK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, hints, &fast));
    OK(MPI_Comm_get_info(fast, &used));
    char val[MPI_MAX_INFO_VAL];
    int flag = 0, buflen = MPI_MAX_INFO_VAL;
    OK(MPI_Info_get_string(used, "mpi_assert_allow_overtaking", &buflen, val, &flag));
    CHECK(flag && strcmp(val, "true") == 0);
    OK(MPI_Info_free(&used));
    OK(MPI_Info_free(&hints));
    /* an overtaking communicator still delivers every message */
    if (np > 1 && me < 2) {
        int peer = 1 - me, got[16], sent[16];
        MPI_Request reqs[32];
        for (int i = 0; i < 16; i++) {
            sent[i] = i;
            OK(MPI_Irecv(&got[i], 1, MPI_INT, peer, 4, fast, &reqs[i]));
        }
        for (int i = 0; i < 16; i++)
            OK(MPI_Isend(&sent[i], 1, MPI_INT, peer, 4, fast, &reqs[16 + i]));
        OK(MPI_Waitall(32, reqs, MPI_STATUSES_IGNORE));
        int seen = 0;
        for (int i = 0; i < 16; i++)
            seen |= 1 << got[i];
        CHECK(seen == 0xffff);
    }
    OK(MPI_Comm_free(&fast));
    MPI_Comm idup;
    MPI_Request dreq;
    OK(MPI_Comm_idup(MPI_COMM_WORLD, &idup, &dreq));
    OK(MPI_Wait(&dreq, MPI_STATUS_IGNORE));
    OK(MPI_Barrier(idup));
    OK(MPI_Comm_free(&idup));
    int topo = 0;
    OK(MPI_Topo_test(MPI_COMM_WORLD, &topo));
    CHECK(topo == MPI_UNDEFINED);

    /* attributes, copied by dup when the key says so */
    int key = MPI_KEYVAL_INVALID, *got_val = NULL;
    static int value = 77;
    OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    OK(MPI_Comm_set_attr(dup, key, &value));
    MPI_Comm dup2;
    OK(MPI_Comm_dup(dup, &dup2));
    OK(MPI_Comm_get_attr(dup2, key, &got_val, &flag));
    CHECK(flag && got_val == &value);
    OK(MPI_Comm_delete_attr(dup2, key));
    OK(MPI_Comm_get_attr(dup2, key, &got_val, &flag));
    CHECK(!flag);
    OK(MPI_Comm_free_keyval(&key));
    OK(MPI_Comm_free(&dup2));
    OK(MPI_Comm_free(&dup));
    CHECK(class_of(MPI_Comm_free(&dup)) == MPI_ERR_COMM);
}

/* MPI 5.0's ABI introspection: the sizes of the address and count types,
 * and the Fortran types the library has. */
static void abi(void)
{
    MPI_Info info;
    char value[64];
    int flag = 0;
    OK(MPI_Abi_get_info(&info));
    OK(MPI_Info_get_string(info, "mpi_aint_size", &(int){sizeof(value)}, value, &flag));
    CHECK(flag && atoi(value) == (int)sizeof(MPI_Aint));
    OK(MPI_Info_get_string(info, "mpi_count_size", &(int){sizeof(value)}, value, &flag));
    CHECK(flag && atoi(value) == 8);
    OK(MPI_Info_free(&info));
    OK(MPI_Abi_get_fortran_info(&info));
    OK(MPI_Info_get_string(info, "mpi_integer_size", &(int){sizeof(value)}, value, &flag));
    CHECK(flag && atoi(value) == 4);
    OK(MPI_Info_get_string(info, "mpi_real16_supported", &(int){sizeof(value)}, value, &flag));
    CHECK(flag && strcmp(value, "true") == 0);
    OK(MPI_Info_free(&info));
    CHECK(class_of(MPI_Abi_get_info(NULL)) == MPI_ERR_ARG);
}

/* MPI-4's MPI_Comm_create_from_group: the members alone make it, in the
 * group's order, with the hints and error handler given. */
static void from_group(void)
{
    MPI_Group world, evens;
    OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int n = (np + 1) / 2, ranks[4];
    for (int i = 0; i < n; i++)
        ranks[i] = 2 * (n - 1 - i);   /* backwards */
    OK(MPI_Group_incl(world, n, ranks, &evens));
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Info info;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "mpi_assert_allow_overtaking", "true"));
    if (me % 2 == 0) {
        OK(MPI_Comm_create_from_group(evens, "ordo.test.evens", info, MPI_ERRORS_RETURN, &c));
        int crank = -1, csize = 0;
        OK(MPI_Comm_rank(c, &crank));
        OK(MPI_Comm_size(c, &csize));
        CHECK(csize == n && crank == n - 1 - me / 2);
        MPI_Errhandler eh;
        OK(MPI_Comm_get_errhandler(c, &eh));
        CHECK(eh == MPI_ERRORS_RETURN);
        MPI_Info used;
        char v[16];
        int flag = 0;
        OK(MPI_Comm_get_info(c, &used));
        OK(MPI_Info_get_string(used, "mpi_assert_allow_overtaking", &(int){sizeof(v)}, v,
                               &flag));
        CHECK(flag && strcmp(v, "true") == 0);
        OK(MPI_Info_free(&used));
        int sum = 0, one = 1;
        OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c));
        CHECK(sum == n);
        CHECK(class_of(MPI_Send(&one, 1, MPI_INT, csize, 0, c)) == MPI_ERR_RANK);   /* returned */
        OK(MPI_Comm_free(&c));
    }
    /* every communicator is an intracommunicator: no remote group */
    int rsize = -1;
    MPI_Group rgroup;
    CHECK(class_of(MPI_Comm_remote_size(MPI_COMM_WORLD, &rsize)) == MPI_ERR_COMM && rsize == -1);
    CHECK(class_of(MPI_Comm_remote_group(MPI_COMM_WORLD, &rgroup)) == MPI_ERR_COMM);
    CHECK(class_of(MPI_Comm_create_from_group(evens, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                              &c)) == MPI_ERR_ARG);
    OK(MPI_Info_free(&info));
    OK(MPI_Group_free(&evens));
    OK(MPI_Group_free(&world));
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    abi();
    from_group();
    environment();
    errors();
    info();
    comms();
    return mpi_test_report("mpi_env");
}
