"""ordo's MPI library against the standard: the generated prototypes and
stubs are current (scripts/gen_mpi_abi.py --check, from the MPI Forum's
machine-readable standard), the library exports exactly the standard's C
functions as MPI_ and PMPI_ symbols (each MPI_ weak, so a profiler can
interpose), and every constant and handle of our <mpi.h> has the value
MPICH's standard-ABI header gives it (two implementations of one ABI)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MPICH_ABI_H = ROOT / ".peers" / "mpich5" / "include" / "mpi_abi.h"


def _build() -> Path:
    return Path(os.environ.get("ORDO_BUILD", ROOT / "build")).resolve()


def _library() -> Path:
    lib = _build() / "lib" / "libmpi_abi.so.1"
    if not lib.exists():
        pytest.skip(f"{lib} is not built")
    return lib


def test_generated_files_are_current():
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_mpi_abi.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def _symbols(lib: Path) -> dict[str, str]:
    out = subprocess.run(["nm", "-D", "--defined-only", str(lib)], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = parts[1]
    return syms


def test_exports_are_the_standard_functions():
    syms = _symbols(_library())
    proto = (ROOT / "include" / "ordo-mpi" / "mpi_proto.h").read_text()
    standard = set(re.findall(r"\b(P?MPI_\w+)\(", proto))
    exported = {s for s in syms if s.startswith(("MPI_", "PMPI_"))}
    assert exported == standard, (sorted(exported - standard)[:10],
                                  sorted(standard - exported)[:10])
    # nothing else leaks out of the library
    assert not [s for s in syms if not s.startswith(("MPI_", "PMPI_", "_"))]
    for name in standard:
        if name.startswith("MPI_"):
            assert syms[name] == "W", f"{name} is not weak"
            assert syms["P" + name] == "T", f"P{name} is not a strong definition"


def _constants(header: str, defines: list[str]) -> str:
    """A program printing the value of each name, as header defines it."""
    src = "#include <stdio.h>\n#include <stdint.h>\n" + header + "\nint main(void){\n"
    for d in defines:
        src += f'printf("{d} %lld\\n", (long long)(intptr_t)({d}));\n'
    src += "return 0;}\n"
    return src


def test_constants_match_mpich_abi(tmp_path):
    if not MPICH_ABI_H.exists():
        pytest.skip("MPICH 5's standard-ABI header is not installed (scripts/deps.sh test)")
    ours = (ROOT / "include" / "ordo-mpi" / "mpi.h").read_text()
    names = sorted(set(re.findall(r"^#define (MPI_[A-Z0-9_]+)\s+\S", ours, re.M)) |
                   set(re.findall(r"^\s+(MPI_[A-Z0-9_]+)\s+=", ours, re.M)))
    names = [n for n in names if n not in ("MPI_VERSION", "MPI_SUBVERSION")]
    values = {}
    for tag, include in (("ours", f'#include "{ROOT}/include/ordo-mpi/mpi.h"'),
                         ("mpich", f'#include "{MPICH_ABI_H}"')):
        c = tmp_path / f"{tag}.c"
        c.write_text(_constants(include, names))
        exe = tmp_path / tag
        subprocess.run(["cc", "-std=c11", "-w", str(c), "-o", str(exe)], check=True)
        out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
        values[tag] = dict(line.split() for line in out.splitlines())
    differ = {n: (values["ours"][n], values["mpich"][n]) for n in names
              if values["ours"][n] != values["mpich"][n]}
    assert not differ, differ
    assert len(names) > 300
