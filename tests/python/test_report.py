"""The front end on a recorded run (tests/python/fixtures/quick, a quick
suite of this project's 2-core CI machine): report, claims, compare,
skipped experiments, and the plan of a run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from ordo_bench import report
from ordo_bench.experiments import BY_ID, EXPERIMENTS, Experiment, select
from ordo_bench.suite import Narrowing, plan

FIXTURE = Path(__file__).parent / "fixtures" / "quick"


@pytest.fixture()
def run_dir(tmp_path: Path) -> Path:
    d = tmp_path / "run"
    shutil.copytree(FIXTURE, d)
    return d


def test_report_writes_figures_and_tables(run_dir):
    tables = report.write(run_dir)
    assert (run_dir / "report.md").exists() and (run_dir / "report.html").exists()
    pngs = sorted(p.name for p in (run_dir / "figures").glob("*.png"))
    svgs = sorted(p.name for p in (run_dir / "figures").glob("*.svg"))
    assert len(pngs) == len(svgs) >= 6
    assert "halo_time_us.png" in pngs and "barrier_latency_us.png" in pngs
    md = (run_dir / "report.md").read_text()
    for png in pngs:
        assert f"figures/{png}" in md
    assert "Claims of the papers" in md and "2 cores" in md
    html = (run_dir / "report.html").read_text()
    assert html.count("<img") == len(pngs)
    # every paper experiment has its figure, ordo and Open MPI side by side
    for exp in ("fig2", "rma_sync", "atomics", "regcost", "overlap", "transpose", "stream"):
        assert any(p.startswith(exp + "_") for p in pngs), exp
    assert "## LogGP parameters" in md and tables["loggp"][1]
    # every skipped point is listed with its reason (ordo has no dynamic regions)
    assert tables["skipped"] and all(row[2] for row in tables["skipped"])
    assert "dynamic regions" in md
    # the summary comes first: a row per headline measure, a column per library, each value
    # with its interval, ordo against the best peer
    assert md.index("## Summary") < md.index("## Claims of the papers") < md.index("## Figures")
    head, rows = tables["summary"]
    assert head[2:5] == ["ordo", "openmpi", "mpich"] and len(rows) >= 8
    for row in rows:
        assert all("[" in cell for cell in row[2:5]), row
        assert any(w in row[5] for w in ("better", "worse", "no difference measured")), row
        assert "is better" in row[0]
    # the terminal's OSU-style tables: a row per size
    osu = {title: (h, r) for title, h, r in tables["osu"]}
    lat = next(v for t, v in osu.items() if t.startswith("latency:"))
    assert lat[0][1:] == ["ordo", "openmpi", "mpich"] and len(lat[1]) >= 2


def test_claims_are_computed_from_the_records(run_dir):
    import numpy as np
    records, _ = report.load(run_dir)
    by = {c.claim: c for c in report.claims(records)}
    barrier = by["Atomic (fan-in/fan-out) vs message barrier"]
    tree = next(r for r in records if r["experiment"] == "barrier" and r["variant"] == "tree")
    diss = next(r for r in records
                if r["experiment"] == "barrier" and r["variant"] == "dissemination")
    pct = 100 * (1 - np.median(tree["samples"]) / np.median(diss["samples"]))
    assert barrier.measured.startswith(f"{pct:+.0f}% [")
    rate = by["One- vs two-sided message rate, 8 B"]
    one = next(r for r in records if r["experiment"] == "msgrate" and r["variant"] == "put"
               and r["order"] == "default" and r["size"] == 8 and r["window"] == 64)
    two = next(r for r in records if r["experiment"] == "msgrate"
               and r["paradigm"] == "two-sided" and r["impl"] == "ordo" and r["size"] == 8
               and r["window"] == 64)
    want = np.median(one["samples"]) / np.median(two["samples"])
    assert rate.measured.startswith(f"{want:.2f}x [")
    assert "default order" in rate.definition and "8 B" in rate.definition


def test_a_claim_uses_its_named_series_never_the_best_variant(run_dir):
    records, _ = report.load(run_dir)
    name = "Relaxed vs strict ordering, aggregate get bandwidth"
    before = next(c for c in report.claims(records) if c.claim == name)
    # a put series ten times faster must not be picked up by the get claim
    fast = [dict(r, variant="put", value=r["value"] * 10,
                 samples=[x * 10 for x in r["samples"]])
            for r in records if r["experiment"] == "fig2" and r.get("variant") == "get"]
    after = next(c for c in report.claims(records + fast) if c.claim == name)
    assert before.measured == after.measured


def test_claims_say_what_is_missing():
    cl = report.claims([])
    assert all(c.measured.startswith("not in this run") for c in cl)


def test_oversubscribed_runs_are_flagged(run_dir):
    path = run_dir / "results.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    for r in recs:
        if r["experiment"] == "barrier":
            r["np"] = 8
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    tables = report.write(run_dir)
    assert "barrier" in tables["warning"]
    assert "oversubscribed" in (run_dir / "report.md").read_text()


def test_compare_gives_ratios(run_dir, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(FIXTURE, other)
    path = other / "results.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    for r in recs:
        if r["value"] is not None:
            r["value"] *= 2
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    head, rows = report.compare(run_dir, other)
    assert head[-2] == "B/A" and rows
    # a zero in A (an overlapped fraction of 0) has no ratio
    assert all(row[-2] == ("2.000" if float(row[3]) else "-") for row in rows)


def test_report_of_a_missing_run_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="not a run directory"):
        report.load(tmp_path)


def test_experiment_ids_are_stable():
    ids = [e.id for e in EXPERIMENTS]
    for stable in ("latency", "multi_latency", "put_latency", "bw", "bibw", "msgrate", "fig2",
                   "rma_sync", "atomics", "regcost", "overlap", "halo", "barrier",
                   "transpose", "stream", "loggp"):
        assert stable in ids
    assert len(ids) == len(set(ids))
    with pytest.raises(KeyError, match="unknown experiment"):
        select(["nope"], "quick")


def test_plan_skips_what_cannot_run(monkeypatch):
    monkeypatch.setattr("ordo_bench.suite.impl_missing",
                        lambda impl, prog: None if impl == "ordo" else f"{impl} is not here")
    later = Experiment("later", "Not yet", "-", missing="its program is not written yet")
    steps, skipped = plan([BY_ID["latency"], BY_ID["bw"], BY_ID["bibw"], later],
                          "quick", ("ordo", "openmpi"), Narrowing(sizes=(8, 64)))
    # bw and bibw share the bw program: it runs once per size
    bw_steps = [s for s in steps if s.job.program == "bw"]
    assert sorted(s.size for s in bw_steps) == [8, 64]
    assert {s.impl for s in steps} == {"ordo"}
    reasons = {(s["experiment"], s["impl"]): s["reason"] for s in skipped}
    assert reasons[("later", None)].endswith("not written yet")
    assert reasons[("latency", "openmpi")] == "openmpi is not here"
    assert len(skipped) == len({json.dumps(s, sort_keys=True) for s in skipped})


def test_plan_sweeps_and_narrows_fig2(monkeypatch):
    monkeypatch.setattr("ordo_bench.suite.impl_missing", lambda impl, prog: None)
    steps, _ = plan([BY_ID["fig2"]], "paper", ("ordo",), Narrowing())
    points = {(s.job.np, s.job.window, s.size) for s in steps}
    assert {np for np, _, _ in points} == {2, 4}          # 1 and 2 pairs
    assert {w for _, w, _ in points} == {1, 8, 64}
    assert len(points) == 2 * 3 * 5
    # and over the network, one pair at W=64, with 1 and 4 lanes
    network = [s for s in steps if s.job.nodes]
    assert len(steps) == 2 * 3 * 5 + len(network) and len(network) == 2 * 5
    assert {(s.job.nodes, s.job.np, s.job.window, s.job.label) for s in network} == \
        {(2, 2, 64, "network, 1 lane"), (2, 2, 64, "network, 4 lanes")}
    steps, _ = plan([BY_ID["fig2"]], "paper", ("ordo",), Narrowing(window=8, pairs=2))
    assert {(s.job.np, s.job.window) for s in steps} == {(4, 8)}
    assert all("--window" in s.job.options("paper") for s in steps)


def test_per_algorithm_jobs_are_not_reported_as_missing_builds(monkeypatch):
    monkeypatch.setattr("ordo_bench.suite.impl_missing", lambda impl, prog: None)
    steps, skipped = plan([BY_ID["barrier"]], "quick", ("ordo", "openmpi"), Narrowing())
    assert not skipped
    assert sorted(dict(s.job.env).get("ORDO_COLL_BARRIER", s.impl) for s in steps) == [
        "dissemination", "openmpi", "shm", "tree"]


def test_recorded_statistics_match_their_samples():
    """Every measured record of the fixture: value is the median of its
    samples, stats.min the min-of-averages, p99 by linear interpolation,
    as the C harness computes them (numpy's default percentile method)."""
    import numpy as np
    records, _ = report.load(FIXTURE)
    measured = [r for r in records if r["value"] is not None and "derived_from" not in r]
    assert len(measured) > 100
    for r in measured:
        s = np.array(r["samples"], float)
        st = r["stats"]
        assert st["trials"] == len(s)
        for name, want in (("median", np.median(s)), ("min", s.min()), ("max", s.max()),
                           ("mean", s.mean()), ("p99", np.percentile(s, 99))):
            assert st[name] == pytest.approx(want, rel=2e-5, abs=1e-9), (r["experiment"], name)
        assert r["value"] == st["median"]


def test_one_sided_bandwidth_sizes_are_among_two_sided_ones():
    # the "bandwidth lost by two-sided" claim compares bw and put_bw point for point
    bw = next(j for j in BY_ID["bw"].jobs if j.program == "bw")
    put = next(j for j in BY_ID["bw"].jobs if j.program == "put_bw")
    for suite in ("quick", "paper", "full"):
        assert set(put.sizes[suite]) <= set(bw.sizes[suite]), suite


def test_compare_sorts_sizes_as_numbers_and_keeps_series_of_one_run(run_dir, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(FIXTURE, other)
    path = other / "results.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    extra = dict(next(r for r in recs if r["experiment"] == "latency"), variant="only-b")
    recs = [r for r in recs if not (r["experiment"] == "barrier" and r["variant"] == "tree")]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs + [extra]))
    head, rows = report.compare(run_dir, other)
    ratio = head.index("B/A")
    assert any(r[0] == "barrier" and "tree" in r[1] and r[ratio] == "only in A" for r in rows)
    assert any("only-b" in r[1] and r[ratio] == "only in B" for r in rows)
    for exp_series in {(r[0], r[1]) for r in rows}:
        sizes = [int(r[2]) for r in rows if (r[0], r[1]) == exp_series]
        assert sizes == sorted(sizes), exp_series


