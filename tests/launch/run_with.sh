#!/usr/bin/env bash
# Run a test program under a site's launcher, as a user would:
#   run_with.sh LAUNCHER NP PROGRAM [ARGS...]
#     openmpi   Open MPI's mpirun (ranks join through PMIx)
#     mpich     MPICH's Hydra mpiexec (PMI-1)
# More ranks than cores is allowed (correctness only), and Open MPI is told
# it may run as root, which it refuses by default.
set -euo pipefail
launcher=$1 np=$2
shift 2

# Run a launcher command in the background, passing on the signals a test
# sends this script, as the launcher itself would have received them; its
# exit status in $status.
run_forwarding() {
    "$@" &
    child=$!
    for sig in TERM INT HUP QUIT USR1 USR2; do
        trap "kill -$sig $child 2>/dev/null" "$sig"
    done
    status=0
    while :; do
        wait "$child" && status=0 || status=$?
        kill -0 "$child" 2>/dev/null || break   # a signal woke the wait, not its end
    done
}
case $launcher in
    openmpi)
        extra=(--oversubscribe --bind-to none)
        if [ "$(id -u)" = 0 ]; then extra+=(--allow-run-as-root); fi
        # A session directory of its own: two mpiruns sharing /tmp/ompi.HOST.UID
        # race, one removing it while the other creates its job's directory
        # there ("A call to mkdir was unable to create the desired directory").
        # The script stays to remove it, so it passes on the signals.
        session=$(mktemp -d /tmp/ordo-ompi.XXXXXX)
        trap 'rm -rf "$session"' EXIT
        run_forwarding env OMPI_MCA_orte_tmpdir_base="$session" \
            mpirun.openmpi "${extra[@]}" -n "$np" "$@"
        exit "$status" ;;
    mpich)
        # Hydra (MPICH 4.0) now and then fails its own start-up with
        # "assert (!closed) failed" in its PMI server (pmodels/mpich#7036,
        # fixed upstream in 2024): the job is started once more when that is
        # the failure, said on stderr; any other failure stands.
        log=$(mktemp /tmp/ordo-hydra.XXXXXX)
        trap 'rm -f "$log"' EXIT
        # stderr goes to the log, and from it to ours once the job ended
        for attempt in 1 2; do
            run_forwarding mpirun.mpich -n "$np" "$@" 2>"$log"
            cat "$log" >&2
            if [ "$status" = 0 ] || [ "$attempt" = 2 ] ||
               ! grep -q 'assert (!closed) failed' "$log"; then
                exit "$status"
            fi
            echo "run_with.sh: Hydra failed its own start-up (pmodels/mpich#7036); once more" >&2
        done ;;
    *)
        echo "run_with.sh: unknown launcher '$launcher' (openmpi, mpich)" >&2
        exit 2 ;;
esac
