"""Confidence intervals for the report: every figure and claim carries a
95% interval, from a percentile bootstrap over the trials of a point.

A point's trials come from several launches of its program (suite.py):
much of the spread between runs is fixed at launch (where memory and rings
land, which cores pair up), so trials of one launch are not independent of
each other.  The bootstrap is therefore two-level: launches are resampled,
then trials within each launch drawn (sample_launches in a record says
which launch each sample came from).

A value is the median of its trials; a ratio of two points is the ratio of
their medians, its interval from resampling each point's trials on its own.
A ratio whose interval holds 1 is "no difference measured".  The generator
is seeded, so a report redrawn from the same records shows the same
intervals."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LEVEL = 0.95
RESAMPLES = 4000
_SEED = 20140519            # fixed: the same records give the same intervals


def _rng() -> np.random.Generator:
    return np.random.default_rng(_SEED)


def _medians(samples: np.ndarray, rng: np.random.Generator,
             launches: np.ndarray | None = None) -> np.ndarray:
    """RESAMPLES bootstrap medians of samples; with launches (the launch of
    each sample), launches are resampled first, then samples within them."""
    groups = _groups(samples, launches)
    if groups is None:
        idx = rng.integers(0, len(samples), size=(RESAMPLES, len(samples)))
        return np.median(samples[idx], axis=1)
    sizes = {len(g) for g in groups}
    if len(sizes) == 1:                       # equal launches: all at once
        table = np.array(groups)              # launches x samples
        n, k = table.shape
        pick = rng.integers(0, n, size=(RESAMPLES, n, 1))
        within = rng.integers(0, k, size=(RESAMPLES, n, k))
        return np.median(table[pick, within].reshape(RESAMPLES, n * k), axis=1)
    out = np.empty(RESAMPLES)
    for i in range(RESAMPLES):
        chosen = rng.integers(0, len(groups), size=len(groups))
        pooled = np.concatenate([rng.choice(groups[c], size=len(groups[c])) for c in chosen])
        out[i] = np.median(pooled)
    return out


def _groups(samples: np.ndarray, launches: np.ndarray | None) -> list[np.ndarray] | None:
    if launches is None or len(launches) != len(samples) or len(set(launches.tolist())) < 2:
        return None
    return [samples[launches == k] for k in sorted(set(launches.tolist()))]


def launches_of(record: dict) -> np.ndarray | None:
    sl = record.get("sample_launches")
    return np.asarray(sl, int) if sl else None


def _bounds(draws: np.ndarray) -> tuple[float, float]:
    tail = (1 - LEVEL) / 2 * 100
    lo, hi = np.percentile(draws, [tail, 100 - tail])
    return float(lo), float(hi)


def samples_of(record: dict) -> np.ndarray:
    s = np.asarray(record.get("samples") or [], float)
    return s if len(s) else np.asarray([record["value"]], float)


def median_ci(record: dict) -> tuple[float, float]:
    """The 95% interval of a point's median (a single trial: no spread, the
    value itself at both ends)."""
    s = samples_of(record)
    if len(s) < 2:
        return float(s[0]), float(s[0])
    return _bounds(_medians(s, _rng(), launches_of(record)))


@dataclass(frozen=True)
class Ratio:
    value: float
    lo: float
    hi: float

    @property
    def differs(self) -> bool:
        """The interval excludes 1: a difference was measured."""
        return not (self.lo <= 1.0 <= self.hi)

    def text(self, digits: int = 2) -> str:
        return f"{self.value:.{digits}f}x [{self.lo:.{digits}f}, {self.hi:.{digits}f}]"


def ratio(a: dict, b: dict) -> Ratio:
    """median(a) / median(b) with its 95% interval."""
    sa, sb = samples_of(a), samples_of(b)
    value = float(np.median(sa) / np.median(sb))
    if len(sa) < 2 and len(sb) < 2:
        return Ratio(value, value, value)
    rng = _rng()
    draws = _medians(sa, rng, launches_of(a)) / _medians(sb, rng, launches_of(b))
    lo, hi = _bounds(draws)
    return Ratio(value, min(lo, value), max(hi, value))


def fmt(value: float) -> str:
    """Four significant digits, without a trailing exponent for the ranges
    benchmarks produce."""
    if value == 0:
        return "0"
    mag = abs(value)
    if mag >= 1000:
        return f"{value:,.0f}"
    if mag >= 1:
        return f"{value:.4g}"
    return f"{value:.3g}"


def value_text(record: dict) -> str:
    """"1.234 [1.200, 1.250]": the median and its 95% interval."""
    lo, hi = median_ci(record)
    return f"{fmt(record['value'])} [{fmt(lo)}, {fmt(hi)}]"