def test_claims_of_two_runs_agree_when_their_intervals_overlap(run_dir, tmp_path):
    same = report.compare_claims(run_dir, run_dir)[1]
    assert same and all(row[-1] in ("yes", "-") for row in same)
    assert any(row[-1] == "yes" for row in same)
    other = tmp_path / "other"
    shutil.copytree(FIXTURE, other)
    path = other / "results.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    for r in recs:           # the tree barrier ten times slower in B
        if r["experiment"] == "barrier" and r.get("variant") == "tree" and r["impl"] == "ordo":
            r["samples"] = [x * 10 for x in r["samples"]]
            r["value"] *= 10
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    rows = {row[0]: row for row in report.compare_claims(run_dir, other)[1]}
    assert rows["Atomic (fan-in/fan-out) vs message barrier"][-1] == "NO"


def test_the_summary_names_ordos_worst_size():
    # ordo leads at the headline's 8 B and trails 2x at 64 KiB: the row says
    # where, with the interval, and is coloured as a loss
    from ordo_bench import claims

    def rec(impl, size, us):
        return {"experiment": "latency", "impl": impl, "np": 2, "size": size,
                "paradigm": "two-sided", "variant": None, "value": us,
                "samples": [us * f for f in (0.98, 0.99, 1.0, 1.01, 1.02)]}

    records = [rec("ordo", 8, 0.2), rec("openmpi", 8, 0.3), rec("mpich", 8, 0.4),
               rec("ordo", 1024, 1.0), rec("openmpi", 1024, 1.0),
               rec("ordo", 65536, 10.0), rec("openmpi", 65536, 5.0), rec("mpich", 65536, 6.0)]
    head, rows, words = claims.summary(records)
    assert head[-1] == "ordo's worst size in the sweep"
    row = rows[0]
    assert row[0].startswith("Latency, 8 B") and "better" in row[5]
    assert row[6].startswith("64 KiB: worse: 0.50x") and "vs openmpi" in row[6], row
    assert words[0] == "worse"


