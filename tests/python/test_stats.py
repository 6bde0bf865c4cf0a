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
