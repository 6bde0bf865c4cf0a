"""The launcher: ranks, binding, abnormal death, signals, exit status, and
nothing left behind in /dev/shm or /tmp."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def run(bindir: Path, *args: str, timeout: float = 30, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(bindir / "ordorun"), *args], capture_output=True, text=True,
                          timeout=timeout, **kw)


def probe(bindir: Path) -> str:
    return str(bindir / "launcher_probe")


def snapshot() -> set[str]:
    names = set()
    for d in ("/dev/shm", "/tmp"):
        if os.path.isdir(d):
            names |= {f"{d}/{n}" for n in os.listdir(d) if not n.startswith("pytest-of-")}
    return names


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out += [int(c) for c in text]
    return out


def test_runs_every_rank_with_binding(bindir):
    before = snapshot()
    r = run(bindir, "-n", "4", probe(bindir), "ok")
    assert r.returncode == 0, r.stderr
    lines = sorted(r.stdout.splitlines())
    assert [ln.split()[1] for ln in lines] == ["0", "1", "2", "3"]
    assert all("of 4 binding core:" in ln or "binding pu:" in ln for ln in lines)
    assert snapshot() <= before


def test_bind_none(bindir):
    r = run(bindir, "-n", "2", "--bind", "none", probe(bindir), "ok")
    assert r.returncode == 0, r.stderr
    assert all(ln.endswith("binding none") for ln in r.stdout.splitlines())


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV])
def test_killed_rank_ends_job(bindir, sig):
    before = snapshot()
    t0 = time.monotonic()
    r = run(bindir, "-n", "3", probe(bindir), "die", "1", str(int(sig)))
    assert time.monotonic() - t0 < 10
    assert r.returncode == 128 + sig
    assert "rank 1 (pid" in r.stderr and f"killed by signal {int(sig)}" in r.stderr
    assert snapshot() <= before


def test_first_nonzero_exit_status(bindir):
    t0 = time.monotonic()
    r = run(bindir, "-n", "3", probe(bindir), "exit", "2", "7")
    assert time.monotonic() - t0 < 10
    assert r.returncode == 7
    assert "rank 2" in r.stderr and "exited with status 7" in r.stderr


def test_exit_without_finalize(bindir):
    r = run(bindir, "-n", "2", probe(bindir), "nofinalize", "0")
    assert r.returncode != 0
    assert "rank 0" in r.stderr and "without calling ordo_finalize" in r.stderr


@pytest.mark.parametrize("gone_first", [True, False])
def test_rank_that_never_joins_fails_the_job_at_once(bindir, gone_first):
    # rank 1 ends (status 0) without ordo_init, before or after the others
    # called it: they must not wait for ORDO_BOOT_TIMEOUT (300 s)
    script = (f'if [ "$ORDO_RANK" = 1 ]; then {"" if gone_first else "sleep 1;"} exit 0; fi; '
              f'{"sleep 1;" if gone_first else ""} exec {probe(bindir)} ok')
    t0 = time.monotonic()
    r = run(bindir, "-n", "3", "sh", "-c", script, timeout=60)
    assert time.monotonic() - t0 < 20, r.stderr
    assert r.returncode != 0
    assert "rank 1 (pid" in r.stderr and "without calling ordo_init" in r.stderr, r.stderr


def test_barrier_after_a_timed_out_barrier_waits_for_the_late_rank(bindir):
    # rank 1 is 1.6 s late; rank 0's first barrier times out after 1 s, its
    # second must wait for rank 1 (it once counted rank 0 twice and returned
    # at once), and the late reply must not answer a later request
    r = run(bindir, "-n", "2", probe(bindir), "late", "1", "1600",
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
    r = run(bindir, "-n", "300", "/bin/true", preexec_fn=_nofile(256, 256))
    assert time.monotonic() - t0 < 10
    assert r.returncode == 1
    assert "-n 300 needs at least" in r.stderr and "(ulimit -n) is 256" in r.stderr
    r = run(bindir, "-n", "300", "--bind", "none", "/bin/true", preexec_fn=_nofile(256, 8192),
            timeout=120)
    assert r.returncode == 0, r.stderr


def test_regions_are_bounded_by_the_ranks_not_the_launcher(bindir):
    # The launcher held a descriptor for every live region (a job stopped at
    # about 10,000, with a bare error and a peer timing out); it now drops
    # each once the peers have theirs.  Under ulimit -n 1024 the launcher's
    # old quota was 478 per rank: 700 live regions now fit
    r = run(bindir, "-n", "2", probe(bindir), "regions", "700", preexec_fn=_nofile(1024, 1024),
            timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("kept 700, last success, after ok") == 2, r.stdout + r.stderr
    # Past a rank's own limit (one descriptor per region of each peer on the
    # node) every rank fails alike, at once, and the error names the limit
    t0 = time.monotonic()
    r = run(bindir, "-n", "2", probe(bindir), "regions", "5000", preexec_fn=_nofile(1024, 1024),
            timeout=60)
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
    r = run(bindir, "-n", "3", "--bind", "none", "--timeout", "1.5", probe(bindir), "stuck", "2",
            timeout=60)
    took = time.monotonic() - t0
    assert r.returncode == 124, r.stderr
    assert 1.4 < took < 10, took
    assert "ran past its time limit (--timeout 1.5 s)" in r.stderr
    for rank in (0, 1):
        assert re.search(rf"rank {rank} \(pid \d+\): waiting inside ordo_recv", r.stderr), r.stderr
    assert re.search(r"rank 2 \(pid \d+\): (never waited inside ordo|not inside ordo)", r.stderr)
    # the same limit from the environment; a malformed one is refused by name
    r = run(bindir, "-n", "2", probe(bindir), "stuck", "1", env={**os.environ, "ORDO_TIMEOUT": "1"},
            timeout=60)
    assert r.returncode == 124 and "waiting inside ordo_recv" in r.stderr, r.stderr
    r = run(bindir, "-n", "2", "--timeout", "soon", probe(bindir), "ok")
    assert r.returncode == 2 and "--timeout takes a number of seconds" in r.stderr


def test_large_eager_limit_costs_nothing_until_used(bindir):
    # ORDO_EAGER_MAX=256M: 8 bounce buffers of 256 MiB per lane were zeroed
    # at init (2 GiB and 7 s per rank); they are now touched only when used
    code = ("import resource, subprocess, sys; "
            "r = subprocess.run(sys.argv[1:]); "
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    r = subprocess.run([sys.executable, "-c", code, str(bindir / "ordorun"), "-n", "2",
                        probe(bindir), "ok"], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "ORDO_EAGER_MAX": "256M"})
    status, maxrss_kib = map(int, r.stdout.split()[-2:])
    assert status == 0, r.stderr
    assert maxrss_kib < 256 * 1024, maxrss_kib


def test_notify_survivors(bindir):
    r = run(bindir, "-n", "3", "--on-failure", "notify", probe(bindir), "notify", "0")
    assert r.returncode == 128 + signal.SIGKILL
    assert r.stdout.count("barrier: a peer process died") == 2, r.stdout + r.stderr


def start_waiting(bindir, n):
    return start_waiting_args(bindir, ["-n", str(n)], n)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_forwarded(bindir, sig):
    before = snapshot()
    p = start_waiting(bindir, 2)
    p.send_signal(sig)
    out, err = p.communicate(timeout=10)
    assert sorted(out.splitlines()) == [f"rank 0 got signal {int(sig)}",
                                        f"rank 1 got signal {int(sig)}"]
    assert p.returncode == 128 + sig
    assert snapshot() <= before


def test_kill9_of_a_rank_leaves_nothing(bindir):
    before = snapshot()
    p = start_waiting(bindir, 3)
    kids = children(p.pid)
    assert len(kids) == 3
    t0 = time.monotonic()
    os.kill(kids[1], signal.SIGKILL)
    out, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 10
    assert p.returncode == 128 + signal.SIGKILL
    assert "killed by signal 9" in err
    for k in kids:
        assert not Path(f"/proc/{k}").exists() or "Z" in Path(f"/proc/{k}/stat").read_text()
    assert snapshot() <= before


def test_kill9_of_the_launcher_takes_the_ranks(bindir):
    p = start_waiting(bindir, 2)
    kids = children(p.pid)
    p.kill()
    p.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{k}").exists() for k in kids):
        time.sleep(0.05)
    assert not any(Path(f"/proc/{k}").exists() for k in kids)


def test_bad_arguments(bindir):
    r = run(bindir, "-n", "0", "true")
    assert r.returncode == 2 and "-n takes" in r.stderr
    r = run(bindir, "-n", "1", "--bind", "socket", "true")
    assert r.returncode == 2 and "--bind takes" in r.stderr
    r = run(bindir, "-n", "2", "/nonexistent/program")
    assert r.returncode == 127 and "cannot run" in r.stderr


def test_non_ordo_program(bindir):
    r = run(bindir, "-n", "2", "sh", "-c", "echo $ORDO_RANK/$ORDO_SIZE")
    assert r.returncode == 0
    assert sorted(r.stdout.split()) == ["0/2", "1/2"]


def test_bad_setting_is_a_clear_error(bindir):
    env = dict(os.environ, ORDO_ORDER="sloppy")
    r = run(bindir, "-n", "2", probe(bindir), "ok", env=env)
    assert r.returncode == 10
    assert 'ORDO_ORDER="sloppy" is not valid' in r.stderr


def test_misspelt_setting_is_named_once_per_job(bindir):
    env = dict(os.environ, ORDO_PIO_MAXX="4", ORDO_NOT_A_SETTING_AT_ALL="1")
    r = run(bindir, "-n", "3", probe(bindir), "ok", env=env)
    assert r.returncode == 0, r.stderr
    typo = "ORDO_PIO_MAXX is not an ordo setting and is ignored; did you mean ORDO_PIO_MAX?"
    assert r.stderr.count(typo) == 1, r.stderr
    assert r.stderr.count("ORDO_NOT_A_SETTING_AT_ALL is not an ordo setting") == 1, r.stderr
    # what ordorun hands the ranks is not mistaken for a setting
    assert "ORDO_RANK" not in r.stderr and "ORDO_BOOT_FD" not in r.stderr


def test_ordo_info_lists_settings(bindir):
    r = subprocess.run([str(bindir / "ordo-info")], capture_output=True, text=True,
                       env=dict(os.environ, ORDO_PIO_MAX="8K"))
    assert r.returncode == 0
    assert "shm" in r.stdout and "self" in r.stdout
    assert "ORDO_PIO_MAX" in r.stdout and "8192" in r.stdout and "(environment)" in r.stdout
    assert "ORDO_ENGINES" in r.stdout and "(default)" in r.stdout


def test_unreachable_rank_is_a_clear_error(bindir):
    env = dict(os.environ, ORDO_TL="self")
    r = run(bindir, "-n", "2", probe(bindir), "ok", env=env)
    assert r.returncode != 0
    # whichever rank fails first names the other one
    assert re.search(r'no transport in ORDO_TL="self" reaches rank [01]\b', r.stderr), r.stderr


def test_settings_reference_is_current(bindir):
    """docs/settings.md is generated from the settings table; keep them equal."""
    r = subprocess.run([str(bindir / "ordo-info"), "--markdown"], capture_output=True, text=True)
    doc = Path(__file__).resolve().parents[2] / "docs" / "settings.md"
    assert r.returncode == 0
    hint = "regenerate: build/bin/ordo-info --markdown > docs/settings.md"
    assert r.stdout == doc.read_text(), hint


def transports(stdout: str, nodes: dict | None = None) -> dict[tuple[int, int], str]:
    """(rank, peer) -> transport text; nodes (if given) gets peer -> (node, count)."""
    out: dict[tuple[int, int], str] = {}
    nodes = {} if nodes is None else nodes
    for ln in stdout.splitlines():
        m = re.match(r"transport (\d+) -> (\d+): (.*) \(node (\d+) of (\d+)\)$", ln)
        if m:
            out[(int(m[1]), int(m[2]))] = m[3]
            nodes[int(m[2])] = (int(m[4]), int(m[5]))
    return out


def test_nodes_split_ranks_into_groups(bindir):
    """--nodes 2 with 4 ranks: {0,1} and {2,3} share memory; across, only
    the network transport."""
    before = snapshot()
    r = run(bindir, "--nodes", "2", "-n", "4", probe(bindir), "transport", timeout=60)
    assert r.returncode == 0, r.stderr
    nodes: dict = {}
    t = transports(r.stdout, nodes)
    assert len(t) == 12, r.stdout
    assert nodes == {0: (0, 2), 1: (0, 2), 2: (1, 2), 3: (1, 2)}
    for (a, b), what in t.items():
        if a // 2 == b // 2:
            assert what == "shm", (a, b, what)
        else:
            assert what.startswith("ofi "), (a, b, what)
    assert snapshot() <= before


def test_one_node_opens_no_network(bindir):
    r = run(bindir, "-n", "2", probe(bindir), "transport")
    assert r.returncode == 0, r.stderr
    assert set(transports(r.stdout).values()) == {"shm"}


def test_nodes_bad_arguments(bindir):
    r = run(bindir, "--nodes", "0", "-n", "2", "true")
    assert r.returncode == 2 and "--nodes takes" in r.stderr
    r = run(bindir, "--nodes", "3", "-n", "2", "true")
    assert r.returncode == 2 and "more groups than" in r.stderr


def links() -> str:
    return subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout


def netns_list() -> str:
    return subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="--netns needs root")


@needs_root
def test_netns_groups_talk_over_their_own_network(bindir):
    before = (snapshot(), links(), netns_list())
    r = run(bindir, "--nodes", "2", "--netns", "-n", "2", probe(bindir), "transport", timeout=60)
    assert r.returncode == 0, r.stderr
    t = transports(r.stdout)
    assert set(t) == {(0, 1), (1, 0)}
    assert all(w.startswith("ofi ") and " on eth0" in w for w in t.values()), t
    assert (snapshot(), links(), netns_list()) == before


@needs_root
def test_netns_kill9_of_a_rank_leaves_nothing(bindir):
    before = (snapshot(), links(), netns_list())
    p = start_waiting_args(bindir, ["--nodes", "2", "--netns", "-n", "2"], 2)
    kids = children(p.pid)
    t0 = time.monotonic()
    os.kill(kids[1], signal.SIGKILL)
    out, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 10
    assert "killed by signal 9" in err
    assert (snapshot(), links(), netns_list()) == before


@needs_root
def test_netns_kill9_of_the_launcher_leaves_nothing(bindir):
    before = (links(), netns_list())
    p = start_waiting_args(bindir, ["--nodes", "2", "--netns", "-n", "2"], 2)
    kids = children(p.pid)
    p.kill()
    p.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{k}").exists() for k in kids):
        time.sleep(0.05)
    assert not any(Path(f"/proc/{k}").exists() for k in kids)
    assert (links(), netns_list()) == before


def start_waiting_args(bindir, opts, n):
    p = subprocess.Popen([str(bindir / "ordorun"), *opts, probe(bindir), "wait"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready = 0
    while ready < n:
        line = p.stdout.readline()
        assert line, p.stderr.read()
        ready += line.startswith("ready")
    return p


def test_kill9_of_a_rank_on_the_other_node_ends_the_job(bindir):
    """--nodes 2: rank 1 (the other group) is killed while rank 0 waits; the
    job ends within seconds, naming it, and nothing is left."""
    before = snapshot()
    p = start_waiting_args(bindir, ["--nodes", "2", "-n", "2"], 2)
    kids = children(p.pid)
    t0 = time.monotonic()
    os.kill(kids[1], signal.SIGKILL)
    out, err = p.communicate(timeout=10)
    assert time.monotonic() - t0 < 10
    assert p.returncode == 128 + signal.SIGKILL
    assert "rank 1 (pid" in err and "killed by signal 9" in err
    assert snapshot() <= before


def test_a_crash_stays_a_crash_across_nodes(bindir):
    """Loading libfabric (for --nodes) must not change how a rank dies: a
    library it pulls in would otherwise turn SIGSEGV into exit(1)."""
    r = run(bindir, "--nodes", "2", "-n", "2", probe(bindir), "die", "1",
            str(int(signal.SIGSEGV)), timeout=60)
    assert r.returncode == 128 + signal.SIGSEGV, r.stderr
    assert "killed by signal 11" in r.stderr
