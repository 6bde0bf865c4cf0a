"""Run benchmark programs and collect their JSON lines."""

from __future__ import annotations

import functools
import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

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


def run_ordo(program: str, *args: str, np: int = 2, env: dict | None = None,
             timeout: float = 300) -> list[dict]:
    """Run bin/<program> under ordorun; return its validated records."""
    bindir = build_dir() / "bin"
    cmd = [str(bindir / "ordorun"), "-n", str(np), str(bindir / program), *args]
    full_env = dict(os.environ, **(env or {}))
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=full_env)
    except subprocess.TimeoutExpired as e:
        raise BenchError(f"{program} did not finish in {timeout:.0f} s") from e
    if out.returncode != 0:
        raise BenchError(f"{program} failed with status {out.returncode}:\n{out.stderr.strip()}")
    return [validate(json.loads(line)) for line in out.stdout.splitlines() if line.startswith("{")]


def run_mpi(impl: str, program: str, *args: str, np: int = 2, env: dict | None = None,
            timeout: float = 300) -> list[dict]:
    """Run bin/<program>.<impl> (the same source built with mpicc.<impl>)
    under that MPI's own mpirun, ranks bound to cores as ordorun binds them."""
    exe = build_dir() / "bin" / f"{program}.{impl}"
    mpirun = shutil.which(f"mpirun.{impl}")
    if mpirun is None or not exe.exists():
        raise BenchError(f"{impl}: mpirun.{impl} or {exe.name} missing (install the MPI and "
                         "rebuild: its mpicc builds the benchmark)")
    cmd = [mpirun, "-n", str(np)]
    if impl == "openmpi":
        # more ranks than cores: Open MPI refuses unless told, then binds
        # round-robin as ordorun does (the report flags such figures)
        if np > (os.cpu_count() or 1):
            cmd += ["--oversubscribe", "--bind-to", "core:overload-allowed"]
        else:
            cmd += ["--bind-to", "core"]
        if os.geteuid() == 0:
            cmd += ["--allow-run-as-root"]
    else:
        cmd += ["-bind-to", "core"]
    cmd += [str(exe), *args]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                             env=dict(os.environ, **(env or {})))
    except subprocess.TimeoutExpired as e:
        raise BenchError(f"{exe.name} did not finish in {timeout:.0f} s") from e
    if out.returncode != 0:
        raise BenchError(f"{exe.name} failed with status {out.returncode}:\n{out.stderr.strip()}")
    return [validate(json.loads(line)) for line in out.stdout.splitlines() if line.startswith("{")]


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
