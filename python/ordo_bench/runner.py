"""Run benchmark programs and collect their JSON lines."""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import mpis

SCHEMA = "ordo-bench/1"
SCHEMA_FILE = Path(__file__).with_name("ordo-bench-1.schema.json")
REQUIRED = ("schema", "experiment", "impl", "paradigm", "variant", "order", "np", "pairs",
            "window", "size", "metric", "unit", "value", "stats", "samples", "env")


class BenchError(Exception):
    """A program or peer could not be run; the message says which and why."""


def build_dir() -> Path:
    return Path(os.environ.get("ORDO_BUILD", Path(__file__).resolve().parents[2] / "build"))


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema
    schema = json.loads(SCHEMA_FILE.read_text())
    return jsonschema.Draft202012Validator(schema)


def validate(record: dict) -> dict:
    """The record, if it conforms to ordo-bench-1.schema.json; else a
    BenchError naming the first field that does not."""
    if record.get("schema") != SCHEMA:
        raise BenchError(f"unknown schema {record.get('schema')!r} (this ordo-bench reads "
                         f"{SCHEMA})")
    err = next(iter(_validator().iter_errors(record)), None)
    if err is not None:
        where = "/".join(str(p) for p in err.absolute_path) or "record"
        raise BenchError(f"{where}: {err.message} (experiment {record.get('experiment')}, "
                         f"impl {record.get('impl')})")
    return record


# Seconds a program may run per point unless the suite or --timeout says
# otherwise.
DEFAULT_TIMEOUT = 120.0


