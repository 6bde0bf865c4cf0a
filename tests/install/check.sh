#!/usr/bin/env bash
# Install into a scratch prefix, then build a consumer with pkg-config and
# with CMake's find_package, and run both.  Args: SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cat > "$work/app.c" <<'C'
#include <ordo/ordo.h>
int main(void) {
    if (ordo_init(NULL) != ORDO_OK) return 1;
    void *base; ordo_region_h r; int v = 42, w = 0;
    if (ordo_region_alloc(64, 0, &r, &base) != ORDO_OK) return 2;
    ordo_put(NULL, &v, sizeof v, r, 0, 0, 0);
    ordo_get(NULL, &w, sizeof w, r, 0, 0, 0);
    ordo_region_free(r);
    return ordo_finalize() == ORDO_OK && w == 42 ? 0 : 3;
}
C
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib/x86_64-linux-gnu/pkgconfig"
cc -std=c11 "$work/app.c" $(pkg-config --cflags --libs ordo) -o "$work/app-pc"
LD_LIBRARY_PATH=$(pkg-config --variable=libdir ordo) "$work/app-pc"
mkdir "$work/cm"
cat > "$work/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.18)
project(consumer C)
find_package(ordo REQUIRED)
add_executable(app $work/app.c)
target_link_libraries(app PRIVATE ordo::ordo)
CM
cmake -S "$work/cm" -B "$work/cm/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cm/build" >/dev/null
"$work/cm/build/app"
# OpenSHMEM: <shmem.h> through ordo-oshcc (never Open MPI's oshcc) and
# through pkg-config ordo-shmem, run under the installed ordorun
cat > "$work/hello.c" <<'C'
#include <shmem.h>
#include <stdio.h>
int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int *x = shmem_malloc(sizeof(int));
    *x = -1;
    shmem_barrier_all();
    shmem_int_p(x, me, (me + 1) % n);
    shmem_barrier_all();
    int ok = *x == (me - 1 + n) % n;
    shmem_free(x);
    shmem_finalize();
    return ok ? 0 : 1;
}
C
"$work/prefix/bin/ordo-oshcc" -std=c11 "$work/hello.c" -o "$work/hello-oshcc"
"$work/prefix/bin/ordo-oshcc" -std=c11 -c "$work/hello.c" -o "$work/hello.o"
# as ./configure CC=ordo-oshcc calls it: CC names the wrapper itself, by
# path or through PATH, and it must not run itself for ever
CC="$work/prefix/bin/ordo-oshcc" timeout 30 "$work/prefix/bin/ordo-oshcc" -std=c11 \
    "$work/hello.c" -o "$work/hello-cc-self"
PATH="$work/prefix/bin:$PATH" CC=ordo-oshcc timeout 30 ordo-oshcc -std=c11 -c \
    "$work/hello.c" -o "$work/hello-cc-path.o"
ln -s "$work/prefix/bin/ordo-oshcc" "$work/my-shmem-cc"
CC="$work/my-shmem-cc -O2" timeout 30 "$work/my-shmem-cc" -std=c11 -c "$work/hello.c" \
    -o "$work/hello-cc-link.o"
cc -std=c11 "$work/hello.c" $(pkg-config --cflags --libs ordo-shmem) -o "$work/hello-pc"
SHMEM_SYMMETRIC_SIZE=8M "$work/prefix/bin/ordorun" -n 2 "$work/hello-oshcc"
SHMEM_SYMMETRIC_SIZE=8M LD_LIBRARY_PATH=$(pkg-config --variable=libdir ordo-shmem) \
    "$work/prefix/bin/ordorun" -n 3 "$work/hello-pc"
# MPI: <mpi.h> through ordo-mpicc and through pkg-config ordo-mpi; the
# wrapper does not run itself when CC names it
cat > "$work/ring.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, n, token = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Sendrecv(&me, 1, MPI_INT, (me + 1) % n, 0, &token, 1, MPI_INT, (me + n - 1) % n, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int sum = 0;
    MPI_Allreduce(&token, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return token == (me + n - 1) % n && sum == n * (n - 1) / 2 ? 0 : 1;
}
C
"$work/prefix/bin/ordo-mpicc" -std=c11 "$work/ring.c" -o "$work/ring-mpicc"
CC="$work/prefix/bin/ordo-mpicc" timeout 30 "$work/prefix/bin/ordo-mpicc" -std=c11 -c \
    "$work/ring.c" -o "$work/ring.o"
cc -std=c11 "$work/ring.c" $(pkg-config --cflags --libs ordo-mpi) -o "$work/ring-pc"
"$work/prefix/bin/ordorun" -n 3 "$work/ring-mpicc"
LD_LIBRARY_PATH=$(pkg-config --variable=libdir ordo-mpi) "$work/prefix/bin/ordorun" -n 2 \
    "$work/ring-pc"
echo "install check: pkg-config and find_package consumers ran, and OpenSHMEM and MPI ones"
