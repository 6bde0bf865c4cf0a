"""ordo under the sites' launchers (Open MPI's mpirun through PMIx, MPICH's
Hydra through PMI-1): a killed rank ends the job, and the descriptor service
that replaces ordorun's descriptor passing answers no stranger and leaves
nothing behind."""

from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

RUN_WITH = Path(__file__).resolve().parents[1] / "launch" / "run_with.sh"
LAUNCHERS = [pytest.param(name, marks=pytest.mark.skipif(
    shutil.which(f"mpirun.{name}") is None, reason=f"mpirun.{name} is not installed "
    "(make test installs it)")) for name in ("openmpi", "mpich")]


def start(bindir: Path, launcher: str, np: int, *args: str) -> subprocess.Popen:
    return subprocess.Popen([str(RUN_WITH), launcher, str(np), str(bindir / "launcher_probe"),
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def service_sockets() -> dict[str, int]:
    """Abstract sockets of ordo's descriptor services: name -> pid."""
    out = {}
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        m = re.search(r"@(ordo\.(\d+)\.[0-9a-f]{16})$", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_a_killed_rank_ends_the_job(bindir, launcher):
    t0 = time.monotonic()
    job = start(bindir, launcher, 2, "die", "1", "9")
    try:
        job.wait(timeout=60)
    finally:
        if job.poll() is None:
            job.kill()
    assert job.returncode != 0
    assert time.monotonic() - t0 < 60


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_ordo_abort_ends_the_job(bindir, launcher):
    # PMIx_Abort under Open MPI's mpirun, PMI's abort under MPICH's mpiexec
    t0 = time.monotonic()
    job = start(bindir, launcher, 3, "abort", "1", "7")
    try:
        out, err = job.communicate(timeout=60)
    finally:
        if job.poll() is None:
            job.kill()
    assert job.returncode != 0, err
    # nobody was released: a survivor may see the launcher go before it is
    # ended (its barrier then fails, as it must), never a barrier that passed
    assert "barrier: success" not in out, out
    assert time.monotonic() - t0 < 60


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_ordo_timeout_ends_the_job_inside(bindir, launcher, monkeypatch):
    # no ordorun to keep the time: each rank keeps ORDO_TIMEOUT itself, and
    # those waiting in ordo name their call before the launcher ends the job
    monkeypatch.setenv("ORDO_TIMEOUT", "1.5")
    t0 = time.monotonic()
    job = start(bindir, launcher, 3, "stuck", "1")
    try:
        out, err = job.communicate(timeout=60)
    finally:
        if job.poll() is None:
            job.kill()
    assert job.returncode == 124, err
    assert time.monotonic() - t0 < 30
    for rank in (0, 2):
        assert re.search(rf"rank {rank}\] error: ORDO_TIMEOUT=1.5: .* waited inside ordo_recv",
                         err), err


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_descriptor_service_answers_no_stranger_and_vanishes(bindir, launcher):
    before = set(service_sockets())
    job = start(bindir, launcher, 2, "wait")
    try:
        ready = set()
        deadline = time.monotonic() + 60
        while len(ready) < 2 and time.monotonic() < deadline:
            line = job.stdout.readline()
            if not line:
                break
            if line.startswith("ready "):
                ready.add(line.split()[1])
        assert ready == {"0", "1"}, job.stderr.read() if job.poll() is not None else ""
        mine = {n: p for n, p in service_sockets().items() if n not in before}
        assert len(mine) == 2
        for name in mine:
            with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as s:
                s.settimeout(10)
                s.connect("\0" + name)
                try:
                    s.send(b"ordo.shm.mbox.0\0")
                    data, fds, _, _ = socket.recv_fds(s, 64, 4)
                except (ConnectionResetError, BrokenPipeError):
                    data, fds = b"", []         # hung up on us, our request unread
                assert data == b"" and fds == [], f"{name} answered a stranger"
    finally:
        job.send_signal(signal.SIGTERM)
        try:
            job.wait(timeout=30)
        except subprocess.TimeoutExpired:
            job.kill()
            job.wait()
    time.sleep(0.5)
    assert not (set(service_sockets()) - before), "a descriptor service outlived its job"


@pytest.mark.parametrize("launcher,command", [
    pytest.param("mpirun", "mpirun.openmpi", marks=pytest.mark.skipif(
        shutil.which("mpirun.openmpi") is None, reason="mpirun.openmpi is not installed")),
    pytest.param("mpiexec", "mpirun.mpich", marks=pytest.mark.skipif(
        shutil.which("mpirun.mpich") is None, reason="mpirun.mpich is not installed"))])
def test_bench_runs_ordo_under_a_sites_launcher(bindir, tmp_path, monkeypatch, launcher,
                                                command):
    """ordo-bench --launcher: ordo's start-up measured under mpirun or mpiexec,
    its records saying which launcher started them."""
    import json

    from ordo_bench.cli import main
    monkeypatch.setenv("ORDO_BUILD", str(bindir.parent.resolve()))
    out = tmp_path / "run"
    assert main(["run", "startup", "--impl", "ordo", "--launcher", launcher, "--launches", "1",
                 "--out", str(out)]) == 0
    recs = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {r["variant"] for r in recs} == {"init", "init-to-first-barrier", "finalize (rank 0)"}
    assert {r["np"] for r in recs} == {2, 4}
    assert all(r["env"]["launcher"] == launcher and Path(r["launch"][0]).name == command
               for r in recs)
    assert all(0 < r["value"] < 60e6 for r in recs)


def test_malformed_ordo_timeout_is_refused_by_name(bindir, monkeypatch):
    # a rank on its own (no launcher) keeps ORDO_TIMEOUT itself, so it checks it
    monkeypatch.setenv("ORDO_TIMEOUT", "soon")
    job = subprocess.run([str(bindir / "launcher_probe"), "ok"], capture_output=True, text=True,
                         timeout=60)
    assert job.returncode != 0
    assert "ORDO_TIMEOUT=soon" in job.stderr, job.stderr
