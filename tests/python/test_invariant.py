"""More freedom is never slower: the report's check of every pair of series
that differ only in ordering mode or in blocking, per transport and size."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ordo_bench import invariant, report, suite
from ordo_bench.experiments import BY_ID

FIXTURE = Path(__file__).parent / "fixtures" / "quick"


def rec(order: str | None, samples: list[float], *, size: int = 8, variant: str = "put, shm",
        experiment: str = "ordering", impl: str = "ordo", np: int = 2, nodes: int = 1,
        lanes: str | None = None, metric: str = "rate_Mmsgps") -> dict:
    return {"experiment": experiment, "impl": impl, "paradigm": "one-sided", "variant": variant,
            "order": order, "np": np, "pairs": 1, "window": 16, "size": size, "metric": metric,
            "unit": "Mmsg/s", "value": sorted(samples)[len(samples) // 2], "samples": samples,
            "env": {"nodes": nodes, "cores": 2, "settings": {"ORDO_OFI_LANES": lanes}}}


def test_a_freer_mode_measured_slower_is_flagged_with_its_interval():
    recs = [rec("strict", [10.0, 10.1, 9.9, 10.0, 10.2, 9.8]),
            rec("default", [10.0, 10.1, 9.9, 10.1, 10.0, 9.9]),
            rec("relaxed", [5.0, 5.1, 4.9, 5.0, 5.2, 4.8])]
    cs = invariant.checks(recs)
    pairs = {(c.freer, c.stricter): c for c in cs}
    assert set(pairs) == {("relaxed", "default"), ("default", "strict"), ("relaxed", "strict")}
    assert pairs[("default", "strict")].verdict == "same"
    bad = invariant.violations(cs)
    assert sorted((c.freer, c.stricter) for c in bad) == [("relaxed", "default"),
                                                          ("relaxed", "strict")]
    assert bad[0].speedup.hi < 1 and "SLOWER" in bad[0].row()[-1]
    assert bad[0].transport == "shared memory" and bad[0].size == 8


def test_latency_is_better_lower_and_sizes_and_transports_stay_apart():
    fast, slow = [1.0, 1.01, 0.99, 1.0], [2.0, 2.01, 1.99, 2.0]
    recs = [rec("default", slow, metric="latency_us"), rec("relaxed", fast, metric="latency_us"),
            # another size and the network: never compared with the shm ones
            rec("strict", fast, size=64), rec("default", slow, size=64, nodes=2, lanes="4"),
            rec("relaxed", fast, np=1)]
    cs = invariant.checks(recs)
    assert len(cs) == 1 and cs[0].verdict == "faster" and cs[0].speedup.value > 1.9
    assert (cs[0].freer, cs[0].stricter) == ("relaxed", "default")
    assert invariant.transport(recs[3]) == "network, 4 lanes"
    assert invariant.transport(rec("relaxed", fast, nodes=2)) == "network, 1 lane"
    assert invariant.transport(recs[4]) == "self"


def test_non_blocking_is_checked_against_its_blocking_form_per_context():
    nb = [rec(o, [90.0, 91, 89, 90], experiment="shmem", variant="put-rate", impl="ordo-shmem")
          for o in (None, "relaxed")]
    bl = [rec(o, [100.0, 101, 99, 100], experiment="shmem", variant="put-rate-blocking",
              impl="ordo-shmem") for o in (None, "relaxed")]
    cs = [c for c in invariant.checks(nb + bl) if c.freer == "non-blocking"]
    assert len(cs) == 2 and all(c.verdict == "SLOWER" for c in cs)
    assert any("(relaxed)" in c.series for c in cs)
    # an MPI's records are none of ordo's business here
    assert invariant.checks([dict(r, impl="openmpi") for r in nb + bl]) == []


def test_too_few_trials_are_listed_never_flagged():
    recs = [rec("default", [10.0, 10.1]), rec("relaxed", [5.0, 5.1, 4.9, 5.0])]
    cs = invariant.checks(recs)
    assert cs and cs[0].verdict == "too few trials" and invariant.violations(cs) == []
    assert invariant.summary(cs)[0][5] == "1"


def test_oversubscribed_pairs_are_shown_but_not_flagged():
    recs = [rec("default", [10.0, 10.1, 9.9, 10.0], np=4),
            rec("relaxed", [5.0, 5.1, 4.9, 5.0], np=4)]
    cs = invariant.checks(recs)
    assert cs and cs[0].verdict == "SLOWER" and cs[0].oversubscribed
    assert invariant.violations(cs) == []


def test_the_report_says_where_freedom_cost(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(FIXTURE, run)
    path = run / "results.jsonl"
    extra = [rec("default", [10.0, 10.1, 9.9, 10.0]), rec("relaxed", [5.0, 5.1, 4.9, 5.0]),
             rec("strict", [10.0, 10.1, 9.9, 10.0], nodes=2, lanes="4", variant="put, network"),
             rec("relaxed", [30.0, 30.1, 29.9, 30.0], nodes=2, lanes="4", variant="put, network")]
    with open(path, "a") as f:
        for r in extra:
            f.write(json.dumps(r) + "\n")
    tables = report.write(run)
    md = (run / "report.md").read_text()
    assert "## More freedom is never slower" in md
    assert md.index("## Summary") < md.index("## More freedom") < md.index("## Claims")
    assert "1 pair(s) where more freedom measured slower" in md
    rows = tables["violations"][1]
    assert len(rows) == 1 and rows[0][0] == "shared memory" and "SLOWER" in rows[0][-1]
    transports = {row[0] for row in tables["invariant"][1]}
    assert {"shared memory", "network, 4 lanes"} <= transports
    assert "class=warn" in (run / "report.html").read_text()


def test_the_claims_put_shared_memory_and_the_network_side_by_side(tmp_path):
    recs = []
    for label, nodes, lanes in (("shm", 1, None), ("network, 1 lane", 2, "1"),
                                ("network, 4 lanes", 2, "4")):
        for order, v in (("strict", 1.0), ("default", 4.0), ("relaxed", 6.0)):
            recs.append(rec(order, [v, v * 1.01, v * 0.99], variant=f"put, {label}",
                            nodes=nodes, lanes=lanes))
    cl = [c for c in report.claims(recs) if c.claim.startswith("Relaxed vs")]
    names = [c.claim for c in cl]
    for words in ("shared memory", "network, 1 lane", "network, 4 lanes"):
        assert f"Relaxed vs strict ordering, put rate, {words}" in names
        assert f"Relaxed vs default ordering, put rate, {words}" in names
    strict = next(c for c in cl if c.claim.endswith("strict ordering, put rate, network, 4 lanes"))
    assert strict.interval and strict.interval[0] > 5 and "out of order" in strict.note


def test_the_ordering_experiment_runs_its_network_series_over_two_nodes(monkeypatch):
    exp = BY_ID["ordering"]
    steps, skipped = suite.plan([exp], "quick", ("ordo",), suite.Narrowing())
    assert not skipped
    nodes = {(s.job.label, s.job.nodes) for s in steps}
    assert nodes == {("self", 1), ("shm", 1), ("network, 1 lane", 2),
                     ("network, 4 lanes", 2)}
    calls = []
    monkeypatch.setattr(suite, "run_ordo",
                        lambda program, *args, **kw: calls.append((program, args, kw)) or [])
    # a run's --nodes 2 moves none of them: self and shm keep to one node
    # (one rank cannot be split; a network series labelled shm would lie)
    for narrow in (suite.Narrowing(), suite.Narrowing(nodes=2)):
        calls.clear()
        for s in steps:
            suite._launch_once(s, "quick", narrow, 10)
        by_label = {}
        for s, (program, args, kw) in zip(steps, calls):
            by_label[s.job.label] = kw
            assert program == "put_rate" and "--size" in args
        assert by_label["network, 4 lanes"]["nodes"] == 2
        assert by_label["network, 4 lanes"]["env"] == {"ORDO_OFI_LANES": "4"}
        assert by_label["shm"]["nodes"] == 1 and by_label["shm"]["np"] == 2
        assert by_label["self"]["nodes"] == 1 and by_label["self"]["np"] == 1
    # the paper suite sweeps 8 B to 4 MiB
    paper = BY_ID["ordering"].jobs[0].sizes["paper"]
    assert min(paper) == 8 and max(paper) == 4 << 20


def test_the_mpis_are_skipped_as_ordo_only_not_as_unwritten(monkeypatch):
    # the MPI builds of put_rate exist; ordering runs ordo's own series
    monkeypatch.setattr(suite, "mpi_binary", lambda impl, prog: (Path(__file__), "mpirun"))
    _, skipped = suite.plan([BY_ID["ordering"]], "quick", ("ordo", "openmpi"),
                            suite.Narrowing())
    reasons = [s["reason"] for s in skipped if s["impl"] == "openmpi"]
    assert reasons and all("ordo's own series" in r for r in reasons), reasons
    monkeypatch.setattr(suite, "mpi_binary",
                        lambda impl, prog: (Path("/nonexistent/put_rate.x"), "mpirun"))
    _, skipped = suite.plan([BY_ID["ordering"]], "quick", ("ordo", "openmpi"),
                            suite.Narrowing())
    assert any("is written" in s["reason"] for s in skipped)


def test_mpi_hints_pair_each_measure_with_its_hinted_form_per_library_and_transport():
    from ordo_bench import hints
    hinted, plain = [5.0, 5.1, 4.9, 5.0], [10.0, 10.1, 9.9, 10.0]

    def h(impl: str, variant: str, samples: list[float], **kw) -> dict:
        return rec(None, samples, experiment="hints", impl=impl, variant=variant, **kw)

    recs = [h("ordo-mpi", "isend", plain), h("ordo-mpi", "isend with overtake", hinted),
            # the network series (its label appended) pairs within itself
            h("ordo-mpi", "put, network, 4 lanes", plain, nodes=2, lanes="4"),
            h("ordo-mpi", "put with none, network, 4 lanes", plain, nodes=2, lanes="4"),
            # another MPI: reported, never an ordo violation
            h("mpich5", "isend", plain), h("mpich5", "isend with overtake", hinted),
            # a hinted form without its plain one pairs with nothing
            h("impi", "put with none", hinted)]
    cs = hints.checks(recs)
    got = {(c.series, c.transport, c.freer): c.verdict for c in cs}
    assert got == {("ordo-mpi isend", "shared memory", "overtake"): "SLOWER",
                   ("ordo-mpi put", "network, 4 lanes", "none"): "same",
                   ("mpich5 isend", "shared memory", "overtake"): "SLOWER"}
    bad = invariant.violations(invariant.checks(recs))
    assert [(c.series, c.freer, c.stricter) for c in bad] == [("ordo-mpi isend", "overtake",
                                                                "no hint")]
    assert hints.rows(cs)[0][-1] in ("slower", "same")


# The programs whose records the invariant pairs: each sweeps the ordering
# modes (or blocking forms, or a hint on and off) inside one launch.
PAIRED_PROGRAMS = ("put_rate", "fig2", "put_bw", "put_latency", "put_signal", "atomics",
                   "shmem_ops", "shmem_ops.ordo-shmem", "hints")


def test_every_suite_gives_paired_series_enough_trials_to_be_judged():
    from ordo_bench.experiments import EXPERIMENTS, LAUNCHES, SUITES
    seen = set()
    for name in SUITES:
        for e in EXPERIMENTS:
            for j in e.jobs:
                if j.program not in PAIRED_PROGRAMS or name not in j.suites:
                    continue
                opts = j.options(name)
                trials = int(opts[opts.index("--trials") + 1]) if "--trials" in opts else 1
                assert LAUNCHES[name] * trials >= invariant.MIN_TRIALS, (name, e.id, j)
                seen.add(j.program)
    assert seen == set(PAIRED_PROGRAMS)
    # and the list is whole: every experiment the invariant pairs series of
    # in a recorded run (or the program, where a record names its own) runs
    # one of them
    recs = [json.loads(line) for line in open(FIXTURE / "results.jsonl")]
    paired = {c.series.split()[0] for c in invariant.checks(recs)}
    assert paired
    for exp in paired:
        programs = {j.program for j in BY_ID[exp].jobs} if exp in BY_ID else {exp}
        assert programs & set(PAIRED_PROGRAMS), exp
