"""The runner: a program past its time limit is killed with every process
of its launch (launcher, ranks, their children), nothing is left running,
and the records carry the command that launched them."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from ordo_bench.cli import main
from ordo_bench.runner import BenchError, launch, run_ordo


def _alive(pids):
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    out.append(pid)
        except OSError:
            pass
    return out


def test_a_hanging_program_is_killed_with_its_children(tmp_path):
    pidfile = tmp_path / "pids"
    # a "launcher" whose "ranks" ignore SIGTERM and never end
    script = (f"trap '' TERM; (trap '' TERM; echo $BASHPID >> {pidfile}; "
              f"while :; do sleep 0.1; done) & echo $$ >> {pidfile}; wait")
    t0 = time.monotonic()
    with pytest.raises(BenchError, match="did not finish in 1 s"):
        launch(["bash", "-c", script], timeout=1, name="hang")
    assert time.monotonic() - t0 < 15
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pids) == 2
    assert _alive(pids) == []


def test_processes_left_by_a_launcher_that_exited_are_killed(tmp_path):
    pidfile = tmp_path / "pids"
    res = launch(["bash", "-c", f"(sleep 300 & echo $! > {pidfile}); exit 0"], timeout=30)
    assert res.returncode == 0
    assert _alive([int(pidfile.read_text())]) == []


@pytest.mark.parametrize("impl", ["openmpi", "mpich"])
def test_a_hanging_mpi_job_leaves_no_rank_behind(impl, tmp_path):
    mpirun = shutil.which(f"mpirun.{impl}")
    if mpirun is None:
        pytest.fail(f"mpirun.{impl} is not installed: make test installs it")
    cmd = [mpirun, "-n", "2"] + (["--allow-run-as-root", "--oversubscribe"]
                                 if impl == "openmpi" else [])
    marker = f"ordo-hang-{os.getpid()}-{impl}"
    with pytest.raises(BenchError, match="did not finish"):
        launch(cmd + ["bash", "-c", f"exec -a {marker} sleep 300"], timeout=3)
    time.sleep(0.5)
    left = [p for p in os.listdir("/proc") if p.isdigit() and _alive([int(p)])
            and marker in _cmdline(p)]
    assert left == []


def _cmdline(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_records_carry_their_launch_command_and_build(bindir):
    os.environ.setdefault("ORDO_BUILD", str(bindir.parent))
    (r,) = run_ordo("latency", "--trials", "2", "--iters", "50", "--warmup", "5")
    assert r["launch"][0].endswith("ordorun") and r["launch"][-6:] == [
        "--trials", "2", "--iters", "50", "--warmup", "5"]
    assert r["iters"] == 50 and r["warmup"] == 5 and r["stats"]["trials"] == 2
    assert r["build"]["commit"] and r["build"]["compiler"] and r["timestamp"].endswith("Z")
    assert len(r["env"]["bindings"]) == 2


@pytest.mark.parametrize("args,what", [
    (["--np", "0"], "--np"), (["--order", "bogus"], "--order"), (["--sizes", "-5"], "--sizes"),
    (["--sizes", "8,x"], "--sizes"), (["--window", "0"], "--window"),
    (["--timeout", "0"], "--timeout"), (["--launches", "0"], "--launches")])
def test_bad_run_options_are_refused_by_name(args, what, capsys):
    with pytest.raises(SystemExit) as e:
        main(["run", "latency", *args])
    assert e.value.code == 2
    assert what in capsys.readouterr().err


def test_mpich_pairs_span_two_cores_when_oversubscribed():
    from ordo_bench.runner import _mpich_binding
    assert _mpich_binding(2, 2) == "core" and _mpich_binding(16, 16) == "core"
    where = [int(c) for c in _mpich_binding(4, 2).removeprefix("user:").split(",")]
    assert where == [0, 1, 1, 0]
    where = [int(c) for c in _mpich_binding(8, 2).removeprefix("user:").split(",")]
    assert all(where[i] != where[i + 4] for i in range(4))      # rank i and its partner
    assert _mpich_binding(3, 2) == "core"                        # no pairs: round-robin


def test_records_give_the_counts_the_program_ran(bindir):
    """OSU's counts when none are given: 10000 after 100 up to 8 KiB, 1000
    after 10 above (osu_latency); a program that scales its count by size
    records the scaled one."""
    os.environ.setdefault("ORDO_BUILD", str(bindir.parent))
    (small,) = run_ordo("latency", "--trials", "2", "--size", "8")
    (large,) = run_ordo("latency", "--trials", "2", "--size", "65536")
    assert (small["iters"], small["warmup"]) == (10000, 100)
    assert (large["iters"], large["warmup"]) == (1000, 10)
    recs = run_ordo("fig2", "--trials", "2", "--iters", "1000", "--window", "4",
                    "--size", "1048576")
    assert recs and all(r["iters"] < 1000 for r in recs)


def test_nodes_run_ordo_over_its_network_and_record_it(bindir):
    """--nodes 2: ordorun splits the ranks; the records say where the data
    went (ordo's transport to the last rank) and over how many nodes."""
    os.environ.setdefault("ORDO_BUILD", str(bindir.parent))
    (r,) = run_ordo("latency", "--trials", "2", "--iters", "50", "--warmup", "5",
                    "--size", "8", nodes=2)
    assert r["launch"][1:3] == ["--nodes", "2"]
    assert r["env"]["nodes"] == 2
    assert r["env"]["transport"].startswith("ofi ")
    (one,) = run_ordo("latency", "--trials", "2", "--iters", "50", "--warmup", "5",
                      "--size", "8")
    assert one["env"]["nodes"] == 1 and one["env"]["transport"] == "shm"


def test_nodes_force_the_mpis_onto_tcp(monkeypatch):
    """The network settings win over a job's own (osc/sm would map the
    peers' memory), and the records name the path."""
    from ordo_bench import runner
    seen = {}

    def fake_launch(cmd, env, timeout, name):
        seen["env"] = env
        return runner.Launch(cmd, 0, "", "")

    monkeypatch.setattr(runner, "launch", fake_launch)
    monkeypatch.setattr(runner, "mpi_command", lambda impl, program, *a, np=2, nodes=1: ["mpirun"])
    runner.run_mpi("openmpi", "put_rate", env={"OMPI_MCA_osc": "sm,pt2pt"}, nodes=2)
    assert seen["env"]["OMPI_MCA_btl"] == "self,tcp" and seen["env"]["OMPI_MCA_osc"] == "pt2pt"
    runner.run_mpi("mpich", "latency", nodes=2)
    assert seen["env"]["UCX_TLS"] == "tcp,self"
    runner.run_mpi("openmpi", "put_rate", env={"OMPI_MCA_osc": "sm,pt2pt"})
    # one node: the job's setting, and the components Open MPI's defaults end up with
    assert seen["env"] == {"OMPI_MCA_osc": "sm,pt2pt", "OMPI_MCA_pml": "ob1",
                           "OMPI_MCA_btl": "self,vader"}


def test_network_experiments_need_nodes():
    from ordo_bench.experiments import select
    ids = {e.id for e in select(None, "paper")}
    assert "lanes" not in ids and "bounce" not in ids
    ids = {e.id for e in select(None, "paper", nodes=2)}
    assert {"lanes", "bounce", "put_batch"} <= ids


def _shmem_record():
    """A record as shmem_ops.openmpi-shmem printed it (fixtures), one line."""
    import json
    from pathlib import Path
    path = Path(__file__).with_name("fixtures") / "openmpi_shmem_record.json"
    return json.dumps(json.loads(path.read_text()))


@pytest.mark.parametrize("markers, records, status, kept", [
    (2, True, 139, True),     # shmem_finalize crashed after every PE measured
    (2, True, 0, True),       # finalize did not crash
    (1, True, 139, False),    # one PE never got there: a failure mid-run
    (2, False, 139, False),   # nothing printed: a failure, whatever was said
])
def test_openshmem_records_survive_a_finalize_crash_only(monkeypatch, markers, records,
                                                         status, kept):
    """Open MPI's shmem_finalize crashes here after the records are out: the
    runner keeps them only when every PE said it had measured first, and
    only for the programs built with an MPI's OpenSHMEM."""
    from ordo_bench import runner
    out = _shmem_record() + "\n" if records else ""
    err = (runner.FINALIZING + "\n") * markers + "Segmentation fault\n"

    monkeypatch.setattr(runner, "launch",
                        lambda cmd, env, timeout, name: runner.Launch(cmd, status, out, err))
    monkeypatch.setattr(runner, "mpi_command", lambda impl, program, *a, np=2, nodes=1: ["oshrun"])
    if kept:
        recs = runner.run_mpi("openmpi", "shmem_ops", np=2)
        assert len(recs) == 1 and recs[0]["impl"] == "openmpi-shmem"
    else:
        with pytest.raises(BenchError, match="failed with status 139"):
            runner.run_mpi("openmpi", "shmem_ops", np=2)
    if status:
        # an MPI program (built with mpicc) never gets that leniency
        with pytest.raises(BenchError, match="failed with status"):
            runner.run_mpi("openmpi", "put_rate", np=2)


def test_openshmem_builds_run_under_oshrun():
    from ordo_bench import runner
    path, launcher = runner.mpi_binary("openmpi", "shmem_ops")
    assert path.name == "shmem_ops.openmpi-shmem" and launcher == "oshrun"
    path, launcher = runner.mpi_binary("mpich", "latency")
    assert path.name == "latency.mpich" and Path(launcher).name == "mpirun.mpich"
