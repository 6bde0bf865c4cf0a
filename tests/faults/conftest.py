"""The fault checks: each runs under a time limit (FAULT_CHECK_LIMIT
seconds, SIGALRM), and whatever it started is killed as a process group at
its end; a check whose jobs left a process running fails."""

from __future__ import annotations

import os
import signal

import jobs
import pytest

LIMIT = int(os.environ.get("FAULT_CHECK_LIMIT", "120"))


class CheckTimedOut(Exception):
    pass


@pytest.fixture(autouse=True)
def bounded_and_cleaned():
    def expired(signum, frame):
        raise CheckTimedOut(f"the check ran past its limit of {LIMIT} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(LIMIT)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        leaked = jobs.end_sessions()
    assert not leaked, f"processes left running in the check's sessions {leaked} (killed)"
