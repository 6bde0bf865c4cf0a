"""Confidence intervals: a ratio of two points whose trials overlap is "no
difference measured"; clearly apart, the interval excludes 1 and holds the
ratio of medians; the same records give the same intervals."""

from __future__ import annotations

import numpy as np
from ordo_bench import stats


def point(samples):
    return {"value": float(np.median(samples)), "samples": list(samples)}


def test_overlapping_trials_give_no_difference():
    a = point([1.00, 1.10, 0.95, 1.05, 0.98, 1.02, 1.07, 0.97, 1.01, 1.04])
    b = point([1.03, 0.99, 1.08, 0.96, 1.00, 1.06, 0.94, 1.02, 1.05, 0.98])
    r = stats.ratio(a, b)
    assert r.lo <= 1 <= r.hi and not r.differs


def test_separated_trials_give_a_difference_with_the_ratio_inside():
    a = point([2.0, 2.1, 1.9, 2.05, 1.95, 2.02, 1.98, 2.01, 2.03, 1.97])
    b = point([1.0, 1.05, 0.95, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1.0])
    r = stats.ratio(a, b)
    assert r.differs and r.lo <= r.value <= r.hi
    assert r.value == np.median(a["samples"]) / np.median(b["samples"])
    assert 1.8 < r.lo and r.hi < 2.3


def test_intervals_are_reproducible_and_hold_the_median():
    p = point([5.0, 6.0, 5.5, 7.0, 5.2, 5.9, 6.4])
    assert stats.median_ci(p) == stats.median_ci(p)
    lo, hi = stats.median_ci(p)
    assert lo <= p["value"] <= hi and lo >= 5.0 and hi <= 7.0


def test_one_trial_has_no_spread():
    p = point([3.0])
    assert stats.median_ci(p) == (3.0, 3.0)
    assert stats.ratio(p, point([1.5])).text() == "2.00x [2.00, 2.00]"


def test_launch_to_launch_spread_widens_the_interval():
    """Two launches that disagree (as two runs of one machine can) give an
    interval that spans both, where trials alone would look precise."""
    tight_a = [4.0, 4.01, 3.99, 4.02, 3.98]
    tight_b = [7.0, 7.01, 6.99, 7.02, 6.98]
    flat = point(tight_a + tight_b)
    nested = dict(flat, sample_launches=[0] * 5 + [1] * 5)
    lo_flat, hi_flat = stats.median_ci(flat)
    lo, hi = stats.median_ci(nested)
    assert lo <= 4.02 and hi >= 6.98
    assert (hi - lo) >= (hi_flat - lo_flat)


def test_merged_launches_pool_samples_and_recompute_statistics():
    from ordo_bench.runner import merge_launches
    env = {"library": "x", "cpu": "x", "cores": 2, "kernel": "x", "host": "x",
           "binding": "core", "bindings": ["0", "1"], "settings": {}}

    def rec(samples, variant="a", value=True):
        return {"schema": "ordo-bench/1", "experiment": "latency", "impl": "ordo",
                "paradigm": "two-sided", "variant": variant, "order": None, "np": 2,
                "pairs": 1, "window": 1, "size": 8, "metric": "latency_us", "unit": "us",
                "iters": 10, "warmup": 1, "timestamp": "t", "build": {"commit": "c",
                "compiler": "cc", "flags": ""}, "env": env,
                "value": float(np.median(samples)) if value else None,
                "stats": {"median": 0, "min": 0, "max": 0, "mean": 0, "p99": 0,
                          "trials": len(samples)} if value else None,
                "samples": samples if value else [],
                **({} if value else {"skipped": "why"})}
    (m, s) = merge_launches([[rec([1.0, 2.0]), rec([], "b", False)],
                             [rec([3.0, 4.0]), rec([], "b", False)]])
    assert m["samples"] == [1.0, 2.0, 3.0, 4.0] and m["sample_launches"] == [0, 0, 1, 1]
    assert m["value"] == 2.5 and m["stats"]["trials"] == 4 and m["launches"] == 2
    assert m["stats"]["min"] == 1.0 and m["stats"]["p99"] == float(np.percentile(
        [1, 2, 3, 4], 99))
    assert s["value"] is None and s["skipped"] == "why"
