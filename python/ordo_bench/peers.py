"""`make bench`: ordo next to its peers, measured in one run with the same
method, as ratios: one-sided against ucx_perftest and memcpy (foundation
issue), two-sided against Open MPI built from the same sources and memcpy
(two-sided issue), one-sided against two-sided message rate, and barriers,
the halo exchange and alltoall against dissemination, Isend/Irecv and Open
MPI (collectives and epochs issue)."""

from __future__ import annotations

import json
import sys

from .runner import BenchError, run_mpi, run_ordo, run_ucx_perftest


def _value(records: list[dict], **match) -> float:
    for r in records:
        if all(r.get(k) == v for k, v in match.items()):
            return r["value"]
    raise BenchError(f"no record with {match}")


def measure_two_sided(mpi: str = "openmpi") -> dict:
    """Each figure: ordo and the MPI alternately, best-of-runs medians would
    hide noise, so every ratio is from the same run of both."""
    lat = run_ordo("latency", "--iters", "100000", "--trials", "11")
    mlat = run_mpi(mpi, "latency", "--iters", "100000", "--trials", "11")
    rate = run_ordo("msgrate", "--window", "64", "--trials", "11")
    mrate = run_mpi(mpi, "msgrate", "--window", "64", "--trials", "11")
    big = str(4 << 20)
    bw = run_ordo("bw", "--size", big, "--trials", "7")
    mbw = run_mpi(mpi, "bw", "--size", big, "--trials", "7")
    ordo_bw = _value(bw, experiment="bw", impl="ordo")
    memcpy_bw = _value(bw, experiment="bw", impl="memcpy")
    mpi_bw = _value(mbw, experiment="bw")
    # one-sided against two-sided message rate (PGAS paper, Figure 1)
    osts = {}
    for size in (8, 2048):
        two = _value(run_ordo("msgrate", "--window", "64", "--size", str(size),
                              "--trials", "7"), experiment="msgrate")
        one = _value(run_ordo("put_rate", "--window", "64", "--size", str(size),
                              "--iters", "20000", "--trials", "7"),
                     variant="put", order="relaxed")
        osts[f"{size}B"] = {"one_sided_relaxed": one, "two_sided": two, "ratio": one / two}
    return {
        "latency_8B_us": {"ordo": _value(lat), mpi: _value(mlat),
                          "ratio": _value(lat) / _value(mlat), "goal": "<= 0.7"},
        "msgrate_8B_W64_Mmsgps": {"ordo": _value(rate), mpi: _value(mrate),
                                  "ratio": _value(rate) / _value(mrate), "goal": ">= 1.5"},
        "bw_4MiB_MBps": {"ordo": ordo_bw, mpi: mpi_bw, "memcpy": memcpy_bw,
                         "ratio_mpi": ordo_bw / mpi_bw, "ratio_memcpy": ordo_bw / memcpy_bw,
                         "bibw_ordo": _value(bw, experiment="bibw"),
                         f"bibw_{mpi}": _value(mbw, experiment="bibw"),
                         "goal": ">= 1.0 x mpi and >= 0.9 x memcpy"},
        "one_vs_two_sided_rate_Mmsgps": osts,
    }


def measure_sync(mpi: str = "openmpi") -> dict:
    """Collectives and RMA epochs (issue 4) at 2 ranks: barrier per
    algorithm against dissemination and the MPI's MPI_Barrier; the halo
    exchange with 8 partners, every one-sided variant against ordo's
    Isend/Irecv; alltoall two-sided against one-sided.  Barrier trials are
    long: short ones catch the launcher waking between them on 2 cores."""
    bar = {}
    for alg in ("dissemination", "tree", "shm"):
        bar[alg] = _value(run_ordo("barrier", "--iters", "1000000", "--trials", "5",
                                   env={"ORDO_COLL_BARRIER": alg}))
    mbar = _value(run_mpi(mpi, "barrier", "--iters", "1000000", "--trials", "5"))
    barrier = {"ordo_us": bar, f"{mpi}_us": mbar,
               "tree_vs_dissemination": bar["tree"] / bar["dissemination"],
               "shm_vs_dissemination": bar["shm"] / bar["dissemination"],
               f"tree_vs_{mpi}": bar["tree"] / mbar, f"shm_vs_{mpi}": bar["shm"] / mbar,
               "goal": "atomic <= 0.7 x dissemination and <= 1.0 x MPI_Barrier"}
    # min-of-averages, the halo paper's method
    halo = {}
    for impl, recs in (("ordo", run_ordo("halo", "--pairs", "8", "--size", "8",
                                         "--iters", "4000", "--trials", "9")),
                       (mpi, run_mpi(mpi, "halo", "--pairs", "8", "--size", "8",
                                     "--iters", "4000", "--trials", "9"))):
        halo[impl] = {r["variant"]: r["stats"]["min"] for r in recs if r["value"] is not None}
    best = min((v, k) for k, v in halo["ordo"].items() if k.startswith("put"))
    a2a = {}
    for alg in ("pairwise", "put"):
        a2a[alg] = {r["size"]: r["value"] for r in
                    run_ordo("alltoall", "--trials", "5", env={"ORDO_COLL_ALLTOALL": alg})}
    a2a[mpi] = {r["size"]: r["value"] for r in run_mpi(mpi, "alltoall", "--trials", "5")}
    return {
        "barrier_2ranks": barrier,
        "halo_8partners_8B_min_us": dict(halo, best_one_sided=best[1],
                                         ratio=best[0] / halo["ordo"]["sendrecv"],
                                         goal="best one-sided <= 0.7 x ordo sendrecv"),
        "alltoall_2ranks_us": a2a,
    }


def measure() -> dict:
    lat = next(r["value"] for r in run_ordo("put_latency", "--iters", "200000", "--trials", "7")
               if r["order"] == "default" and r["variant"] == "pingpong")
    ucx_lat = run_ucx_perftest("ucp_put_lat", 8, 200000)
    rate = {r["order"]: r["value"] for r in
            run_ordo("put_rate", "--iters", "40000", "--trials", "7", "--window", "64")
            if r["variant"] == "put"}
    ucx_rate = run_ucx_perftest("ucp_put_bw", 8, 2000000, window=64) / 1e6
    bw = run_ordo("put_bw", "--trials", "7", "--size", str(1 << 20))
    memcpy_bw = next(r["value"] for r in bw if r["impl"] == "memcpy")
    put_bw = {r["order"]: r["value"] for r in bw if r["impl"] == "ordo"}
    return {
        "put_latency_us": {"ordo": lat, "ucx": ucx_lat, "ratio": lat / ucx_lat,
                           "goal": "<= 1.0"},
        "put_rate_8B_W64_Mmsgps": {"ordo": rate, "ucx": ucx_rate,
                                   "ratio_relaxed": rate["relaxed"] / ucx_rate,
                                   "goal": ">= 1.2"},
        "put_bw_1MiB_MBps": {"ordo": put_bw, "memcpy": memcpy_bw,
                             "ratio_default": put_bw["default"] / memcpy_bw,
                             "goal": ">= 0.9"},
    }


def main() -> int:
    try:
        res = {"one-sided": measure(), "two-sided": measure_two_sided(),
               "collectives-and-epochs": measure_sync()}
    except BenchError as e:
        print(f"ordo bench: {e}", file=sys.stderr)
        return 1
    print(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
