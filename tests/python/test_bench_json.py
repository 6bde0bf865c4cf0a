"""Every benchmark program's output validates against the schema."""

from __future__ import annotations

import os

import pytest
from ordo_bench.runner import REQUIRED, SCHEMA, run_ordo


@pytest.mark.parametrize("program,args", [
    ("put_latency", ["--iters", "200", "--warmup", "10", "--trials", "2"]),
    ("put_rate", ["--iters", "50", "--warmup", "5", "--trials", "2", "--window", "8"]),
    ("put_bw", ["--iters", "2", "--warmup", "1", "--trials", "2", "--window", "2",
                "--size", "65536"]),
])
def test_program_emits_valid_records(bindir, program, args):
    os.environ.setdefault("ORDO_BUILD", str(bindir.parent))
    recs = run_ordo(program, *args)
    assert recs
    for r in recs:
        assert r["schema"] == SCHEMA
        assert all(k in r for k in REQUIRED)
        assert r["value"] > 0
        assert len(r["samples"]) == r["stats"]["trials"] == 2
        assert r["env"]["cores"] >= 1
    orders = {r["order"] for r in recs if r["impl"] == "ordo"}
    if program != "put_latency":
        assert orders == {"strict", "default", "relaxed"}