def test_the_report_says_what_ordos_auto_settings_chose(run_dir):
    # ordo's records carry what its auto settings came to (ordo_setting_describe);
    # the report's header says it for the 2-rank runs
    path = run_dir / "results.jsonl"
    out = []
    for line in path.read_text().splitlines():
        r = json.loads(line)
        if r.get("impl") == "ordo" and r.get("env"):
            r["env"]["chosen"] = {"ORDO_ENGINES": "0: 2 ranks x 1 thread on 2 CPUs leave 0 idle"}
        out.append(json.dumps(r))
    path.write_text("\n".join(out) + "\n")
    report.write(run_dir)
    md = (run_dir / "report.md").read_text()
    assert "ordo's auto settings, 2 ranks on one node: ORDO_ENGINES=0: 2 ranks x 1" in md
    assert "ORDO_ENGINES=0: 2 ranks" in (run_dir / "report.html").read_text()


def test_the_report_names_the_tcp_congestion_control_of_runs_over_nodes(run_dir):
    # records of --nodes runs carry the kernel's congestion control, which
    # paces their loopback connections; the header names it, and only then
    path = run_dir / "results.jsonl"
    lines = path.read_text().splitlines()
    report.write(run_dir)
    assert "TCP congestion control" not in (run_dir / "report.md").read_text()
    out = []
    for i, line in enumerate(lines):
        r = json.loads(line)
        if i == 0:   # the fixture's run has no --nodes records: make its first one
            r["env"].update(nodes=2, tcp_congestion="bbr")
        out.append(json.dumps(r))
    path.write_text("\n".join(out) + "\n")
    report.write(run_dir)
    assert "TCP congestion control bbr" in (run_dir / "report.md").read_text()


def test_records_of_runs_over_nodes_carry_the_tcp_congestion_control(monkeypatch):
    from ordo_bench import runner
    monkeypatch.setattr(runner, "tcp_congestion", lambda: "cubic")
    rec = json.loads((FIXTURE / "results.jsonl").read_text().splitlines()[0])
    for key in ("launch", "sample_launches", "launches", "suite"):   # added by the runner
        rec.pop(key, None)
    res = runner.Launch(cmd=["x"], returncode=0, stdout=json.dumps(rec) + "\n", stderr="")
    one, = runner._records(res, "latency", nodes=1)
    two, = runner._records(res, "latency", nodes=2)
    assert "tcp_congestion" not in one["env"] and two["env"]["tcp_congestion"] == "cubic"
