"""The launcher when all goes well: ranks, binding, nodes, settings and
what ordo-info says.  Its faults (ranks that die, hang or misbehave, signals,
limits, bad settings) are checked in tests/faults."""

from __future__ import annotations

import os
import re
import subprocess
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


def test_ordo_info_lists_settings(bindir):
    r = subprocess.run([str(bindir / "ordo-info")], capture_output=True, text=True,
                       env=dict(os.environ, ORDO_PIO_MAX="8K"))
    assert r.returncode == 0
    assert "shm" in r.stdout and "self" in r.stdout
    assert "ORDO_PIO_MAX" in r.stdout and "8192" in r.stdout and "(environment)" in r.stdout
    assert "ORDO_ENGINES" in r.stdout and "(default)" in r.stdout


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

