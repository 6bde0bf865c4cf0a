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
echo "install check: pkg-config and find_package consumers ran"
