"""An end-to-end run of a tiny suite: programs launched, records written,
report drawn, results/latest pointing at the run."""

from __future__ import annotations

import json
import os

from ordo_bench.cli import main


def test_tiny_suite_end_to_end(bindir, tmp_path, monkeypatch):
    monkeypatch.setenv("ORDO_BUILD", str(bindir.parent.resolve()))
    monkeypatch.chdir(tmp_path)
    rc = main(["run", "latency", "barrier", "fig2", "--impl", "ordo", "--sizes", "8",
               "--window", "64", "--order", "strict,relaxed"])
    assert rc == 0
    latest = tmp_path / "results" / "latest"
    assert latest.is_symlink()
    run = latest.resolve()
    recs = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    exps = {r["experiment"] for r in recs}
    assert {"latency", "barrier"} <= exps
    assert {r["variant"] for r in recs if r["experiment"] == "barrier"} == {
        "dissemination", "tree", "shm"}
    assert all(r["suite"] == "quick" and r["value"] > 0 for r in recs)
    # fig2: one window of the sweep, the orders asked for, get and put and isend
    fig2 = [r for r in recs if r["experiment"] == "fig2"]
    assert {r["window"] for r in fig2} == {64}
    assert sorted((r["variant"], r["order"] or "") for r in fig2) == [
        ("get", "relaxed"), ("get", "strict"), ("isend", ""), ("put", "relaxed"),
        ("put", "strict")]
    manifest = json.loads((run / "run.json").read_text())
    assert manifest["narrowing"]["window"] == 64 and not manifest["errors"]
    assert (run / "report.html").exists() and (run / "figures" / "barrier_latency_us.svg").exists()
    # redraw and compare from the saved JSON
    assert main(["report", str(run)]) == 0
    assert main(["compare", str(run), str(run)]) == 0
    assert main(["run", "no_such_experiment"]) == 2
    assert os.path.exists(run / "report.md")
