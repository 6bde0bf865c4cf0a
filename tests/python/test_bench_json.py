"""Every benchmark program, in every build made here (ordo, and each MPI
found at build time), writes records that validate against the schema
(python/ordo_bench/ordo-bench-1.schema.json), and the validator refuses
records that do not."""

from __future__ import annotations

import copy
import math
import os

import pytest
from ordo_bench.experiments import OSC
from ordo_bench.runner import BenchError, run_mpi, run_ordo, validate

TINY = ["--trials", "2", "--warmup", "2"]

PROGRAMS = {
    "latency": ["--iters", "200", "--size", "64"],
    "bw": ["--iters", "4", "--window", "4", "--size", "4096"],
    "msgrate": ["--iters", "50", "--window", "8"],
    "barrier": ["--iters", "200"],
    "halo": ["--iters", "50", "--pairs", "4", "--size", "64"],
    "alltoall": ["--iters", "50", "--size", "64"],
    "put_latency": ["--iters", "200", "--size", "64"],
    "put_rate": ["--iters", "50", "--window", "8"],
    "put_bw": ["--iters", "2", "--window", "2", "--size", "65536"],
    "rma_sync": ["--iters", "64", "--window", "4", "--size", "64"],
    "atomics": ["--iters", "200"],
    "fig2": ["--iters", "20", "--window", "4", "--size", "256"],
    "regcost": ["--iters", "3", "--window", "2", "--size", "4096"],
    "overlap": ["--iters", "20", "--size", "4096"],
    "transpose": ["--iters", "20", "--size", "256"],
    "stream": ["--iters", "2", "--size", "262144"],
}


def _mpis() -> list[str]:
    """Debian's two (make test installs them) and every other MPI the build
    was made for (the PyPI ones scripts/deps.sh installs, any named)."""
    from pathlib import Path

    from ordo_bench import mpis
    build = Path(os.environ.get("ORDO_BUILD", "build"))
    return list(dict.fromkeys(["openmpi", "mpich", *mpis.manifest(build)]))


def _builds():
    out = []
    for program in PROGRAMS:
        out.append(("ordo", program))
        for mpi in _mpis():
            out.append((mpi, program))
    return out


@pytest.mark.parametrize("impl,program", _builds())
def test_program_emits_valid_records(bindir, impl, program):
    os.environ.setdefault("ORDO_BUILD", str(bindir.parent))
    args = TINY + PROGRAMS[program]
    if impl == "ordo":
        recs = run_ordo(program, *args)
    else:
        # make test installs both MPIs, and the build makes every program for each
        assert (bindir / f"{program}.{impl}").exists(), (
            f"{program}.{impl} is not built: install {impl} (scripts/deps.sh peers) and "
            "run make")
        recs = run_mpi(impl, program, *args, env=dict(OSC))
    assert recs, f"{program} ({impl}) printed no records"
    for r in recs:                      # run_* validated each against the schema
        assert r["impl"] in (impl, "memcpy")
        if r["value"] is None:
            assert r["skipped"]
            continue
        # an overlapped fraction is reported as measured: below 0 when overlapping made
        # both slower (ranks competing for cores); every other metric is a time or a rate
        assert r["value"] >= 0 or r["metric"] == "fraction", r
        assert math.isfinite(r["value"]) and len(r["samples"]) == r["stats"]["trials"] == 2
    measured = [r for r in recs if r["value"] is not None]
    assert measured
    if impl == "ordo" and program in ("put_rate", "put_bw", "put_latency", "fig2"):
        assert {r["order"] for r in measured if r["paradigm"] == "one-sided"} == {
            "strict", "default", "relaxed"}
    if impl != "ordo":
        assert all(r["order"] is None for r in measured)
    # the launcher bound each rank to a core (ordorun by itself, mpirun by --bind-to core),
    # and every rank's binding is recorded, not rank 0's alone
    for r in recs:
        assert r["env"]["binding"] == "core", r["env"]
        if r["impl"] != "memcpy":           # memcpy: np 1, measured inside a 2-rank job
            assert len(r["env"]["bindings"]) == r["np"]


def test_dynamic_regions_are_measured(bindir):
    # attach and detach to a dynamic region, as MPI_Win_attach / _detach
    os.environ.setdefault("ORDO_BUILD", str(bindir.parent))
    recs = run_ordo("regcost", *TINY, "--iters", "2", "--variant", "dynamic", "--size", "4096")
    assert sorted(r["variant"] for r in recs) == ["dynamic", "dynamic-detach"]
    assert all(r["value"] is not None and r["value"] > 0 and "skipped" not in r for r in recs)


def test_validator_refuses_bad_records(bindir):
    os.environ.setdefault("ORDO_BUILD", str(bindir.parent))
    good = run_ordo("latency", *TINY, "--iters", "50", "--size", "8")[0]
    validate(copy.deepcopy(good))
    for field, value, words in (("schema", "ordo-bench/0", "unknown schema"),
                                ("metric", "latency_ms", "metric"),
                                ("order", "loose", "order"),
                                ("np", 0, "np"),
                                ("samples", [], "samples"),
                                ("value", None, "skipped")):
        bad = copy.deepcopy(good)
        bad[field] = value
        with pytest.raises(BenchError, match=words):
            validate(bad)
    bad = copy.deepcopy(good)
    del bad["env"]
    with pytest.raises(BenchError, match="env"):
        validate(bad)
    for field in ("iters", "build", "timestamp"):
        bad = copy.deepcopy(good)
        del bad[field]
        with pytest.raises(BenchError, match=field):
            validate(bad)


def test_json_strings_are_escaped(bindir, monkeypatch):
    """A recorded setting holding quotes, a tab and a newline (as MPICH's version
    string holds tabs) is written as valid JSON and read back unchanged."""
    os.environ.setdefault("ORDO_BUILD", str(bindir.parent))
    odd = 'a"b\\c\td\ne'
    (r,) = run_ordo("latency", *TINY, "--iters", "20", env={"UCX_TLS": odd})
    assert r["env"]["settings"]["UCX_TLS"] == odd
