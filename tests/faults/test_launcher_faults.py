"""Faults around the launcher: ranks that die, hang, exit early or never
join, signals, kill -9 of a rank or of ordorun (on one node, across nodes,
in network namespaces), resource limits and bad settings.  Each must end
the job within seconds with the rank and the cause named, leaving nothing
behind in /dev/shm, /tmp, the network or the process table."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import jobs
import pytest


def links() -> str:
    return subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout


def netns_list() -> str:
    return subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="--netns needs root")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV])
def test_killed_rank_ends_job(bindir, sig):
    before = jobs.snapshot()
    t0 = time.monotonic()
    r = jobs.ordorun(bindir, "-n", "3", jobs.probe(bindir), "die", "1", str(int(sig)))
    assert time.monotonic() - t0 < 10
    assert r.returncode == 128 + sig
    assert "rank 1 (pid" in r.stderr and f"killed by signal {int(sig)}" in r.stderr
    assert jobs.snapshot() <= before


def test_first_nonzero_exit_status(bindir):
    t0 = time.monotonic()
    r = jobs.ordorun(bindir, "-n", "3", jobs.probe(bindir), "exit", "2", "7")
    assert time.monotonic() - t0 < 10
    assert r.returncode == 7
    assert "rank 2" in r.stderr and "exited with status 7" in r.stderr


@pytest.mark.parametrize("code,status", [(7, 7), (255, 255), (0, 1), (4096, 1)])
def test_ordo_abort_ends_the_job_with_its_status(bindir, code, status):
    before = jobs.snapshot()
    t0 = time.monotonic()
    r = jobs.ordorun(bindir, "-n", "3", jobs.probe(bindir), "abort", "1", str(code))
    assert time.monotonic() - t0 < 10
    assert r.returncode == status, r.stderr
    assert f"ordo_abort({code}): ending the job with status {status}" in r.stderr, r.stderr
    assert "rank 1 (pid" in r.stderr and f"called ordo_abort({status})" in r.stderr, r.stderr
    assert "barrier: " not in r.stdout   # the others were ended, not released
    assert jobs.snapshot() <= before


def test_exit_without_finalize(bindir):
    r = jobs.ordorun(bindir, "-n", "2", jobs.probe(bindir), "nofinalize", "0")
    assert r.returncode != 0
    assert "rank 0" in r.stderr and "without calling ordo_finalize" in r.stderr


@pytest.mark.parametrize("gone_first", [True, False])
def test_rank_that_never_joins_fails_the_job_at_once(bindir, gone_first):
    # rank 1 ends (status 0) without ordo_init, before or after the others
    # called it: they must not wait for ORDO_BOOT_TIMEOUT (300 s)
    script = (f'if [ "$ORDO_RANK" = 1 ]; then {"" if gone_first else "sleep 1;"} exit 0; fi; '
              f'{"sleep 1;" if gone_first else ""} exec {jobs.probe(bindir)} ok')
    t0 = time.monotonic()
    r = jobs.ordorun(bindir, "-n", "3", "sh", "-c", script, timeout=60)
    assert time.monotonic() - t0 < 20, r.stderr
    assert r.returncode != 0
    assert "rank 1 (pid" in r.stderr and "without calling ordo_init" in r.stderr, r.stderr


def test_barrier_after_a_timed_out_barrier_waits_for_the_late_rank(bindir):
    # rank 1 is 1.6 s late; rank 0's first barrier times out after 1 s, its
    # second must wait for rank 1 (it once counted rank 0 twice and returned
    # at once), and the late reply must not answer a later request
    r = jobs.ordorun(bindir, "-n", "2", jobs.probe(bindir), "late", "1", "1600",
            env={**os.environ, "ORDO_BOOT_TIMEOUT": "1"}, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = dict(ln.split(": ", 1) for ln in r.stdout.splitlines() if ln.startswith("late "))
    first, rest = lines["late 0"].split(", second ")
    assert first == "first timed out", lines
    assert rest.startswith("success after "), lines
    assert int(rest.split(" after ")[1].split()[0]) >= 1500, lines
    assert lines["late 1"].endswith("region ok") and lines["late 0"].endswith("region ok")


def _nofile(soft: int, hard: int):
    import resource

    def set_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return set_limit


def test_descriptor_limit_is_raised_or_named(bindir):
    # 300 ranks need 2 descriptors each and room for their regions': with a
    # hard limit of 256 the launcher says so at once (it used to spin on
    # poll: EINVAL, deaf to SIGTERM); with room under the hard limit it
    # raises its own soft limit
    t0 = time.monotonic()
    r = jobs.ordorun(bindir, "-n", "300", "/bin/true", preexec_fn=_nofile(256, 256))
    assert time.monotonic() - t0 < 10
    assert r.returncode == 1
    assert "-n 300 needs at least" in r.stderr and "(ulimit -n) is 256" in r.stderr
    r = jobs.ordorun(bindir, "-n", "300", "--bind", "none", "/bin/true",
                     preexec_fn=_nofile(256, 8192), timeout=120)
    assert r.returncode == 0, r.stderr


def test_regions_are_bounded_by_the_ranks_not_the_launcher(bindir):
    # The launcher held a descriptor for every live region (a job stopped at
    # about 10,000, with a bare error and a peer timing out); it now drops
    # each once the peers have theirs.  Under ulimit -n 1024 the launcher's
    # old quota was 478 per rank: 700 live regions now fit
    r = jobs.ordorun(bindir, "-n", "2", jobs.probe(bindir), "regions", "700",
                     preexec_fn=_nofile(1024, 1024), timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("kept 700, last success, after ok") == 2, r.stdout + r.stderr
    # Past a rank's own limit (one descriptor per region of each peer on the
    # node) every rank fails alike, at once, and the error names the limit
    t0 = time.monotonic()
    r = jobs.ordorun(bindir, "-n", "2", jobs.probe(bindir), "regions", "5000",
                     preexec_fn=_nofile(1024, 1024), timeout=60)
    assert time.monotonic() - t0 < 30
    assert r.returncode == 0, r.stderr
    kept = re.findall(r"regions \d: kept (\d+), last a system call failed, after ok", r.stdout)
    assert len(kept) == 2 and kept[0] == kept[1] and 500 < int(kept[0]) < 1024, r.stdout
    assert "descriptor limit (ulimit -n: 1024 open files)" in r.stderr


def test_timeout_names_where_each_rank_is(bindir):
    # A rank that computes for ever and two that wait for it: --timeout ends
    # the job (nothing bounded it before), with status 124, and says which
    # ranks wait inside which ordo call and which one is outside ordo
    t0 = time.monotonic()
    r = jobs.ordorun(bindir, "-n", "3", "--bind", "none", "--timeout", "1.5",
                     jobs.probe(bindir), "stuck", "2", timeout=60)
    took = time.monotonic() - t0
    assert r.returncode == 124, r.stderr
    assert 1.4 < took < 10, took
    assert "ran past its time limit (--timeout 1.5 s)" in r.stderr
    for rank in (0, 1):
        assert re.search(rf"rank {rank} \(pid \d+\): waiting inside ordo_recv", r.stderr), r.stderr
    assert re.search(r"rank 2 \(pid \d+\): (never waited inside ordo|not inside ordo)", r.stderr)
    # the same limit from the environment; a malformed one is refused by name
    r = jobs.ordorun(bindir, "-n", "2", jobs.probe(bindir), "stuck", "1",
                     env={**os.environ, "ORDO_TIMEOUT": "1"}, timeout=60)
    assert r.returncode == 124 and "waiting inside ordo_recv" in r.stderr, r.stderr
    r = jobs.ordorun(bindir, "-n", "2", "--timeout", "soon", jobs.probe(bindir), "ok")
    assert r.returncode == 2 and "--timeout takes a number of seconds" in r.stderr


def test_large_eager_limit_costs_nothing_until_used(bindir):
    # ORDO_EAGER_MAX=256M: 8 bounce buffers of 256 MiB per lane were zeroed
    # at init (2 GiB and 7 s per rank); they are now touched only when used
    code = ("import resource, subprocess, sys; "
            "r = subprocess.run(sys.argv[1:]); "
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    r = jobs.run([sys.executable, "-c", code, str(bindir / "ordorun"), "-n", "2",
                  jobs.probe(bindir), "ok"], timeout=60,
                 env={**os.environ, "ORDO_EAGER_MAX": "256M"})
    status, maxrss_kib = map(int, r.stdout.split()[-2:])
    assert status == 0, r.stderr
    assert maxrss_kib < 256 * 1024, maxrss_kib


@pytest.mark.parametrize("settings, named", [
    ({"ORDO_EAGER_MAX": "1G", "ORDO_EAGER_BUFFERS": "65535"},
     ("ORDO_EAGER_BUFFERS=65535", "ORDO_EAGER_MAX=1073741824")),
    ({"ORDO_COLL_SLOTS": "64", "ORDO_COLL_SCRATCH": "16G"},
     ("ORDO_COLL_SLOTS=64", "ORDO_COLL_SCRATCH=17179869184")),
    ({"ORDO_COLL_SLOTS": "64", "ORDO_COLL_SCRATCH": "16000000000G"},
     ("ORDO_COLL_SLOTS=64", "ORDO_COLL_SCRATCH=")),
])
def test_settings_whose_product_cannot_be_had_are_named(bindir, settings, named):
    # the failure names the settings whose product it is, with their values,
    # not only a byte count
    r = jobs.ordorun(bindir, "-n", "2", jobs.probe(bindir), "ok",
                     env={**os.environ, **settings}, timeout=60)
    assert r.returncode != 0
    for text in named:
        assert text in r.stderr, r.stderr


def test_default_symmetric_heap_falls_back_where_a_limit_refuses_it(bindir):
    # the default heap is 1 GiB of address space; under a limit that refuses
    # it, shmem_init takes 128 MiB with a warning naming the setting, and the
    # program runs (an address-space limit stands for a tight cgroup)
    env = {k: v for k, v in os.environ.items() if k != "SHMEM_SYMMETRIC_SIZE"}
    r = jobs.run(["bash", "-c", f"ulimit -v 700000; exec {bindir / 'ordorun'} -n 1 "
                                f"{bindir / 'heat_shmem'} 256 10"], env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "matches the serial run" in r.stdout
    assert "using 134217728 (SHMEM_SYMMETRIC_SIZE sets it)" in r.stderr


def test_notify_survivors(bindir):
    r = jobs.ordorun(bindir, "-n", "3", "--on-failure", "notify", jobs.probe(bindir), "notify", "0")
    assert r.returncode == 128 + signal.SIGKILL
    assert r.stdout.count("barrier: a peer process died") == 2, r.stdout + r.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_forwarded(bindir, sig):
    before = jobs.snapshot()
    p = jobs.start_waiting(bindir, ["-n", "2"], 2)
    p.send_signal(sig)
    out, err = p.communicate(timeout=10)
    assert sorted(out.splitlines()) == [f"rank 0 got signal {int(sig)}",
                                        f"rank 1 got signal {int(sig)}"]
    assert p.returncode == 128 + sig
    assert jobs.snapshot() <= before


def test_kill9_of_a_rank_leaves_nothing(bindir):
    before = jobs.snapshot()
    p = jobs.start_waiting(bindir, ["-n", "3"], 3)
    kids = jobs.children(p.pid)
    assert len(kids) == 3
    t0 = time.monotonic()
    os.kill(kids[1], signal.SIGKILL)
    out, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 10
    assert p.returncode == 128 + signal.SIGKILL
    assert "killed by signal 9" in err
    for k in kids:
        assert not Path(f"/proc/{k}").exists() or "Z" in Path(f"/proc/{k}/stat").read_text()
    assert jobs.snapshot() <= before


def test_kill9_of_the_launcher_takes_the_ranks(bindir):
    p = jobs.start_waiting(bindir, ["-n", "2"], 2)
    kids = jobs.children(p.pid)
    p.kill()
    p.wait()
    assert jobs.wait_gone(kids)


def test_bad_setting_is_a_clear_error(bindir):
    env = dict(os.environ, ORDO_ORDER="sloppy")
    r = jobs.ordorun(bindir, "-n", "2", jobs.probe(bindir), "ok", env=env)
    assert r.returncode == 10
    assert 'ORDO_ORDER="sloppy" is not valid' in r.stderr


def test_misspelt_setting_is_named_once_per_job(bindir):
    env = dict(os.environ, ORDO_PIO_MAXX="4", ORDO_NOT_A_SETTING_AT_ALL="1")
    r = jobs.ordorun(bindir, "-n", "3", jobs.probe(bindir), "ok", env=env)
    assert r.returncode == 0, r.stderr
    typo = "ORDO_PIO_MAXX is not an ordo setting and is ignored; did you mean ORDO_PIO_MAX?"
    assert r.stderr.count(typo) == 1, r.stderr
    assert r.stderr.count("ORDO_NOT_A_SETTING_AT_ALL is not an ordo setting") == 1, r.stderr
    # what ordorun hands the ranks is not mistaken for a setting
    assert "ORDO_RANK" not in r.stderr and "ORDO_BOOT_FD" not in r.stderr


def test_unreachable_rank_is_a_clear_error(bindir):
    env = dict(os.environ, ORDO_TL="self")
    r = jobs.ordorun(bindir, "-n", "2", jobs.probe(bindir), "ok", env=env)
    assert r.returncode != 0
    # whichever rank fails first names the other one
    assert re.search(r'no transport in ORDO_TL="self" reaches rank [01]\b', r.stderr), r.stderr


@needs_root
def test_netns_kill9_of_a_rank_leaves_nothing(bindir):
    before = (jobs.snapshot(), links(), netns_list())
    p = jobs.start_waiting(bindir, ["--nodes", "2", "--netns", "-n", "2"], 2)
    kids = jobs.children(p.pid)
    t0 = time.monotonic()
    os.kill(kids[1], signal.SIGKILL)
    out, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 10
    assert "killed by signal 9" in err
    assert (jobs.snapshot(), links(), netns_list()) == before


@needs_root
def test_netns_kill9_of_the_launcher_leaves_nothing(bindir):
    before = (links(), netns_list())
    p = jobs.start_waiting(bindir, ["--nodes", "2", "--netns", "-n", "2"], 2)
    kids = jobs.children(p.pid)
    p.kill()
    p.wait()
    assert jobs.wait_gone(kids)
    assert (links(), netns_list()) == before


def test_kill9_of_a_rank_on_the_other_node_ends_the_job(bindir):
    """--nodes 2: rank 1 (the other group) is killed while rank 0 waits; the
    job ends within seconds, naming it, and nothing is left."""
    before = jobs.snapshot()
    p = jobs.start_waiting(bindir, ["--nodes", "2", "-n", "2"], 2)
    kids = jobs.children(p.pid)
    t0 = time.monotonic()
    os.kill(kids[1], signal.SIGKILL)
    out, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 10
    assert p.returncode == 128 + signal.SIGKILL
    assert "rank 1 (pid" in err and "killed by signal 9" in err
    assert jobs.snapshot() <= before


def test_a_crash_stays_a_crash_across_nodes(bindir):
    """Loading libfabric (for --nodes) must not change how a rank dies: a
    library it pulls in would otherwise turn SIGSEGV into exit(1)."""
    r = jobs.ordorun(bindir, "--nodes", "2", "-n", "2", jobs.probe(bindir), "die", "1",
            str(int(signal.SIGSEGV)), timeout=60)
    assert r.returncode == 128 + signal.SIGSEGV, r.stderr
    assert "killed by signal 11" in r.stderr
