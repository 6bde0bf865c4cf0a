"""More freedom is never slower: a relaxed stream may do anything a default
one does, and a default one anything a strict one does; a non-blocking
operation anything its blocking form does.  So relaxed >= default >= strict
and non-blocking >= blocking, in rate and bandwidth (<= in time), on every
transport and at every size.  Checked here on every run: each pair of series
that differ only in that freedom, at each size, as a ratio with its 95%
interval; a pair whose whole interval says the freer one was slower is
flagged."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from . import figures, stats
from .claims import measured, oversubscribed
from .mpis import ORDO_MPI

# (freer, stricter) ordering modes; relaxed against strict too, which a run
# narrowed to those two (--order) still checks
FREER_ORDER = (("relaxed", "default"), ("default", "strict"), ("relaxed", "strict"))
# (experiment, non-blocking variant) -> its blocking form
BLOCKING_FORM = {("shmem", "put-rate"): "put-rate-blocking"}
ORDO_IMPLS = ("ordo", "ordo-shmem")


def transport(r: dict) -> str:
    """Where a record's operations went: self (one rank), shared memory, or
    the network with its lane count."""
    env = r.get("env") or {}
    if (env.get("nodes") or 1) > 1:
        lanes = (env.get("settings") or {}).get("ORDO_OFI_LANES") or "1"
        return f"network, {lanes} lane{'' if lanes == '1' else 's'}"
    return "self" if r.get("np") == 1 else "shared memory"


def _base_variant(r: dict) -> str:
    """The variant without the job label the suite appended ("put, shm")."""
    return (r.get("variant") or "").split(",")[0]


@dataclass
class Check:
    transport: str
    series: str            # experiment, impl, variant (and window)
    size: int
    freer: str
    stricter: str
    speedup: stats.Ratio   # of the freer form: > 1 faster
    oversubscribed: bool

    few: bool = False      # too few trials on a side for an interval to mean anything

    @property
    def verdict(self) -> str:
        if self.few:
            return "too few trials"
        if not self.speedup.differs:
            return "same"
        return "faster" if self.speedup.value > 1 else "SLOWER"

    def row(self) -> list[str]:
        return [self.transport, self.series, str(self.size), f"{self.freer} vs {self.stricter}",
                self.speedup.text(), self.verdict + (" (oversubscribed)"
                                                     if self.oversubscribed else "")]


COLUMNS = ["transport", "series", "size (B)", "freer vs stricter", "speed-up (95% CI)",
           "verdict"]


# A bootstrap interval from fewer trials than this is no interval: such a
# pair is listed, never flagged (the paper suite's 10 launches give 10).
MIN_TRIALS = 4


def _few(a: dict, b: dict) -> bool:
    return min(len(stats.samples_of(a)), len(stats.samples_of(b))) < MIN_TRIALS


def _speedup(free: dict, strict: dict) -> stats.Ratio:
    higher = figures.METRICS.get(free["metric"], ("", "", "higher"))[2] != "lower"
    return stats.ratio(free, strict) if higher else stats.ratio(strict, free)


def checks(records: list[dict]) -> list[Check]:
    """Every pair of ordo's series that differ only in one freedom, at every
    size both measured."""
    recs = [r for r in measured(records) if r["impl"] in ORDO_IMPLS]

    def key(r: dict, order: str | None, variant: str | None) -> tuple:
        return (r["experiment"], r["impl"], variant, order, r["size"], r.get("window"),
                r.get("pairs"), r["np"], r["metric"], transport(r))

    index = {key(r, r.get("order"), r.get("variant")): r for r in recs}
    out = []
    for r in recs:
        t = transport(r)
        where = f"{r['experiment']} {r['impl']} {r.get('variant') or r.get('paradigm')}" + \
            (f" W={r['window']}" if (r.get("window") or 1) > 1 else "")
        over = oversubscribed(r)
        for free, strict in FREER_ORDER:
            if r.get("order") != free:
                continue
            other = index.get(key(r, strict, r.get("variant")))
            if other:
                out.append(Check(t, where, r["size"], free, strict, _speedup(r, other),
                                 over or oversubscribed(other), _few(r, other)))
        blocking = BLOCKING_FORM.get((r["experiment"], _base_variant(r)))
        if blocking:
            label = (r.get("variant") or "")[len(_base_variant(r)):]
            other = index.get(key(r, r.get("order"), blocking + label))
            if other:
                mode = f" ({r['order']})" if r.get("order") else ""
                out.append(Check(t, where + mode, r["size"], "non-blocking", "blocking",
                                 _speedup(r, other), over or oversubscribed(other),
                                 _few(r, other)))
    # MPI's ordering hints on ordo's MPI are freedoms too (hints.py)
    from . import hints
    out += hints.checks(records, (ORDO_MPI,))
    out.sort(key=lambda c: (c.transport, c.series, c.size, c.freer))
    return out


def violations(cs: list[Check]) -> list[Check]:
    """The pairs where the freer form measured slower beyond its interval
    (oversubscribed runs say nothing about speed and are left out)."""
    return [c for c in cs if c.verdict == "SLOWER" and not c.oversubscribed]


def summary(cs: list[Check]) -> list[list[str]]:
    """One row per transport: pairs checked, how many the freer form won,
    tied and lost, and the worst speed-up with its size and series."""
    by: dict[str, list[Check]] = defaultdict(list)
    for c in cs:
        by[c.transport].append(c)
    rows = []
    for t in sorted(by):
        mine = by[t]
        worst = min(mine, key=lambda c: c.speedup.value)
        count = {v: sum(1 for c in mine if c.verdict == v)
                 for v in ("faster", "same", "SLOWER", "too few trials")}
        rows.append([t, str(len(mine)), str(count["faster"]), str(count["same"]),
                     str(count["SLOWER"]), str(count["too few trials"]),
                     f"{worst.speedup.text()} at {worst.size} B ({worst.series}, "
                     f"{worst.freer} vs {worst.stricter})"])
    return rows


SUMMARY_COLUMNS = ["transport", "pairs checked", "freer faster", "no difference measured",
                   "freer SLOWER", f"too few trials (< {MIN_TRIALS})",
                   "worst speed-up of the freer form"]