def _session_pids(sid: int) -> list[int]:
    """Every live process of session sid (the launcher's, started with
    start_new_session): its ranks, and its daemons unless they left it."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # the fields after the command name (which may hold spaces and parens)
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 3 and int(fields[3]) == sid and fields[0] != "Z":
            pids.append(int(entry.name))
    return pids


def _kill_session(sid: int, grace: float = 2.0) -> None:
    """SIGTERM to every process of the session, SIGKILL to what is left
    after grace seconds."""
    pids = _session_pids(sid)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace
        while pids and time.monotonic() < deadline:
            time.sleep(0.05)
            pids = _session_pids(sid)
        if not pids:
            break


@dataclass
class Launch:
    """What one launch of a program printed, and how it ended."""
    cmd: list[str]
    returncode: int
    stdout: str
    stderr: str


def _reader(stream, into: list[str]) -> threading.Thread:
    t = threading.Thread(target=lambda: into.append(stream.read()), daemon=True)
    t.start()
    return t


def launch(cmd: list[str], env: dict | None = None, timeout: float = DEFAULT_TIMEOUT,
           name: str | None = None) -> Launch:
    """Run cmd (a launcher and its ranks) in a session of its own.  Past
    timeout seconds, or as soon as the launcher exits, every process left in
    that session is killed, so that nothing of a run stays behind (and a
    rank left running cannot hold the output open); a time-out is a
    BenchError naming the program and the limit."""
    name = name or Path(cmd[0]).name
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", env=dict(os.environ, **(env or {})),
                            start_new_session=True, stdin=subprocess.DEVNULL)
    out: list[str] = []
    err: list[str] = []
    readers = (_reader(proc.stdout, out), _reader(proc.stderr, err))
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        _kill_session(proc.pid, grace=2.0 if timed_out else 1.0)
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for t in readers:
            t.join(timeout=5)   # a process that left the session may hold a pipe
    stdout, stderr = "".join(out), "".join(err)
    if timed_out:
        raise BenchError(f"{name} did not finish in {timeout:.0f} s: its launcher and ranks "
                         f"were killed\n{stderr.strip()[-4000:]}")
    return Launch(cmd, proc.returncode, stdout, stderr)


# Programs an MPI builds with its own OpenSHMEM compiler (oshcc) instead of
# its mpicc: the binary's suffix and the launcher that runs it.
OSHMEM_BUILDS = {("shmem_ops", "openmpi"): ("openmpi-shmem", "oshrun")}
# What such a program prints on stderr, once per PE, after its records and
# before shmem_finalize (bench/bench_shmem.h): Open MPI's shmem_finalize
# crashes on this machine's UCX (SIGSEGV) once the measuring is done, which
# the runner then tells from a failure during the measurement.
FINALIZING = "bench: measured; shmem_finalize next"


def mpi_binary(impl: str, program: str) -> tuple[Path, str]:
    """The build of program for impl, and the launcher that runs it (a
    name on PATH or a path; "" when impl has no build at all)."""
    if (program, impl) in OSHMEM_BUILDS:
        suffix, launcher = OSHMEM_BUILDS[(program, impl)]
        return build_dir() / "bin" / f"{program}.{suffix}", launcher
    mpi = mpis.available(build_dir()).get(impl)
    default = f"mpirun.{impl}" if impl in ("openmpi", "mpich") else ""   # as mpis._debian
    return build_dir() / "bin" / f"{program}.{impl}", mpi.launcher if mpi else default


def _records(res: Launch, name: str, nodes: int = 1, transport: str | None = None,
             finalize_crash_np: int = 0) -> list[dict]:
    """The launch's records.  finalize_crash_np: a failed exit is let pass
    when that many PEs said they had measured (FINALIZING) before it."""
    crashed_late = finalize_crash_np and res.stderr.count(FINALIZING) >= finalize_crash_np
    if res.returncode != 0 and not crashed_late:
        raise BenchError(f"{name} failed with status {res.returncode}:\n{res.stderr.strip()}")
    recs = [validate(json.loads(line)) for line in res.stdout.splitlines()
            if line.startswith("{")]
    if res.returncode != 0 and not recs:
        raise BenchError(f"{name} failed with status {res.returncode} before any record:\n"
                         f"{res.stderr.strip()}")
    congestion = tcp_congestion() if nodes > 1 else None
    for r in recs:
        r["launch"] = res.cmd
        r["env"]["nodes"] = nodes
        if transport and not r["env"].get("transport"):
            r["env"]["transport"] = transport
        if congestion:
            r["env"]["tcp_congestion"] = congestion
    return recs


def tcp_congestion() -> str | None:
    """The kernel's TCP congestion control, which paces the --nodes runs'
    loopback connections: with bbr, a stream of 256 KiB puts over one
    connection here switched between two rates (0.011 and 0.025 M puts/s)
    within a launch; with cubic it held 0.024-0.025."""
    try:
        return Path("/proc/sys/net/ipv4/tcp_congestion_control").read_text().strip() or None
    except OSError:
        return None


# What can start ordo's programs (--launcher): ordorun, or the launcher of
# a site, which ordo joins through PMIx (Open MPI's mpirun, srun) or PMI-1
# (MPICH's Hydra).  srun runs on a single-node Slurm started for the launch
# (tests/launch/slurm.sh: root, slurm-wlm and munge).
LAUNCHERS = ("ordorun", "mpirun", "mpiexec", "srun")
# Each MPI under its own launcher
MPI_LAUNCHER = {"openmpi": "mpirun", "mpich": "mpiexec", "ordo": "ordorun"}
SLURM_SH = Path(__file__).resolve().parents[2] / "tests" / "launch" / "slurm.sh"


def ordo_command(program: str, *args: str, np: int = 2, nodes: int = 1,
                 launcher: str = "ordorun") -> list[str]:
    """The command that runs bin/<program> under launcher; under the sites'
    launchers ORDO_NODES (ordo_env) stands for ordorun's --nodes."""
    bindir = build_dir() / "bin"
    exe = [str(bindir / program), *args]
    if launcher == "ordorun":
        split = ["--nodes", str(nodes)] if nodes > 1 else []
        return [str(bindir / "ordorun"), *split, "-n", str(np), *exe]
    if launcher == "mpirun":
        return mpi_command("openmpi", program, *args, np=np, exe=exe)
    if launcher == "mpiexec":
        return mpi_command("mpich", program, *args, np=np, exe=exe)
    if launcher == "srun":
        return srun_command(np, "pmix", exe)
    raise BenchError(f"unknown launcher '{launcher}' (one of {', '.join(LAUNCHERS)})")


def srun_command(np: int, mpi: str, exe: list[str]) -> list[str]:
    """exe under srun --mpi=<mpi> on a single-node Slurm started for it."""
    if shutil.which("srun") is None:
        raise BenchError("--launcher srun: Slurm is not installed (apt-get install "
                         "slurm-wlm munge)")
    return [str(SLURM_SH), "srun", f"--mpi={mpi}", "-n", str(np), *exe]


