"""ordorun against ranks that misbehave in its own protocol (fixtures/boot_client.py
speaks it by hand): each request that could confuse, starve or exhaust the
launcher is refused with the sender named, and the other ranks are served."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import jobs

CLIENT = Path(__file__).resolve().parent / "fixtures" / "boot_client.py"


def run_client(bindir: Path, scenario: str, *opts: str, n: int = 2, timeout: float = 60):
    t0 = time.monotonic()
    r = jobs.run([str(bindir / "ordorun"), "-n", str(n), "--bind", "none", *opts,
                  sys.executable, str(CLIENT), scenario], timeout=timeout)
    facts = {}
    for line in r.stdout.splitlines():
        key, _, value = line.partition(" ")
        facts[key] = value
    return r, facts, time.monotonic() - t0


def test_a_second_barrier_request_is_refused_not_counted(bindir):
    r, facts, _ = run_client(bindir, "double_barrier")
    # the second arrival once completed the barrier without rank 1
    assert facts == {"first": "-11", "second": "0", "other": "0"}, r.stdout + r.stderr
    assert "rank 0 asked for a barrier while already in one" in r.stderr


def test_extra_descriptors_are_refused_and_closed(bindir):
    r, facts, _ = run_client(bindir, "several_fds")
    assert facts["statuses"] == "-11", r.stdout + r.stderr
    assert int(facts["grew"]) <= 2, facts   # it leaked one per message
    assert "more than one descriptor attached" in r.stderr


def test_an_oversize_request_is_refused(bindir):
    r, facts, _ = run_client(bindir, "oversize")
    assert facts == {"status": "-11", "after": "0"}, r.stdout + r.stderr
    assert "longer than any request may be" in r.stderr


def test_the_health_page_cannot_be_written_by_a_rank(bindir):
    r, facts, _ = run_client(bindir, "health_read_only")
    assert facts == {"status": "0", "writable": "no", "readable": "yes"}, r.stdout + r.stderr


def test_a_rank_cannot_fill_the_launcher(bindir):
    r, facts, _ = run_client(bindir, "quota")
    refused = facts["refused_at"].split()
    assert refused[0] != "never" and refused[2] == "-2", facts
    assert 900 < int(refused[0]) < 1100, facts   # 64 MiB of 65 KB values
    assert "rank 0 keeps 64 MiB of bootstrap values, its quota: refused" in r.stderr


def test_a_rank_that_stops_reading_holds_up_nobody(bindir):
    r, facts, took = run_client(bindir, "no_reading", "--on-failure", "notify")
    assert "rank 0 (pid" in r.stderr and "stopped reading the launcher's replies" in r.stderr
    assert int(facts["worst_ms"]) < 1000, facts   # the launcher once blocked in sendmsg
    assert took < 30
