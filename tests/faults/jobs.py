"""Jobs of the fault checks: every job runs in a session of its own, so a
check that runs past its time, fails, or leaves a process behind ends with
the whole group killed (conftest.py), never with a rank still running."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

# the sessions (process groups) the running check started
_sessions: list[int] = []


def popen(argv: list[str], **kw) -> subprocess.Popen:
    p = subprocess.Popen(argv, start_new_session=True, **kw)
    _sessions.append(p.pid)
    return p


def run(argv: list[str], timeout: float = 30, **kw) -> subprocess.CompletedProcess:
    """subprocess.run, in a session of its own, killed whole on time-out."""
    p = popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_session(p.pid)
        p.communicate()
        raise
    return subprocess.CompletedProcess(argv, p.returncode, out, err)


def ordorun(bindir: Path, *args: str, timeout: float = 30, **kw) -> subprocess.CompletedProcess:
    return run([str(bindir / "ordorun"), *args], timeout=timeout, **kw)


def kill_session(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def end_sessions(grace: float = 3.0) -> list[int]:
    """Kill what the check's sessions left running; the sessions that still
    had a process after grace seconds (a leak the check should fail on)."""
    deadline = time.monotonic() + grace
    leaked = []
    for pgid in _sessions:
        while _alive(pgid) and time.monotonic() < deadline:
            time.sleep(0.02)
        if _alive(pgid):
            leaked.append(pgid)
        kill_session(pgid)
    _sessions.clear()
    return leaked


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
        out += [int(c) for c in (task / "children").read_text().split()]
    return out


def wait_gone(pids: list[int], limit: float = 10) -> bool:
    """Whether every process of pids has gone within limit seconds."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and any(Path(f"/proc/{k}").exists() for k in pids):
        time.sleep(0.05)
    return not any(Path(f"/proc/{k}").exists() for k in pids)


def start_waiting(bindir: Path, opts: list[str], n: int) -> subprocess.Popen:
    """ordorun with n ranks of launcher_probe that wait, once all are ready."""
    p = popen([str(bindir / "ordorun"), *opts, probe(bindir), "wait"],
              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready = 0
    while ready < n:
        line = p.stdout.readline()
        assert line, p.stderr.read()
        ready += line.startswith("ready")
    return p