def run_ordo(program: str, *args: str, np: int = 2, env: dict | None = None,
             timeout: float = DEFAULT_TIMEOUT, nodes: int = 1,
             launcher: str = "ordorun") -> list[dict]:
    """Run bin/<program> under launcher (its ranks in `nodes` groups that
    share no memory); return its validated records, each with the exact
    command that launched it, the node count and the launcher."""
    if launcher != "ordorun" and nodes > 1:
        env = {**(env or {}), "ORDO_NODES": str(nodes)}
    res = launch(ordo_command(program, *args, np=np, nodes=nodes, launcher=launcher), env,
                 timeout, program)
    recs = _records(res, program, nodes)
    for r in recs:
        r["env"]["launcher"] = launcher
    return recs


# The MPIs' network paths, for runs that stand for several nodes (--nodes):
# no shared memory between ranks, everything (one-sided included) over TCP
# (mpis.Mpi.network_env).  They override a job's own settings of the same
# names (the one-sided jobs' OMPI_MCA_osc=sm,pt2pt: osc/sm would map the
# peers' memory).


def mpi_command(impl: str, program: str, *args: str, np: int = 2,
                exe: list[str] | None = None, nodes: int = 1) -> list[str]:
    """The command that runs bin/<program>.<impl> (the same source built with
    mpicc.<impl>, or with its oshcc: OSHMEM_BUILDS; or exe, an ordo program)
    under that MPI's own mpirun (oshrun), ranks bound to cores as ordorun
    binds them."""
    path, launcher = mpi_binary(impl, program)
    mpirun = shutil.which(launcher) if launcher else None
    if mpirun is None or (exe is None and not path.exists()):
        raise BenchError(f"{impl}: {launcher or 'its launcher'} or {path.name} missing (install "
                         "the MPI and rebuild: its compiler wrapper builds the benchmark)")
    cmd = [mpirun, "-n", str(np)]
    mpi = mpis.available(build_dir()).get(impl)
    family = "openmpi" if launcher == "oshrun" else mpi.family if mpi else impl
    if family == "ordo":
        # ordo's MPI: ordorun binds and spreads its ranks as for ordo
        if nodes > 1:
            cmd += ["--nodes", str(nodes)]
    elif family == "openmpi":
        # more ranks than cores: Open MPI refuses unless told, then binds
        # round-robin as ordorun does (the report flags such figures)
        if np > (os.cpu_count() or 1):
            cmd += ["--oversubscribe", "--bind-to", "core:overload-allowed"]
        else:
            cmd += ["--bind-to", "core"]
        if os.geteuid() == 0:
            cmd += ["--allow-run-as-root"]
    elif family == "impi":
        pass   # Intel MPI pins one rank per core by itself (I_MPI_PIN)
    else:
        cmd += ["-bind-to", _mpich_binding(np, os.cpu_count() or 1)]
    return cmd + (exe if exe is not None else [str(path), *args])


def mpi_env(impl: str, env: dict | None, nodes: int = 1) -> tuple[dict, str | None]:
    """What a run of impl's build needs: the MPI's own environment, the
    job's settings where they apply to it, and on --nodes its TCP path
    (overriding the job's); with the transport to record, if forced."""
    mpi = mpis.available(build_dir()).get(impl)
    out = dict(mpi.env) if mpi else {}
    out.update({k: v for k, v in (env or {}).items() if mpi is None or mpi.takes(k)})
    transport = None
    if nodes > 1 and mpi:
        out.update(mpi.network_env())
        transport = mpi.network_transport()
    elif mpi:
        out = {**mpi.local_env(), **out}   # the job's own settings win
    return out, transport


def _mpich_binding(np: int, cores: int) -> str:
    """Hydra's -bind-to for np ranks.  One rank per core while they fit.
    Beyond, MPICH (ch4:ucx) busy-polls without ever yielding, so a rank that
    waits for a partner on its own core waits a scheduler tick (ms) per
    message: the programs pair rank i with rank i + np/2, and each pair is
    put across two cores instead of round-robin onto one."""
    if np <= cores or cores < 2 or np % 2:
        return "core"
    half = np // 2
    where = [i % cores for i in range(half)] + [(i + 1) % cores for i in range(half)]
    return "user:" + ",".join(map(str, where))


# How srun starts each MPI: Open MPI through PMIx, MPICH (Hydra's PMI
# client) through Slurm's PMI-2
SRUN_MPI = {"openmpi": "pmix", "mpich": "pmi2"}


