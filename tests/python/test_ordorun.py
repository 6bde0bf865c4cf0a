"""The launcher: ranks, binding, abnormal death, signals, exit status, and
nothing left behind in /dev/shm or /tmp."""

from __future__ import annotations

import os
import re
import signal
import subprocess
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


def test_notify_survivors(bindir):
    r = run(bindir, "-n", "3", "--on-failure", "notify", probe(bindir), "notify", "0")
    assert r.returncode == 128 + signal.SIGKILL
    assert r.stdout.count("barrier: a peer process died") == 2, r.stdout + r.stderr


def start_waiting(bindir, n):
    p = subprocess.Popen([str(bindir / "ordorun"), "-n", str(n), probe(bindir), "wait"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready = 0
    while ready < n:
        line = p.stdout.readline()
        assert line, p.stderr.read()
        ready += line.startswith("ready")
    return p


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
