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
               "--window", "64", "--order", "strict,relaxed", "--launches", "2"])
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
    # two launches per point, their trials pooled and told apart
    assert all(r["launches"] == 2 and sorted(set(r["sample_launches"])) == [0, 1]
               for r in recs)
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


def test_a_failed_run_keeps_the_last_good_latest_and_report_exits_0(bindir, tmp_path,
                                                                    monkeypatch):
    monkeypatch.setenv("ORDO_BUILD", str(bindir.parent.resolve()))
    monkeypatch.chdir(tmp_path)
    assert main(["run", "barrier", "--impl", "ordo"]) == 0
    good = (tmp_path / "results" / "latest").resolve()
    # every point of the next run fails
    from ordo_bench import suite
    real = suite._launch_once

    def failing(step, *args, **kw):
        raise suite.BenchError(f"{step.job.program} failed with status 2:\nline 1\nline 2")
    monkeypatch.setattr(suite, "_launch_once", failing)
    import time
    time.sleep(1.1)                       # a new results/<timestamp>
    assert main(["run", "barrier", "--impl", "ordo"]) == 1
    monkeypatch.setattr(suite, "_launch_once", real)
    assert (tmp_path / "results" / "latest").resolve() == good
    runs = sorted(p for p in (tmp_path / "results").iterdir() if p.name != "latest")
    failed = runs[-1]
    manifest = json.loads((failed / "run.json").read_text())
    assert manifest["errors"] and "line 2" in manifest["errors"][0]["error"]
    # redrawing the failed run succeeds (exit 0), and its report lists the failures with
    # the end of their stderr right under the summary
    assert main(["report", str(failed)]) == 0
    md = (failed / "report.md").read_text()
    assert "point(s) failed" in md and "line 2" in md
    assert md.index("point(s) failed") < md.index("## Claims of the papers")


def test_launches_are_interleaved_and_a_failed_point_is_not_relaunched(bindir, tmp_path,
                                                                        monkeypatch):
    """Round k launches every point once, so each point's launches spread over
    the run; a point that failed is recorded once and left out of later
    rounds."""
    monkeypatch.setenv("ORDO_BUILD", str(bindir.parent.resolve()))
    monkeypatch.chdir(tmp_path)
    from ordo_bench import suite
    real = suite._launch_once
    order = []

    def logged(step, *args, **kw):
        order.append(step.size)
        if step.size == 64 and order.count(64) == 2:
            raise suite.BenchError("latency failed with status 1:\nboom")
        return real(step, *args, **kw)
    monkeypatch.setattr(suite, "_launch_once", logged)
    assert main(["run", "latency", "--impl", "ordo", "--sizes", "8,64,1024",
                 "--launches", "3"]) == 1
    assert order == [8, 64, 1024, 8, 64, 1024, 8, 1024]
    run = sorted(p for p in (tmp_path / "results").iterdir() if p.name != "latest")[-1]
    manifest = json.loads((run / "run.json").read_text())
    assert manifest["launch_order"] == "interleaved" and manifest["launches"] == 3
    assert [(e["size"], e["launch"]) for e in manifest["errors"]] == [(64, 2)]
    recs = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    assert sorted(r["size"] for r in recs if r["experiment"] == "latency") == [8, 1024]
    assert all(r["launches"] == 3 for r in recs)