def run_mpi(impl: str, program: str, *args: str, np: int = 2, env: dict | None = None,
            timeout: float = DEFAULT_TIMEOUT, nodes: int = 1,
            launcher: str | None = None) -> list[dict]:
    """Run bin/<program>.<impl> under mpirun.<impl> (or, with launcher
    "srun", under srun like ordo); return its validated records, each with
    the exact command that launched it.  With nodes > 1 the MPI is forced
    onto its TCP path (mpis.Mpi.network_env), as ordo is onto its network
    transport."""
    path, _ = mpi_binary(impl, program)
    name = path.name
    env, transport = mpi_env(impl, env, nodes)
    if launcher == "srun":
        family = getattr(mpis.available(build_dir()).get(impl), "family", impl)
        cmd = srun_command(np, SRUN_MPI.get(family, "pmix"), [str(path), *args])
    else:
        # recorded as the kind of launcher (the command has its path)
        family = getattr(mpis.available(build_dir()).get(impl), "family", impl)
        launcher = MPI_LAUNCHER.get(family, "mpiexec")
        cmd = mpi_command(impl, program, *args, np=np, nodes=nodes)
    res = launch(cmd, env, timeout, name)
    recs = _records(res, name, nodes, transport,
                    finalize_crash_np=np if (program, impl) in OSHMEM_BUILDS else 0)
    for r in recs:
        r["env"]["launcher"] = launcher
    return recs


_IDENTITY = ("experiment", "impl", "paradigm", "variant", "order", "np", "pairs", "window",
             "size", "metric")


def merge_launches(batches: list[list[dict]]) -> list[dict]:
    """One record per point from the records of several launches of one
    program: samples pooled (sample_launches says which launch each came
    from), statistics recomputed as the C harness computes them, value the
    median of all.  A point one launch skipped stays skipped."""
    import numpy as np
    merged: dict[tuple, dict] = {}
    for k, batch in enumerate(batches):
        for r in batch:
            key = tuple(r.get(f) for f in _IDENTITY)
            if key not in merged:
                m = merged[key] = dict(r)
                m["samples"], m["sample_launches"] = [], []
            m = merged[key]
            if r.get("value") is None:
                continue
            m["samples"] = m["samples"] + list(r["samples"])
            m["sample_launches"] = m["sample_launches"] + [k] * len(r["samples"])
    out = []
    for m in merged.values():
        if not m["samples"]:
            m.pop("sample_launches")
            out.append(m)
            continue
        s = np.asarray(m["samples"], float)
        m["value"] = float(np.median(s))
        m["stats"] = {"median": m["value"], "min": float(s.min()), "max": float(s.max()),
                      "mean": float(s.mean()), "p99": float(np.percentile(s, 99)),
                      "trials": len(s)}
        m["launches"] = len(set(m["sample_launches"]))
        m.pop("skipped", None)
        out.append(validate(m))
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ucx_perftest(test: str, size: int, iters: int, window: int = 1,
                     timeout: float = 120) -> float:
    """One ucx_perftest measurement over loopback on this machine: returns the
    'Final' value (latency in us for *_lat tests, message rate in msg/s for
    *_bw tests).  ucx_perftest has no machine-readable output, so its fixed
    'Final:' table row is read by column."""
    exe = shutil.which("ucx_perftest")
    if exe is None:
        raise BenchError("ucx_perftest not found (Debian package ucx-utils)")
    out = None
    for _attempt in range(5):
        port = _free_port()
        server = subprocess.Popen([exe, "-p", str(port)], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            # The server accepts exactly one connection, so it is not probed:
            # give it time to listen, and start again if the client was early.
            time.sleep(0.5)
            cmd = [exe, "-p", str(port), "127.0.0.1", "-t", test, "-s", str(size),
                   "-n", str(iters), "-w", str(max(1, iters // 10))]
            if window > 1:
                cmd += ["-O", str(window)]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        finally:
            server.kill()
            server.wait()
        if "Final:" in out.stdout:
            break
    for line in out.stdout.splitlines():
        if line.startswith("Final:"):
            cols = line.split()
            # Final: iters lat50 lat_avg lat_overall bw_avg bw_overall rate_avg rate_overall
            return float(cols[3]) if test.endswith("_lat") else float(cols[8])
    raise BenchError(f"ucx_perftest {test} printed no result:\n{out.stderr.strip()[-2000:]}")
